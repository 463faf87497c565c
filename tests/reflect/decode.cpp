// Typed decoding: every constraint type accepted and rejected with the exact error (code,
// message, pointer, offset, line, column); unknown, missing and duplicate members; type
// mismatches for every pair; integers; nullable vs optional; all errors of one document.
#include "support.hpp"

#include "reflect/check_error.hpp"

#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

using assay::errc;
using assay_test::check_error;
using assay_test::check_errors;

namespace {

template <class T>
struct one {
  T v;
};

struct point {
  int x;
  std::optional<int> y;
};

// Decodes {"v":<value>} as one<T> and expects success.
template <class T>
T decode_ok(const std::string& value) {
  const std::string doc = "{\"v\":" + value + "}";
  INFO("document: " << doc);
  auto r = assay::decode<one<T>>(doc);
  if (!r)
    FAIL_CHECK("unexpected errors: " << r.error().format());
  REQUIRE(r.has_value());
  return std::move(r->v);
}

// Decodes {"v":<value>} as one<T> and expects exactly one error about the value at offset 5.
template <class T>
void decode_fails(const std::string& value, errc code, std::string_view message) {
  const std::string doc = "{\"v\":" + value + "}";
  INFO("document: " << doc);
  auto r = assay::decode<one<T>>(doc);
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{code, message, "/v", 5, 1, 6}});
}

// One value of every JSON kind.
struct kind_sample {
  const char* text;
  const char* found;
};
constexpr kind_sample samples[] = {
    {"null", "null"},     {"true", "a boolean"},      {"false", "a boolean"}, {"0", "a number"},
    {"-2.5", "a number"}, {"\"s\"", "a string"},      {"[]", "an array"},     {"[1]", "an array"},
    {"{}", "an object"},  {"{\"x\":1}", "an object"},
};

}  // namespace

// Decodes every sample as one<T>: those in `accepted` must decode, those in `other` must fail
// for another reason than their JSON type (tested separately), every other one must be a type
// mismatch naming the expected and the found JSON type.
template <class T>
static void check_type_pairs(std::string_view expected_name, std::initializer_list<std::string_view> accepted,
                             std::initializer_list<std::string_view> other = {}) {
  for (const auto& s : samples) {
    const std::string text = s.text;
    CAPTURE(text);
    auto in = [&](std::initializer_list<std::string_view> l) {
      for (auto a : l)
        if (a == s.text)
          return true;
      return false;
    };
    const std::string doc = std::string("{\"v\":") + s.text + "}";
    auto r = assay::decode<one<T>>(doc);
    if (in(accepted)) {
      if (!r)
        FAIL_CHECK("rejected: " << r.error().format());
      continue;
    }
    REQUIRE_FALSE(r.has_value());
    if (in(other)) {
      CHECK_FALSE((r.error().front().code == errc::type_mismatch && r.error().front().pointer == "/v"));
      continue;
    }
    const std::string message = "expected " + std::string(expected_name) + ", found " + s.found;
    check_errors(r.error(), {{errc::type_mismatch, message, "/v", 5, 1, 6}});
  }
}

TEST_CASE("type mismatches: every expected type against every JSON kind") {
  using assay::json::value;
  check_type_pairs<bool>("a boolean", {"true", "false"});
  check_type_pairs<std::string>("a string", {"\"s\""});
  check_type_pairs<double>("a number", {"0", "-2.5"});
  check_type_pairs<float>("a number", {"0", "-2.5"});
  check_type_pairs<std::vector<int>>("an array", {"[]", "[1]"});
  check_type_pairs<std::vector<std::string>>("an array", {"[]"}, {"[1]"});
  check_type_pairs<std::map<std::string, int>>("an object", {"{}", "{\"x\":1}"});
  check_type_pairs<point>("an object", {"{\"x\":1}"}, {"{}"});
  check_type_pairs<assay::const_string<"s">>("a string", {"\"s\""});
  check_type_pairs<assay::one_of<"s", "t">>("a string", {"\"s\""});
  check_type_pairs<assay::non_empty>("a string", {"\"s\""});
  check_type_pairs<assay::date_time>("a string", {}, {"\"s\""});
  check_type_pairs<assay::list<int>>("an array", {"[]", "[1]"});
  check_type_pairs<std::array<int, 1>>("an array", {"[1]"}, {"[]"});
  check_type_pairs<assay::nullable<std::string>>("a string", {"null", "\"s\""});
  check_type_pairs<assay::nullable<bool>>("a boolean", {"null", "true", "false"});
  check_type_pairs<assay::nullable<point>>("an object", {"null", "{\"x\":1}"}, {"{}"});
  // null for a std::optional member is a type mismatch: absent is the only way to say "none".
  check_type_pairs<std::optional<std::string>>("a string", {"\"s\""});
  check_type_pairs<std::optional<bool>>("a boolean", {"true", "false"});
  // Integers: a number with a fraction is not a type mismatch but not_an_integer (below).
  check_type_pairs<int>("an integer", {"0"}, {"-2.5"});
  check_type_pairs<assay::bounded<std::int64_t, 0>>("an integer", {"0"}, {"-2.5"});
  check_type_pairs<assay::bounded<double, -5, 5>>("a number", {"0", "-2.5"});

  // Any JSON value is accepted by json::value.
  for (const auto& s : samples) {
    const std::string text = s.text;
    CAPTURE(text);
    auto r = assay::decode<one<value>>(std::string("{\"v\":") + s.text + "}");
    CHECK(r.has_value());
  }
}

