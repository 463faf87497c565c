// Typed decoding from a node of a parsed document (reflect/decode_node.hpp): the same values and
// the same violations as decoding the node's canonical text, with pointers relative to the node
// and no byte position; what a document cannot say (a number's spelling) stated exactly.
#include "support.hpp"

#include "reflect/check_error.hpp"

#include "assay/json/document.hpp"
#include "assay/json/node_cursor.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/decode_node.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using assay::errc;
using assay_test::check_errors;

namespace {

struct point {
  int x;
  std::optional<int> y;
};

struct report_like {
  assay::const_string<"r-v1"> schema_version;
  assay::bounded<std::int64_t, 1> runs;
  assay::one_of<"pass", "fail"> status;
  std::vector<assay::non_empty> tags;
  point where;
  std::optional<assay::date_time> at;
  assay::unique_list<point> points;
  std::optional<assay::nullable<std::string>> note;
  std::optional<assay::either<std::string, std::int64_t>> id;
  std::optional<std::map<std::string, double>> scores;
  std::optional<assay::json::value> extra;
  assay::extra_members<"x-"> ext;
};

template <class T>
struct one {
  T v;
};

// The document (over its own copy of the text), and the node of its member "data" (node 0 when
// it has none: the root).
struct parsed {
  explicit parsed(std::string t) : text(std::move(t)) {
    auto d = assay::json::document::parse(text);
    REQUIRE(d.has_value());
    doc = std::move(*d);
    node = doc.find_member(0, "data");
  }
  std::string text;
  assay::json::document doc;
  std::size_t node = 0;
};

std::string canonical_at(const assay::json::document& doc, std::size_t node) {
  std::string out;
  assay::json::string_sink sink{&out};
  assay::json::writer<assay::json::string_sink> w(sink);
  doc.write_canonical(w, node);
  w.flush();
  return out;
}

// decode<T>(doc, node) against decode<T>(the node's canonical text): the same value (encoded to
// the same bytes), or the same violations (codes, messages, pointers), with no position. Returns the node decoder's
// result for further checks.
template <class T>
assay::results<T> same_as_text(const std::string& text) {
  INFO("document: " << text);
  const parsed p(text);
  const std::string canonical = canonical_at(p.doc, p.node);
  auto from_node = assay::decode<T>(p.doc, p.node);
  auto from_text = assay::decode<T>(canonical);
  REQUIRE(from_node.has_value() == from_text.has_value());
  if (from_node) {
    CHECK(assay::encode(*from_node).value() == assay::encode(*from_text).value());
  } else {
    // The same violations; the node's in the document's member order, the text's in canonical
    // (sorted) order.
    auto key = [](const assay::error& e) {
      return e.pointer + '\n' + e.message + '\n' + std::string(assay::name(e.code));
    };
    std::vector<std::string> a, b;
    for (const auto& e : from_node.error()) {
      a.push_back(key(e));
      CHECK(e.offset == assay::error::npos);
      CHECK(e.line == 0);
      CHECK(e.column == 0);
    }
    for (const auto& e : from_text.error())
      b.push_back(key(e));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
  }
  return from_node;
}

}  // namespace

TEST_CASE("decode from a node: a valid value of every kind, equal to decoding its text") {
  auto r = same_as_text<report_like>(
      R"({"data":{"schema_version":"r-v1","runs":3,"status":"pass","tags":["a","b"],"where":{"x":1,"y":-2},)"
      R"("at":"2026-01-02T03:04:05Z","points":[{"x":1},{"x":1,"y":2}],"note":null,"id":7,)"
      R"("scores":{"b":0.5,"a":1e2},"extra":{"k":[1,"\u00e9",null,true]},"x-more":[{}]},"other":0})");
  REQUIRE(r.has_value());
  CHECK(r->runs.value() == 3);
  CHECK(r->where.y == -2);
  CHECK(r->points.size() == 2);
  REQUIRE(r->note.has_value());
  CHECK_FALSE(r->note->has_value());
  REQUIRE(r->id.has_value());
  CHECK(std::get<1>(*r->id) == 7);
  CHECK(r->scores->at("a") == 100.0);
  CHECK(r->ext.at("x-more") == assay::json::parse("[{}]").value());
  // The root of a document is a node too.
  auto root = same_as_text<point>(R"({"y":2,"x":1})");
  REQUIRE(root.has_value());
  CHECK(root->x == 1);
  CHECK(*root->y == 2);
}

