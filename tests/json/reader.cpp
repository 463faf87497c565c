// The strict reader (SPEC §1): every rule, every limit at its boundary, and the exact error
// (code, byte offset, line, column, JSON Pointer, message) for each kind of bad input.
#include "support.hpp"

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <string_view>
#include <vector>

namespace json = assay::json;
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

// The input as printable ASCII for failure messages (long inputs shortened).
std::string show(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < 120; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (s.size() > 120)
    out += cat("... (", s.size(), " bytes)");
  return out;
}

struct want {
  errc code;
  std::size_t offset;
  std::size_t line;
  std::size_t column;
  std::string pointer;
};

// `text` must be rejected with exactly this code, position and pointer. Returns the error.
assay::error check_error(std::string_view text, const want& w, const json::limits& lim = {}) {
  INFO("input: " << show(text));
  auto r = json::parse(text, lim);
  REQUIRE_FALSE(r.has_value());
  const assay::error e = r.error();
  INFO("error: " << e.format());
  CHECK(code_name(e.code) == code_name(w.code));
  CHECK(e.offset == w.offset);
  CHECK(e.line == w.line);
  CHECK(e.column == w.column);
  CHECK(e.pointer == w.pointer);
  return e;
}

// The same for an error on the first line of an ASCII input: column = offset + 1.
assay::error check_error1(std::string_view text, errc code, std::size_t offset, std::string pointer,
                          const json::limits& lim = {}) {
  return check_error(text, want{code, offset, 1, offset + 1, std::move(pointer)}, lim);
}

json::value parse_ok(std::string_view text, const json::limits& lim = {}) {
  INFO("input: " << show(text));
  auto r = json::parse(text, lim);
  if (!r)
    INFO("error: " << r.error().format());
  REQUIRE(r.has_value());
  return *r;
}

// The decoded string of the document ["..."] built around `body`.
std::string decoded(std::string_view body, const json::limits& lim = {}) {
  const json::value v = parse_ok("[\"" + std::string(body) + "\"]", lim);
  REQUIRE(v.is_array());
  REQUIRE(v.as_array().size() == 1);
  REQUIRE(v.as_array()[0].is_string());
  return v.as_array()[0].as_string();
}

double number(std::string_view text) {
  const json::value v = parse_ok(text);
  REQUIRE(v.is_number());
  return v.as_number();
}

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

}  // namespace

// --- grammar ------------------------------------------------------------------------------

TEST_CASE("reader: a document with every kind of value") {
  const json::value v =
      parse_ok(R"({"s":"x","n":-1.5e2,"t":true,"f":false,"z":null,"a":[],"o":{},"nested":[{"k":[0]}]})");
  REQUIRE(v.is_object());
  const auto& o = v.as_object();
  REQUIRE(o.size() == 8);
  // Members keep their input order.
  CHECK(o[0].name == "s");
  CHECK(o[7].name == "nested");
  CHECK(v.find("s")->as_string() == "x");
  CHECK(v.find("n")->as_number() == -150.0);
  CHECK(v.find("t")->as_bool() == true);
  CHECK(v.find("f")->as_bool() == false);
  CHECK(v.find("z")->is_null());
  CHECK(v.find("a")->as_array().empty());
  CHECK(v.find("o")->as_object().empty());
  CHECK(v.find("nested")->as_array()[0].find("k")->as_array()[0].as_number() == 0.0);
  CHECK(v.find("missing") == nullptr);

  // Scalars at the top level.
  CHECK(parse_ok("\"top\"").as_string() == "top");
  CHECK(parse_ok("null").is_null());
  CHECK(parse_ok("true").as_bool());
  CHECK(number("7") == 7.0);
}

TEST_CASE("reader: empty input and input of only whitespace") {
  check_error1("", errc::unexpected_end, 0, "");
  const auto e = check_error("  \n", want{errc::unexpected_end, 3, 2, 1, ""});
  CHECK(e.message == "input ended where a value was expected");
}

TEST_CASE("reader: whitespace is only space, tab, LF and CR") {
  const json::value v = parse_ok(" \t\n\r[ \t\n\r1 \t\n\r, \t\n\r{ \t\n\r\"a\" \t\n\r: \t\n\r2 \t\n\r} \t\n\r] \t\n\r");
  CHECK(v.as_array().size() == 2);

  // Form feed, vertical tab, NUL, NBSP, U+2028, U+FEFF (not at the start) are not whitespace.
  const auto ff = check_error1("\f[]", errc::unexpected_character, 0, "");
  CHECK(ff.message == "unexpected byte 0x0c, expected a JSON value");
  check_error1("[\f1]", errc::unexpected_character, 1, "/0");
  check_error1("[1\f]", errc::unexpected_character, 2, "");
  check_error1("[\v1]", errc::unexpected_character, 1, "/0");
  check_error1("[\0]"s, errc::unexpected_character, 1, "/0");
  check_error1("{}\f", errc::trailing_content, 2, "");
  check_error(
      "[\xC2\xA0"
      "1]",
      want{errc::unexpected_character, 1, 1, 2, "/0"});
  check_error(
      "[1,\xE2\x80\xA8"
      "2]",
      want{errc::unexpected_character, 3, 1, 4, "/1"});
  check_error(
      " \xEF\xBB\xBF"
      "1",
      want{errc::unexpected_character, 1, 1, 2, ""});
}

TEST_CASE("reader: literals") {
  const auto e = check_error1("tru", errc::invalid_literal, 0, "");
  CHECK(e.message == "invalid literal (expected true or false)");
  check_error1("[nul]", errc::invalid_literal, 1, "/0");
  check_error1("{\"a\":fals}", errc::invalid_literal, 5, "/a");
  check_error1("True", errc::unexpected_character, 0, "");
  check_error1("[NaN]", errc::unexpected_character, 1, "/0");
  check_error1("[Infinity]", errc::unexpected_character, 1, "/0");
  check_error1("nulll", errc::trailing_content, 4, "");
  check_error1("[truefalse]", errc::unexpected_character, 5, "");
}

TEST_CASE("reader: trailing content after the top-level value") {
  const auto e = check_error1("{} x", errc::trailing_content, 3, "");
  CHECK(e.message == "unexpected content after the JSON value");
  check_error1("[1] [2]", errc::trailing_content, 4, "");
  check_error1("1 2", errc::trailing_content, 2, "");
  check_error1("\"a\"\"b\"", errc::trailing_content, 3, "");
  check_error1("{}}", errc::trailing_content, 2, "");
  check_error("{}\n\n}", want{errc::trailing_content, 4, 3, 1, ""});
  check_error1("0x10", errc::trailing_content, 1, "");
  check_error1("[]\0"s, errc::trailing_content, 2, "");
  parse_ok("{} \t\r\n");
}