TEST_CASE("the failing cases of the kind table") {
  decode_fails<int>("-2.5", errc::not_an_integer, "expected an integer, found -2.5");
  auto r = assay::decode<one<std::vector<std::string>>>(R"({"v":[1]})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::type_mismatch, "expected a string, found a number", "/v/0", 6, 1, 7}});
  decode_fails<std::array<int, 1>>("[]", errc::too_few_items, "array has 0 items, fewer than the minimum 1");
  decode_fails<assay::date_time>(R"("s")", errc::format_mismatch, R"("s" is not an RFC 3339 date-time)");
}

TEST_CASE("nested type mismatch pointers") {
  auto r = assay::decode<one<std::vector<std::string>>>(R"({"v":["a",1]})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::type_mismatch, "expected a string, found a number", "/v/1", 10, 1, 11}});
  auto d = assay::decode<one<point>>(R"({"v":{}})");
  REQUIRE_FALSE(d.has_value());
  check_errors(d.error(), {{errc::missing_member, "required member \"x\" is missing", "/v/x", 5, 1, 6}});
}

TEST_CASE("booleans, strings and numbers decode to their values") {
  CHECK(decode_ok<bool>("true") == true);
  CHECK(decode_ok<bool>("false") == false);
  CHECK(decode_ok<std::string>(R"("a\u00e9\"\\\/\n")") == "a\xc3\xa9\"\\/\n");
  CHECK(decode_ok<double>("1.5e3") == 1500.0);
  CHECK(decode_ok<double>("-0.000001") == -0.000001);
  CHECK(std::signbit(decode_ok<double>("-0")));
  CHECK(decode_ok<float>("0.5") == 0.5f);
}

TEST_CASE("integers: integral doubles accepted, fractions and out-of-range rejected") {
  CHECK(decode_ok<int>("1") == 1);
  CHECK(decode_ok<int>("1.0") == 1);
  CHECK(decode_ok<int>("1e2") == 100);
  CHECK(decode_ok<int>("1E2") == 100);
  CHECK(decode_ok<int>("0.5e1") == 5);
  CHECK(decode_ok<int>("-0") == 0);
  CHECK(decode_ok<int>("-0.0") == 0);
  CHECK(decode_ok<unsigned>("-0") == 0u);
  CHECK(decode_ok<std::uint64_t>("-0") == 0u);
  decode_fails<int>("1.5", errc::not_an_integer, "expected an integer, found 1.5");
  decode_fails<int>("-0.5", errc::not_an_integer, "expected an integer, found -0.5");
  decode_fails<int>("1e-7", errc::not_an_integer, "expected an integer, found 1e-7");
  decode_fails<std::uint64_t>("0.1", errc::not_an_integer, "expected an integer, found 0.1");

  // int8
  CHECK(decode_ok<std::int8_t>("127") == 127);
  CHECK(decode_ok<std::int8_t>("-128") == -128);
  decode_fails<std::int8_t>("128", errc::not_an_integer, "128 is out of range for this member");
  decode_fails<std::int8_t>("-129", errc::not_an_integer, "-129 is out of range for this member");
  // uint8 / uint16 / int32
  CHECK(decode_ok<std::uint8_t>("255") == 255);
  decode_fails<std::uint8_t>("256", errc::not_an_integer, "256 is out of range for this member");
  decode_fails<std::uint8_t>("-1", errc::not_an_integer, "-1 is out of range for this member");
  CHECK(decode_ok<std::uint16_t>("65535") == 65535);
  decode_fails<std::uint16_t>("65536", errc::not_an_integer, "65536 is out of range for this member");
  CHECK(decode_ok<std::int32_t>("-2147483648") == std::numeric_limits<std::int32_t>::min());
  decode_fails<std::int32_t>("2147483648", errc::not_an_integer, "2147483648 is out of range for this member");
  // 64-bit integers are read from their digits, exactly: a value is never rounded.
  CHECK(decode_ok<std::int64_t>("-9223372036854775808") == std::numeric_limits<std::int64_t>::min());
  CHECK(decode_ok<std::int64_t>("9223372036854775807") == std::numeric_limits<std::int64_t>::max());
  CHECK(decode_ok<std::int64_t>("9223372036854774784") == 9223372036854774784LL);
  decode_fails<std::int64_t>("9223372036854775808", errc::not_an_integer,
                             "9223372036854775808 is out of range for this member");
  decode_fails<std::int64_t>("-9223372036854775809", errc::not_an_integer,
                             "-9223372036854775809 is out of range for this member");
  decode_fails<std::int64_t>("12345678901234567891", errc::not_an_integer,
                             "12345678901234567891 is out of range for this member");
  // uint64: all of it, 2^53 + 1 and 2^64 - 1 included.
  CHECK(decode_ok<std::uint64_t>("9007199254740993") == 9007199254740993ULL);
  CHECK(decode_ok<std::uint64_t>("12345678901234567891") == 12345678901234567891ULL);
  CHECK(decode_ok<std::uint64_t>("18446744073709551615") == std::numeric_limits<std::uint64_t>::max());
  CHECK(decode_ok<std::uint64_t>("18446744073709551615.000") == std::numeric_limits<std::uint64_t>::max());
  CHECK(decode_ok<std::uint64_t>("1844674407370955161.5e1") == std::numeric_limits<std::uint64_t>::max());
  CHECK(decode_ok<std::int64_t>("9007199254740993") == 9007199254740993LL);
  decode_fails<std::uint64_t>("18446744073709551616", errc::not_an_integer,
                              "18446744073709551616 is out of range for this member");
  decode_fails<std::uint64_t>("-1", errc::not_an_integer, "-1 is out of range for this member");
  decode_fails<std::uint64_t>("1e20", errc::not_an_integer, "1e20 is out of range for this member");
  decode_fails<std::int32_t>("2.1474836480e9", errc::not_an_integer, "2.1474836480e9 is out of range for this member");
  // A fraction that a double would lose is still a fraction.
  decode_fails<std::uint64_t>("1.00000000000000000001", errc::not_an_integer,
                              "expected an integer, found 1.00000000000000000001");
  decode_fails<std::uint64_t>("9007199254740993e-1", errc::not_an_integer,
                              "expected an integer, found 9007199254740993e-1");
  decode_fails<int>("1e-400", errc::not_an_integer, "expected an integer, found 1e-400");
  CHECK(decode_ok<int>("0e-400") == 0);
  CHECK(decode_ok<int>("-0.000e5") == 0);
  // Long numbers are named by their start and length.
  decode_fails<std::uint64_t>(std::string(50, '9'), errc::not_an_integer,
                              std::string(24, '9') + "... (a number of 50 characters) is out of range for this member");
}

TEST_CASE("numbers that are not JSON stop decoding with the reader's error") {
  auto r = assay::decode<one<double>>(R"({"v":1e400})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(),
               {{errc::number_overflow, "number is too large for a double (overflows to infinity)", "/v", 5, 1, 6}});
  auto z = assay::decode<one<int>>(R"({"v":01})");
  REQUIRE_FALSE(z.has_value());
  check_errors(z.error(), {{errc::invalid_number, "invalid number: leading zero", "/v", 5, 1, 6}});
}

TEST_CASE("const_string") {
  using T = assay::const_string<"soak-report-v1">;
  CHECK(decode_ok<T>(R"("soak-report-v1")") == "soak-report-v1");
  CHECK(decode_ok<T>(R"("soak-report\u002dv1")") == "soak-report-v1");  // compared after unescaping
  decode_fails<T>(R"("soak-report-v2")", errc::const_mismatch, R"(expected "soak-report-v1", found "soak-report-v2")");
  decode_fails<T>(R"("")", errc::const_mismatch, R"(expected "soak-report-v1", found "")");
  decode_fails<T>(R"("SOAK-REPORT-V1")", errc::const_mismatch, R"(expected "soak-report-v1", found "SOAK-REPORT-V1")");
}

TEST_CASE("one_of") {
  using T = assay::one_of<"info", "warning", "error">;
  CHECK(decode_ok<T>(R"("info")").index() == 0);
  CHECK(decode_ok<T>(R"("error")") == "error");
  CHECK(decode_ok<T>(R"("warning")").value() == "warning");
  decode_fails<T>(R"("fatal")", errc::enum_mismatch, R"("fatal" is not one of "info", "warning", "error")");
  decode_fails<T>(R"("Info")", errc::enum_mismatch, R"("Info" is not one of "info", "warning", "error")");
  decode_fails<T>(R"("")", errc::enum_mismatch, R"("" is not one of "info", "warning", "error")");
  // Control characters in the echoed value are escaped (\x0a), long values are cut after 64 bytes.
  decode_fails<T>(R"("a\nb")", errc::enum_mismatch, R"("a\x0ab" is not one of "info", "warning", "error")");
  decode_fails<T>("\"" + std::string(70, 'x') + "\"", errc::enum_mismatch,
                  "\"" + std::string(64, 'x') + "\xe2\x80\xa6\" is not one of \"info\", \"warning\", \"error\"");
}

namespace one_of_test {
enum class tone : std::uint8_t { quiet, loud, shrill };
constexpr std::string_view name(tone t) noexcept {
  return t == tone::loud ? "loud" : t == tone::shrill ? "shrill" : "quiet";
}
}  // namespace one_of_test

TEST_CASE("one_of::of maps an engine's enumeration by name, at compile time") {
  using T = assay::one_of<"shrill", "quiet", "loud">;  // another order than the enumeration's
  using one_of_test::tone;
  static_assert(T::of(tone::loud).index() == 2);
  CHECK(T::of(tone::quiet) == "quiet");
  CHECK(T::of(tone::loud) == "loud");
  CHECK(T::of(tone::shrill).index() == 0);
  CHECK(T::of(static_cast<tone>(200)) == "quiet");  // a value past the enumerators: what name() says
}

TEST_CASE("bounded integers") {
  using T = assay::bounded<std::int64_t, 1, 10>;
  CHECK(decode_ok<T>("1").value() == 1);
  CHECK(decode_ok<T>("10").value() == 10);
  CHECK(decode_ok<T>("5.0").value() == 5);
  decode_fails<T>("0", errc::below_minimum, "0 is less than the minimum 1");
  decode_fails<T>("-0", errc::below_minimum, "0 is less than the minimum 1");
  decode_fails<T>("11", errc::above_maximum, "11 is greater than the maximum 10");
  decode_fails<T>("1.5", errc::not_an_integer, "expected an integer, found 1.5");
  // Outside the C++ type as well as outside the bounds: the bound is named.
  decode_fails<T>("1e19", errc::above_maximum, "10000000000000000000 is greater than the maximum 10");
  decode_fails<T>("-1e19", errc::below_minimum, "-10000000000000000000 is less than the minimum 1");
  decode_fails<T>("12345678901234567891", errc::above_maximum, "12345678901234567891 is greater than the maximum 10");
  // Beyond what an int64, a uint64 or (exactly) a double holds: out of range, named as written.
  decode_fails<T>("-9223372036854775809", errc::not_an_integer, "-9223372036854775809 is out of range for this member");
  decode_fails<T>("-123456789012345678901", errc::not_an_integer,
                  "-123456789012345678901 is out of range for this member");
  using U = assay::bounded<std::uint64_t, 0>;
  CHECK(decode_ok<U>("0").value() == 0u);
  CHECK(decode_ok<U>("18446744073709549568").value() == 18446744073709549568ULL);
  decode_fails<U>("-1", errc::below_minimum, "-1 is less than the minimum 0");
  CHECK(decode_ok<U>("18446744073709551615").value() == std::numeric_limits<std::uint64_t>::max());
  decode_fails<U>("18446744073709551616", errc::not_an_integer, "18446744073709551616 is out of range for this member");
  using exact = assay::bounded<std::uint64_t, 0, 9007199254740992>;
  decode_fails<exact>("18446744073709551615", errc::above_maximum,
                      "18446744073709551615 is greater than the maximum 9007199254740992");
  using S = assay::bounded<std::int8_t, -5>;
  CHECK(decode_ok<S>("127").value() == 127);
  decode_fails<S>("128", errc::not_an_integer, "128 is out of range for this member");
  decode_fails<S>("-6", errc::below_minimum, "-6 is less than the minimum -5");
}

TEST_CASE("bounded doubles") {
  using T = assay::bounded<double, 0, 1>;
  CHECK(decode_ok<T>("0").value() == 0.0);
  CHECK(decode_ok<T>("1").value() == 1.0);
  CHECK(decode_ok<T>("0.25").value() == 0.25);
  CHECK(decode_ok<T>("-0").value() == 0.0);  // -0 is not below 0
  decode_fails<T>("1.0000000000000002", errc::above_maximum, "1.0000000000000002 is greater than the maximum 1");
  decode_fails<T>("-5e-324", errc::below_minimum, "-5e-324 is less than the minimum 0");
  decode_fails<T>("2", errc::above_maximum, "2 is greater than the maximum 1");
}

TEST_CASE("strings with a minimum length count code points") {
  using T = assay::str<2>;
  CHECK(decode_ok<T>(R"("ab")") == "ab");
  CHECK(decode_ok<T>(R"("\u00e9\u00e9")") == "\xc3\xa9\xc3\xa9");
  CHECK(decode_ok<T>("\"\xf0\x9f\x98\x80\xf0\x9f\x98\x80\"") == "\xf0\x9f\x98\x80\xf0\x9f\x98\x80");
  decode_fails<T>(R"("a")", errc::too_short, "string is shorter than the minimum length 2");
  // One code point, two (or four) bytes: still too short.
  decode_fails<T>(R"("\u00e9")", errc::too_short, "string is shorter than the minimum length 2");
  decode_fails<T>(R"("\ud83d\ude00")", errc::too_short, "string is shorter than the minimum length 2");
  decode_fails<assay::non_empty>(R"("")", errc::too_short, "string is shorter than the minimum length 1");
  CHECK(decode_ok<assay::non_empty>(R"(" ")") == " ");
}

TEST_CASE("patterns: ECMA-262, unanchored unless anchored, '$' only at the very end") {
  using T = assay::pattern<"^[a-z0-9][a-z0-9_.-]*[a-z0-9]$">;
  CHECK(decode_ok<T>(R"("tool_calls")") == "tool_calls");
  CHECK(decode_ok<T>(R"("a.b-c")") == "a.b-c");
  decode_fails<T>(R"("Tool")", errc::pattern_mismatch,
                  R"("Tool" does not match the pattern ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$)");
  decode_fails<T>(R"("a")", errc::pattern_mismatch, R"("a" does not match the pattern ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$)");
  decode_fails<T>(R"("ab_")", errc::pattern_mismatch,
                  R"("ab_" does not match the pattern ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$)");
  // A final newline does not satisfy '$' (Perl would let it), nor does a leading one satisfy '^'.
  decode_fails<T>(R"("ab\n")", errc::pattern_mismatch,
                  R"("ab\x0a" does not match the pattern ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$)");
  decode_fails<T>(R"("\nab")", errc::pattern_mismatch,
                  R"("\x0aab" does not match the pattern ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$)");
  decode_fails<T>(R"("ab\ncd")", errc::pattern_mismatch,
                  R"("ab\x0acd" does not match the pattern ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$)");
  // Unanchored: a match anywhere is enough.
  using U = assay::pattern<"[0-9]">;
  CHECK(decode_ok<U>(R"("abc1def")") == "abc1def");
  decode_fails<U>(R"("abc")", errc::pattern_mismatch, R"("abc" does not match the pattern [0-9])");
  // '$' inside a character class is a literal dollar.
  using D = assay::pattern<"^[$]x$">;
  CHECK(decode_ok<D>(R"("$x")") == "$x");
  decode_fails<D>(R"("x")", errc::pattern_mismatch, R"("x" does not match the pattern ^[$]x$)");
}

TEST_CASE("date-time (RFC 3339)") {
  using T = assay::date_time;
  for (const char* ok : {"2024-02-29T23:59:60Z", "1985-04-12T23:20:50.52Z", "1996-12-19T16:39:57-08:00",
                         "1990-12-31T23:59:59+00:00", "2023-11-14t22:13:20z", "2000-02-29T00:00:00.123456789Z"}) {
    CAPTURE(ok);
    CHECK(decode_ok<T>(std::string("\"") + ok + "\"") == ok);
  }
  for (const char* bad :
       {"2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00",
        "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:61Z", "2024-13-01T00:00:00Z",
        "2024-00-01T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0100",
        "2024-01-01T00:00:00+24:00", "2024-01-01", "24-01-01T00:00:00Z", "2024-01-01T00:00:00ZZ", ""}) {
    CAPTURE(bad);
    decode_fails<T>(std::string("\"") + bad + "\"", errc::format_mismatch,
                    std::string("\"") + bad + "\" is not an RFC 3339 date-time");
  }
}

TEST_CASE("lists: minimum and maximum items") {
  using T = assay::list<int, 1, 3>;
  CHECK(decode_ok<T>("[1]").size() == 1);
  CHECK(decode_ok<T>("[1,2,3]") == std::vector<int>{1, 2, 3});
  decode_fails<T>("[]", errc::too_few_items, "array has 0 items, fewer than the minimum 1");
  decode_fails<T>("[1,2,3,4]", errc::too_many_items, "array has 4 items, more than the maximum 3");
  CHECK(decode_ok<std::vector<int>>("[]").empty());
  // The items are checked too, each with its own pointer; the count is reported after them.
  auto r = assay::decode<one<assay::list<assay::bounded<int, 0>, 0, 1>>>(R"({"v":[-1,-2]})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::below_minimum, "-1 is less than the minimum 0", "/v/0", 6, 1, 7},
                           {errc::below_minimum, "-2 is less than the minimum 0", "/v/1", 9, 1, 10},
                           {errc::too_many_items, "array has 2 items, more than the maximum 1", "/v", 5, 1, 6}});
}

TEST_CASE("unique lists: each repeated item at its place, naming the first equal item") {
  using T = assay::unique_list<std::string>;
  CHECK(decode_ok<T>(R"(["a","b","A"])") == std::vector<std::string>{"a", "b", "A"});
  CHECK(decode_ok<T>("[]").empty());
  CHECK(decode_ok<assay::list<std::string>>(R"(["a","a"])").size() == 2);  // a list may repeat
  auto r = assay::decode<one<T>>(R"({"v":["foo","bar","foo","bar","foo"]})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::duplicate_item, R"(item 2 repeats item 0 ("foo"))", "/v/2", 18, 1, 19},
                           {errc::duplicate_item, R"(item 3 repeats item 1 ("bar"))", "/v/3", 24, 1, 25},
                           {errc::duplicate_item, R"(item 4 repeats item 0 ("foo"))", "/v/4", 30, 1, 31}});
  // Equal as JSON: escapes, whitespace, lines.
  auto e = assay::decode<one<T>>("{\"v\":[\"\\u0061\",\n  \"a\" ]}");
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(), {{errc::duplicate_item, R"(item 1 repeats item 0 ("a"))", "/v/1", 18, 2, 3}});
  // A string is shown as canonical JSON (escaped), a long one cut after 128 bytes.
  auto n = assay::decode<one<T>>(R"({"v":["a\n","a\u000a"]})");
  REQUIRE_FALSE(n.has_value());
  check_errors(n.error(), {{errc::duplicate_item, R"(item 1 repeats item 0 ("a\n"))", "/v/1", 12, 1, 13}});
  const std::string long_item = "\"" + std::string(200, 'x') + "\"";
  auto l = assay::decode<one<T>>("{\"v\":[" + long_item + "," + long_item + "]}");
  REQUIRE_FALSE(l.has_value());
  check_errors(l.error(), {{errc::duplicate_item, "item 1 repeats item 0 (\"" + std::string(127, 'x') + "...\")",
                            "/v/1", 209, 1, 210}});
  // Bounds and items are checked too: the items' own errors, then the repeats, then the count.
  auto b = assay::decode<one<assay::unique_list<assay::non_empty, 0, 2>>>(R"({"v":["","x",""]})");
  REQUIRE_FALSE(b.has_value());
  check_errors(b.error(), {{errc::too_short, "string is shorter than the minimum length 1", "/v/0", 6, 1, 7},
                           {errc::too_short, "string is shorter than the minimum length 1", "/v/2", 13, 1, 14},
                           {errc::duplicate_item, R"(item 2 repeats item 0 (""))", "/v/2", 13, 1, 14},
                           {errc::too_many_items, "array has 3 items, more than the maximum 2", "/v", 5, 1, 6}});
}

