// Must not compile with ASSAY_COMPILE_FAIL: an enumeration mapped by one_of<>::of() where one of
// its names is not an allowed value (a contract and an engine that drifted apart).
// Without the macro every name is allowed and the file compiles.
// expect-error: constraint_violated_in_constant_expression
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <string_view>

namespace engine {
enum class level : std::uint8_t { low, high };
constexpr std::string_view name(level l) noexcept {
#ifdef ASSAY_COMPILE_FAIL
  return l == level::high ? "critical" : "low";
#else
  return l == level::high ? "high" : "low";
#endif
}
}  // namespace engine

int main() {
  const auto v = assay::one_of<"low", "high">::of(engine::level::high);
  return v == "high" ? 0 : 1;
}
