// A consumer of the whole library: hash/ links Botan and xxHash.
#include "assay/hash/hash.hpp"
#include "assay/json/value.hpp"

#include <cstdio>

int main() {
  auto d = assay::hash::digest_string_of("sha256", assay::json::parse("{}").value());
  if (!d || *d != "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
    return 1;
  std::puts(d->c_str());
  return 0;
}
