// Must not compile with ASSAY_COMPILE_FAIL: a one_of<> made from a literal it does not allow.
// Without the macro the literal is allowed and the file compiles.
// expect-error: constraint_violated_in_constant_expression
#include "assay/reflect/constraints.hpp"

int main() {
#ifdef ASSAY_COMPILE_FAIL
  assay::one_of<"a", "b"> v = "c";
#else
  assay::one_of<"a", "b"> v = "b";
#endif
  return v == "b" ? 0 : 1;
}
