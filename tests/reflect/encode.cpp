// Encoding reflected values: exact JCS bytes for every constraint type, JCS member order (UTF-16
// code units) fixed at compile time, renamed members, and every constraint violation of a value
// reported with its pointer instead of being written silently.
#include "support.hpp"

#include "reflect/check_error.hpp"

#include "assay/json/canonical.hpp"
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
using assay_test::check_errors;

namespace {

template <class T>
struct one {
  T v;
};

template <class T>
std::string encode_ok(const T& value) {
  auto r = assay::encode(one<T>{value});
  if (!r)
    FAIL_CHECK("unexpected errors: " << r.error().format());
  REQUIRE(r.has_value());
  return *r;
}

// Encodes one<T>{value} and expects exactly one error, at /v.
template <class T>
void encode_fails(const T& value, errc code, std::string_view message, std::string_view pointer = "/v") {
  auto r = assay::encode(one<T>{value});
  REQUIRE_FALSE(r.has_value());
  check_errors(r.error(), {{code, message, pointer}});
  // validate() finds exactly the same.
  auto v = assay::validate(one<T>{value});
  REQUIRE_FALSE(v.has_value());
  check_errors(v.error(), {{code, message, pointer}});
}

struct point {
  int x;
  std::optional<int> y;
};

}  // namespace

TEST_CASE("scalars encode to their canonical form") {
  CHECK(encode_ok(true) == R"({"v":true})");
  CHECK(encode_ok(false) == R"({"v":false})");
  CHECK(encode_ok(0) == R"({"v":0})");
  CHECK(encode_ok(-17) == R"({"v":-17})");
  CHECK(encode_ok(std::int8_t{-128}) == R"({"v":-128})");
  CHECK(encode_ok(std::uint8_t{255}) == R"({"v":255})");
  // An integer is written exactly or refused: beyond 2^53 a JSON number (a double) cannot hold
  // it, and 2^53 + 1 would read back as 2^53.
  CHECK(encode_ok(std::int64_t{9007199254740992}) == R"({"v":9007199254740992})");
  CHECK(encode_ok(std::int64_t{-9007199254740992}) == R"({"v":-9007199254740992})");
  CHECK(encode_ok(std::uint64_t{9007199254740992}) == R"({"v":9007199254740992})");
  encode_fails(std::uint64_t{9007199254740993}, errc::above_maximum,
               "9007199254740993 cannot be written exactly: a JSON number holds integers only up to "
               "9007199254740992 (2^53)");
  encode_fails(std::int64_t{-9007199254740993}, errc::below_minimum,
               "-9007199254740993 cannot be written exactly: a JSON number holds integers only down to "
               "-9007199254740992 (-2^53)");
  encode_fails(std::numeric_limits<std::uint64_t>::max(), errc::above_maximum,
               "18446744073709551615 cannot be written exactly: a JSON number holds integers only up to "
               "9007199254740992 (2^53)");
  encode_fails(std::numeric_limits<std::int64_t>::min(), errc::below_minimum,
               "-9223372036854775808 cannot be written exactly: a JSON number holds integers only down to "
               "-9007199254740992 (-2^53)");
  CHECK(encode_ok(std::numeric_limits<std::int32_t>::min()) == R"({"v":-2147483648})");
  CHECK(encode_ok(std::numeric_limits<std::uint32_t>::max()) == R"({"v":4294967295})");
  CHECK(encode_ok(0.5) == R"({"v":0.5})");
  CHECK(encode_ok(-0.0) == R"({"v":0})");
  CHECK(encode_ok(1e21) == R"({"v":1e+21})");
  CHECK(encode_ok(1e20) == R"({"v":100000000000000000000})");
  CHECK(encode_ok(1e-7) == R"({"v":1e-7})");
  CHECK(encode_ok(0.000001) == R"({"v":0.000001})");
  CHECK(encode_ok(5e-324) == R"({"v":5e-324})");
  CHECK(encode_ok(0.1f) == R"({"v":0.10000000149011612})");
  CHECK(encode_ok(std::string("a\"\\/\b\f\n\r\t\x01\x1f\x7f\xc3\xa9")) ==
        "{\"v\":\"a\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\xc3\xa9\"}");
}

