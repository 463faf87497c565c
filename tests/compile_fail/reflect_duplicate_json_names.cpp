// Must not compile with ASSAY_COMPILE_FAIL: a rename through field_info gives two members the
// same JSON name. Without the macro the names are distinct and the file compiles.
// expect-error: JSON member names must be unique
#include "assay/reflect/codec.hpp"

#include <string>

struct manifest {
  std::string x_assay;
  std::string extensions;
  static constexpr assay::field_info assay_fields[] = {
      {.field = "x_assay", .json_name = "x-assay"},
#ifdef ASSAY_COMPILE_FAIL
      {.field = "extensions", .json_name = "x-assay"},
#else
      {.field = "extensions", .json_name = "x-extensions"},
#endif
  };
};

int main() {
  return assay::decode<manifest>(R"({"x-assay":"a","x-extensions":"b"})").has_value() ? 0 : 1;
}
