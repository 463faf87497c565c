// RFC 8785 (JCS) output (SPEC §2): the conformance data byte for byte, all 100,000 number
// lines, and the escaping, ordering and number rules one by one.
#include "support.hpp"

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/number.hpp"
#include "assay/json/value.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace json = assay::json;
namespace fs = std::filesystem;
using assay::errc;
using namespace std::string_literals;

namespace {

// Concatenates text and integers. (Used instead of "literal" + std::to_string(...), on which
// g++ 12 at -O3 emits a false -Wrestrict warning.)
[[maybe_unused]] inline void append_part(std::string& s, std::string_view v) {
  s += v;
}
[[maybe_unused]] inline void append_part(std::string& s, const char* v) {
  s += v;
}
[[maybe_unused]] inline void append_part(std::string& s, const std::string& v) {
  s += v;
}
template <class I>
requires std::is_integral_v<I>
inline void append_part(std::string& s, I v) {
  s += std::to_string(v);
}
template <class... T>
std::string cat(const T&... parts) {
  std::string s;
  (append_part(s, parts), ...);
  return s;
}

std::string code_name(errc c) {
  return std::string(assay::name(c));
}

std::string canon_text(std::string_view text) {
  auto r = json::canonicalize(text);
  if (!r)
    FAIL("canonicalize failed: " << r.error().format());
  return *r;
}

std::string canon_value(const json::value& v) {
  auto r = json::to_canonical(v);
  if (!r)
    FAIL("to_canonical failed: " << r.error().format());
  return *r;
}

std::string fmt(double v) {
  char buf[json::max_number_chars];
  return std::string(buf, json::format_number(v, buf));
}

double from_bits(std::uint64_t bits) {
  return std::bit_cast<double>(bits);
}

std::uint64_t parse_hex(std::string_view s) {
  std::uint64_t v = 0;
  for (char c : s) {
    v <<= 4;
    if (c >= '0' && c <= '9') {
      v |= static_cast<std::uint64_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= static_cast<std::uint64_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v |= static_cast<std::uint64_t>(c - 'A' + 10);
    } else {
      FAIL("bad hex digit in '" << std::string(s) << "'");
    }
  }
  return v;
}

fs::path jcs_dir() {
  const fs::path root = assay_test::conformance_dir();
  return root.empty() ? root : root / "jcs";
}

// Lines "hexbits,expected" of a number file.
struct number_line {
  std::size_t line;
  std::string hex;
  std::string expected;
};
std::vector<number_line> read_number_lines(const fs::path& p) {
  std::vector<number_line> out;
  std::istringstream in(assay_test::read_file(p));
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty())
      continue;
    const auto comma = line.find(',');
    REQUIRE_MESSAGE(comma != std::string::npos, p.string() << ":" << n << ": no comma");
    out.push_back({n, line.substr(0, comma), line.substr(comma + 1)});
  }
  return out;
}

}  // namespace

// --- conformance data ---------------------------------------------------------------------

TEST_CASE("canonical: jcs/input -> jcs/output byte for byte" * doctest::test_suite("conformance")) {
  const fs::path dir = jcs_dir();
  if (dir.empty())
    return;
  std::size_t n = 0;
  for (const auto& entry : fs::directory_iterator(dir / "input")) {
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    const std::string input = assay_test::read_file(entry.path());
    const std::string expected = assay_test::read_file(dir / "output" / name);
    CHECK(canon_text(input) == expected);
    // Canonical bytes are a fixed point.
    CHECK(canon_text(expected) == expected);
    ++n;
  }
  CHECK(n == 6);
}

TEST_CASE("canonical: RFC 8785 §3.2.3 sorting example" * doctest::test_suite("conformance")) {
  const fs::path dir = jcs_dir();
  if (dir.empty())
    return;
  const std::string input = assay_test::read_file(dir / "sorting-3.2.3.input.json");
  const std::string expected = assay_test::read_file(dir / "sorting-3.2.3.output.json");
  CHECK(canon_text(input) == expected);
}