TEST_CASE("constraint types encode when their values are valid") {
  CHECK(encode_ok(assay::const_string<"v1">{}) == R"({"v":"v1"})");
  CHECK(encode_ok(assay::one_of<"a", "b">{}) == R"({"v":"a"})");  // default: the first value
  CHECK(encode_ok(assay::one_of<"a", "b">{"b"}) == R"({"v":"b"})");
  CHECK(encode_ok(*assay::one_of<"a", "b">::parse("b")) == R"({"v":"b"})");
  // Allowed values are written from a table built at compile time; values that need escaping,
  // and long ones, take the general string writer. (parse(): clang 14 crashes generating code
  // for the consteval constructor of these types as a call argument.)
  CHECK(encode_ok(*assay::one_of<"", "long value", "\xc3\xa9">::parse("long value")) == R"({"v":"long value"})");
  CHECK(encode_ok(*assay::one_of<"", "long value", "\xc3\xa9">::parse("")) == R"({"v":""})");
  CHECK(encode_ok(*assay::one_of<"q\"", "t\t">::parse("t\t")) == R"({"v":"t\t"})");
  CHECK(encode_ok(assay::one_of<"q\"", "t\t">{}) == R"({"v":"q\""})");
  CHECK(encode_ok(assay::const_string<"x-\xc3\xa9">{}) == "{\"v\":\"x-\xc3\xa9\"}");
  using long_one = assay::one_of<"0123456789012345678901234567890123456789012345678901234567890123456789", "s">;
  CHECK(encode_ok(*long_one::parse("s")) == R"({"v":"s"})");
  CHECK(encode_ok(long_one{}) == R"({"v":"0123456789012345678901234567890123456789012345678901234567890123456789"})");
  CHECK(encode_ok(assay::bounded<int, 1, 10>{1}) == R"({"v":1})");
  CHECK(encode_ok(assay::bounded<int, 1, 10>{10}) == R"({"v":10})");
  CHECK(encode_ok(assay::bounded<double, 0, 1>{0.75}) == R"({"v":0.75})");
  encode_fails(assay::bounded<std::uint64_t, 0>{18446744073709551615ULL}, errc::above_maximum,
               "18446744073709551615 cannot be written exactly: a JSON number holds integers only up to "
               "9007199254740992 (2^53)");
  CHECK(encode_ok(assay::non_empty{"x"}) == R"({"v":"x"})");
  CHECK(encode_ok(assay::str<2>{"\xc3\xa9\xc3\xa9"}) == "{\"v\":\"\xc3\xa9\xc3\xa9\"}");
  CHECK(encode_ok(assay::pattern<"^[a-z]+$">{"abc"}) == R"({"v":"abc"})");
  CHECK(encode_ok(assay::date_time{"2024-02-29T12:00:00.5+01:00"}) == R"({"v":"2024-02-29T12:00:00.5+01:00"})");
  CHECK(encode_ok(assay::list<int, 1, 2>{1, 2}) == R"({"v":[1,2]})");
  CHECK(encode_ok(std::vector<int>{}) == R"({"v":[]})");
  CHECK(encode_ok(std::array<double, 2>{0.25, 1}) == R"({"v":[0.25,1]})");
  CHECK(encode_ok(assay::nullable<int>{}) == R"({"v":null})");
  CHECK(encode_ok(assay::nullable<int>{3}) == R"({"v":3})");
  CHECK(encode_ok(std::map<std::string, int>{}) == R"({"v":{}})");
  CHECK(encode_ok(point{1, std::nullopt}) == R"({"v":{"x":1}})");
  CHECK(encode_ok(point{1, 2}) == R"({"v":{"x":1,"y":2}})");
  auto any = assay::json::parse(R"({"b":[1,2.50,{"z":null,"a":"\u00e9"}],"a":true})");
  REQUIRE(any.has_value());
  CHECK(encode_ok(*any) == "{\"v\":{\"a\":true,\"b\":[1,2.5,{\"a\":\"\xc3\xa9\",\"z\":null}]}}");
}