TEST_CASE("unique lists compare items as JSON values, whatever they decode to") {
  // Numbers by value: 1, 1.0 and 10e-1 are one number.
  auto d = assay::decode<one<assay::unique_list<double>>>(R"({"v":[1,1.0,10e-1,2]})");
  REQUIRE_FALSE(d.has_value());
  check_errors(d.error(), {{errc::duplicate_item, "item 1 repeats item 0 (1)", "/v/1", 8, 1, 9},
                           {errc::duplicate_item, "item 2 repeats item 0 (1)", "/v/2", 12, 1, 13}});
  CHECK(decode_ok<assay::unique_list<double>>("[1,1.5,-1,0.1]").size() == 4);
  // Objects whatever their member order; an absent optional member makes another object.
  auto o = assay::decode<one<assay::unique_list<point>>>(R"({"v":[{"x":1,"y":2},{"y":2,"x":1},{"x":1}]})");
  REQUIRE_FALSE(o.has_value());
  check_errors(o.error(), {{errc::duplicate_item, R"(item 1 repeats item 0 ({"x":1,"y":2}))", "/v/1", 20, 1, 21}});
  // Any JSON, nested.
  auto a = assay::decode<one<assay::unique_list<assay::json::value>>>(
      R"({"v":[{"a":[1,"\u00e9"]},{"a":[1,"é"]},[1,"é"],{"a":["é",1]},null,null,true]})");
  REQUIRE_FALSE(a.has_value());
  check_errors(a.error(), {{errc::duplicate_item, R"(item 1 repeats item 0 ({"a":[1,"é"]}))", "/v/1", 25, 1, 26},
                           {errc::duplicate_item, "item 5 repeats item 4 (null)", "/v/5", 69, 1, 67}});
  CHECK(decode_ok<assay::unique_list<assay::json::value>>(R"([0,"0",[0],{"0":0},false,null])").size() == 6);
  // Items of the wrong type are compared as what they are in the JSON, not as the defaults they
  // leave behind: two different numbers are not a repeat, two equal ones are.
  using S = assay::unique_list<std::string>;
  auto w = assay::decode<one<S>>(R"({"v":["a",1,2]})");
  REQUIRE_FALSE(w.has_value());
  check_errors(w.error(), {{errc::type_mismatch, "expected a string, found a number", "/v/1", 10, 1, 11},
                           {errc::type_mismatch, "expected a string, found a number", "/v/2", 12, 1, 13}});
  auto x = assay::decode<one<S>>(R"({"v":["a",1,1]})");
  REQUIRE_FALSE(x.has_value());
  check_errors(x.error(), {{errc::type_mismatch, "expected a string, found a number", "/v/1", 10, 1, 11},
                           {errc::type_mismatch, "expected a string, found a number", "/v/2", 12, 1, 13},
                           {errc::duplicate_item, "item 2 repeats item 1 (1)", "/v/2", 12, 1, 13}});
  // Enumerations.
  auto m = assay::decode<one<assay::unique_list<assay::one_of<"a", "b">>>>(R"({"v":["b","a","b"]})");
  REQUIRE_FALSE(m.has_value());
  check_errors(m.error(), {{errc::duplicate_item, R"(item 2 repeats item 0 ("b"))", "/v/2", 14, 1, 15}});
}