TEST_CASE("canonical: es6testfile100k, all 100,000 numbers" * doctest::test_suite("conformance")) {
  const fs::path dir = jcs_dir();
  if (dir.empty())
    return;
  const auto lines = read_number_lines(dir / "es6testfile100k.txt");
  CHECK(lines.size() == 100000);
  std::size_t mismatches = 0;
  std::size_t reparse_mismatches = 0;
  std::string first_few;
  std::string text;
  for (const auto& l : lines) {
    const double v = from_bits(parse_hex(l.hex));
    REQUIRE_MESSAGE(std::isfinite(v), "line " << l.line);
    const std::string got = fmt(v);
    if (got != l.expected) {
      if (++mismatches <= 5) {
        first_few += cat("\n  line ", l.line, ": bits ", l.hex, " expected ", l.expected, " got ", got);
      }
    }
    // The reader reads the expected text back to the same double (+0 for -0).
    auto back = json::parse(l.expected);
    const double want = v == 0 ? 0.0 : v;
    if (!back || !back->is_number() ||
        std::bit_cast<std::uint64_t>(back->as_number()) != std::bit_cast<std::uint64_t>(want)) {
      if (++reparse_mismatches <= 5)
        first_few += cat("\n  line ", l.line, ": reparse of ", l.expected);
    }
  }
  CHECK_MESSAGE(mismatches == 0, mismatches << " mismatches; first ones:" << first_few);
  CHECK_MESSAGE(reparse_mismatches == 0, reparse_mismatches << " reparse mismatches:" << first_few);
}

TEST_CASE("canonical: RFC 8785 Appendix B numbers" * doctest::test_suite("conformance")) {
  const fs::path dir = jcs_dir();
  if (dir.empty())
    return;
  const auto lines = read_number_lines(dir / "appendixB-numbers.txt");
  CHECK(lines.size() == 26);
  std::size_t errors = 0;
  for (const auto& l : lines) {
    CAPTURE(l.line);
    CAPTURE(l.hex);
    const double v = from_bits(parse_hex(l.hex));
    std::string out;
    json::string_writer w{&out};
    if (l.expected == "ERROR") {
      ++errors;
      CHECK_FALSE(std::isfinite(v));
      CHECK_FALSE(json::write_number(w, v));
      CHECK(out.empty());
      CHECK(json::number_to_string(v).empty());
      auto r = json::to_canonical(json::value(v));
      REQUIRE_FALSE(r.has_value());
      CHECK(code_name(r.error().code) == code_name(errc::not_finite));
    } else {
      CHECK(fmt(v) == l.expected);
      CHECK(json::write_number(w, v));
      CHECK(out == l.expected);
      CHECK(canon_value(json::value(v)) == l.expected);
    }
  }
  CHECK(errors == 2);
}

TEST_CASE("canonical: assay-upstream rfc8785-vectors.json" * doctest::test_suite("conformance")) {
  const fs::path root = assay_test::conformance_dir();
  if (root.empty())
    return;
  auto doc = json::parse(assay_test::read_file(root / "assay-upstream" / "rfc8785-vectors.json"));
  REQUIRE(doc.has_value());
  REQUIRE(doc->is_object());
  std::size_t n = 0;
  for (const auto& m : doc->as_object()) {
    if (m.name == "_about")
      continue;
    CAPTURE(m.name);
    const json::value* input = m.value.find("input");
    const json::value* expected = m.value.find("expected");
    REQUIRE(input != nullptr);
    REQUIRE(expected != nullptr);
    REQUIRE(input->is_string());
    REQUIRE(expected->is_string());
    CHECK(canon_text(input->as_string()) == expected->as_string());
    ++n;
  }
  CHECK(n == 31);
}

// --- strings ------------------------------------------------------------------------------

TEST_CASE("canonical: every control character is escaped, short forms where they exist") {
  static const char* hex = "0123456789abcdef";
  for (int c = 0; c < 0x20; ++c) {
    CAPTURE(c);
    std::string expected;
    switch (c) {
      case 0x08:
        expected = "\"\\b\"";
        break;
      case 0x09:
        expected = "\"\\t\"";
        break;
      case 0x0A:
        expected = "\"\\n\"";
        break;
      case 0x0C:
        expected = "\"\\f\"";
        break;
      case 0x0D:
        expected = "\"\\r\"";
        break;
      default:
        expected = std::string("\"\\u00") + hex[c >> 4] + hex[c & 15] + "\"";
    }
    CHECK(canon_value(json::value(std::string(1, static_cast<char>(c)))) == expected);
    // The same from escaped input, upper or lower case.
    static const char* upper = "0123456789ABCDEF";
    CHECK(canon_text(std::string("\"\\u00") + upper[c >> 4] + upper[c & 15] + "\"") == expected);
  }
  CHECK(canon_value(json::value("\x1f")) == "\"\\u001f\"");
  CHECK(canon_value(json::value("a\x01"
                                "b\x1f"
                                "c")) == "\"a\\u0001b\\u001fc\"");
}