TEST_CASE("maps are sorted by UTF-16 code units at run time") {
  // std::map orders by bytes: U+FF21 (EF BC A1) before U+1F600 (F0 9F 98 80). JCS wants the
  // reverse: U+1F600 is the surrogate pair D83D DE00, which sorts before FF21.
  std::map<std::string, int> m{{"\xef\xbc\xa1", 1}, {"\xf0\x9f\x98\x80", 2}, {"a", 3}, {"B", 4}, {"\xc3\xa9", 5}};
  CHECK(encode_ok(m) == "{\"v\":{\"B\":4,\"a\":3,\"\xc3\xa9\":5,\"\xf0\x9f\x98\x80\":2,\"\xef\xbc\xa1\":1}}");
}

namespace {
// Members whose JSON names need UTF-16 ordering; the C++ declaration order is deliberately
// different from JCS order.
struct utf16_names {
  int fullwidth_a;  // U+FF21
  int grin;         // U+1F600
  int e_acute;      // U+00E9
  int lower_a;
  int upper_b;
  int underscore;
  int dollar;
  static constexpr assay::field_info assay_fields[] = {
      {.field = "fullwidth_a", .json_name = "\xef\xbc\xa1"},
      {.field = "grin", .json_name = "\xf0\x9f\x98\x80"},
      {.field = "e_acute", .json_name = "\xc3\xa9"},
      {.field = "lower_a", .json_name = "a"},
      {.field = "upper_b", .json_name = "B"},
      {.field = "underscore", .json_name = "_"},
      {.field = "dollar", .json_name = "$"},
  };
};

struct renamed {
  std::string x_assay;
  std::string schema;
  std::string type;
  int plain;
  std::optional<int> absent;
  static constexpr assay::field_info assay_fields[] = {
      {.field = "x_assay", .json_name = "x-assay"},
      {.field = "schema", .json_name = "$schema"},
      {.field = "type", .json_name = "_type"},
      {.field = "absent", .json_name = "~absent/"},
  };
};

struct renamed_bounded {
  assay::bounded<int, 1> x_assay;
  static constexpr assay::field_info assay_fields[] = {{.field = "x_assay", .json_name = "x-assay/~"}};
};
}  // namespace

TEST_CASE("struct members are written in JCS order, computed at compile time") {
  using info = assay::reflect::struct_info<utf16_names>;
  // $ < B < _ < a < é < U+1F600 (D83D) < U+FF21
  static_assert(info::order[0] == 6 && info::order[1] == 4 && info::order[2] == 5 && info::order[3] == 3 &&
                info::order[4] == 2 && info::order[5] == 1 && info::order[6] == 0);
  auto r = assay::encode(utf16_names{1, 2, 3, 4, 5, 6, 7});
  REQUIRE(r.has_value());
  CHECK(*r == "{\"$\":7,\"B\":5,\"_\":6,\"a\":4,\"\xc3\xa9\":3,\"\xf0\x9f\x98\x80\":2,\"\xef\xbc\xa1\":1}");
  // The same bytes as canonicalizing any other spelling of the object.
  auto c = assay::json::canonicalize(
      "{\"\xef\xbc\xa1\":1,\"\\ud83d\\ude00\":2,\"\\u00e9\":3,\"a\":4,\"B\":5,\"_\":6,\"$\":7}");
  REQUIRE(c.has_value());
  CHECK(*c == *r);
}

