// Must not compile with ASSAY_COMPILE_FAIL: encoding a struct with a member type that has no JSON
// form (a raw pointer). Without the macro the member is a value and the file compiles.
// expect-error: this type cannot be mapped to JSON
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