TEST_CASE("reader: structural errors name the container, or the member once its name is read") {
  const auto comma = check_error1("[1,]", errc::unexpected_character, 3, "");
  CHECK(comma.message == "unexpected ']', expected a value after ',' (trailing comma)");
  const auto obj_comma = check_error1("{\"a\":1,}", errc::unexpected_character, 7, "");
  CHECK(obj_comma.message == "unexpected '}', expected a member name after ','");
  check_error1("[1 2]", errc::unexpected_character, 3, "");
  check_error1("[1,,2]", errc::unexpected_character, 3, "/1");
  check_error1("[,1]", errc::unexpected_character, 1, "/0");
  check_error1("{\"a\":1 \"b\":2}", errc::unexpected_character, 7, "");
  const auto colon = check_error1("{\"a\" 1}", errc::unexpected_character, 5, "/a");
  CHECK(colon.message == "unexpected '1', expected ':' after a member name");
  check_error1("{\"a\":1,\"b\"}", errc::unexpected_character, 10, "/b");
  check_error1("{1:2}", errc::unexpected_character, 1, "");
  check_error1("{'a':1}", errc::unexpected_character, 1, "");
  check_error1("{\"a\"::1}", errc::unexpected_character, 5, "/a");
  check_error1("[1}", errc::unexpected_character, 2, "");
  check_error1("{\"a\":1]", errc::unexpected_character, 6, "");
  check_error1("]", errc::unexpected_character, 0, "");
  check_error1("[\"a\":1]", errc::unexpected_character, 4, "");
  // Comments are not JSON.
  check_error1("[1]//c", errc::trailing_content, 3, "");
  check_error1("[/*c*/1]", errc::unexpected_character, 1, "/0");
}

TEST_CASE("reader: input that ends early") {
  check_error1("[", errc::unexpected_end, 1, "");
  check_error1("{", errc::unexpected_end, 1, "");
  check_error1("[1,", errc::unexpected_end, 3, "");
  check_error1("[1", errc::unexpected_end, 2, "");
  check_error1("{\"a\"", errc::unexpected_end, 4, "/a");
  check_error1("{\"a\":", errc::unexpected_end, 5, "/a");
  check_error1("{\"a\":1", errc::unexpected_end, 6, "");
  check_error1("{\"a\":1,", errc::unexpected_end, 7, "");
  check_error1("[\"abc", errc::unexpected_end, 5, "/0");
  check_error1("{\"ab", errc::unexpected_end, 4, "");
  check_error1("\"\\", errc::unexpected_end, 2, "");
}

TEST_CASE("reader: pointers inside arrays and objects") {
  // Byte 15 is the 't' of "tru".
  check_error1(R"({"a":[0,1,{"b":tru}]})", errc::invalid_literal, 15, "/a/2/b");
  // Names with '/' and '~' are escaped as ~1 and ~0; byte 18 is the raw U+0001.
  check_error1("{\"a/b\":{\"m~n\":[0,\"\x01\"]}}", errc::unescaped_control, 18, "/a~1b/m~0n/1");
  // The pointer uses the decoded name: "a\u002Fb" is "a/b", "\u007e1" is "~1".
  check_error1(R"({"a\u002Fb":[nul]})", errc::invalid_literal, 13, "/a~1b/0");
  check_error1(R"({"\u007e1":x})", errc::unexpected_character, 11, "/~01");
  check_error1(R"({"\"\\":x})", errc::unexpected_character, 8, "/\"\\");
  // The empty name.
  check_error1(R"({"":[x]})", errc::unexpected_character, 5, "//0");
  // Non-ASCII names: columns count code points (byte 6 is column 6: { " é " :).
  check_error("{\"\xC3\xA9\":x}", want{errc::unexpected_character, 6, 1, 6, "/\xC3\xA9"});
  // Deep indices.
  check_error1("[[],[[],[],[0,1,2,x]]]", errc::unexpected_character, 18, "/1/2/3");
  // An error in a later member does not name an earlier one.
  check_error1(R"({"a":1,"b":[true,fals]})", errc::invalid_literal, 17, "/b/1");
}

// --- UTF-8 --------------------------------------------------------------------------------

TEST_CASE("reader: a byte-order mark is an error") {
  const auto e = check_error1("\xEF\xBB\xBF{}", errc::byte_order_mark, 0, "");
  CHECK(e.message == "byte-order mark at the start of the input (not allowed)");
  check_error1("\xEF\xBB\xBF", errc::byte_order_mark, 0, "");
  // A partial mark is a stray byte.
  check_error1("\xEF\xBB", errc::unexpected_character, 0, "");
  // U+FEFF inside a string is an ordinary character.
  CHECK(decoded("\xEF\xBB\xBF") == "\xEF\xBB\xBF");
  CHECK(decoded("\\uFEFF") == "\xEF\xBB\xBF");
}