TEST_CASE("renamed members: x-assay, $schema, _type") {
  renamed v{"x", "s", "t", 1, std::nullopt};
  auto r = assay::encode(v);
  REQUIRE(r.has_value());
  CHECK(*r == R"({"$schema":"s","_type":"t","plain":1,"x-assay":"x"})");
  v.absent = 2;
  CHECK(assay::encode(v).value() == R"({"$schema":"s","_type":"t","plain":1,"x-assay":"x","~absent/":2})");
  auto back = assay::decode<renamed>(*r);
  REQUIRE(back.has_value());
  CHECK(back->x_assay == "x");
  CHECK(back->type == "t");
  // Error pointers use the JSON name, escaped.
  auto e = assay::validate(renamed_bounded{});
  REQUIRE_FALSE(e.has_value());
  check_errors(e.error(), {{errc::below_minimum, "0 is less than the minimum 1", "/x-assay~1~0"}});
}

TEST_CASE("encoding a value that violates its constraints reports every violation with its pointer") {
  encode_fails(assay::bounded<int, 1, 10>{}, errc::below_minimum, "0 is less than the minimum 1");
  assay::bounded<int, 1, 10> big;
  big = 11;
  encode_fails(big, errc::above_maximum, "11 is greater than the maximum 10");
  assay::bounded<std::int64_t, 1> neg;
  neg = -5;
  encode_fails(neg, errc::below_minimum, "-5 is less than the minimum 1");
  assay::bounded<double, 0, 1> rate;
  rate = 1.5;
  encode_fails(rate, errc::above_maximum, "1.5 is greater than the maximum 1");
  rate = -0.25;
  encode_fails(rate, errc::below_minimum, "-0.25 is less than the minimum 0");
  rate = std::nan("");
  encode_fails(rate, errc::not_finite, "NaN is not a number JSON can hold");
  rate = std::numeric_limits<double>::infinity();
  encode_fails(rate, errc::not_finite, "infinity is not a number JSON can hold");
  assay::bounded<double, 0> open;
  open = std::numeric_limits<double>::infinity();
  encode_fails(open, errc::not_finite, "infinity is not a number JSON can hold");
  open = -std::numeric_limits<double>::infinity();
  encode_fails(open, errc::not_finite, "infinity is not a number JSON can hold");
  encode_fails(std::nan(""), errc::not_finite, "NaN and infinity have no JSON form");
  encode_fails(-std::numeric_limits<double>::infinity(), errc::not_finite, "NaN and infinity have no JSON form");
  encode_fails(std::numeric_limits<float>::infinity(), errc::not_finite, "NaN and infinity have no JSON form");
  encode_fails(assay::non_empty{}, errc::too_short, "string is shorter than the minimum length 1");
  encode_fails(assay::str<2>{"\xc3\xa9"}, errc::too_short, "string is shorter than the minimum length 2");
  encode_fails(assay::pattern<"^[a-z]+$">{"abc\n"}, errc::pattern_mismatch,
               "\"abc\\x0a\" does not match the pattern ^[a-z]+$");
  encode_fails(assay::pattern<"^[a-z]+$">{""}, errc::pattern_mismatch, "\"\" does not match the pattern ^[a-z]+$");
  encode_fails(assay::date_time{}, errc::format_mismatch, "\"\" is not an RFC 3339 date-time");
  encode_fails(assay::date_time{"2023-02-29T00:00:00Z"}, errc::format_mismatch,
               "\"2023-02-29T00:00:00Z\" is not an RFC 3339 date-time");
  encode_fails(std::string("ok\xff"), errc::invalid_utf8, "string is not valid UTF-8");
  encode_fails(std::string("\xc0\x80"), errc::invalid_utf8, "string is not valid UTF-8");               // overlong NUL
  encode_fails(std::string("\xed\xa0\x80"), errc::invalid_utf8, "string is not valid UTF-8");           // surrogate
  encode_fails(assay::non_empty{"\xf4\x90\x80\x80"}, errc::invalid_utf8, "string is not valid UTF-8");  // > U+10FFFF
  encode_fails(assay::list<int, 1>{}, errc::too_few_items, "array has 0 items, fewer than the minimum 1");
  encode_fails(assay::list<int, 0, 2>{1, 2, 3}, errc::too_many_items, "array has 3 items, more than the maximum 2");
  encode_fails(std::map<std::string, int>{{"ok", 1}, {"bad\xff", 2}}, errc::invalid_utf8,
               "member name is not valid UTF-8", "/v/bad\xff");
  auto nan_inside = assay::json::parse(R"({"a":[1,{"b/c":2}]})");
  REQUIRE(nan_inside.has_value());
  nan_inside->find("a")->as_array()[1].set("b/c", std::nan(""));
  encode_fails(*nan_inside, errc::not_finite, "NaN and infinity have no JSON form", "/v/a/1/b~1c");
  assay::json::value bad_string = assay::json::array{assay::json::value("\xff")};
  encode_fails(bad_string, errc::invalid_utf8, "string is not valid UTF-8", "/v/0");
}

