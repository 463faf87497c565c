// RFC 6901 JSON Pointer: parsing, escaping, building and resolving against the DOM.
#include "support.hpp"

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/value.hpp"

#include <string>
#include <vector>

namespace json = assay::json;
using assay::errc;

namespace {

std::string code_name(errc c) {
  return std::string(assay::name(c));
}

// The example document of RFC 6901 §5.
const char* const rfc_doc = R"({
  "foo": ["bar", "baz"],
  "": 0,
  "a/b": 1,
  "c%d": 2,
  "e^f": 3,
  "g|h": 4,
  "i\\j": 5,
  "k\"l": 6,
  " ": 7,
  "m~n": 8
})";

std::string canonical_at(const json::value& doc, std::string_view ptr) {
  auto r = json::find(doc, ptr);
  if (!r)
    FAIL("pointer '" << std::string(ptr) << "': " << r.error().format());
  REQUIRE(*r != nullptr);
  return json::to_canonical(**r).value();
}

}  // namespace

TEST_CASE("pointer: the RFC 6901 §5 examples resolve") {
  const json::value doc = json::parse(rfc_doc).value();
  CHECK(canonical_at(doc, "") == json::to_canonical(doc).value());
  CHECK(canonical_at(doc, "/foo") == R"(["bar","baz"])");
  CHECK(canonical_at(doc, "/foo/0") == R"("bar")");
  CHECK(canonical_at(doc, "/foo/1") == R"("baz")");
  CHECK(canonical_at(doc, "/") == "0");
  CHECK(canonical_at(doc, "/a~1b") == "1");
  CHECK(canonical_at(doc, "/c%d") == "2");
  CHECK(canonical_at(doc, "/e^f") == "3");
  CHECK(canonical_at(doc, "/g|h") == "4");
  CHECK(canonical_at(doc, "/i\\j") == "5");
  CHECK(canonical_at(doc, "/k\"l") == "6");
  CHECK(canonical_at(doc, "/ ") == "7");
  CHECK(canonical_at(doc, "/m~0n") == "8");
  // The value returned is the one in the document.
  auto foo = json::find(doc, "/foo");
  REQUIRE(foo.has_value());
  CHECK(*foo == doc.find("foo"));
}

TEST_CASE("pointer: parse unescapes ~1 then ~0") {
  auto p = json::pointer::parse("/a~1b/m~0n/~01/~10/");
  REQUIRE(p.has_value());
  const std::vector<std::string> want = {"a/b", "m~n", "~1", "/0", ""};
  CHECK(p->tokens() == want);
  CHECK(p->to_string() == "/a~1b/m~0n/~01/~10/");

  auto root = json::pointer::parse("");
  REQUIRE(root.has_value());
  CHECK(root->empty());
  CHECK(root->to_string() == "");

  auto empty_token = json::pointer::parse("/");
  REQUIRE(empty_token.has_value());
  CHECK(empty_token->tokens() == std::vector<std::string>{""});
  auto two_empty = json::pointer::parse("//");
  REQUIRE(two_empty.has_value());
  CHECK(two_empty->tokens() == std::vector<std::string>{"", ""});
}

TEST_CASE("pointer: invalid pointers") {
  struct bad {
    const char* text;
    const char* message;
  };
  const char* missing_slash = "a JSON Pointer must be empty or start with '/'";
  const char* bad_tilde = "'~' in a JSON Pointer must be followed by '0' or '1'";
  const bad cases[] = {
      {"a", missing_slash}, {"foo/0", missing_slash}, {"#/foo", missing_slash}, {" /a", missing_slash},
      {"/~2", bad_tilde},   {"/a~", bad_tilde},       {"/~", bad_tilde},        {"/a~/b", bad_tilde},
      {"/~a", bad_tilde},   {"/~~0", bad_tilde},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto p = json::pointer::parse(c.text);
    REQUIRE_FALSE(p.has_value());
    CHECK(code_name(p.error().code) == code_name(errc::invalid_pointer));
    CHECK(p.error().message == c.message);
    // json::find reports the same error.
    const json::value doc = json::parse(rfc_doc).value();
    auto f = json::find(doc, c.text);
    REQUIRE_FALSE(f.has_value());
    CHECK(code_name(f.error().code) == code_name(errc::invalid_pointer));
  }
}