TEST_CASE("canonical: only quote and backslash among printable characters are escaped") {
  CHECK(canon_value(json::value("\"")) == R"("\"")");
  CHECK(canon_value(json::value("\\")) == R"("\\")");
  CHECK(canon_value(json::value("/")) == R"("/")");
  CHECK(canon_text(R"("\/")") == R"("/")");
  CHECK(canon_value(json::value("\x7F")) == "\"\x7F\"");
  CHECK(canon_text(R"("\u007f\u0080")") == "\"\x7F\xC2\x80\"");
  CHECK(canon_text(R"("\u2028\u2029")") == "\"\xE2\x80\xA8\xE2\x80\xA9\"");
  CHECK(canon_text(R"("\uD83D\uDE00")") == "\"\xF0\x9F\x98\x80\"");
  CHECK(canon_text(R"("<script>'&'</script>")") == R"("<script>'&'</script>")");
  CHECK(canon_value(json::value("")) == "\"\"");
  // Every printable ASCII character but '"' and '\' passes through.
  std::string printable;
  for (int c = 0x20; c < 0x7F; ++c)
    if (c != '"' && c != '\\')
      printable += static_cast<char>(c);
  CHECK(canon_value(json::value(printable)) == "\"" + printable + "\"");
  // A long string crosses the writer's buffer.
  const std::string big(100000, 'x');
  CHECK(canon_value(json::value(big + "\n" + big)) == "\"" + big + "\\n" + big + "\"");
}

TEST_CASE("write_valid_string: what write_string writes, for each character that needs an escape, anywhere") {
  // The document's strings are valid UTF-8 and written without checking it again; every byte
  // that stops a copy (a control character, '"', '\\') and non-ASCII text, at every place around
  // the 16-byte blocks, must come out as write_string() writes it.
  std::vector<std::string> pieces = {"\"", "\\", "\x7F", "\xC3\xA9", "\xE2\x80\xA8", "\xF0\x9F\x98\x80", "/"};
  for (int c = 0; c < 0x20; ++c)
    pieces.emplace_back(1, static_cast<char>(c));
  const auto written = [](auto write, const std::string& text) {
    std::string out;
    json::string_sink sink{&out};
    {
      json::writer<json::string_sink> w(sink);
      write(w, text);
    }
    return out;
  };
  std::size_t compared = 0;
  for (const std::string& piece : pieces) {
    for (std::size_t before = 0; before <= 34; ++before) {
      for (std::size_t after : {0, 1, 15, 16, 17}) {
        const std::string text = std::string(before, 'a') + piece + "\xC3\xA9" + piece + std::string(after, 'z');
        const std::string want =
            written([](auto& w, const std::string& t) { REQUIRE(json::write_string(w, t)); }, text);
        const std::string got = written([](auto& w, const std::string& t) { json::write_valid_string(w, t); }, text);
        if (got != want) {
          INFO("piece " << json::quote_for_message(piece) << " after " << before << " bytes");
          CHECK(got == want);
        }
        ++compared;
      }
    }
  }
  CHECK(compared == pieces.size() * 35 * 5);
}

