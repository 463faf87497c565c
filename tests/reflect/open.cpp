// extra_members (undeclared members kept, all or by prefix) and either<A, B> (one of two JSON
// types): decode, encode, schema and conformance.
#include "support.hpp"

#include "assay/json/canonical.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/conform.hpp"
#include "assay/reflect/schema.hpp"

#include <optional>
#include <string>

using assay::errc;
namespace json = assay::json;

namespace open_test {
struct prefixed {
  std::string name;
  std::optional<int> zeta{};
  assay::extra_members<"x-"> extensions;
};
struct open {
  int hits = 0;
  assay::extra_members<> rest;
};
struct digest_ref {
  std::string alg;
  std::string digest;
};
struct holder {
  assay::either<std::string, digest_ref> value;
  std::optional<assay::either<assay::bounded<int, 0>, std::string>> count{};
};
// Conformance candidates.
struct prefixed_same {
  std::optional<int> zeta{};
  std::string name;
  assay::extra_members<"x-"> more;
};
struct prefixed_other_prefix {
  std::string name;
  std::optional<int> zeta{};
  assay::extra_members<"y-"> more;
};
struct prefixed_closed {
  std::string name;
  std::optional<int> zeta{};
};
struct holder_string_only {
  std::string value;
};
}  // namespace open_test

TEST_CASE("extra_members with a prefix: x- members kept in order, others refused") {
  auto v = assay::decode<open_test::prefixed>(R"({"x-b":[1],"name":"n","x-a":{"k":true},"zeta":2})");
  REQUIRE(v.has_value());
  CHECK(v->extensions.size() == 2);
  CHECK(json::to_canonical(v->extensions.at("x-a")).value() == R"({"k":true})");
  // Declared and extra members merged in canonical order.
  CHECK(assay::encode(*v).value() == R"({"name":"n","x-a":{"k":true},"x-b":[1],"zeta":2})");
  auto bad = assay::decode<open_test::prefixed>(R"({"name":"n","y-a":1,"extensions":{}})");
  REQUIRE_FALSE(bad.has_value());
  REQUIRE(bad.error().size() == 2);
  CHECK(bad.error().items[0].code == errc::unknown_member);
  CHECK(bad.error().items[0].pointer == "/y-a");
  CHECK(bad.error().items[1].code == errc::unknown_member);  // the C++ member's own name is not a JSON member
  CHECK(bad.error().items[1].pointer == "/extensions");
  auto dup = assay::decode<open_test::prefixed>(R"({"name":"n","x-a":1,"x-a":2})");
  REQUIRE_FALSE(dup.has_value());
  CHECK(dup.error().items[0].code == errc::duplicate_member);
  // Encoding refuses extras that break the prefix or repeat a declared member.
  open_test::prefixed p{"n", std::nullopt, {}};
  p.extensions["y-a"] = json::value(1);
  CHECK(assay::encode(p).error().items[0].code == errc::unknown_member);
  p.extensions.clear();
  p.extensions["x-a"] = json::value(1);
  CHECK(assay::encode(p).value() == R"({"name":"n","x-a":1})");
}

TEST_CASE("extra_members without a prefix take any undeclared member") {
  auto v = assay::decode<open_test::open>(R"({"file":"/a","hits":3,"runs_seen":2})");
  REQUIRE(v.has_value());
  CHECK(v->hits == 3);
  CHECK(v->rest.size() == 2);
  CHECK(assay::encode(*v).value() == R"({"file":"/a","hits":3,"runs_seen":2})");
  open_test::open o{1, {}};
  o.rest["hits"] = json::value(2);  // repeats a declared member
  CHECK(assay::encode(o).error().items[0].code == errc::duplicate_member);
}

TEST_CASE("extra_members in the schema") {
  const auto s = assay::schema<open_test::prefixed>();
  CHECK(json::to_canonical(s).value() ==
        R"({"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,)"
        R"("patternProperties":{"^x-":{}},"properties":{"name":{"type":"string"},"zeta":{"type":"integer"}},)"
        R"("required":["name"],"type":"object"})");
  const auto o = assay::schema<open_test::open>();
  CHECK(json::to_canonical(o).value() ==
        R"({"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":true,)"
        R"("properties":{"hits":{"type":"integer"}},"required":["hits"],"type":"object"})");
}

TEST_CASE("either: the JSON type picks the alternative") {
  auto a = assay::decode<open_test::holder>(R"({"value":"plain"})");
  REQUIRE(a.has_value());
  CHECK(std::get<0>(a->value) == "plain");
  auto b = assay::decode<open_test::holder>(R"({"count":"n/a","value":{"alg":"sha256","digest":"d"}})");
  REQUIRE(b.has_value());
  CHECK(std::get<1>(b->value).digest == "d");
  CHECK(std::get<1>(*b->count) == "n/a");
  CHECK(assay::encode(*b).value() == R"({"count":"n/a","value":{"alg":"sha256","digest":"d"}})");
  auto wrong = assay::decode<open_test::holder>(R"({"value":1,"count":-1})");
  REQUIRE_FALSE(wrong.has_value());
  REQUIRE(wrong.error().size() == 2);
  CHECK(wrong.error().items[0].code == errc::type_mismatch);
  CHECK(wrong.error().items[0].pointer == "/value");
  CHECK(wrong.error().items[0].message == "expected a string or an object, found a number");
  CHECK(wrong.error().items[1].code == errc::below_minimum);  // the alternative's own constraint
  CHECK(wrong.error().items[1].pointer == "/count");
  const auto s = assay::schema<open_test::holder>();
  CHECK(json::to_canonical(*s.find("properties")->find("count")).value() ==
        R"({"anyOf":[{"minimum":0,"type":"integer"},{"type":"string"}]})");
}

TEST_CASE("conformance with extra_members and either") {
  CHECK(assay::conforms_to<open_test::prefixed_same, open_test::prefixed>);
  CHECK_FALSE(assay::conforms_to<open_test::prefixed_other_prefix, open_test::prefixed>);
  CHECK_FALSE(assay::conforms_to<open_test::prefixed_closed, open_test::prefixed>);
  CHECK_FALSE(assay::conforms_to<open_test::prefixed, open_test::prefixed_closed>);
  struct value_only {
    assay::either<std::string, open_test::digest_ref> value;
  };
  CHECK(assay::conforms_to<open_test::holder_string_only, value_only>);  // a string is one of the two
}