TEST_CASE("reader: invalid UTF-8 in strings") {
  struct bad {
    const char* what;
    std::string bytes;
  };
  const bad cases[] = {
      {"overlong 2-byte '/'", "\xC0\xAF"},
      {"overlong 2-byte NUL", "\xC0\x80"},
      {"overlong 2-byte U+007F", "\xC1\xBF"},
      {"overlong 3-byte '/'", "\xE0\x80\xAF"},
      {"overlong 3-byte U+07FF", "\xE0\x9F\xBF"},
      {"overlong 4-byte '/'", "\xF0\x80\x80\xAF"},
      {"overlong 4-byte U+FFFF", "\xF0\x8F\xBF\xBF"},
      {"encoded surrogate U+D800", "\xED\xA0\x80"},
      {"encoded surrogate U+DBFF", "\xED\xAF\xBF"},
      {"encoded surrogate U+DC00", "\xED\xB0\x80"},
      {"encoded surrogate U+DFFF", "\xED\xBF\xBF"},
      {"encoded surrogate pair", "\xED\xA0\xBD\xED\xB8\x80"},
      {"U+110000", "\xF4\x90\x80\x80"},
      {"F5 lead", "\xF5\x80\x80\x80"},
      {"F7 lead", "\xF7\xBF\xBF\xBF"},
      {"5-byte form", "\xF8\x88\x80\x80\x80"},
      {"6-byte form", "\xFC\x84\x80\x80\x80\x80"},
      {"FE", "\xFE"},
      {"FF", "\xFF"},
      {"truncated 2-byte", "\xC3"},
      {"truncated 3-byte", "\xE2\x82"},
      {"truncated 4-byte", "\xF0\x9F\x98"},
      {"2-byte lead then ASCII",
       "\xC3"
       "A"},
      {"3-byte lead, continuation, ASCII",
       "\xE2\x82"
       "A"},
      {"stray continuation 80", "\x80"},
      {"stray continuation BF", "\xBF"},
      {"ISO-8859-1 e-acute", "\xE9"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    // ["<bytes>"]: the bad sequence starts at byte 2, column 3, in element /0.
    const auto e = check_error1("[\"" + c.bytes + "\"]", errc::invalid_utf8, 2, "/0");
    CHECK(e.message == "invalid UTF-8 in a string");
    // In a member name the error belongs to the object.
    check_error1("{\"" + c.bytes + "\":1}", errc::invalid_utf8, 2, "");
  }
  // Truncated at the very end of the input.
  check_error1("\"\xC3", errc::invalid_utf8, 1, "");
  check_error1("\"\xF0\x9F\x98", errc::invalid_utf8, 1, "");
  // A stray continuation after a valid character: byte 4 is column 4 (code points [ " é).
  check_error("[\"\xC3\xA9\x80\"]", want{errc::invalid_utf8, 4, 1, 4, "/0"});
  // Outside strings any byte >= 0x80 is unexpected.
  check_error1("[\x80]", errc::unexpected_character, 1, "/0");
  check_error1("\xC3\xA9", errc::unexpected_character, 0, "");
}

TEST_CASE("reader: the boundaries of well-formed UTF-8 are accepted") {
  const char* good[] = {
      "\xC2\x80",          // U+0080
      "\xDF\xBF",          // U+07FF
      "\xE0\xA0\x80",      // U+0800
      "\xE1\x80\x80",      // U+1000
      "\xEC\xBF\xBF",      // U+CFFF
      "\xED\x80\x80",      // U+D000
      "\xED\x9F\xBF",      // U+D7FF
      "\xEE\x80\x80",      // U+E000
      "\xEF\xBF\xBD",      // U+FFFD
      "\xF0\x90\x80\x80",  // U+10000
      "\xF0\x9F\x98\x80",  // U+1F600
      "\xF3\xBF\xBF\xBF",  // U+FFFFF
      "\xF4\x80\x80\x80",  // U+100000
      "\xF4\x8F\xBF\xBD",  // U+10FFFD
      "\x7F",              // DEL needs no escape
  };
  for (const char* g : good) {
    CAPTURE(show(g));
    CHECK(decoded(g) == g);
  }
  // A long string mixing everything (exercises the 8-byte fast path and its tail).
  const std::string mixed = repeat(
      "abcdefgh\xC3\xA9ijklmnop\xE2\x82\xAC"
      "0123456789\xF0\x9F\x98\x80.",
      100);
  CHECK(decoded(mixed) == mixed);
}

TEST_CASE("reader: control characters must be escaped") {
  for (int c = 0; c < 0x20; ++c) {
    CAPTURE(c);
    const std::string raw(1, static_cast<char>(c));
    const auto e = check_error1("[\"" + raw + "\"]", errc::unescaped_control, 2, "/0");
    static const char* hex = "0123456789ABCDEF";
    CHECK(e.message ==
          std::string("control character U+00") + hex[c >> 4] + hex[c & 15] + " must be escaped in a string");
    check_error1("{\"a" + raw + "\":1}", errc::unescaped_control, 3, "");
  }
  // A raw newline in a string: the error is on the line where the string started.
  check_error1("[\"a\nb\"]", errc::unescaped_control, 3, "/0");
  // Escaped, every one of them is fine.
  CHECK(decoded("\\u0000\\u001f\\u001F\\b\\f\\n\\r\\t") == "\0\x1f\x1f\b\f\n\r\t"s);
}

TEST_CASE("reader: escapes") {
  CHECK(decoded(R"(\"\\\/\b\f\n\r\t)") == "\"\\/\b\f\n\r\t");
  CHECK(decoded(R"(\u0041\u00e9\u00E9\u20AC\u20ac)") == "A\xC3\xA9\xC3\xA9\xE2\x82\xAC\xE2\x82\xAC");
  CHECK(decoded(R"(\uD83D\uDE00)") == "\xF0\x9F\x98\x80");
  CHECK(decoded(R"(\ud834\udd1e)") == "\xF0\x9D\x84\x9E");
  CHECK(decoded(R"(\uDBFF\uDFFF)") == "\xF4\x8F\xBF\xBF");
  CHECK(decoded(R"(\u0000)") == "\0"s);
  CHECK(decoded(R"(a\u0062c\nd)") == "abc\nd");
  // Unknown escapes; the error is at the backslash.
  for (const char* esc : {"\\a", "\\x41", "\\U0041", "\\'", "\\0", "\\v", "\\ ", "\\e"}) {
    CAPTURE(esc);
    const auto e = check_error1(std::string("[\"ab") + esc + "\"]", errc::invalid_escape, 4, "/0");
    CHECK(e.message == "invalid escape sequence in a string");
  }
  // \u needs four hex digits.
  const auto hex = check_error1(R"(["\u12G4"])", errc::invalid_escape, 2, "/0");
  CHECK(hex.message == "\\u must be followed by four hex digits");
  check_error1(R"(["\u123"])", errc::invalid_escape, 2, "/0");
  check_error1(R"(["\u"])", errc::invalid_escape, 2, "/0");
  check_error1(R"("\u1")", errc::invalid_escape, 1, "");
  check_error1(R"(["\u-123"])", errc::invalid_escape, 2, "/0");
  // The low half of a pair with a bad digit: the error is at its own backslash.
  check_error1(R"(["\uD800\uDCXX"])", errc::invalid_escape, 8, "/0");
  // The input ends inside the escape.
  check_error1(R"("\u12)", errc::unexpected_end, 5, "");
  check_error1(R"("\)", errc::unexpected_end, 2, "");
  check_error1(R"("\uD800\uDC)", errc::unexpected_end, 11, "");
}

TEST_CASE("reader: lone surrogates") {
  // Lone low surrogate.
  const auto low = check_error1(R"(["\uDC00"])", errc::lone_surrogate, 2, "/0");
  CHECK(low.message == "lone low surrogate \\uDC00 in a string");
  check_error1(R"(["\uDFFF"])", errc::lone_surrogate, 2, "/0");
  // High surrogate at the end of the string, and at the end of the input.
  const auto high = check_error1(R"(["\uD800"])", errc::lone_surrogate, 2, "/0");
  CHECK(high.message == "high surrogate \\uD800 not followed by a low surrogate");
  check_error1(R"("\uDBFF)", errc::lone_surrogate, 1, "");
  check_error1(R"("x\uD800\)", errc::lone_surrogate, 2, "");
  // High surrogate followed by something other than a low surrogate.
  check_error1(R"(["\uD800\u0041"])", errc::lone_surrogate, 2, "/0");
  check_error1(R"(["\uD800\uD800"])", errc::lone_surrogate, 2, "/0");
  check_error1(R"(["\uD800\uE000"])", errc::lone_surrogate, 2, "/0");
  check_error1(R"(["\uD800x"])", errc::lone_surrogate, 2, "/0");
  check_error1(R"(["\uD800\n"])", errc::lone_surrogate, 2, "/0");
  check_error1(R"(["\uD800\\"])", errc::lone_surrogate, 2, "/0");
  // Inverted pair: the low one comes first.
  check_error1(R"(["\uDD1E\uD834"])", errc::lone_surrogate, 2, "/0");
  // After other characters, and in a member name (the object's error).
  check_error1(R"(["abc\uDC00"])", errc::lone_surrogate, 5, "/0");
  check_error1(R"({"\uDFAA":0})", errc::lone_surrogate, 2, "");
}

// --- duplicates ---------------------------------------------------------------------------

TEST_CASE("reader: duplicate member names") {
  const auto e = check_error1(R"({"a":1,"a":2})", errc::duplicate_member, 7, "/a");
  CHECK(e.message == "duplicate member name \"a\"");
  // Names are compared after unescaping.
  check_error1(R"({"a":1,"\u0061":2})", errc::duplicate_member, 7, "/a");
  check_error1(R"({"\u00e9":1,"\u00E9":2})", errc::duplicate_member, 12, "/\xC3\xA9");
  // Byte 8 is column 8: { " é " : 1 , are seven code points.
  check_error("{\"\xC3\xA9\":1,\"\\u00e9\":2}", want{errc::duplicate_member, 8, 1, 8, "/\xC3\xA9"});
  check_error1(R"({"\uD83D\uDE00":1,"😀":2})", errc::duplicate_member, 18, "/😀");
  // At depth, with the pointer of the duplicate. Byte 21 is the quote of "\u0062".
  check_error1(R"({"x":[0,{"b":1,"c":2,"\u0062":3}]})", errc::duplicate_member, 21, "/x/1/b");
  // Pointer escaping of the duplicate's name.
  check_error1(R"({"a/b":1,"a\/b":2})", errc::duplicate_member, 9, "/a~1b");
  check_error1(R"({"m~n":1,"m~n":2})", errc::duplicate_member, 9, "/m~0n");
  check_error1(R"({"":1,"":2})", errc::duplicate_member, 6, "/");
  // Control characters are not shown raw in the message: escaped by the one sanitizer.
  const auto ctl = check_error1(R"({"\n":1,"\n":2})", errc::duplicate_member, 8, "/\n");
  CHECK(ctl.message == "duplicate member name \"\\x0a\"");
  // The duplicate is reported before anything that follows it.
  check_error1(R"({"a":1,"a":tru})", errc::duplicate_member, 7, "/a");
}

TEST_CASE("reader: names that are not duplicates") {
  // No Unicode normalization: precomposed and decomposed e-acute are different names.
  CHECK(parse_ok(R"({"\u00e9":1,"e\u0301":2})").as_object().size() == 2);
  CHECK(parse_ok(R"({"a":1,"A":2,"a ":3," a":4,"aa":5})").as_object().size() == 5);
  // The same name in sibling objects and at other depths.
  parse_ok(R"([{"a":1},{"a":1}])");
  parse_ok(R"({"a":{"a":{"a":1}},"b":{"a":2}})");
}

TEST_CASE("reader: duplicates in large objects (the hashed path)") {
  // Objects of n members k0..k{n-1}, then one more member that repeats k{dup}.
  auto make = [](std::size_t n, std::size_t dup, std::size_t& dup_offset) {
    std::string s = "{";
    for (std::size_t i = 0; i < n; ++i) {
      if (i)
        s += ',';
      s += cat("\"k", i, "\":", i);
    }
    s += ',';
    dup_offset = s.size();
    s += cat("\"k", dup, "\":0}");
    return s;
  };
  for (std::size_t n : {1u, 2u, 15u, 16u, 17u, 18u, 100u, 5000u}) {
    for (std::size_t dup : {std::size_t{0}, n / 2, n - 1}) {
      CAPTURE(n);
      CAPTURE(dup);
      std::size_t at = 0;
      const std::string text = make(n, dup, at);
      check_error1(text, errc::duplicate_member, at, cat("/k", dup));
    }
    // Without the duplicate every member is kept.
    std::string ok = "{";
    for (std::size_t i = 0; i <= n; ++i)
      ok += cat(i ? ",\"k" : "\"k", i, "\":", i);
    ok += '}';
    CHECK(parse_ok(ok).as_object().size() == n + 1);
  }
}

// --- numbers ------------------------------------------------------------------------------

TEST_CASE("reader: numbers are the nearest double") {
  CHECK(number("0") == 0.0);
  CHECK(!std::signbit(number("0")));
  CHECK(number("-0") == 0.0);
  CHECK(std::signbit(number("-0")));
  CHECK(std::signbit(number("-0.0e5")));
  CHECK(number("1") == 1.0);
  CHECK(number("-1") == -1.0);
  CHECK(number("1.5") == 1.5);
  CHECK(number("1e2") == 100.0);
  CHECK(number("1E2") == 100.0);
  CHECK(number("1e+2") == 100.0);
  CHECK(number("1e-2") == 0.01);
  CHECK(number("0.1") == 0.1);
  CHECK(number("0e0") == 0.0);
  CHECK(number("123456789") == 123456789.0);
  CHECK(number("4.50") == 4.5);
  CHECK(number("1.7976931348623157e308") == std::numeric_limits<double>::max());
  CHECK(number("-1.7976931348623157e308") == -std::numeric_limits<double>::max());
  CHECK(number("1.7976931348623158e308") == std::numeric_limits<double>::max());  // rounds down
  CHECK(number("2.2250738585072014e-308") == std::numeric_limits<double>::min());
  // Subnormals are fine.
  CHECK(number("5e-324") == std::numeric_limits<double>::denorm_min());
  CHECK(number("-5e-324") == -std::numeric_limits<double>::denorm_min());
  CHECK(number("3e-324") == std::numeric_limits<double>::denorm_min());
  CHECK(number("1e-320") == 1e-320);
  // Correct rounding, ties to even.
  CHECK(number("9007199254740993") == 9007199254740992.0);
  CHECK(number("9007199254740995") == 9007199254740996.0);
  CHECK(number("18446744073709551615") == 18446744073709551616.0);
  CHECK(number("333333333.33333329") == 333333333.3333333);
  CHECK(number("2.4703282292062328e-324") == std::numeric_limits<double>::denorm_min());
  // Many digits.
  CHECK(number("1" + std::string(400, '0') + "e-400") == 1.0);
  CHECK(number("0." + std::string(300, '0') + "1e301") == 1.0);
  CHECK(number(std::string(1000, '9') + "e-1000") == 1.0);
}

TEST_CASE("reader: underflow rounds to zero") {
  CHECK(number("1e-400") == 0.0);
  CHECK(!std::signbit(number("1e-400")));
  CHECK(number("-1e-400") == 0.0);
  CHECK(std::signbit(number("-1e-400")));
  CHECK(number("2e-324") == 0.0);
  CHECK(number("2.4703282292062327e-324") == 0.0);  // just below half of the least subnormal
  CHECK(number("0." + std::string(400, '0') + "1") == 0.0);
  CHECK(number("123e-999999999999") == 0.0);
  CHECK(number("0e999999999999") == 0.0);
  CHECK(number("0.000e400") == 0.0);
}

TEST_CASE("reader: overflow to infinity is an error") {
  const auto e = check_error1("1e400", errc::number_overflow, 0, "");
  CHECK(e.message == "number is too large for a double (overflows to infinity)");
  check_error1("[1e400]", errc::number_overflow, 1, "/0");
  check_error1("-1e400", errc::number_overflow, 0, "");
  check_error1("1.7976931348623159e308", errc::number_overflow, 0, "");
  check_error1(R"({"n":123e999})", errc::number_overflow, 5, "/n");
  check_error1("1" + std::string(400, '0'), errc::number_overflow, 0, "");
  check_error1("0.0001e999999999999", errc::number_overflow, 0, "");
  check_error1("1e99999999999999999999999999", errc::number_overflow, 0, "");
}

TEST_CASE("reader: number grammar") {
  const auto lead = check_error1("01", errc::invalid_number, 0, "");
  CHECK(lead.message == "invalid number: leading zero");
  check_error1("[-01]", errc::invalid_number, 1, "/0");
  check_error1("00", errc::invalid_number, 0, "");
  check_error1("-00", errc::invalid_number, 0, "");
  check_error1("[007]", errc::invalid_number, 1, "/0");
  const auto plus = check_error1("+1", errc::invalid_number, 0, "");
  CHECK(plus.message == "invalid number: a leading '+' is not allowed");
  check_error1("[+1]", errc::invalid_number, 1, "/0");
  const auto dot = check_error1(".5", errc::invalid_number, 0, "");
  CHECK(dot.message == "invalid number: a digit must precede '.'");
  check_error1(R"({"x":.5})", errc::invalid_number, 5, "/x");
  check_error1("-.5", errc::invalid_number, 0, "");
  const auto point = check_error1("1.", errc::invalid_number, 0, "");
  CHECK(point.message == "invalid number: a digit must follow '.'");
  check_error1("[1.]", errc::invalid_number, 1, "/0");
  check_error1("1.e5", errc::invalid_number, 0, "");
  check_error1("2.x", errc::invalid_number, 0, "");
  const auto ex = check_error1("1e", errc::invalid_number, 0, "");
  CHECK(ex.message == "invalid number: a digit must follow the exponent");
  check_error1("1e+", errc::invalid_number, 0, "");
  check_error1("1E-", errc::invalid_number, 0, "");
  check_error1("[1e]", errc::invalid_number, 1, "/0");
  check_error1("1e+-1", errc::invalid_number, 0, "");
  const auto minus = check_error1("-", errc::invalid_number, 0, "");
  CHECK(minus.message == "invalid number: a digit must follow '-'");
  check_error1("[-]", errc::invalid_number, 1, "/0");
  check_error1("-a", errc::invalid_number, 0, "");
  check_error1("--1", errc::invalid_number, 0, "");
  check_error1("-Infinity", errc::invalid_number, 0, "");
  // What a number cannot contain shows up after it.
  check_error1("[0x10]", errc::unexpected_character, 2, "");
  check_error1("[1.5.3]", errc::unexpected_character, 4, "");
  check_error1("[1 000]", errc::unexpected_character, 3, "");
  check_error1("[1,000]", errc::invalid_number, 3, "/1");
  // '+' and '.' that do not start a number are stray characters.
  check_error1("[+]", errc::unexpected_character, 1, "/0");
  check_error1("[.]", errc::unexpected_character, 1, "/0");
}

// --- noncharacters ------------------------------------------------------------------------

TEST_CASE("reader: noncharacters are accepted by default and rejected in strict mode") {
  json::limits strict;
  strict.reject_noncharacters = true;
  struct nc {
    const char* raw;
    const char* escaped;
    const char* shown;
  };
  const nc cases[] = {
      {"\xEF\xB7\x90", "\\uFDD0", "FDD0"},
      {"\xEF\xB7\xAF", "\\ufdef", "FDEF"},
      {"\xEF\xBF\xBE", "\\uFFFE", "FFFE"},
      {"\xEF\xBF\xBF", "\\uffff", "FFFF"},
      {"\xF0\x9F\xBF\xBE", "\\uD83F\\uDFFE", "1FFFE"},
      {"\xF0\x9F\xBF\xBF", "\\uD83F\\uDFFF", "1FFFF"},
      {"\xF3\xBF\xBF\xBE", "\\uDBBF\\uDFFE", "FFFFE"},
      {"\xF4\x8F\xBF\xBE", "\\uDBFF\\uDFFE", "10FFFE"},
      {"\xF4\x8F\xBF\xBF", "\\uDBFF\\uDFFF", "10FFFF"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.shown);
    CHECK(decoded(c.raw) == c.raw);
    CHECK(decoded(c.escaped) == c.raw);
    // Raw: at the first byte of the sequence; escaped: at the backslash. Byte 3 is column 4.
    const auto raw = check_error1("[\"x" + std::string(c.raw) + "\"]", errc::noncharacter, 3, "/0", strict);
    CHECK(raw.message == std::string("noncharacter U+") + c.shown + " in a string");
    const auto esc = check_error1("[\"x" + std::string(c.escaped) + "\"]", errc::noncharacter, 3, "/0", strict);
    CHECK(esc.message == std::string("noncharacter U+") + c.shown + " in a string");
    // In member names too.
    check_error1("{\"" + std::string(c.raw) + "\":1}", errc::noncharacter, 2, "", strict);
    check_error1("{\"" + std::string(c.escaped) + "\":1}", errc::noncharacter, 2, "", strict);
  }
  // Their neighbours are ordinary characters, also in strict mode.
  for (const char* ok : {"\xEF\xB7\x8F", "\xEF\xB7\xB0", "\xEF\xBF\xBD", "\xF0\x9F\xBF\xBD", "\xF4\x8F\xBF\xBD",
                         "\\uFDCF", "\\uFDF0", "\\uFFFD", "\\uD83F\\uDFFD", "\\uDBFF\\uDFFD"}) {
    CAPTURE(show(ok));
    decoded(ok, strict);
  }
}

// --- limits -------------------------------------------------------------------------------

TEST_CASE("reader: depth 64 passes, 65 fails (arrays)") {
  CHECK(json::limits{}.max_depth == 64);
  parse_ok(repeat("[", 64) + repeat("]", 64));
  parse_ok(repeat("[", 64) + "1" + repeat("]", 64));
  // The 65th '[' is byte 64; the value being opened is /0/0/.../0 (64 tokens).
  const auto e = check_error1(repeat("[", 65) + repeat("]", 65), errc::depth_limit, 64, repeat("/0", 64));
  CHECK(e.message == "nesting deeper than 64 levels");
  // Far deeper input fails as fast, without recursion trouble.
  check_error1(repeat("[", 1000000), errc::depth_limit, 64, repeat("/0", 64));
}

TEST_CASE("reader: depth 64 passes, 65 fails (objects)") {
  parse_ok(repeat("{\"a\":", 63) + "{}" + repeat("}", 63));
  parse_ok(repeat("{\"a\":", 64) + "1" + repeat("}", 64));
  // The 65th '{' is at byte 64 * 5 = 320.
  check_error1(repeat("{\"a\":", 65) + "1" + repeat("}", 65), errc::depth_limit, 320, repeat("/a", 64));
  // Mixed: 32 objects and 32 arrays alternating pass; one more array fails.
  parse_ok(repeat("{\"a\":[", 32) + repeat("]}", 32));
  check_error1(repeat("{\"a\":[", 32) + "[]" + repeat("]}", 32), errc::depth_limit, 32 * 6, repeat("/a/0", 32));
}

TEST_CASE("reader: a raised depth limit does not exhaust the stack") {
  // The DOM builder, the canonical writer and the destructor keep their own stacks, so a
  // caller may raise max_depth far above the default.
  json::limits deep;
  deep.max_depth = 300000;
  const std::string arrays = repeat("[", 200000) + "1" + repeat("]", 200000);
  const std::string objects = repeat("{\"a\":", 200000) + "[]" + repeat("}", 200000);
  for (const std::string* text : {&arrays, &objects}) {
    auto v = json::parse(*text, deep);
    REQUIRE(v.has_value());
    auto c = json::to_canonical(*v);
    REQUIRE(c.has_value());
    CHECK(*c == *text);
    auto copy = json::canonicalize(*c, deep);
    REQUIRE(copy.has_value());
    CHECK(*copy == *text);
  }
  // An error at the bottom of a deep document carries the whole pointer.
  const auto e =
      check_error1(repeat("[", 100000) + "x", errc::unexpected_character, 100000, repeat("/0", 100000), deep);
  CHECK(e.pointer.size() == 200000);
}

TEST_CASE("reader: configured depth") {
  json::limits one;
  one.max_depth = 1;
  parse_ok("[]", one);
  parse_ok("[1,2]", one);
  parse_ok(R"({"a":1})", one);
  check_error1("[[]]", errc::depth_limit, 1, "/0", one);
  check_error1(R"({"a":{}})", errc::depth_limit, 5, "/a", one);
  json::limits zero;
  zero.max_depth = 0;
  parse_ok("1", zero);
  parse_ok("\"s\"", zero);
  check_error1("[]", errc::depth_limit, 0, "", zero);
  check_error1("{}", errc::depth_limit, 0, "", zero);
}

namespace {
std::string object_of(std::size_t n, std::size_t& last_name_offset) {
  std::string s = "{";
  for (std::size_t i = 0; i < n; ++i) {
    if (i)
      s += ',';
    last_name_offset = s.size();
    s += cat("\"m", i, "\":0");
  }
  return s + "}";
}
}  // namespace

TEST_CASE("reader: 10,000 members pass, 10,001 fail") {
  CHECK(json::limits{}.max_members == 10000);
  std::size_t at = 0;
  CHECK(parse_ok(object_of(10000, at)).as_object().size() == 10000);
  const std::string text = object_of(10001, at);
  // The error is at the quote of the 10,001st name and belongs to the object.
  const auto e = check_error1(text, errc::member_limit, at, "");
  CHECK(e.message == "object has more than 10000 members");
  // Nested: the pointer is the object's.
  check_error1("{\"o\":" + text + "}", errc::member_limit, at + 5, "/o");
  check_error1("[1," + text + "]", errc::member_limit, at + 3, "/1");
  // Arrays have no member limit.
  CHECK(parse_ok("[" + repeat("0,", 20000) + "0]").as_array().size() == 20001);
}

TEST_CASE("reader: configured member limit") {
  json::limits two;
  two.max_members = 2;
  parse_ok(R"({"a":1,"b":2})", two);
  parse_ok(R"({"a":{"x":1,"y":2},"b":2})", two);
  check_error1(R"({"a":1,"b":2,"c":3})", errc::member_limit, 13, "", two);
  json::limits none;
  none.max_members = 0;
  parse_ok("{}", none);
  check_error1(R"({"a":1})", errc::member_limit, 1, "", none);
}

TEST_CASE("reader: 1,048,576 code points per string pass, one more fails") {
  CHECK(json::limits{}.max_string_chars == 1048576);
  // 4 code points in 10 bytes: 1, 2, 3 and 4-byte UTF-8.
  const std::string unit = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  const std::string full = repeat(unit, 1048576 / 4);
  REQUIRE(full.size() == 2621440);
  CHECK(decoded(full) == full);
  const auto e = check_error1("[\"" + full + "a\"]", errc::string_limit, 1, "/0");
  CHECK(e.message == "string of 1048577 code points is longer than the limit of 1048576");
  check_error1("[\"" + full + "\xF0\x9F\x98\x80\"]", errc::string_limit, 1, "/0");
  // Escapes count as the code points they decode to: a pair is one.
  const std::string escaped = repeat("a", 1048575) + "\\uD83D\\uDE00";
  CHECK(decoded(escaped).size() == 1048575 + 4);
  check_error1("[\"" + escaped + "\\u0041\"]", errc::string_limit, 1, "/0");
  // Member names are strings too.
  check_error1("{\"" + full + "a\":1}", errc::string_limit, 1, "");
  parse_ok("{\"" + full + "\":1}");
}

TEST_CASE("reader: configured string limit") {
  json::limits three;
  three.max_string_chars = 3;
  parse_ok(R"(["abc","\u0041\u0042\u0043",""])", three);
  parse_ok("[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"]", three);
  const auto e = check_error1(
      "[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
      "a\"]",
      errc::string_limit, 1, "/0", three);
  CHECK(e.message == "string of 4 code points is longer than the limit of 3");
  check_error1(R"({"abcd":1})", errc::string_limit, 1, "", three);
  check_error1(R"({"abc":"a\nbc"})", errc::string_limit, 7, "/abc", three);
}

TEST_CASE("reader: maximum input size") {
  json::limits four;
  four.max_input_bytes = 4;
  parse_ok("[12]", four);
  parse_ok("[1] ", four);
  const auto e = check_error1("[123]", errc::size_limit, 4, "", four);
  CHECK(e.message == "input is 5 bytes, more than the limit of 4");
  // The size is checked before anything else, the byte-order mark included.
  // Byte 4 is column 3: the mark is one code point.
  check_error("\xEF\xBB\xBF{} ", want{errc::size_limit, 4, 1, 3, ""}, four);
  json::limits zero;
  zero.max_input_bytes = 0;
  check_error1("", errc::unexpected_end, 0, "", zero);
  check_error1("1", errc::size_limit, 0, "", zero);
}

// --- error reports ------------------------------------------------------------------------

TEST_CASE("reader: error format") {
  // Line 1 is 14 bytes with its LF, line 2 is 25; the second "runs" opens at byte
  // 14 + 25 + 13 = 52, which is column 14 of line 3.
  const std::string text =
      "{\"results\": {\n"
      "  \"runs\": [10, 2, 3, 4],\n"
      "  \"okay\": 1, \"runs\": 2}}";
  const auto e = check_error(text, want{errc::duplicate_member, 52, 3, 14, "/results/runs"});
  CHECK(e.format() == "line 3, column 14 (byte 52) at /results/runs: duplicate member name \"runs\"");

  // Columns count code points: byte 13 is column 8 after two 4-byte characters.
  const auto cp =
      check_error("[\"\xF0\x9F\x98\x80\xF0\x9F\x98\x80\", x]", want{errc::unexpected_character, 13, 1, 8, "/1"});
  CHECK(cp.format() == "line 1, column 8 (byte 13) at /1: unexpected 'x', expected a JSON value");

  // CRLF line ends: the CR is the last column of its line.
  const auto crlf =
      check_error("{\r\n\"\xC3\xBC\": 1,\r\n \"\xC3\xBC\": 2}", want{errc::duplicate_member, 14, 3, 2, "/\xC3\xBC"});
  CHECK(crlf.format() == "line 3, column 2 (byte 14) at /\xC3\xBC: duplicate member name \"\xC3\xBC\"");

  // At the root there is no pointer part.
  const auto root = check_error1("x", errc::unexpected_character, 0, "");
  CHECK(root.format() == "line 1, column 1 (byte 0): unexpected 'x', expected a JSON value");

  // Errors not tied to input.
  const auto plain = assay::make_error(errc::io_error, "cannot read events.ndjson");
  CHECK_FALSE(plain.has_position());
  CHECK(plain.format() == "cannot read events.ndjson");
  const auto pointed = assay::make_error(errc::type_mismatch, "expected a string", "/a/0");
  CHECK(pointed.format() == "at /a/0: expected a string");
  CHECK(pointed.format_pointer_line() == "/a/0: expected a string");
  CHECK(plain.format_pointer_line() == "(root): cannot read events.ndjson");

  assay::errors both;
  both.items.push_back(root);
  both.items.push_back(pointed);
  CHECK(both.format() ==
        "line 1, column 1 (byte 0): unexpected 'x', expected a JSON value\nat /a/0: expected a string");
}

TEST_CASE("reader: error codes are stable") {
  CHECK(static_cast<int>(errc::unexpected_end) == 100);
  CHECK(static_cast<int>(errc::size_limit) == 116);
  CHECK(static_cast<int>(errc::type_mismatch) == 200);
  CHECK(static_cast<int>(errc::invalid_pointer) == 300);
  CHECK(static_cast<int>(errc::io_error) == 400);
  CHECK(code_name(errc::duplicate_member) == "duplicate_member");
  CHECK(code_name(errc::lone_surrogate) == "lone_surrogate");
  CHECK(code_name(errc::not_finite) == "not_finite");
  CHECK(code_name(static_cast<errc>(999)) == "unknown");
  for (int c = 100; c <= 116; ++c)
    CHECK(code_name(static_cast<errc>(c)) != "unknown");
}

TEST_CASE("reader: result<T>::value() throws assay::exception") {
  auto r = json::parse("[1,]");
  REQUIRE_FALSE(r.has_value());
  bool thrown = false;
  try {
    (void)r.value();
  } catch (const assay::exception& ex) {
    thrown = true;
    CHECK(ex.code() == errc::unexpected_character);
    CHECK(std::string(ex.what()) ==
          "line 1, column 4 (byte 3): unexpected ']', expected a value after ',' (trailing comma)");
    CHECK(ex.all().size() == 1);
  }
  CHECK(thrown);
}

// --- the pull cursor ----------------------------------------------------------------------

TEST_CASE("reader: cursor walk") {
  const std::string text = R"( {"k":"v","esc":"a\nb","n":[1.5,true,null]} )";
  json::cursor c(text);
  REQUIRE(c.peek() == json::token::object);
  CHECK(c.value_offset() == 1);
  REQUIRE(c.enter_object());
  CHECK(c.depth() == 1);
  std::string_view name;
  REQUIRE(c.next_member(name));
  CHECK(std::string(name) == "k");
  CHECK(c.name_offset() == 2);
  std::string_view s;
  REQUIRE(c.read_string(s));
  CHECK(std::string(s) == "v");
  // A string without escapes is a view into the input.
  CHECK(s.data() == text.data() + 7);
  REQUIRE(c.next_member(name));
  CHECK(std::string(name) == "esc");
  CHECK(c.pointer() == "/esc");
  REQUIRE(c.read_string(s));
  CHECK(std::string(s) == "a\nb");
  REQUIRE(c.next_member(name));
  CHECK(c.peek() == json::token::array);
  REQUIRE(c.enter_array());
  CHECK(c.depth() == 2);
  REQUIRE(c.next_element());
  double d = 0;
  REQUIRE(c.read_number(d));
  CHECK(d == 1.5);
  REQUIRE(c.next_element());
  CHECK(c.pointer() == "/n/1");
  CHECK(c.pointer_to_member("x/y") == "/n/x~1y");
  bool b = false;
  REQUIRE(c.read_bool(b));
  CHECK(b);
  REQUIRE(c.next_element());
  REQUIRE(c.read_null());
  CHECK_FALSE(c.next_element());  // the closing bracket
  CHECK(c.ok());
  CHECK(c.depth() == 1);
  CHECK(c.pointer() == "/n");  // after the array: the pointer of the array itself
  CHECK_FALSE(c.next_member(name));
  CHECK(c.ok());
  CHECK(c.depth() == 0);
  CHECK(c.peek() == json::token::end);
  CHECK(c.finish());
}

TEST_CASE("reader: a failed cursor stays failed") {
  json::cursor c("[1,x]");
  REQUIRE(c.enter_array());
  REQUIRE(c.next_element());
  double d = 0;
  REQUIRE(c.read_number(d));
  REQUIRE(c.next_element());
  CHECK(c.peek() == json::token::error);
  CHECK_FALSE(c.ok());
  const assay::error first = c.error();
  CHECK(first.offset == 3);
  CHECK(first.pointer == "/1");
  CHECK_FALSE(c.next_element());
  CHECK_FALSE(c.read_number(d));
  CHECK_FALSE(c.finish());
  CHECK(c.peek() == json::token::error);
  CHECK(c.error() == first);  // the first error is kept

  // A cursor over a BOM starts failed.
  json::cursor bom("\xEF\xBB\xBF[]");
  CHECK_FALSE(bom.ok());
  CHECK(bom.peek() == json::token::error);
  CHECK(bom.error().code == errc::byte_order_mark);

  // Reading the wrong kind of value.
  json::cursor wrong("{}");
  std::string_view s;
  CHECK_FALSE(wrong.read_string(s));
  CHECK(wrong.error().code == errc::unexpected_character);
  CHECK(wrong.error().message == "unexpected '{', expected a string");
}

TEST_CASE("reader: make_error locates any offset, in any order") {
  const std::string text = "[\"\xC3\xA9\",\n  1,\r\n\"x\xF0\x9F\x98\x80y\", 2\n]";
  json::cursor c(text);
  // Every offset, forwards, backwards and jumping about, agrees with line_and_column().
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i <= text.size(); ++i)
    order.push_back(i);
  for (std::size_t i = text.size() + 1; i-- > 0;)
    order.push_back(i);
  for (std::size_t i = 0; i <= text.size(); ++i)
    order.push_back((i * 7) % (text.size() + 1));
  order.push_back(text.size() + 100);  // clamped to the end
  for (std::size_t at : order) {
    CAPTURE(at);
    std::size_t line = 0, column = 0;
    json::line_and_column(text, at, line, column);
    const assay::error e = c.make_error(errc::type_mismatch, at, "m");
    CHECK(e.line == line);
    CHECK(e.column == column);
    CHECK(e.offset == at);
  }
  std::size_t line = 0, column = 0;
  json::line_and_column(text, 19, line, column);  // the 'y' after the emoji
  CHECK(line == 3);
  CHECK(column == 4);

  // Many errors over a long one-line input cost one pass, not one per error.
  const std::string long_line(20000000, ' ');
  json::cursor lc(long_line);
  for (std::size_t i = 1; i <= 2000; ++i) {
    const assay::error e = lc.make_error(errc::type_mismatch, i * 10000, "m");
    REQUIRE(e.column == i * 10000 + 1);
  }
}