TEST_CASE("canonical: invalid UTF-8 in a DOM string is an error with its pointer") {
  json::value doc = json::object{{"a", json::array{1, "ok", "bad\xC3"}}, {"b", true}};
  auto r = json::to_canonical(doc);
  REQUIRE_FALSE(r.has_value());
  CHECK(code_name(r.error().code) == code_name(errc::invalid_utf8));
  CHECK(r.error().pointer == "/a/2");
  CHECK(r.error().message == "string is not valid UTF-8");
  CHECK_FALSE(r.error().has_position());

  // Encoded surrogates, overlong forms and stray continuation bytes are all refused.
  for (const char* bad : {"\xED\xA0\x80", "\xC0\xAF", "\x80", "\xF4\x90\x80\x80", "\xFF"}) {
    CAPTURE(bad);
    auto e = json::to_canonical(json::value(std::string(bad)));
    REQUIRE_FALSE(e.has_value());
    CHECK(code_name(e.error().code) == code_name(errc::invalid_utf8));
    CHECK(e.error().pointer == "");
    CHECK_FALSE(json::is_valid_utf8(bad));
  }

  // In a member name: the pointer names the member (escaped).
  json::value named = json::object{{"x/y", json::object{{"\xC3", 1}}}};
  auto n = json::to_canonical(named);
  REQUIRE_FALSE(n.has_value());
  CHECK(code_name(n.error().code) == code_name(errc::invalid_utf8));
  CHECK(n.error().pointer == "/x~1y/\xC3");

  CHECK(json::is_valid_utf8("a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));
  CHECK(json::is_valid_utf8(""));
}

TEST_CASE("canonical: a hand-built object that repeats a name cannot be encoded") {
  // The parser never builds one; json::object is a plain vector, so a caller can.
  const json::value flat = json::object{{"b", 1}, {"a", 2}, {"b", 3}};
  auto r = json::to_canonical(flat);
  REQUIRE_FALSE(r.has_value());
  CHECK(code_name(r.error().code) == code_name(errc::duplicate_member));
  CHECK(r.error().pointer == "/b");
  CHECK(r.error().message == "duplicate member name \"b\"");

  // Already in order (the is_sorted fast path), nested, with a name that needs escaping.
  const json::value nested = json::object{{"x", json::array{0, json::object{{"a/b", 1}, {"a/b", 1}}}}};
  auto n = json::to_canonical(nested);
  REQUIRE_FALSE(n.has_value());
  CHECK(code_name(n.error().code) == code_name(errc::duplicate_member));
  CHECK(n.error().pointer == "/x/1/a~1b");

  // Past the small sizes too.
  json::object many;
  for (int i = 0; i < 50; ++i)
    many.push_back({cat("k", i % 40), i});
  auto m = json::to_canonical(json::value(std::move(many)));
  REQUIRE_FALSE(m.has_value());
  CHECK(code_name(m.error().code) == code_name(errc::duplicate_member));
}

TEST_CASE("canonical: objects of one shape reuse its order; any other shape is sorted afresh") {
  // Same names in the same order (the cached order and rendered names serve), the same names in
  // another order, one more name, fewer names, an empty object, and again the first shape.
  const json::value list = json::array{
      json::object{{"b", 1}, {"a\"q", 2}, {"\xf0\x90\x80\x80", 3}, {"\xee\x80\x80", 4}},
      json::object{{"b", 5}, {"a\"q", 6}, {"\xf0\x90\x80\x80", 7}, {"\xee\x80\x80", 8}},
      json::object{{"b", 9}, {"a\"q", 10}, {"\xf0\x90\x80\x80", 11}, {"\xee\x80\x80", 12}},
      json::object{{"a\"q", 13}, {"b", 14}, {"\xee\x80\x80", 15}, {"\xf0\x90\x80\x80", 16}},
      json::object{{"b", 17}, {"a\"q", 18}, {"\xf0\x90\x80\x80", 19}, {"\xee\x80\x80", 20}, {"c", 21}},
      json::object{{"b", 22}},
      json::object{},
      json::object{{"b", 23}, {"a\"q", 24}, {"\xf0\x90\x80\x80", 25}, {"\xee\x80\x80", 26}},
      json::object{
          {"b", 27}, {"a\"q", json::object{{"z", 1}, {"y", 2}}}, {"\xf0\x90\x80\x80", 28}, {"\xee\x80\x80", 29}},
  };
  const std::string four = "{\"a\\\"q\":%,\"b\":%,\"\xf0\x90\x80\x80\":%,\"\xee\x80\x80\":%}";
  auto fill = [&](std::initializer_list<std::string> xs) {
    std::string out = four;
    for (const auto& x : xs)
      out.replace(out.find('%'), 1, x);
    return out;
  };
  const std::string expected = "[" + fill({"2", "1", "3", "4"}) + "," + fill({"6", "5", "7", "8"}) + "," +
                               fill({"10", "9", "11", "12"}) + "," + fill({"13", "14", "16", "15"}) + "," +
                               "{\"a\\\"q\":18,\"b\":17,\"c\":21,\"\xf0\x90\x80\x80\":19,\"\xee\x80\x80\":20}," +
                               "{\"b\":22},{}," + fill({"24", "23", "25", "26"}) + "," +
                               fill({"{\"y\":2,\"z\":1}", "27", "28", "29"}) + "]";
  CHECK(json::to_canonical(list).value() == expected);
  // The flat document agrees.
  CHECK(json::document::parse(expected).value().canonical() == expected);
  // A repeated name in an object after objects of another shape is still found.
  json::value dup = list;
  dup.as_array().push_back(json::object{{"b", 1}, {"b", 2}});
  auto r = json::to_canonical(dup);
  REQUIRE_FALSE(r.has_value());
  CHECK(code_name(r.error().code) == code_name(errc::duplicate_member));
  CHECK(r.error().pointer == "/9/b");
  // Invalid UTF-8 in a name of a cached shape is found the first time the shape is written.
  json::value bad = json::array{json::object{{"\xC3", 1}}, json::object{{"\xC3", 2}}};
  auto b = json::to_canonical(bad);
  REQUIRE_FALSE(b.has_value());
  CHECK(b.error().pointer == "/0/\xC3");
}

TEST_CASE("canonical: NaN and infinity cannot be encoded") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double v : {nan, inf, -inf}) {
    auto root = json::to_canonical(json::value(v));
    REQUIRE_FALSE(root.has_value());
    CHECK(code_name(root.error().code) == code_name(errc::not_finite));
    CHECK(root.error().pointer == "");
    CHECK(root.error().message == "NaN and infinity have no JSON form");
  }
  json::value doc = json::object{{"x", json::array{0, nan}}};
  auto r = json::to_canonical(doc);
  REQUIRE_FALSE(r.has_value());
  CHECK(code_name(r.error().code) == code_name(errc::not_finite));
  CHECK(r.error().pointer == "/x/1");
  // In the second object of a shape (its names are written from the first one's rendering).
  json::value same = json::array{json::object{{"b", 1}, {"a", 2}}, json::object{{"b", nan}, {"a", 2}},
                                 json::object{{"b", 1}, {"a", "\xC3"}}};
  auto s = json::to_canonical(same);
  REQUIRE_FALSE(s.has_value());
  CHECK(code_name(s.error().code) == code_name(errc::not_finite));
  CHECK(s.error().pointer == "/1/b");
  same.as_array()[1] = json::object{{"b", 1}, {"a", 2}};
  auto u = json::to_canonical(same);
  REQUIRE_FALSE(u.has_value());
  CHECK(code_name(u.error().code) == code_name(errc::invalid_utf8));
  CHECK(u.error().pointer == "/2/a");
  same.as_array()[2] = json::object{{"b", 1}, {"a", 2}};
  CHECK(canon_value(same) == R"([{"a":2,"b":1},{"a":2,"b":1},{"a":2,"b":1}])");
}

