// assay/lint/literal.hpp — JSON values as lint compares them (docs/packs.md): integers and
// non-integers are distinct kinds, and values are printed the way the reference prints them.
//
// A pack's `value_equals` and a conditional clause's `equals` become a `literal` from the pack
// tree (pack_document.hpp), so `1`, `1.0` and `"1"` stay three different things. An event's
// value is read from its parsed line (json::document), its numbers typed by how they were
// written: digits only (within 64 bits, and not `-0`) is an integer, anything else a float.
//
//   literal want = literal::of(check_node);                 // from the pack tree
//   bool same = equals(event.doc, event.line, node, want);  // against a value of an event
//   want.text();                                            // "1.0", "\"a\"", {"k":[1,true]}
#pragma once

#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/lint/pack_document.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

class literal {
 public:
  enum class kind : std::uint8_t { null, boolean, integer, floating, string, array, object };

  kind type = kind::null;
  bool flag = false;            // boolean
  double number = 0;            // integer (its value, rounded past 2^53) and floating
  std::uint64_t magnitude = 0;  // integer: exactly (as the reference's JSON numbers: u64 or i64)
  bool negative = false;        // integer: below zero (-0 is 0)
  std::string text_{};          // string
  std::string source{};         // integer, and floating read from digits only: the scalar as written
  std::vector<literal> items{};
  std::vector<std::pair<std::string, literal>> members{};  // object, in written order

  // The value of a pack tree node, typed by the YAML 1.2 core schema as the reference types it:
  // a plain scalar that reads as an integer (or carries !!int) is an integer, one that reads as a
  // float a float; quoted scalars are strings.
  static literal of(const pack_node& n) {
    literal out;
    if (n.is_sequence()) {
      out.type = kind::array;
      for (const pack_node& item : n.items)
        out.items.push_back(of(item));
      return out;
    }
    if (n.is_mapping()) {
      out.type = kind::object;
      for (std::size_t i = 0; i < n.keys.size(); ++i)
        out.members.emplace_back(n.keys[i], of(n.items[i]));
      return out;
    }
    auto typed = yaml_scalar::typed(n);
    if (!typed) {  // refused at load; not reached for a loaded pack
      out.type = kind::string;
      out.text_ = n.text;
      return out;
    }
    const json::value& v = *typed;
    switch (v.kind()) {
      case json::kind::null:
        break;
      case json::kind::boolean:
        out.type = kind::boolean;
        out.flag = v.as_bool();
        break;
      case json::kind::number: {
        double d = 0;
        const bool int_tag = n.tag == "tag:yaml.org,2002:int";
        const bool float_tag = n.tag == "tag:yaml.org,2002:float";
        out.type = !float_tag && (int_tag || yaml_scalar::parse_integer(n.text, d)) ? kind::integer : kind::floating;
        out.number = v.as_number();
        if (out.type == kind::integer)
          yaml_scalar::parse_integer_exact(n.text, out.magnitude, out.negative);
        if (!float_tag)
          out.source = n.text;
        break;
      }
      case json::kind::string:
        out.type = kind::string;
        out.text_ = v.as_string();
        break;
      default:
        break;
    }
    return out;
  }

  bool is_scalar() const noexcept { return type != kind::array && type != kind::object; }

  // Compact JSON as the reference prints a value in a message: members in written order, floats
  // in their shortest form with ".0" when whole (1.0, 0.5, 1e20, 1.5e-7).
  std::string text() const {
    std::string out;
    write(out);
    return out;
  }

