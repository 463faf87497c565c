// Must not compile with ASSAY_COMPILE_FAIL: digests of different policies are different types
// and never compare. Without the macro the file compiles.
// expect-error: no match for 'operator=='
// expect-error: invalid operands to binary expression
#include "assay/hash/hash.hpp"

int main() {
  using namespace assay::hash;
  const auto a = digest_bytes<sha256>("payload");
#ifdef ASSAY_COMPILE_FAIL
  const auto b = digest_bytes<sha512>("payload");
#else
  const auto b = digest_bytes<sha256>("payload");
#endif
  return a == b ? 0 : 1;
}