TEST_CASE("reader: skip_value validates as strictly as reading") {
  json::cursor ok(R"([{"a":[1,2,{"b":null}]},3])");
  REQUIRE(ok.enter_array());
  REQUIRE(ok.next_element());
  REQUIRE(json::skip_value(ok));
  REQUIRE(ok.next_element());
  double d = 0;
  REQUIRE(ok.read_number(d));
  CHECK(d == 3);
  CHECK_FALSE(ok.next_element());
  CHECK(ok.finish());

  json::cursor dup(R"([{"a":1,"a":2}])");
  REQUIRE(dup.enter_array());
  REQUIRE(dup.next_element());
  CHECK_FALSE(json::skip_value(dup));
  CHECK(dup.error().code == errc::duplicate_member);
  CHECK(dup.error().pointer == "/0/a");
}

// --- robustness ---------------------------------------------------------------------------

TEST_CASE("reader: every proper prefix of a document is rejected, within bounds") {
  const std::string doc =
      "{\"a\": [1, -2.5e-3, true, false, null, \"x\\u00e9\\uD83D\\uDE00\xC3\xA9\"],\n"
      " \"b\": {\"c\": {}, \"d\": []}, \"e\": 0}";
  parse_ok(doc);
  for (std::size_t n = 0; n < doc.size(); ++n) {
    CAPTURE(n);
    const std::string prefix = doc.substr(0, n);
    auto r = json::parse(prefix);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().offset <= n);
    CHECK(r.error().line >= 1);
    CHECK(r.error().column >= 1);
  }
}