  void write(std::string& out) const {
    switch (type) {
      case kind::null:
        out += "null";
        return;
      case kind::boolean:
        out += flag ? "true" : "false";
        return;
      case kind::integer: {
        if (integer_text(out, false))
          return;
        // Not from a scalar's digits (not reached for a loaded pack): the value, when a 64-bit
        // integer holds it, else as a float.
        char buf[32];
        if (number >= -9223372036854775808.0 && number < 0) {
          out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(number)).ptr);
        } else if (number >= 0 && number < 18446744073709551616.0) {
          out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<std::uint64_t>(number)).ptr);
        } else {
          out += float_text(number);
        }
        return;
      }
      case kind::floating:
        if (!integer_text(out, true))
          out += float_text(number);
        return;
      case kind::string: {
        json::string_writer w{&out};
        json::write_string(w, text_);
        return;
      }
      case kind::array:
        out += '[';
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (i != 0)
            out += ',';
          items[i].write(out);
        }
        out += ']';
        return;
      case kind::object:
        out += '{';
        for (std::size_t i = 0; i < members.size(); ++i) {
          if (i != 0)
            out += ',';
          json::string_writer w{&out};
          json::write_string(w, members[i].first);
          out += ':';
          members[i].second.write(out);
        }
        out += '}';
        return;
    }
  }

  // An integer as written in `source` ([+|-] digits, or 0x, 0o, 0b forms): exactly its value when
  // an i64 or a u64 holds it (a double would round it: 2^64 - 1 is not 2^64), else, for decimal digits, the
  // digits as written (a value past 64 bits is printed as it is, never cut or rounded). With
  // `only_past_64_bits`, only the latter (a float written as digits). False when `source` is not
  // such an integer.
  bool integer_text(std::string& out, bool only_past_64_bits) const {
    std::string_view t = source;
    bool minus = false;
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
      minus = t[0] == '-';
      t.remove_prefix(1);
    }
    int radix = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b')) {
      radix = t[1] == 'x' ? 16 : t[1] == 'o' ? 8 : 2;
      t.remove_prefix(2);
    }
    if (t.empty())
      return false;
    for (const char c : t) {
      const bool ok = radix == 16 ? ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
                                  : (c >= '0' && c < static_cast<char>('0' + radix));
      if (!ok)
        return false;
    }
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, radix);
    const bool read = ec == std::errc() && end == t.data() + t.size();
    if (read && (!minus || v <= (std::uint64_t{1} << 63))) {  // an i64 or a u64
      if (only_past_64_bits)
        return false;
      if (minus && v != 0)
        out += '-';
      char buf[32];
      out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
      return true;
    }
    if ((!read && ec != std::errc::result_out_of_range) || radix != 10)
      return false;
    if (minus)
      out += '-';
    out += t;
    return true;
  }

  // A float as the reference prints it: the shortest digits that read back, as a decimal when
  // the exponent is small (up to 16 integer digits, down to 5 leading zeros after the point) and
  // as d.ddde±x otherwise; a whole number keeps ".0".
  static std::string float_text(double d) {
    if (!std::isfinite(d))
      return "null";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string_view s(buf, static_cast<std::size_t>(r.ptr - buf));
    std::string out;
    if (s.front() == '-') {
      out += '-';
      s.remove_prefix(1);
    }
    const std::size_t e = s.find('e');
    std::string digits;
    for (char c : s.substr(0, e))
      if (c != '.')
        digits += c;
    int exp10 = 0;
    std::from_chars(s.data() + e + 1 + (s[e + 1] == '+' ? 1 : 0), s.data() + s.size(), exp10);
    if (digits == "0")
      return out + "0.0";
    const int length = static_cast<int>(digits.size());
    const int kk = exp10 + 1;  // the position of the decimal point after the first digit
    if (length <= kk && kk <= 16) {
      out += digits;
      out.append(static_cast<std::size_t>(kk - length), '0');
      out += ".0";
    } else if (0 < kk && kk <= 16) {
      out += digits.substr(0, static_cast<std::size_t>(kk));
      out += '.';
      out += digits.substr(static_cast<std::size_t>(kk));
    } else if (-5 < kk && kk <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-kk), '0');
      out += digits;
    } else {
      out += digits.substr(0, 1);
      if (length > 1) {
        out += '.';
        out += digits.substr(1);
      }
      out += 'e';
      out += std::to_string(kk - 1);
    }
    return out;
  }
};

// --- values of an event --------------------------------------------------------------------------

