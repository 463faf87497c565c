// Must not compile with ASSAY_COMPILE_FAIL: a struct with a constructor is no aggregate, so it
// has no members to compare; the first error line says so. Without the macro it is a plain
// struct and conforms.
// expect-error: does_not_conform
// clang-format off
// expect-first-error: does_not_conform<assay::diagnostics::at<assay::diagnostics::path<1>{""}>, assay::diagnostics::not_a_plain_struct>
// expect-first-error: does_not_conform<assay::diagnostics::at<>, assay::diagnostics::not_a_plain_struct>
// clang-format on
#include "assay/reflect/conform.hpp"
#include "assay/reflect/constraints.hpp"

#include <string>

struct contract {
  assay::non_empty name;
};

struct mine {
#ifdef ASSAY_COMPILE_FAIL
  explicit mine(std::string n) : name(std::move(n)) {}
#endif
  std::string name;
};

static_assert(assay::assert_conforms<mine, contract>);

int main() {}
