// Must not compile with ASSAY_COMPILE_FAIL: passing an xxh3-128 digest where an evidence digest
// is expected. Without the macro the file compiles.
// expect-error: use of deleted function
// expect-error: invokes a deleted function
#include "assay/hash/hash.hpp"

namespace {
int record(const assay::hash::evidence_digest<>& d) {
  return static_cast<int>(d.bytes()[0]);
}
}  // namespace

int main() {
  using namespace assay::hash;
#ifdef ASSAY_COMPILE_FAIL
  return record(digest_bytes<xxh3_128>("payload"));
#else
  return record(digest_bytes<sha256>("payload"));
#endif
}