TEST_CASE("unique lists: large arrays are sorted, not compared pairwise") {
  std::string doc = "{\"v\":[";
  const std::size_t n = 200000;
  for (std::size_t i = 0; i < n; ++i)
    doc += (i == 0 ? "\"" : ",\"") + std::to_string(i * 7919 % n) + "\"";
  doc += "]}";
  auto r = assay::decode<one<assay::unique_list<std::string>>>(doc);
  REQUIRE(r.has_value());
  CHECK(r->v.size() == n);
  // Every item the same: each reported, up to the error cap.
  std::string same = "{\"v\":[1";
  for (std::size_t i = 1; i < n; ++i)
    same += ",1";
  same += "]}";
  auto s = assay::decode<one<assay::unique_list<int>>>(same);
  REQUIRE_FALSE(s.has_value());
  REQUIRE(s.error().size() == 1001);
  check_error(s.error().items[0], {errc::duplicate_item, "item 1 repeats item 0 (1)", "/v/1", 8, 1, 9});
  check_error(s.error().items[999], {errc::duplicate_item, "item 1000 repeats item 0 (1)", "/v/1000", 2006, 1, 2007});
  CHECK(s.error().items[1000].code == errc::invalid_argument);
}

TEST_CASE("std::array: exactly N items") {
  using T = std::array<double, 2>;
  CHECK(decode_ok<T>("[0.25,1]") == T{0.25, 1.0});
  decode_fails<T>("[1]", errc::too_few_items, "array has 1 items, fewer than the minimum 2");
  decode_fails<T>("[]", errc::too_few_items, "array has 0 items, fewer than the minimum 2");
  decode_fails<T>("[1,2,3]", errc::too_many_items, "array has 3 items, more than the maximum 2");
  // Items past the end are still validated as JSON (a bad one there is a syntax error).
  auto r = assay::decode<one<T>>(R"({"v":[1,2,{"a":1,"a":2}]})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::duplicate_member, "duplicate member name \"a\"", "/v/2/a", 17, 1, 18}});
}