namespace {
struct item {
  assay::non_empty name;
  assay::bounded<int, 0> count;
};
struct doc {
  assay::const_string<"doc-v1"> schema_version;
  assay::list<item, 1, 2> items;
  std::map<std::string, assay::bounded<double, 0, 1>> rates;
  std::optional<assay::pattern<"^[a-z]+$">> tag;
  assay::nullable<assay::date_time> when;
  std::array<assay::bounded<int, 1>, 2> pair;
  static constexpr assay::field_info assay_fields[] = {{.field = "schema_version", .json_name = "$v"}};
  void check_rules(assay::rules& r) const {
    if (pair[0].value() > pair[1].value())
      r.fail("/pair", "pair must be ordered");
    if (items.size() == 2)
      r.fail("", "two items are too many for this rule");
  }
};
}  // namespace

TEST_CASE("unique lists: encoding a repeated item is an error at its place") {
  CHECK(encode_ok(assay::unique_list<std::string>{"b", "a", "B"}) == R"({"v":["b","a","B"]})");
  CHECK(encode_ok(assay::unique_list<int>{}) == R"({"v":[]})");
  CHECK(encode_ok(assay::list<int>{1, 1}) == R"({"v":[1,1]})");  // a list may repeat
  encode_fails(assay::unique_list<std::string>{"a", "b", "a"}, errc::duplicate_item, R"(item 2 repeats item 0 ("a"))",
               "/v/2");
  encode_fails(assay::unique_list<std::string>{"a\n", "a\n"}, errc::duplicate_item, R"(item 1 repeats item 0 ("a\n"))",
               "/v/1");
  encode_fails(assay::unique_list<assay::one_of<"a", "b">>{"b", "a", "b"}, errc::duplicate_item,
               R"(item 2 repeats item 0 ("b"))", "/v/2");
  // Other items by their canonical bytes: -0 is 0. (Integers beyond 2^53, which JSON could not
  // tell apart, are refused, each with its pointer.)
  encode_fails(assay::unique_list<double>{0.0, -0.0}, errc::duplicate_item, "item 1 repeats item 0 (0)", "/v/1");
  CHECK(encode_ok(assay::unique_list<std::int64_t>{9007199254740991, 9007199254740992}) ==
        R"({"v":[9007199254740991,9007199254740992]})");
  encode_fails(assay::unique_list<std::int64_t>{9007199254740992, 9007199254740993}, errc::above_maximum,
               "9007199254740993 cannot be written exactly: a JSON number holds integers only up to "
               "9007199254740992 (2^53)",
               "/v/1");
  encode_fails(assay::unique_list<point>{point{1, 2}, point{1, std::nullopt}, point{1, 2}}, errc::duplicate_item,
               R"(item 2 repeats item 0 ({"x":1,"y":2}))", "/v/2");
  auto doc = assay::json::parse(R"([{"b":1,"a":[true]},{"a":[true],"b":1.0}])");
  REQUIRE(doc.has_value());
  encode_fails(assay::unique_list<assay::json::value>(doc->as_array()), errc::duplicate_item,
               R"(item 1 repeats item 0 ({"a":[true],"b":1}))", "/v/1");
  // Every violation: the items' own, then the repeats, then the count; validate() agrees.
  const assay::unique_list<assay::non_empty, 0, 2> items{"", "x", "", "x"};
  auto r = assay::encode(one<decltype(items)>{items});
  REQUIRE_FALSE(r.has_value());
  const auto expected = {
      assay_test::expected_error{errc::too_short, "string is shorter than the minimum length 1", "/v/0"},
      assay_test::expected_error{errc::too_short, "string is shorter than the minimum length 1", "/v/2"},
      assay_test::expected_error{errc::duplicate_item, R"(item 2 repeats item 0 (""))", "/v/2"},
      assay_test::expected_error{errc::duplicate_item, R"(item 3 repeats item 1 ("x"))", "/v/3"},
      assay_test::expected_error{errc::too_many_items, "array has 4 items, more than the maximum 2", "/v"}};
  check_errors(r.error(), expected);
  auto v = assay::validate(one<decltype(items)>{items});
  REQUIRE_FALSE(v.has_value());
  check_errors(v.error(), expected);
}

