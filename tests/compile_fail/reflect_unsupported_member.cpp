// Must not compile with ASSAY_COMPILE_FAIL: encoding a struct with a member type that has no JSON
// form (a raw pointer). Without the macro the member is a value and the file compiles.
// The first error line names the member and its type.
// expect-error: member_has_no_json_form
// clang-format off
// expect-first-error: member_has_no_json_form<assay::diagnostics::at<assay::diagnostics::path<7>{"/count"}>, const int*>
// expect-first-error: member_has_no_json_form<assay::diagnostics::at<'/', 'c', 'o', 'u', 'n', 't'>, const int *>
// clang-format on
#include "assay/reflect/codec.hpp"

#include <string>

struct event {
  std::string name;
#ifdef ASSAY_COMPILE_FAIL
  const int* count;
#else
  int count;
#endif
};

int main() {
  return assay::encode(event{"e", {}}).has_value() ? 0 : 1;
}
