// The JSON Schema validator of tool arguments (mcp/schema.hpp) beyond the official suite
// (schema_suite.cpp): hostile arguments cost time linear in their size, patterns outside the
// automata go to Boost and its overrun is a violation, what is not implemented or would need a
// fetch is a compile error naming it, and messages are short, ordered and quote no argument.
#include "support.hpp"

#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/mcp/schema.hpp"
#include "assay/reflect/ecma_pattern.hpp"

#include <string>
#include <vector>

namespace json = assay::json;
namespace mcp = assay::mcp;
using assay::errc;

namespace {

mcp::compiled_schema compile(std::string_view schema_text, mcp::schema_options opt = {}) {
  auto v = json::parse(schema_text);
  REQUIRE_MESSAGE(v, schema_text);
  auto s = mcp::compile_schema(*v, opt);
  REQUIRE_MESSAGE(s, (s ? std::string() : s.error().message));
  return *s;
}

assay::error compile_error(std::string_view schema_text, mcp::schema_options opt = {}) {
  auto v = json::parse(schema_text);
  REQUIRE(v);
  auto s = mcp::compile_schema(*v, opt);
  REQUIRE_FALSE(s);
  return s.error();
}

std::vector<mcp::schema_violation> check(const mcp::compiled_schema& s, const std::string& instance) {
  auto doc = json::document::parse(instance);
  REQUIRE(doc);
  auto v = s.validate(*doc);
  CHECK(s.valid(*doc) == v.empty());
  auto dom = json::parse(instance);
  REQUIRE(dom);
  CHECK(s.validate(*dom) == v);
  return v;
}

}  // namespace

TEST_CASE("a 200 KB argument against ^/tmp/.*$ is matched by the automaton (linear in its length)") {
  const auto s = compile(R"({"type":"object","properties":{"path":{"type":"string","pattern":"^/tmp/.*$"}}})");
  const std::string tail(200 * 1024, 'x');
  CHECK(check(s, R"({"path":"/tmp/)" + tail + "\"}").empty());
  const auto bad = check(s, R"({"path":"/etc/)" + tail + "\"}");
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].path == "/path");
  CHECK(bad[0].message == "must match the pattern ^/tmp/.*$");
  // `.` is a code point but no line terminator, as ECMA-262 says.
  CHECK(check(s, R"({"path":"/tmp/é\u00e9"})").empty());
  CHECK(check(s, R"({"path":"/tmp/a\nb"})").size() == 1);
  CHECK(check(s, R"({"path":"/tmp/a\u2028b"})").size() == 1);
  CHECK(assay::reflect::ecma_pattern::compile("^/tmp/.*$")->linear());
}

TEST_CASE("patterns are read over code points") {
  const auto s = compile(R"({"type":"string","pattern":"^.{2}$"})");
  CHECK(check(s, R"("é€")").empty());  // two code points, five bytes
  CHECK(check(s, R"("ab")").empty());
  CHECK(check(s, R"("abc")").size() == 1);
  const auto w = compile(R"({"pattern":"^[^a-z]\\S\\d\\w\\s$"})");
  CHECK(check(w, R"("€é1_ ")").empty());
  CHECK(check(w, R"("aé1_ ")").size() == 1);
  CHECK(check(w, "\"\xE2\x82\xAC\xC3\xA9\\u0661_\\u3000\"").size() == 1);  // \d is ASCII only
  CHECK(check(w, R"("€é1_\u3000")").empty());                              // \s takes U+3000
  // patternProperties too, on the names.
  const auto p = compile(R"({"patternProperties":{"^é+$":{"type":"integer"}},"additionalProperties":false})");
  CHECK(check(p, R"({"ééé":1})").empty());
  CHECK(check(p, R"({"ééé":"x"})").size() == 1);
  CHECK(check(p, R"({"e":1})").size() == 1);
}

TEST_CASE("a look-around pattern goes to Boost.Regex, over code points") {
  const auto s = compile(R"({"type":"string","pattern":"^(?!/etc/)/.{1,3}$"})");
  CHECK_FALSE(assay::reflect::ecma_pattern::compile("^(?!/etc/)/.{1,3}$")->linear());
  CHECK(check(s, R"("/tmp")").empty());
  CHECK(check(s, R"("/éé")").empty());
  const auto bad = check(s, R"("/etc/x")");
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].message == "must match the pattern ^(?!/etc/)/.{1,3}$");
  CHECK(check(compile(R"({"pattern":"(a)\\1"})"), R"("xaay")").empty());  // a back-reference
}