TEST_CASE("all encode errors of one value, in canonical member order, then the object's rules") {
  doc d{};
  d.items = {item{"", -1}, item{"b", 2}, item{"c", 3}};
  d.rates["a/b"] = 2;
  d.rates["~ok"] = 0.5;
  d.tag = "UPPER";
  d.when = assay::date_time{"later"};
  d.pair = {assay::bounded<int, 1>{}, assay::bounded<int, 1>{}};
  d.pair[0] = 3;
  auto r = assay::encode(d);
  REQUIRE_FALSE(r.has_value());
  // Members in JCS order: $v, items (count before name), pair, rates, tag, when.
  check_errors(r.error(), {{errc::below_minimum, "-1 is less than the minimum 0", "/items/0/count"},
                           {errc::too_short, "string is shorter than the minimum length 1", "/items/0/name"},
                           {errc::too_many_items, "array has 3 items, more than the maximum 2", "/items"},
                           {errc::below_minimum, "0 is less than the minimum 1", "/pair/1"},
                           {errc::above_maximum, "2 is greater than the maximum 1", "/rates/a~1b"},
                           {errc::pattern_mismatch, "\"UPPER\" does not match the pattern ^[a-z]+$", "/tag"},
                           {errc::format_mismatch, "\"later\" is not an RFC 3339 date-time", "/when"},
                           {errc::rule_violation, "pair must be ordered", "/pair"}});
  // The same list from validate(); encode_to reports the first.
  auto v = assay::validate(d);
  REQUIRE_FALSE(v.has_value());
  CHECK(v.error().size() == 8);
  std::string sink_bytes;
  assay::json::string_sink sink{&sink_bytes};
  auto t = assay::reflect::encode_to(sink, d);
  REQUIRE_FALSE(t.has_value());
  CHECK(t.error().pointer == "/items/0/count");
  CHECK_THROWS_AS((void)assay::encode_or_throw(d), assay::exception);

  // Nested: the rule's pointer is relative to the object it belongs to.
  struct wrapper {
    std::vector<doc> docs;
  };
  doc ok{};
  ok.items = {item{"a", 1}, item{"b", 2}};
  ok.pair = {assay::bounded<int, 1>{1}, assay::bounded<int, 1>{2}};
  auto w = assay::encode(wrapper{{ok}});
  REQUIRE_FALSE(w.has_value());
  check_errors(w.error(), {{errc::rule_violation, "two items are too many for this rule", "/docs/0"}});
}

