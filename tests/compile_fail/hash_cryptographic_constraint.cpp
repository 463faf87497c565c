// Must not compile with ASSAY_COMPILE_FAIL: a function constrained on cryptographic_hash does
// not accept an xxh3 digest. Without the macro the file compiles.
// expect-error: policy_is_cryptographic
#include "assay/hash/hash.hpp"

namespace {
template <assay::hash::cryptographic_hash P>
int seal(const assay::hash::digest<P>& d) {
  return static_cast<int>(d.bytes()[0]);
}
}  // namespace

int main() {
  using namespace assay::hash;
#ifdef ASSAY_COMPILE_FAIL
  return seal(digest_bytes<xxh3_64>("payload"));
#else
  return seal(digest_bytes<blake2b_512>("payload"));
#endif
}
