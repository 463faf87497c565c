// Must not compile with ASSAY_COMPILE_FAIL: a struct that does not have the contract's shape
// (its "runs" is a string where the contract has an integer) in static_assert(conforms_to).
// Without the macro the conforming struct is checked and the file compiles.
// expect-error: my_report must have the shape of the contract
#include "assay/reflect/conform.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <optional>
#include <string>

struct contract {
  assay::const_string<"c-v1"> schema_version;
  assay::bounded<std::int64_t, 1> runs;
  std::optional<assay::non_empty> note{};
};

#ifdef ASSAY_COMPILE_FAIL
struct my_report {
  std::string schema_version;
  std::string runs;
  std::optional<std::string> note{};
};
#else
struct my_report {
  std::string schema_version;
  long runs;
  std::optional<std::string> note{};
};
#endif

static_assert(assay::conforms_to<my_report, contract>, "my_report must have the shape of the contract");

int main() {
  return 0;
}
