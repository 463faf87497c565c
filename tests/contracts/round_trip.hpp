// A canonical document of a contract round-trips byte for byte through its type: decode, encode,
// and decode of another spelling of the same document.
#pragma once

#include "support.hpp"

#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"

#include <string>

namespace assay_test {

template <class T>
void round_trips(const std::string& canonical_bytes) {
  // The documents are written in canonical form.
  auto c = assay::json::canonicalize(canonical_bytes);
  REQUIRE(c.has_value());
  REQUIRE(*c == canonical_bytes);
  auto v = assay::decode<T>(canonical_bytes);
  if (!v)
    FAIL(v.error().format());
  auto e = assay::encode(*v);
  if (!e)
    FAIL(e.error().format());
  CHECK(*e == canonical_bytes);
  // Any other spelling of the same document decodes to the same value.
  auto pretty = assay::json::to_pretty(assay::json::parse(canonical_bytes).value());
  auto p = assay::decode<T>(pretty);
  REQUIRE(p.has_value());
  CHECK(assay::encode(*p).value() == canonical_bytes);
  CHECK(assay::validate(*v).has_value());
}

}  // namespace assay_test