// The text of the number at node `i` of `doc` (parsed from `text`): kept by the document when
// already canonical, else found by walking the text to the i-th value (nodes are the values and
// member names in document order; only numbers written in another form come here).
inline std::string_view number_text(const json::document& doc, std::string_view text, std::size_t i) {
  const json::document::node& n = doc.nodes()[i];
  if (n.flag)
    return text.substr(static_cast<std::size_t>(n.payload), n.count);
  std::size_t node = 0;
  std::size_t p = 0;
  while (p < text.size()) {
    const char c = text[p];
    if (c == '"') {
      if (node++ == i)
        return {};
      for (++p; p < text.size() && text[p] != '"'; p += text[p] == '\\' ? 2u : 1u) {
      }
      ++p;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t begin = p;
      while (p < text.size() && (text[p] == '-' || text[p] == '+' || text[p] == '.' || text[p] == 'e' ||
                                 text[p] == 'E' || (text[p] >= '0' && text[p] <= '9')))
        ++p;
      if (node++ == i)
        return text.substr(begin, p - begin);
    } else if (c == '{' || c == '[' || c == 't' || c == 'f' || c == 'n') {
      if (node++ == i)
        return {};
      for (++p; p < text.size() && text[p] >= 'a' && text[p] <= 'z'; ++p) {
      }
    } else {
      ++p;
    }
  }
  return {};
}

// The number at node `i` as the reference's JSON reads it (serde_json): digits only, within
// 2^64 - 1, is an unsigned integer; '-' and digits within 2^63 a negative one; anything else
// ("-0", a '.', an exponent, more digits) a float. Integers compare exactly, floats as doubles.
inline literal event_number(const json::document& doc, std::string_view text, std::size_t i) {
  literal out;
  out.type = literal::kind::floating;
  out.number = doc.number_at(i);
  // A number the document did not keep as written was written with a '.', an exponent, as "-0" or
  // with more digits than a double holds: only a whole one from 2^53 to 2^64 may be an integer
  // (its digits decide; they are looked up in the text only then).
  const double v = out.number;
  if (!doc.nodes()[i].flag && !(std::floor(v) == v && std::fabs(v) >= 9007199254740992.0 &&
                                v >= -9223372036854775808.0 && v <= 18446744073709551616.0))
    return out;
  std::string_view t = number_text(doc, text, i);
  if (t.empty() || t.find_first_of(".eE") != std::string_view::npos)
    return out;
  const bool negative = t[0] == '-';
  if (negative)
    t.remove_prefix(1);
  std::uint64_t m = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), m);
  if (ec != std::errc() || end != t.data() + t.size() || (negative && (m == 0 || m > (std::uint64_t{1} << 63))))
    return out;
  out.type = literal::kind::integer;
  out.magnitude = m;
  out.negative = negative;
  return out;
}

// Whether the number at node `i` is an integer to the reference (event_number()).
inline bool integer_number(const json::document& doc, std::string_view text, std::size_t i) {
  return event_number(doc, text, i).type == literal::kind::integer;
}

// Whether the value at node `i` equals `want` as the reference compares JSON values: same kind
// (integer and float distinct), numbers by value, strings by bytes, arrays in order, objects by
// their members in any order.
inline bool equals(const json::document& doc, std::string_view text, std::size_t i, const literal& want) {
  const json::document::node& n = doc.nodes()[i];
  using k = literal::kind;
  switch (n.kind) {
    case json::kind::null:
      return want.type == k::null;
    case json::kind::boolean:
      return want.type == k::boolean && (n.payload != 0) == want.flag;
    case json::kind::number:
      if (want.type == k::integer) {
        const literal have = event_number(doc, text, i);
        return have.type == k::integer && have.magnitude == want.magnitude && have.negative == want.negative;
      }
      return want.type == k::floating && event_number(doc, text, i).type == k::floating &&
             doc.number_at(i) == want.number;
    case json::kind::string:
      return want.type == k::string && doc.string_at(i) == want.text_;
    case json::kind::array: {
      if (want.type != k::array || n.count != want.items.size())
        return false;
      std::size_t j = i + 1;
      for (const literal& item : want.items) {
        if (!equals(doc, text, j, item))
          return false;
        j = doc.next(j);
      }
      return true;
    }
    case json::kind::object: {
      if (want.type != k::object || n.count != want.members.size())
        return false;
      for (const auto& [name, value] : want.members) {
        const std::size_t m = doc.find_member(i, name);
        if (m == 0 || !equals(doc, text, m, value))
          return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace assay::lint
