// A consumer of assay's core (json/, reflect/, contracts/): Boost headers only.
#include "assay/json/canonical.hpp"

#include <cstdio>

int main() {
  auto jcs = assay::json::canonicalize(R"({"b": 1.50, "a": [true, null]})");
  if (!jcs || *jcs != R"({"a":[true,null],"b":1.5})")
    return 1;
  std::puts(jcs->c_str());
  return 0;
}
