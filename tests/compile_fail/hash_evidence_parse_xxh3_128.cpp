// Must not compile with ASSAY_COMPILE_FAIL: an xxh3-128 digest string cannot be parsed as an
// evidence digest (non-cryptographic policy). Without the macro the file compiles.
// expect-error: policy_is_cryptographic
#include "assay/hash/hash.hpp"

int main() {
  using namespace assay::hash;
#ifdef ASSAY_COMPILE_FAIL
  auto r = evidence_digest<xxh3_128>::parse("xxh3-128:99aa06d3014798d86001c324468d497f");
#else
  auto r = evidence_digest<sha512>::parse("sha512:00");
#endif
  return r.has_value() ? 0 : 1;
}