TEST_CASE("pointer: array index rules") {
  const json::value doc = json::parse(R"({"a":[10,11,12],"o":{"01":"x","-":"y","1":"z"}})").value();
  CHECK(canonical_at(doc, "/a/0") == "10");
  CHECK(canonical_at(doc, "/a/2") == "12");
  // Not indices: leading zeros, signs, '-', spaces, empty, non-digits.
  for (const char* p : {"/a/01", "/a/00", "/a/-", "/a/+1", "/a/-1", "/a/ 1", "/a/1 ", "/a/", "/a/1e0", "/a/0x1"}) {
    CAPTURE(p);
    auto r = json::find(doc, p);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(r.error().code) == code_name(errc::no_such_value));
    CHECK(r.error().pointer == p);
    CHECK(r.error().message == "no value at " + std::string(p));
  }
  // Out of range, and huge.
  for (const char* p : {"/a/3", "/a/18446744073709551615", "/a/99999999999999999999"}) {
    CAPTURE(p);
    CHECK_FALSE(json::find(doc, p).has_value());
  }
  // In objects the same tokens are plain names.
  CHECK(canonical_at(doc, "/o/01") == R"("x")");
  CHECK(canonical_at(doc, "/o/-") == R"("y")");
  CHECK(canonical_at(doc, "/o/1") == R"("z")");

  std::size_t i = 99;
  CHECK(json::pointer::parse_index("0", i));
  CHECK(i == 0);
  CHECK(json::pointer::parse_index("1234", i));
  CHECK(i == 1234);
  CHECK(json::pointer::parse_index("9999999999999999999", i));
  CHECK(i == 9999999999999999999ULL);
  CHECK_FALSE(json::pointer::parse_index("01", i));
  CHECK_FALSE(json::pointer::parse_index("-", i));
  CHECK_FALSE(json::pointer::parse_index("", i));
  CHECK_FALSE(json::pointer::parse_index("18446744073709551616", i));
}

TEST_CASE("pointer: values that do not resolve") {
  const json::value doc = json::parse(R"({"a":{"b":[true]},"s":"str","n":null})").value();
  for (const char* p : {"/x", "/a/c", "/a/b/1", "/a/b/0/x", "/s/0", "/n/a", "/A"}) {
    CAPTURE(p);
    auto r = json::find(doc, p);
    REQUIRE_FALSE(r.has_value());
    CHECK(code_name(r.error().code) == code_name(errc::no_such_value));
  }
  CHECK(canonical_at(doc, "/a/b/0") == "true");
  CHECK(canonical_at(doc, "/n") == "null");

  // The non-throwing overload on a parsed pointer.
  json::pointer p;
  p.push("a").push("b").push(std::size_t{0});
  CHECK(p.to_string() == "/a/b/0");
  const json::value* v = json::find(doc, p);
  REQUIRE(v != nullptr);
  CHECK(v->as_bool());
  json::pointer missing;
  missing.push("a").push("zz");
  CHECK(json::find(doc, missing) == nullptr);
}

TEST_CASE("pointer: escaping round-trips through the reader's error pointers") {
  CHECK(json::escape_pointer_token("a/b~c") == "a~1b~0c");
  CHECK(json::escape_pointer_token("~1") == "~01");
  CHECK(json::escape_pointer_token("") == "");
  // The pointer the reader reports for an error resolves, in the document without the error,
  // to the value that was being read.
  const std::string good = R"({"a/b":{"m~n":[0,{"~1":"here"}]}})";
  const std::string bad = R"({"a/b":{"m~n":[0,{"~1":tru}]}})";
  auto e = json::parse(bad);
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().pointer == "/a~1b/m~0n/1/~01");
  const json::value doc = json::parse(good).value();
  CHECK(canonical_at(doc, e.error().pointer) == R"("here")");
  // Building the same pointer token by token.
  json::pointer p;
  p.push("a/b").push("m~n").push(std::size_t{1}).push("~1");
  CHECK(p.to_string() == e.error().pointer);
  CHECK(json::pointer::parse(e.error().pointer).value() == p);
}
