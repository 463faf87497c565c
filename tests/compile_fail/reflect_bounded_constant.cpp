// Must not compile with ASSAY_COMPILE_FAIL: a constant outside the bounds of its bounded<> type.
// Without the macro the constant is inside the bounds and the file compiles.
// expect-error: constraint_violated_in_constant_expression
#include "assay/reflect/constraints.hpp"

#ifdef ASSAY_COMPILE_FAIL
constexpr assay::bounded<int, 1> x{0};
#else
constexpr assay::bounded<int, 1> x{1};
#endif
constexpr assay::bounded<double, 0, 1> rate{0.5};

int main() {
  return x.value() - 1 + static_cast<int>(rate.value() * 2) - 1;
}