// --- member order -------------------------------------------------------------------------

TEST_CASE("canonical: utf16_less orders by UTF-16 code units") {
  const std::string u10000 = "\xF0\x90\x80\x80";   // D800 DC00
  const std::string u10FFFF = "\xF4\x8F\xBF\xBF";  // DBFF DFFF
  const std::string ue000 = "\xEE\x80\x80";
  const std::string uffff = "\xEF\xBF\xBF";
  const std::string ud7ff = "\xED\x9F\xBF";
  // Supplementary characters sort as surrogates: before U+E000..U+FFFF, after U+D7FF.
  CHECK(json::utf16_less(u10000, ue000));
  CHECK_FALSE(json::utf16_less(ue000, u10000));
  CHECK(json::utf16_less(u10FFFF, ue000));
  CHECK(json::utf16_less(u10000, uffff));
  CHECK(json::utf16_less(u10FFFF, uffff));
  CHECK_FALSE(json::utf16_less(uffff, u10FFFF));
  CHECK(json::utf16_less(ud7ff, u10000));
  CHECK_FALSE(json::utf16_less(u10000, ud7ff));
  // Among supplementary characters, and among BMP characters: code point order.
  CHECK(json::utf16_less(u10000, u10FFFF));
  CHECK(json::utf16_less(ue000, uffff));
  CHECK(json::utf16_less("\xC3\xA9", ue000));
  // ASCII, prefixes, equality.
  CHECK(json::utf16_less("A", "a"));
  CHECK(json::utf16_less("a", "ab"));
  CHECK_FALSE(json::utf16_less("ab", "a"));
  CHECK_FALSE(json::utf16_less("a", "a"));
  CHECK(json::utf16_less("", "a"));
  CHECK(json::utf16_less("x" + u10000, "x" + ue000));
  CHECK(json::utf16_less("x" + u10000 + "z", "x" + ue000 + "a"));
  static_assert(json::utf16_less("a", "b"));
}