TEST_CASE("reader: mutated documents never crash") {
  // Deterministic single-byte mutations and truncations; run under the sanitizers this checks
  // that no input reads out of bounds.
  const std::string doc = R"({"a":[1,-2.5e-3,true,false,null,"x\u00e9\uD83D\uDE00"],"b":{"c":{},"d":[]},"e":0})";
  const char alphabet[] = {'"', '\\', '[',    ']',    '{',    '}',    ',',    ':',    '0',    '-',    'e', '.',
                           'u', 'D',  '\x00', '\x1f', '\x7f', '\x80', '\xC3', '\xED', '\xF4', '\xFF', ' ', 'n'};
  std::uint32_t state = 12345;
  std::size_t accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    state = state * 1664525u + 1013904223u;
    std::string m = doc;
    const std::size_t pos = (state >> 8) % m.size();
    m[pos] = alphabet[(state >> 3) % sizeof alphabet];
    if ((state & 7) == 0)
      m.resize(pos);
    auto r = json::parse(m);
    if (r) {
      ++accepted;
    } else {
      CHECK(r.error().offset <= m.size());
    }
  }
  MESSAGE(accepted << " of 20000 mutated documents were still valid");
}

TEST_CASE("reader: large inputs take linear time") {
  // Would take minutes if duplicate detection, string scanning or number parsing were
  // quadratic; linear, it is well under a second.
  json::limits big;
  big.max_members = 1000000;
  std::string obj = "{";
  for (std::size_t i = 0; i < 200000; ++i) {
    if (i)
      obj += ',';
    obj += cat("\"member", i, "\":", i);
  }
  obj += '}';
  const json::value v = parse_ok(obj, big);
  CHECK(v.as_object().size() == 200000);
  CHECK(v == v);

  // One long string with escapes all through it, one long number, one long array.
  big.max_string_chars = 10000000;
  const std::string s = "\"" + repeat("abc\\n\\u00e9\\uD83D\\uDE00", 300000) + "\"";
  CHECK(parse_ok(s, big).as_string().size() == 300000 * 10);
  CHECK(number(std::string(2000000, '7') + "e-2000000") > 0);
  CHECK(parse_ok("[" + repeat("[1,{\"a\":\"b\"}],", 200000) + "0]").as_array().size() == 200001);
}
