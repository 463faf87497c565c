// Must not compile with ASSAY_COMPILE_FAIL: a struct with two extra_members members (which one
// would an undeclared member go to?).
// expect-error: at most one extra_members member
#include "assay/reflect/codec.hpp"

#include <string>

struct open_object {
  std::string name;
  assay::extra_members<"x-"> extensions;
#ifdef ASSAY_COMPILE_FAIL
  assay::extra_members<> rest;
#endif
};

int main() {
  return assay::decode<open_object>(R"({"name":"n","x-a":1})").has_value() ? 0 : 1;
}