TEST_CASE("valid values: encode, encode_to any sink, validate, pretty") {
  doc d{};
  d.items = {item{"a", 1}};
  d.rates["\xf0\x9f\x98\x80"] = 1;
  d.rates["\xef\xbc\xa1"] = 0;
  d.rates["z"] = 0.5;
  d.when = assay::date_time{"2024-01-01T00:00:00Z"};
  d.pair = {assay::bounded<int, 1>{1}, assay::bounded<int, 1>{2}};
  const std::string expected =
      "{\"$v\":\"doc-v1\",\"items\":[{\"count\":1,\"name\":\"a\"}],\"pair\":[1,2],"
      "\"rates\":{\"z\":0.5,\"\xf0\x9f\x98\x80\":1,\"\xef\xbc\xa1\":0},\"when\":\"2024-01-01T00:00:00Z\"}";
  auto r = assay::encode(d);
  REQUIRE(r.has_value());
  CHECK(*r == expected);
  CHECK(assay::validate(d).has_value());
  CHECK(assay::encode_or_throw(d) == expected);

  // A sink that sees the bytes in pieces.
  struct chunks {
    std::vector<std::string> parts;
    void write(const char* p, std::size_t n) { parts.emplace_back(p, n); }
  } sink;
  REQUIRE(assay::reflect::encode_to(sink, d).has_value());
  std::string joined;
  for (const auto& p : sink.parts)
    joined += p;
  CHECK(joined == expected);

  auto pretty = assay::encode_pretty(d);
  REQUIRE(pretty.has_value());
  CHECK(pretty->find("\n  \"items\": [\n") != std::string::npos);
  auto reparsed = assay::json::canonicalize(*pretty);
  REQUIRE(reparsed.has_value());
  CHECK(*reparsed == expected);

  // And back.
  auto back = assay::decode<doc>(expected);
  REQUIRE(back.has_value());
  CHECK(assay::encode(*back).value() == expected);
}

TEST_CASE("a large value streams through the writer's buffer") {
  struct big {
    std::vector<std::string> items;
  };
  big b;
  for (int i = 0; i < 5000; ++i)
    b.items.push_back("item-" + std::to_string(i));
  b.items.push_back(std::string(40000, 'x'));
  auto r = assay::encode(b);
  REQUIRE(r.has_value());
  std::string via_sink;
  assay::json::string_sink s{&via_sink};
  REQUIRE(assay::reflect::encode_to(s, b).has_value());
  CHECK(via_sink == *r);
  auto back = assay::decode<big>(*r);
  REQUIRE(back.has_value());
  CHECK(back->items == b.items);
}

TEST_CASE("assign: a string member set from run-time text, checked; unchanged when refused") {
  assay::non_empty name = "kept";
  auto empty = assay::assign(name, "");
  REQUIRE_FALSE(empty);
  CHECK(empty.error().code == assay::errc::too_short);
  CHECK(name == "kept");
  REQUIRE(assay::assign(name, "x"));
  CHECK(name == "x");

  assay::pattern<"^sha256:[0-9a-f]{64}$"> digest;
  auto upper = assay::assign(digest, "sha256:" + std::string(64, 'A'));
  REQUIRE_FALSE(upper);
  CHECK(upper.error().code == assay::errc::pattern_mismatch);
  CHECK(digest.empty());
  REQUIRE(assay::assign(digest, "sha256:" + std::string(64, 'a')));
  CHECK(digest == "sha256:" + std::string(64, 'a'));

  assay::one_of<"info", "warning", "error"> level;
  auto fatal = assay::assign(level, "fatal");
  REQUIRE_FALSE(fatal);
  CHECK(fatal.error().code == assay::errc::enum_mismatch);
  CHECK(level == "info");
  REQUIRE(assay::assign(level, "error"));
  CHECK(level == "error");

  std::optional<assay::date_time> when;
  auto not_a_time = assay::assign(when, "yesterday");
  REQUIRE_FALSE(not_a_time);
  CHECK(not_a_time.error().code == assay::errc::format_mismatch);
  CHECK_FALSE(when.has_value());
  REQUIRE(assay::assign(when, "2026-11-27T23:14:13Z"));
  CHECK(*when == "2026-11-27T23:14:13Z");

  std::string plain;
  REQUIRE(assay::assign(plain, ""));
  REQUIRE(assay::assign(plain, "anything"));
  CHECK(plain == "anything");
}