TEST_CASE("a Boost complexity overrun is a violation, never a crash or a hang") {
  const auto s = compile(R"({"properties":{"q":{"pattern":"^(?!x)(a|aa)+$"}}})");
  const auto v = check(s, R"({"q":")" + std::string(200, 'a') + "c\"}");
  REQUIRE(v.size() == 1);
  CHECK(v[0].path == "/q");
  CHECK(v[0].message == "is too costly to match against the pattern ^(?!x)(a|aa)+$");
  // On a member name (patternProperties) too: the member is refused.
  const auto names = compile(R"({"patternProperties":{"^(?!x)(a|aa)+$":true}})");
  const auto w = check(names, "{\"" + std::string(200, 'a') + "c\":1}");
  REQUIRE(w.size() == 1);
  CHECK(w[0].path == "");
  CHECK(w[0].message.find("is too costly to match against the pattern ^(?!x)(a|aa)+$") != std::string::npos);
}

TEST_CASE("a keyword that is not implemented is a compile error naming it and where") {
  const auto e = compile_error(R"({"properties":{"a":{"minimum":1,"minimumm":2}}})");
  CHECK(e.code == errc::unsupported);
  CHECK(e.pointer == "/properties/a");
  CHECK(e.message == "the keyword \"minimumm\" is not implemented (draft 2020-12) at #/properties/a");
  // A draft-07 schema has no 2020-12 keywords, and the reverse.
  CHECK(compile_error(R"({"$schema":"http://json-schema.org/draft-07/schema#","prefixItems":[true]})").code ==
        errc::unsupported);
  CHECK(compile_error(R"({"definitions":{}})").message ==
        "the keyword \"definitions\" is not implemented (draft 2020-12) at #");
  mcp::schema_options d7;
  d7.default_dialect = mcp::schema_dialect::draft7;
  CHECK(compile(R"({"definitions":{"a":{"type":"string"}},"items":{"$ref":"#/definitions/a"}})", d7)
            .valid(*json::parse(R"(["x"])")));
  // Malformed values are errors too.
  CHECK(compile_error(R"({"minLength":-1})").message == "\"minLength\" must be a non-negative integer at #");
  CHECK(compile_error(R"({"type":"strin"})").code == errc::invalid_argument);
  CHECK(compile_error(R"({"pattern":"(unclosed"})").code == errc::unsupported);
  CHECK(compile_error(R"({"$schema":"https://example.com/my-dialect"})").code == errc::unsupported);
}

TEST_CASE("a remote $ref is a compile error, never fetched; the meta-schemas are carried") {
  const auto e = compile_error(R"({"properties":{"a":{"$ref":"https://example.com/s.json#/x"}}})");
  CHECK(e.code == errc::unsupported);
  CHECK(e.pointer == "/properties/a");
  CHECK(e.message.find("remote documents are never fetched") != std::string::npos);
  CHECK(compile_error(R"({"$ref":"other.json"})").code == errc::unsupported);
  const auto meta = compile(R"({"$ref":"https://json-schema.org/draft/2020-12/schema"})");
  CHECK(check(meta, R"({"type":"string","minLength":1})").empty());
  CHECK(check(meta, R"({"minLength":-1})").size() == 1);
  const auto meta7 = compile(R"({"$ref":"http://json-schema.org/draft-07/schema#"})");
  CHECK(check(meta7, R"({"items":[{"type":"integer"}]})").empty());
  CHECK(check(meta7, R"({"type":"strin"})").size() == 1);
}

TEST_CASE("messages: short, in order, no argument value, member names made printable") {
  const auto s = compile(R"({"type":"object","required":["path","mode"],"additionalProperties":false,
    "properties":{"path":{"type":"string","maxLength":3},"mode":{"enum":["r","w"]},"n":{"type":"integer"}}})");
  const auto v = check(s, R"({"path":"SECRET-VALUE","n":1.5,"x\u001b[31m":true,"mode":"SECRET2"})");
  REQUIRE(v.size() == 4);  // the members in their order, each with its checks
  CHECK(v[0].path == "/path");
  CHECK(v[0].message == "must be at most 3 characters long");
  CHECK(v[1].path == "/n");
  CHECK(v[1].message == "must be an integer");
  CHECK(v[2].path == "");
  CHECK(v[2].message == "additional property \"x\\x1b[31m\" is not allowed");
  CHECK(v[3].path == "/mode");
  CHECK(v[3].message == "must be one of \"r\", \"w\"");
  for (const auto& x : v)
    CHECK(x.message.find("SECRET") == std::string::npos);
  CHECK(check(s, R"({})") == std::vector<mcp::schema_violation>{{"", "required property \"path\" is missing"},
                                                                {"", "required property \"mode\" is missing"}});
  CHECK(check(s, R"([])") == std::vector<mcp::schema_violation>{{"", "must be an object"}});
  // Pointers escape '~' and '/', and a long name is cut.
  const auto deep = compile(R"({"additionalProperties":{"type":"string"}})");
  CHECK(check(deep, R"({"a/b~c":1})")[0].path == "/a~1b~0c");
  const std::string long_name(1000, 'n');
  CHECK(check(deep, "{\"" + long_name + "\":1}")[0].path.size() < 80);
}

TEST_CASE("numbers compare as numbers") {
  CHECK(check(compile(R"({"type":"integer"})"), "1.0").empty());
  CHECK(check(compile(R"({"type":"integer"})"), "1.5").size() == 1);
  const auto cents = compile(R"({"multipleOf":0.01})");
  CHECK(check(cents, "19.99").empty());
  CHECK(check(cents, "0.075")[0].message == "must be a multiple of 0.01");
  CHECK(check(compile(R"({"multipleOf":0.0001})"), "0.0075").empty());
  CHECK(check(compile(R"({"const":1})"), "1.0").empty());
  CHECK(check(compile(R"({"enum":[{"a":[1,2.0]}]})"), R"({"a":[1.0,2]})").empty());
  CHECK(check(compile(R"({"exclusiveMaximum":10})"), "10")[0].message == "must be less than 10");
}

// Not timed (a speed is a benchmark's to measure): a pairwise comparison of 300,003 items would
// take 4.5e10 comparisons, far past the test's timeout.
TEST_CASE("uniqueItems on a large array is not quadratic") {
  std::string big = "[";
  for (int i = 0; i < 300000; ++i)
    big += std::to_string(i) + ",";
  big += "{\"a\":1,\"b\":2},[1],{\"b\":2,\"a\":1.0}]";
  const auto s = compile(R"({"uniqueItems":true})");
  auto doc = json::document::parse(big);
  REQUIRE(doc);
  const auto v = s.validate(*doc);
  REQUIRE(v.size() == 1);
  CHECK(v[0].message == "must not contain equal items (items 300000 and 300002)");
}

TEST_CASE("validation is bounded: deep instances, reference cycles, exponential schemas") {
  // An instance nested 20,000 deep (the reader's depth limit raised): evaluation stops at its
  // own depth limit with a violation instead of exhausting the stack.
  json::limits lim;
  lim.max_depth = 100000;
  const std::string deep = std::string(20000, '[') + std::string(20000, ']');
  auto doc = json::document::parse(deep, lim);
  REQUIRE(doc);
  const auto nested = compile(R"({"$defs":{"a":{"items":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"})");
  auto v = nested.validate(*doc);
  REQUIRE(v.size() == 1);
  CHECK(v[0].message == "too deeply nested to validate against the schema");
  // A reference cycle that never goes deeper into the instance.
  v = check(compile(R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})"), "1");
  REQUIRE(v.size() == 1);
  CHECK(v[0].message == "too deeply nested to validate against the schema");
  // 2^40 paths through anyOf: the budget of evaluations ends it.
  std::string defs = R"({"$defs":{"d0":{"type":"string"})";
  for (int i = 1; i <= 40; ++i)
    defs += ",\"d" + std::to_string(i) + "\":{\"anyOf\":[{\"$ref\":\"#/$defs/d" + std::to_string(i - 1) +
            "\"},{\"$ref\":\"#/$defs/d" + std::to_string(i - 1) + "\"}]}";
  defs += R"(},"$ref":"#/$defs/d40"})";
  mcp::schema_options small;
  small.max_evaluations = 100000;
  v = check(compile(defs, small), "1");
  REQUIRE(v.size() == 1);
  CHECK(v[0].message == "too costly to validate against the schema");
}

TEST_CASE("the dialect: $schema names draft-07, or the option does") {
  const char* ref_with_sibling = R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":1})";
  CHECK(check(compile(ref_with_sibling), R"("ab")").size() == 1);  // 2020-12: siblings apply
  const auto d7 = compile(
      R"({"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},
      "allOf":[{"$ref":"#/definitions/s","maxLength":1}]})");
  CHECK(check(d7, R"("ab")").empty());  // draft-07: a $ref's siblings are not applied
  CHECK(check(d7, "1").size() == 1);
}

TEST_CASE("max_violations bounds the list, not the verdict") {
  mcp::schema_options opt;
  opt.max_violations = 3;
  const auto s = compile(R"({"items":{"type":"string"}})", opt);
  const auto v = check(s, "[1,2,3,4,5,6]");
  CHECK(v.size() == 3);
  CHECK(v[2].path == "/2");
}
