// Must not compile with ASSAY_COMPILE_FAIL: an assay_fields entry names a member the struct does
// not have (a typo: "sute" for "suite"). Without the macro the name is right and it compiles.
// expect-error: assay_fields names a member the struct does not have
#include "assay/reflect/codec.hpp"

#include <optional>
#include <string>

struct report {
  std::optional<std::string> suite{};
  int runs = 0;
  static constexpr assay::field_info assay_fields[] = {
#ifdef ASSAY_COMPILE_FAIL
      {.field = "sute", .description = "Optional tier/name."},
#else
      {.field = "suite", .description = "Optional tier/name."},
#endif
  };
};

int main() {
  return assay::encode(report{}).has_value() ? 0 : 1;
}