TEST_CASE("maps: string keys, every value checked, duplicates stop") {
  using T = std::map<std::string, assay::bounded<int, 1>>;
  auto m = decode_ok<T>(R"({"b":2,"a":1,"\u00e9":3})");
  CHECK(m.size() == 3);
  CHECK(m.at("a").value() == 1);
  CHECK(m.at("\xc3\xa9").value() == 3);
  CHECK(decode_ok<T>("{}").empty());
  auto r = assay::decode<one<T>>(R"({"v":{"a":0,"b/c":"x","d~":1}})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::below_minimum, "0 is less than the minimum 1", "/v/a", 10, 1, 11},
                           {errc::type_mismatch, "expected an integer, found a string", "/v/b~1c", 18, 1, 19}});
  auto d = assay::decode<one<T>>(R"({"v":{"a":1,"\u0061":2}})");
  REQUIRE_FALSE(d.has_value());
  check_errors(d.error(), {{errc::duplicate_member, "duplicate member name \"a\"", "/v/a", 12, 1, 13}});
}

TEST_CASE("nullable and std::optional") {
  struct s {
    assay::nullable<int> n;
    std::optional<int> o;
    std::optional<assay::nullable<int>> on;
  };
  auto a = assay::decode<s>(R"({"n":null})");
  REQUIRE(a.has_value());
  CHECK_FALSE(a->n.has_value());
  CHECK_FALSE(a->o.has_value());
  CHECK_FALSE(a->on.has_value());
  auto b = assay::decode<s>(R"({"n":3,"o":4,"on":null})");
  REQUIRE(b.has_value());
  CHECK(*b->n == 3);
  CHECK(*b->o == 4);
  REQUIRE(b->on.has_value());
  CHECK_FALSE(b->on->has_value());
  auto c = assay::decode<s>(R"({"n":1,"on":5})");
  REQUIRE(c.has_value());
  CHECK(**c->on == 5);
  // nullable is required: absent is an error; null for std::optional is a type mismatch.
  auto d = assay::decode<s>(R"({"o":null})");
  REQUIRE_FALSE(d.has_value());
  check_errors(d.error(), {{errc::type_mismatch, "expected an integer, found null", "/o", 5, 1, 6},
                           {errc::missing_member, "required member \"n\" is missing", "/n", 0, 1, 1}});
  // A nullable's value is checked like the value itself.
  auto e = assay::decode<one<assay::nullable<assay::bounded<int, 1>>>>(R"({"v":0})");
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(), {{errc::below_minimum, "0 is less than the minimum 1", "/v", 5, 1, 6}});
}

