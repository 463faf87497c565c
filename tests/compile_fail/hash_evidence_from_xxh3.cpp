// Must not compile with ASSAY_COMPILE_FAIL: a digest computed with xxh3 does not convert to an
// evidence digest. Without the macro the file compiles.
// expect-error: use of deleted function
// expect-error: invokes a deleted function
#include "assay/hash/hash.hpp"

int main() {
  using namespace assay::hash;
#ifdef ASSAY_COMPILE_FAIL
  evidence_digest<> e = digest_bytes<xxh3_64>("payload");
#else
  evidence_digest<> e = digest_bytes<sha256>("payload");
#endif
  return static_cast<int>(e.bytes()[0]);
}