TEST_CASE("decode from a node: every violation, with its pointer from the node and no position") {
  auto r = same_as_text<report_like>(
      R"({"data":{"schema_version":"r-v2","runs":0,"status":"maybe","tags":["a","",3],"where":{"y":1.5,"q":0},)"
      R"("points":[{"x":1,"y":2},{"y":2,"x":1}],"note":5,"id":true,"scores":{"a":"b"},"x-ok":1,"zz":1}})");
  REQUIRE_FALSE(r.has_value());
  constexpr auto npos = assay::error::npos;
  check_errors(r.error(), {{errc::const_mismatch, R"(expected "r-v1", found "r-v2")", "/schema_version", npos},
                           {errc::below_minimum, "0 is less than the minimum 1", "/runs", npos},
                           {errc::enum_mismatch, R"("maybe" is not one of "pass", "fail")", "/status", npos},
                           {errc::too_short, "string is shorter than the minimum length 1", "/tags/1", npos},
                           {errc::type_mismatch, "expected a string, found a number", "/tags/2", npos},
                           {errc::not_an_integer, "expected an integer, found 1.5", "/where/y", npos},
                           {errc::unknown_member, R"(unknown member "q" (not allowed here))", "/where/q", npos},
                           {errc::missing_member, R"(required member "x" is missing)", "/where/x", npos},
                           {errc::duplicate_item, R"(item 1 repeats item 0 ({"x":1,"y":2}))", "/points/1", npos},
                           {errc::type_mismatch, "expected a string, found a number", "/note", npos},
                           {errc::type_mismatch, "expected a string or an integer, found a boolean", "/id", npos},
                           {errc::type_mismatch, "expected a number, found a string", "/scores/a", npos},
                           {errc::unknown_member, R"(unknown member "zz" (not allowed here))", "/zz", npos}});
  // A whole value of the wrong type.
  auto a = same_as_text<point>(R"({"data":[1]})");
  REQUIRE_FALSE(a.has_value());
  check_errors(a.error(), {{errc::type_mismatch, "expected an object, found an array", "", npos}});
}

TEST_CASE("decode from a node: numbers are read as their canonical text gives them") {
  constexpr auto npos = assay::error::npos;
  // 1.0 and 1e0 are the integer 1 (their canonical text is "1"), even when the limits ask for
  // integers as written: a document keeps no spelling.
  assay::json::limits as_written;
  as_written.integers_as_written = true;
  const parsed p(R"({"data":{"v":1.0}})");
  auto one_int = assay::decode<one<int>>(p.doc, p.node, as_written);
  REQUIRE(one_int.has_value());
  CHECK(one_int->v == 1);
  CHECK_FALSE(assay::decode<one<int>>(R"({"v":1.0})", as_written).has_value());  // text: refused
  // An integer past 2^53 is the double the document holds: 2^53 + 1 reads as 2^53 ...
  auto big = same_as_text<one<std::int64_t>>(R"({"data":{"v":9007199254740993}})");
  REQUIRE(big.has_value());
  CHECK(big->v == 9007199254740992);
  // ... and 2^64 - 1 as 18446744073709552000, past any 64-bit integer.
  auto max = same_as_text<one<std::uint64_t>>(R"({"data":{"v":18446744073709551615}})");
  REQUIRE_FALSE(max.has_value());
  check_errors(max.error(),
               {{errc::not_an_integer, "18446744073709552000 is out of range for this member", "/v", npos}});
  auto frac = same_as_text<one<int>>(R"({"data":{"v":25e-1}})");
  REQUIRE_FALSE(frac.has_value());
  check_errors(frac.error(), {{errc::not_an_integer, "expected an integer, found 2.5", "/v", npos}});
  // Unique numbers by value.
  auto dup = same_as_text<one<assay::unique_list<double>>>(R"({"data":{"v":[1,1.0,10e-1,2]}})");
  REQUIRE_FALSE(dup.has_value());
  check_errors(dup.error(), {{errc::duplicate_item, "item 1 repeats item 0 (1)", "/v/1", npos},
                             {errc::duplicate_item, "item 2 repeats item 0 (1)", "/v/2", npos}});
}

TEST_CASE("decode from a node: the node cursor reads exactly its value") {
  const parsed p(R"({"a":[1,{"b":"c"}],"data":{"x":1},"z":null})");
  assay::json::node_cursor c(p.doc, p.doc.find_member(0, "a"));
  REQUIRE(c.enter_array());
  REQUIRE(c.next_element());
  double d = 0;
  REQUIRE(c.read_number(d));
  CHECK(d == 1);
  REQUIRE(c.next_element());
  CHECK(c.pointer() == "/1");
  REQUIRE(c.enter_object());
  std::string_view name;
  REQUIRE(c.next_member(name));
  CHECK(name == "b");
  CHECK(c.pointer() == "/1/b");
  bool b = false;
  CHECK_FALSE(c.read_bool(b));  // a string is not a boolean
  check_errors(assay::errors(c.error()), {{errc::type_mismatch, "expected true or false", "/1/b"}});
  // A fresh cursor: the value ends with its array, never running into the next member.
  assay::json::node_cursor e(p.doc, p.doc.find_member(0, "a"));
  REQUIRE(e.skip());
  CHECK(e.peek() == assay::json::token::end);
  CHECK(e.finish());
  assay::json::node_cursor f(p.doc, p.doc.find_member(0, "a"));
  REQUIRE(f.enter_array());
  REQUIRE(f.next_element());
  REQUIRE(f.skip());
  REQUIRE(f.next_element());
  REQUIRE(f.skip());
  CHECK_FALSE(f.next_element());
  CHECK(f.ok());
  CHECK(f.peek() == assay::json::token::end);
}