TEST_CASE("json::value members take any JSON, strictly") {
  auto v = decode_ok<assay::json::value>(R"({"z":[1,null,{"a":"b"}],"a":true})");
  REQUIRE(v.is_object());
  CHECK(v.as_object()[0].name == "z");  // input order kept
  auto r = assay::decode<one<assay::json::value>>(R"({"v":{"k":1,"k":2}})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::duplicate_member, "duplicate member name \"k\"", "/v/k", 12, 1, 13}});
}

TEST_CASE("unknown members are reported with the pointer and offset of their name") {
  auto r = assay::decode<point>(R"({"x":1,"z":{"deep":[1,2]},"w":2})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::unknown_member, "unknown member \"z\" (not allowed here)", "/z", 7, 1, 8},
                           {errc::unknown_member, "unknown member \"w\" (not allowed here)", "/w", 26, 1, 27}});
  // Names are compared after unescaping, code point by code point: "\u0078" is "x".
  auto e = assay::decode<point>(R"({"\u0078":1})");
  REQUIRE(e.has_value());
  CHECK(e->x == 1);
  auto n = assay::decode<point>(R"({"X":1,"x":1})");
  REQUIRE_FALSE(n.has_value());
  check_errors(n.error(), {{errc::unknown_member, "unknown member \"X\" (not allowed here)", "/X", 1, 1, 2}});
  // Pointer escaping of odd names.
  auto p = assay::decode<point>(R"({"x":1,"a/b~c":0})");
  REQUIRE_FALSE(p.has_value());
  check_errors(p.error(), {{errc::unknown_member, "unknown member \"a/b~c\" (not allowed here)", "/a~1b~0c", 7, 1, 8}});
}

namespace {
struct odd {
  int a;
  static constexpr assay::field_info assay_fields[] = {{.field = "a", .json_name = "a/b~"}};
};
}  // namespace

TEST_CASE("missing required members point at the missing member") {
  struct outer {
    point p;
    std::vector<point> ps;
    std::string name;
  };
  auto r = assay::decode<outer>("{\"p\":{\"y\":1},\n \"ps\":[{\"x\":1},{}]}");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::missing_member, "required member \"x\" is missing", "/p/x", 5, 1, 6},
                           {errc::missing_member, "required member \"x\" is missing", "/ps/1/x", 29, 2, 16},
                           {errc::missing_member, "required member \"name\" is missing", "/name", 0, 1, 1}});
  auto o = assay::decode<odd>("{}");
  REQUIRE_FALSE(o.has_value());
  check_errors(o.error(), {{errc::missing_member, "required member \"a/b~\" is missing", "/a~1b~0", 0, 1, 1}});
}

