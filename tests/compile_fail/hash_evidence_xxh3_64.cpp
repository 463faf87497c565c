// Must not compile with ASSAY_COMPILE_FAIL: evidence_digest needs a cryptographic policy, and
// xxh3-64 is not one (SPEC §3). Without the macro the file compiles.
// expect-error: policy_is_cryptographic
#include "assay/hash/hash.hpp"

int main() {
  using namespace assay::hash;
#ifdef ASSAY_COMPILE_FAIL
  [[maybe_unused]] evidence_digest<xxh3_64> e;
#else
  [[maybe_unused]] evidence_digest<sha256> e;
#endif
  return 0;
}
