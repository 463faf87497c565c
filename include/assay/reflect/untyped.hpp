// assay/reflect/untyped.hpp — members whose value is untyped JSON: json::value, and the members
// a struct does not declare (extra_members). The one place where typed decoding and encoding
// use the DOM (json/value.hpp); a contract without such members does not need this header.
//
// Also the conveniences that go through a DOM: from_value() and encode_pretty().
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/decode.hpp"
#include "assay/reflect/encode.hpp"
#include "assay/reflect/metadata.hpp"

#include <map>
#include <string>
#include <string_view>

namespace assay {

// Undeclared members (see constraints.hpp): kept by name, their values as they are.
template <fixed_string Prefix>
struct extra_members : std::map<std::string, json::value> {
  static constexpr std::string_view prefix = Prefix.view();
  static constexpr bool accepts(std::string_view name) noexcept { return name.substr(0, prefix.size()) == prefix; }
  using std::map<std::string, json::value>::map;
};

}  // namespace assay

namespace assay::reflect {

// json::value members: read as the DOM reads them, written canonically.
template <>
struct untyped_codec<json::value> {
  template <class Cursor>  // json::cursor or json::node_cursor
  static bool read(Cursor& c, json::value& out) {
    using json::read_value;  // json::node_cursor's is found by argument-dependent lookup
    return read_value(c, out);
  }
  template <class W>
  static result<void> write(W& w, const json::value& v) {
    return json::write_canonical(w, v);
  }
};

}  // namespace assay::reflect

namespace assay {

// Decodes a DOM value into T (through its canonical bytes).
template <class T>
results<T> from_value(const json::value& v) {
  auto text = json::to_canonical(v);
  if (!text)
    return errors(text.error());
  return decode<T>(*text);
}

// Indented JSON for people (members in canonical order).
template <class T>
results<std::string> encode_pretty(const T& v) {
  auto c = encode(v);
  if (!c)
    return c.error();
  auto dom = json::parse(*c);
  if (!dom)
    return errors(dom.error());
  return json::to_pretty(*dom);
}

}  // namespace assay
