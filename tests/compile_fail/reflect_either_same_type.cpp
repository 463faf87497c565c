// Must not compile with ASSAY_COMPILE_FAIL: either<A, B> whose alternatives have the same JSON
// type (two strings) could not tell them apart when decoding.
// expect-error: A and B must have different JSON types
#include "assay/reflect/codec.hpp"

#include <string>

struct choice {
#ifdef ASSAY_COMPILE_FAIL
  assay::either<std::string, assay::non_empty> value;
#else
  assay::either<std::string, bool> value;
#endif
};

int main() {
  return assay::decode<choice>(R"({"value":true})").has_value() ? 0 : 1;
}
