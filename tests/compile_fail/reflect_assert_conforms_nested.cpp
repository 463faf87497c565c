// Must not compile with ASSAY_COMPILE_FAIL: a struct whose nested item has a string where the
// contract has an integer, in static_assert(assert_conforms). The first error line names the
// member's pointer and both JSON types. Without the macro the struct conforms.
// expect-error: does_not_conform
// clang-format off
// expect-first-error: does_not_conform<assay::diagnostics::at<assay::diagnostics::path<11>{"/items/*/n"}>, assay::diagnostics::expected_but_found<assay::diagnostics::an_integer, assay::diagnostics::a_string> >
// expect-first-error: does_not_conform<assay::diagnostics::at<'/', 'i', 't', 'e', 'm', 's', '/', '*', '/', 'n'>, assay::diagnostics::expected_but_found<assay::diagnostics::an_integer, assay::diagnostics::a_string>>
// clang-format on
#include "assay/reflect/conform.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct item {
  assay::non_empty name;
  std::int64_t n;
};
struct contract {
  assay::const_string<"c-v1"> schema_version;
  std::vector<item> items;
};

struct my_item {
  std::string name;
#ifdef ASSAY_COMPILE_FAIL
  std::string n;
#else
  int n;
#endif
};
struct my_report {
  std::string schema_version;
  std::vector<my_item> items;
};

static_assert(assay::assert_conforms<my_report, contract>);

int main() {}