TEST_CASE("canonical: objects sorted at every depth, arrays kept in order") {
  CHECK(canon_text(R"({"b":1,"a":2,"c":{"z":[3,{"y":1,"x":2}],"y":null}})") ==
        R"({"a":2,"b":1,"c":{"y":null,"z":[3,{"x":2,"y":1}]}})");
  CHECK(canon_text(R"([3,1,2])") == "[3,1,2]");
  // U+E000, U+10000 (as \uD800\uDC00), U+FFFF, U+00E9, "a".
  CHECK(canon_text(R"({"\uE000":1,"\uD800\uDC00":2,"\uFFFF":3,"\u00e9":4,"a":5})") ==
        "{\"a\":5,\"\xC3\xA9\":4,\"\xF0\x90\x80\x80\":2,\"\xEE\x80\x80\":1,\"\xEF\xBF\xBF\":3}");
  // No whitespace anywhere, literals as they are.
  CHECK(canon_text(" { \"a\" : [ true , false , null , { } , [ ] ] } ") == R"({"a":[true,false,null,{},[]]})");
  // A large object (sorting, not quadratic).
  std::string big = "{";
  std::string expected = "{";
  json::limits lim;
  for (int i = 9999; i >= 0; --i) {
    big += cat("\"k", 100000 + i, "\":", i, i ? "," : "}");
  }
  for (int i = 0; i < 10000; ++i) {
    expected += cat("\"k", 100000 + i, "\":", i, i < 9999 ? "," : "}");
  }
  auto r = json::canonicalize(big, lim);
  REQUIRE(r.has_value());
  CHECK(*r == expected);
}

// --- numbers ------------------------------------------------------------------------------