TEST_CASE("a duplicate member, at any depth, known or not, is the one error reported") {
  struct outer {
    point p;
    int n;
  };
  // Known member twice: the input is not I-JSON, so the violations found before are dropped.
  auto r = assay::decode<outer>(R"({"n":"x","n":1,"zz":1})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::duplicate_member, "duplicate member name \"n\"", "/n", 9, 1, 10}});
  // Nested, and spelled differently.
  auto n = assay::decode<outer>(R"({"p":{"x":1,"\u0078":2},"n":1})");
  REQUIRE_FALSE(n.has_value());
  check_errors(n.error(), {{errc::duplicate_member, "duplicate member name \"x\"", "/p/x", 12, 1, 13}});
  // Unknown member twice.
  auto u = assay::decode<outer>(R"({"q":1,"q":2,"n":"x"})");
  REQUIRE_FALSE(u.has_value());
  check_errors(u.error(), {{errc::duplicate_member, "duplicate member name \"q\"", "/q", 7, 1, 8}});
  // A duplicate inside an unknown member's value is found while skipping it.
  auto s = assay::decode<outer>(R"({"q":{"a":1,"a":1}})");
  REQUIRE_FALSE(s.has_value());
  check_errors(s.error(), {{errc::duplicate_member, "duplicate member name \"a\"", "/q/a", 12, 1, 13}});
}

namespace {
struct report_like {
  assay::const_string<"r-v1"> schema_version;
  assay::bounded<std::int64_t, 1> runs;
  assay::one_of<"pass", "fail"> status;
  std::vector<assay::non_empty> tags;
  point where;
  std::optional<assay::date_time> at;
};
}  // namespace

TEST_CASE("all errors of a document are collected, in input order, with line and column") {
  const std::string doc =
      "{\n"
      "  \"schema_version\": \"r-v2\",\n"       // line 2
      "  \"runs\": 0,\n"                        // line 3
      "  \"status\": \"maybe\",\n"              // line 4
      "  \"tags\": [\"a\", \"\", 3],\n"         // line 5
      "  \"where\": {\"y\": 1.5, \"q\": 0},\n"  // line 6
      "  \"\xc3\xa9t\xc3\xa9\": 1,\n"           // line 7: an unknown name with two-byte characters
      "  \"at\": \"yesterday\"\n"               // line 8
      "}\n";
  auto r = assay::decode<report_like>(doc);
  REQUIRE_FALSE(r.has_value());
  const auto at = [&](std::string_view needle) { return doc.find(needle); };
  check_errors(
      r.error(),
      {{errc::const_mismatch, R"(expected "r-v1", found "r-v2")", "/schema_version", at("\"r-v2\""), 2, 21},
       {errc::below_minimum, "0 is less than the minimum 1", "/runs", at("0,"), 3, 11},
       {errc::enum_mismatch, R"("maybe" is not one of "pass", "fail")", "/status", at("\"maybe\""), 4, 13},
       {errc::too_short, "string is shorter than the minimum length 1", "/tags/1", at("\"\", 3"), 5, 17},
       {errc::type_mismatch, "expected a string, found a number", "/tags/2", at("3]"), 5, 21},
       {errc::not_an_integer, "expected an integer, found 1.5", "/where/y", at("1.5"), 6, 18},
       {errc::unknown_member, "unknown member \"q\" (not allowed here)", "/where/q", at("\"q\""), 6, 23},
       {errc::missing_member, "required member \"x\" is missing", "/where/x", at("{\"y\""), 6, 12},
       {errc::unknown_member, "unknown member \"\xc3\xa9t\xc3\xa9\" (not allowed here)", "/\xc3\xa9t\xc3\xa9",
        at("\"\xc3\xa9"), 7, 3},
       {errc::format_mismatch, R"("yesterday" is not an RFC 3339 date-time)", "/at", at("\"yesterday\""), 8, 9}});
  // Offsets count bytes from the start of the input; lines restart the column.
  auto c = assay::decode<one<int>>("{\"v\":1,\n\"\xc3\xa9\xc3\xa9\":\"x\"}");
  REQUIRE_FALSE(c.has_value());
  check_errors(c.error(), {{errc::unknown_member, "unknown member \"\xc3\xa9\xc3\xa9\" (not allowed here)",
                            "/\xc3\xa9\xc3\xa9", 8, 2, 1}});
}

TEST_CASE("input that is not JSON is reported by its syntax error alone") {
  // Violations found before the syntax error are about a document that does not exist.
  auto r = assay::decode<report_like>(R"({"runs":0,"status":"x",})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(),
               {{errc::unexpected_character, "unexpected '}', expected a member name after ','", "", 23, 1, 24}});
  auto t = assay::decode<point>(R"({"x":1} {})");
  REQUIRE_FALSE(t.has_value());
  check_errors(t.error(), {{errc::trailing_content, "unexpected content after the JSON value", "", 8, 1, 9}});
  // Trailing content after a value that breaks its type: still the syntax error alone.
  auto tv = assay::decode<point>(R"({"x":"a"} x)");
  REQUIRE_FALSE(tv.has_value());
  check_errors(tv.error(), {{errc::trailing_content, "unexpected content after the JSON value", "", 10, 1, 11}});
  // A root token that merely starts like a literal is not a boolean of the wrong type.
  auto lit = assay::decode<point>("tru");
  REQUIRE_FALSE(lit.has_value());
  REQUIRE(lit.error().size() == 1);
  CHECK(lit.error().front().code != errc::type_mismatch);
  auto e = assay::decode<point>("");
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(), {{errc::unexpected_end, "input ended where a value was expected", "", 0, 1, 1}});
  auto b = assay::decode<point>("\xEF\xBB\xBF{\"x\":1}");
  REQUIRE_FALSE(b.has_value());
  check_errors(b.error(),
               {{errc::byte_order_mark, "byte-order mark at the start of the input (not allowed)", "", 0, 1, 1}});
  auto w = assay::decode<point>(R"([1])");
  REQUIRE_FALSE(w.has_value());
  check_errors(w.error(), {{errc::type_mismatch, "expected an object, found an array", "", 0, 1, 1}});
  // Reader limits apply to typed decoding too.
  assay::json::limits lim;
  lim.max_depth = 1;
  auto d = assay::decode<one<point>>(R"({"v":{"x":1}})", lim);
  REQUIRE_FALSE(d.has_value());
  check_errors(d.error(), {{errc::depth_limit, "nesting deeper than 1 levels", "/v", 5, 1, 6}});
}

namespace {
struct renamed {
  int x_assay;
  std::string schema;
  std::string type;
  static constexpr assay::field_info assay_fields[] = {
      {.field = "x_assay", .json_name = "x-assay"},
      {.field = "schema", .json_name = "$schema"},
      {.field = "type", .json_name = "_type"},
  };
};
}  // namespace

TEST_CASE("renamed members decode under their JSON names only") {
  auto r = assay::decode<renamed>(R"({"x-assay":1,"$schema":"s","_type":"t"})");
  REQUIRE(r.has_value());
  CHECK(r->x_assay == 1);
  CHECK(r->schema == "s");
  CHECK(r->type == "t");
  auto c = assay::decode<renamed>(R"({"x_assay":1,"$schema":"s","_type":"t"})");
  REQUIRE_FALSE(c.has_value());
  check_errors(c.error(), {{errc::unknown_member, "unknown member \"x_assay\" (not allowed here)", "/x_assay", 1, 1, 2},
                           {errc::missing_member, "required member \"x-assay\" is missing", "/x-assay", 0, 1, 1}});
}

namespace {
struct ruled {
  assay::bounded<int, 0> a;
  assay::bounded<int, 0> b;
  int total;
  void check_rules(assay::rules& r) const {
    if (a.value() + b.value() != total)
      r.fail("/total", "total must equal a + b");
  }
};
struct holder {
  std::vector<ruled> items;
};
}  // namespace

TEST_CASE("cross-field rules run on complete, valid objects only") {
  CHECK(assay::decode<ruled>(R"({"a":1,"b":2,"total":3})").has_value());
  auto r = assay::decode<holder>(R"({"items":[{"a":1,"b":2,"total":3},{"a":1,"b":2,"total":4}]})");
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::rule_violation, "total must equal a + b", "/items/1/total", 34, 1, 35}});
  // A member with an error holds a default value: no rule runs over it.
  auto m = assay::decode<ruled>(R"({"a":-1,"b":2,"total":2})");
  REQUIRE_FALSE(m.has_value());
  check_errors(m.error(), {{errc::below_minimum, "-1 is less than the minimum 0", "/a", 5, 1, 6}});
  auto t = assay::decode<ruled>(R"({"a":"1","b":2,"total":3})");
  REQUIRE_FALSE(t.has_value());
  check_errors(t.error(), {{errc::type_mismatch, "expected an integer, found a string", "/a", 5, 1, 6}});
  // Nor over an incomplete object.
  auto i = assay::decode<ruled>(R"({"a":1,"total":3})");
  REQUIRE_FALSE(i.has_value());
  check_errors(i.error(), {{errc::missing_member, "required member \"b\" is missing", "/b", 0, 1, 1}});
}

TEST_CASE("decode_from: a value inside a larger document, and the error cap") {
  assay::json::cursor c(R"([{"x":1},{"x":2}])");
  REQUIRE(c.enter_array());
  std::vector<point> got;
  while (c.next_element()) {
    point p{};
    auto r = assay::reflect::decode_from(c, p);
    REQUIRE(r.has_value());
    got.push_back(p);
  }
  REQUIRE(c.finish());
  REQUIRE(got.size() == 2);
  CHECK(got[1].x == 2);

  assay::json::cursor many(R"({"a":1,"b":2,"c":3,"x":1})");
  point p{};
  auto r = assay::reflect::decode_from(many, p, 2);
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::unknown_member, "unknown member \"a\" (not allowed here)", "/a", 1, 1, 2},
                           {errc::unknown_member, "unknown member \"b\" (not allowed here)", "/b", 7, 1, 8},
                           {errc::invalid_argument, "more errors were found; only the first 2 are reported", ""}});
}

TEST_CASE("decode from a DOM value and the throwing wrapper") {
  auto dom = assay::json::parse(R"({"y":2,"x":1})");
  REQUIRE(dom.has_value());
  auto r = assay::from_value<point>(*dom);
  REQUIRE(r.has_value());
  CHECK(r->x == 1);
  CHECK(*r->y == 2);
  CHECK(assay::decode_or_throw<point>(R"({"x":5})").x == 5);
  try {
    (void)assay::decode_or_throw<point>(R"({"x":"5"})");
    FAIL("no exception");
  } catch (const assay::exception& e) {
    CHECK(e.code() == errc::type_mismatch);
    CHECK(std::string(e.what()) == "line 1, column 6 (byte 5) at /x: expected an integer, found a string");
    CHECK(e.all().size() == 1);
  }
}

namespace {
struct inner_settings {
  int a = 1;
  assay::bounded<int, 0> b = 2;
};
struct settings {
  inner_settings inner;
  std::string name = "default";
  std::uint64_t big = 7;
};
}  // namespace

TEST_CASE("decode_onto: members left out keep their values, at any depth; the rest is checked") {
  settings s;
  REQUIRE(assay::decode_onto(R"({"inner":{"b":5},"big":18446744073709551615})", s).has_value());
  CHECK(s.inner.a == 1);
  CHECK(s.inner.b == 5);
  CHECK(s.name == "default");
  CHECK(s.big == std::numeric_limits<std::uint64_t>::max());
  settings t;
  REQUIRE(assay::decode_onto("{}", t).has_value());
  CHECK(t.name == "default");
  settings u;
  auto r = assay::decode_onto(R"({"inner":{"b":-1,"c":0},"nme":"x"})", u);
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{errc::below_minimum, "-1 is less than the minimum 0", "/inner/b", 14, 1, 15},
                           {errc::unknown_member, R"(unknown member "c" (not allowed here))", "/inner/c", 17, 1, 18},
                           {errc::unknown_member, R"(unknown member "nme" (not allowed here))", "/nme", 24, 1, 25}});
  // A plain decode of the same partial document still requires every member.
  CHECK(assay::decode<settings>(R"({"inner":{"b":5}})").error().front().code == errc::missing_member);
}