TEST_CASE("canonical: numbers in ECMAScript form") {
  CHECK(fmt(0.0) == "0");
  CHECK(fmt(-0.0) == "0");
  CHECK(canon_text("-0") == "0");
  CHECK(canon_text("-0.0e10") == "0");
  CHECK(fmt(1.0) == "1");
  CHECK(fmt(-1.0) == "-1");
  CHECK(fmt(1.5) == "1.5");
  CHECK(fmt(-1.5) == "-1.5");
  CHECK(fmt(4.5) == "4.5");
  CHECK(fmt(0.1) == "0.1");
  CHECK(fmt(0.30000000000000004) == "0.30000000000000004");
  CHECK(fmt(1e20) == "100000000000000000000");
  CHECK(fmt(1e21) == "1e+21");
  CHECK(fmt(-1e21) == "-1e+21");
  CHECK(fmt(1.5e21) == "1.5e+21");
  CHECK(fmt(123456789012345680000.0) == "123456789012345680000");
  CHECK(fmt(1e-6) == "0.000001");
  CHECK(fmt(1.5e-6) == "0.0000015");
  CHECK(fmt(1e-7) == "1e-7");
  CHECK(fmt(-1.25e-7) == "-1.25e-7");
  CHECK(fmt(1e30) == "1e+30");
  CHECK(fmt(2e-3) == "0.002");
  CHECK(fmt(1e-27) == "1e-27");
  CHECK(fmt(123e-20) == "1.23e-18");
  CHECK(fmt(5e-324) == "5e-324");
  CHECK(fmt(-5e-324) == "-5e-324");
  CHECK(fmt(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
  CHECK(fmt(std::numeric_limits<double>::min()) == "2.2250738585072014e-308");
  CHECK(fmt(9007199254740992.0) == "9007199254740992");
  CHECK(fmt(-9007199254740992.0) == "-9007199254740992");
  CHECK(fmt(9007199254740994.0) == "9007199254740994");
  CHECK(fmt(333333333.3333333) == "333333333.3333333");
  CHECK(fmt(1234567.125) == "1234567.125");
  // Integers beyond 2^53 round like any double.
  CHECK(canon_text("9007199254740993") == "9007199254740992");
  CHECK(canon_text("18446744073709551615") == "18446744073709552000");
  CHECK(canon_text("-9223372036854775808") == "-9223372036854776000");
  CHECK(canon_text("1E30") == "1e+30");
  CHECK(canon_text("4.50") == "4.5");
  CHECK(canon_text("1.0") == "1");
  CHECK(canon_text("0.000001") == "0.000001");
  CHECK(canon_text("1e-400") == "0");
  CHECK(json::number_to_string(2.5) == "2.5");
}

TEST_CASE("canonical: the longest number forms fit max_number_chars") {
  const double longest[] = {
      -1.2345678901234567e-300,   // -d.dddddddddddddddde-300
      -0.0000012345678901234567,  // -0.00000 + 17 digits
      -123456789012345680000.0,   // 21 digits
      -1.7976931348623157e308,   -2.2250738585072014e-308, -4.9406564584124654e-324,
  };
  for (double v : longest) {
    const std::string s = fmt(v);
    CAPTURE(s);
    CHECK(s.size() <= json::max_number_chars);
    // And it reads back to the same double.
    auto back = json::parse(s);
    REQUIRE(back.has_value());
    CHECK(back->as_number() == v);
  }
}

TEST_CASE("canonical: format_integer writes what std::to_chars writes") {
  auto ours = [](auto v) {
    char buf[24];
    return std::string(buf, json::format_integer(v, buf));
  };
  auto theirs = [](auto v) {
    char buf[24];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  };
  CHECK(ours(std::uint64_t{0}) == "0");
  CHECK(ours(std::int64_t{-7}) == "-7");
  CHECK(ours(std::uint64_t{18446744073709551615ULL}) == "18446744073709551615");
  CHECK(ours(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
  CHECK(ours(std::int64_t{10000000000000000}) == "10000000000000000");
  // Every digit count, at both ends of it and around the 4/8/16-digit splits.
  for (std::uint64_t p = 1;; p *= 10) {
    for (std::uint64_t v : {p - 1, p, p + 1, 2 * p - 1, 9 * p + (p - 1)}) {
      CAPTURE(v);
      CHECK(ours(v) == theirs(v));
      if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        CHECK(ours(static_cast<std::int64_t>(v)) == theirs(static_cast<std::int64_t>(v)));
        CHECK(ours(-static_cast<std::int64_t>(v)) == theirs(-static_cast<std::int64_t>(v)));
      }
    }
    if (p > std::numeric_limits<std::uint64_t>::max() / 10)
      break;
  }
  std::uint64_t x = 88172645463325252ULL;  // xorshift64: values of every size
  for (int i = 0; i < 100000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const std::uint64_t v = x >> (i % 64);
    CHECK(ours(v) == theirs(v));
    CHECK(ours(static_cast<std::int64_t>(x)) == theirs(static_cast<std::int64_t>(x)));
  }
}

// --- sinks and the pretty form ------------------------------------------------------------

namespace {
struct recording_sink {
  std::string data;
  std::vector<std::size_t> sizes;
  void write(const char* p, std::size_t n) {
    data.append(p, n);
    sizes.push_back(n);
  }
};
}  // namespace

TEST_CASE("canonical: every sink sees the same bytes") {
  json::value doc = json::parse(R"({"b":[1,2.5,"x\n"],"a":{"\u00e9":null,"d":true}})").value();
  const std::string expected = "{\"a\":{\"d\":true,\"\xC3\xA9\":null},\"b\":[1,2.5,\"x\\n\"]}";
  CHECK(canon_value(doc) == expected);

  std::ostringstream os;
  json::ostream_sink osink{&os};
  REQUIRE(json::to_sink(osink, doc).has_value());
  CHECK(os.str() == expected);

  json::counting_sink counter;
  REQUIRE(json::to_sink(counter, doc).has_value());
  CHECK(counter.bytes == expected.size());

  std::string s;
  json::string_sink ssink{&s};
  REQUIRE(json::to_sink(ssink, doc).has_value());
  CHECK(s == expected);

  // Large output reaches the sink in blocks, not byte by byte.
  json::array many;
  for (int i = 0; i < 20000; ++i)
    many.emplace_back(cat("item", i));
  const json::value big(std::move(many));
  recording_sink rec;
  REQUIRE(json::to_sink(rec, big).has_value());
  CHECK(rec.data == canon_value(big));
  CHECK(rec.sizes.size() < 30);
  for (std::size_t n : rec.sizes)
    CHECK(n <= json::writer<recording_sink>::buffer_size);
}

TEST_CASE("canonical: to_pretty") {
  const json::value doc =
      json::parse(R"({"name":"demo","tags":["a","b\n"],"empty":{},"none":[],"n":{"z":-0,"y":1e21,"x":[{}]}})").value();
  const std::string expected =
      "{\n"
      "  \"empty\": {},\n"
      "  \"n\": {\n"
      "    \"x\": [\n"
      "      {}\n"
      "    ],\n"
      "    \"y\": 1e+21,\n"
      "    \"z\": 0\n"
      "  },\n"
      "  \"name\": \"demo\",\n"
      "  \"none\": [],\n"
      "  \"tags\": [\n"
      "    \"a\",\n"
      "    \"b\\n\"\n"
      "  ]\n"
      "}";
  CHECK(json::to_pretty(doc) == expected);
  CHECK(json::to_pretty(json::value(1.5)) == "1.5");
  CHECK(json::to_pretty(json::value("x")) == "\"x\"");
  CHECK(json::to_pretty(json::value(nullptr)) == "null");
  CHECK(json::to_pretty(json::array{}) == "[]");
  // Pretty output is valid JSON with the same value.
  CHECK(json::parse(expected).value() == doc);
}

// --- the DOM ------------------------------------------------------------------------------

TEST_CASE("canonical: value equality ignores member order") {
  const json::value a = json::parse(R"({"a":1,"b":[1,{"c":2,"d":3}]})").value();
  const json::value b = json::parse(R"({"b":[1,{"d":3,"c":2}],"a":1})").value();
  const json::value c = json::parse(R"({"b":[{"d":3,"c":2},1],"a":1})").value();
  CHECK(a == b);
  CHECK(b == a);
  CHECK_FALSE(a == c);
  CHECK_FALSE(json::value(1) == json::value("1"));
  CHECK(json::value(0.0) == json::value(-0.0));
  CHECK_FALSE(json::value(json::object{{"a", 1}}) == json::value(json::object{{"a", 2}}));
  CHECK_FALSE(json::value(json::object{{"a", 1}}) == json::value(json::object{{"b", 1}}));

  // Hand-built objects may repeat a name: equality is symmetric all the same.
  const json::value d1 = json::object{{"a", 1}, {"a", 2}};
  const json::value d2 = json::object{{"a", 1}, {"a", 1}};
  const json::value d3 = json::object{{"a", 2}, {"a", 1}};
  CHECK_FALSE(d1 == d2);
  CHECK_FALSE(d2 == d1);
  CHECK(d1 == d3);
  CHECK(d3 == d1);

  // The same for objects past the small-object path.
  auto key = [](int i) { return cat("k", i); };
  json::object big1, big2, big3;
  for (int i = 0; i < 100; ++i) {
    big1.push_back({key(i), i});
    big2.push_back({key(99 - i), 99 - i});
    big3.push_back({key(i), i == 50 ? -1 : i});
  }
  big1.push_back({"dup", 1});
  big1.push_back({"dup", 2});
  big2.push_back({"dup", 2});
  big2.push_back({"dup", 1});
  big3.push_back({"dup", 1});
  big3.push_back({"dup", 2});
  CHECK(json::value(big1) == json::value(big2));
  CHECK(json::value(big2) == json::value(big1));
  CHECK_FALSE(json::value(big1) == json::value(big3));
  CHECK_FALSE(json::value(big3) == json::value(big1));
  big2.back().value = 2;  // now {"dup":2,"dup":2}
  CHECK_FALSE(json::value(big1) == json::value(big2));
  CHECK_FALSE(json::value(big2) == json::value(big1));
}

TEST_CASE("canonical: value construction and set") {
  json::value v;
  CHECK(v.is_null());
  v.set("b", 1);
  v.set("a", "x");
  v.set("b", json::array{true, nullptr, 2.5});
  CHECK(v.as_object().size() == 2);
  CHECK(canon_value(v) == R"({"a":"x","b":[true,null,2.5]})");
  CHECK(json::value(std::string_view("sv")).as_string() == "sv");
  CHECK(json::value(7u).as_number() == 7.0);
  CHECK(json::value(-7LL).as_number() == -7.0);
  CHECK(json::name(json::kind::object) == "object");
}
