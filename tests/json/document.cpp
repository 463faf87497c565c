// json::document: the fast parser and the cursor-driven parser give the same answers (accept,
// or the same error), and the canonical bytes equal those of the DOM path (SPEC §1, §2).
#include "support.hpp"

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace json = assay::json;
namespace fs = std::filesystem;
using assay::errc;

namespace {

// Parses `text` with both parsers and json::parse, and checks that all three agree. Returns the
// error code (errc::ok when accepted).
errc agree(std::string_view text, const json::limits& lim = {}) {
  INFO("input: " << std::string(text.substr(0, 200)));
  const auto fast = json::document::parse(text, lim);
  const auto slow = json::document::parse_with_cursor(text, lim);
  const auto dom = json::parse(text, lim);
  REQUIRE(fast.has_value() == slow.has_value());
  CHECK(json::document::fast_parser_accepts(text, lim) == slow.has_value());
  REQUIRE(fast.has_value() == dom.has_value());
  if (!fast) {
    CHECK(fast.error().format() == slow.error().format());
    CHECK(fast.error().format() == dom.error().format());
    return fast.error().code;
  }
  const std::string expected = json::to_canonical(*dom).value();
  CHECK(fast->canonical() == expected);
  CHECK(slow->canonical() == expected);
  CHECK(fast->to_value() == *dom);
  return errc::ok;
}

std::string nest(std::size_t depth, const char* open, const char* close) {
  std::string s;
  for (std::size_t i = 0; i < depth; ++i)
    s += open;
  s += "0";
  for (std::size_t i = 0; i < depth; ++i)
    s += close;
  return s;
}

}  // namespace

TEST_CASE("document: canonical bytes of crafted inputs") {
  const auto canon = [](std::string_view text) { return json::document::parse(text).value().canonical(); };
  CHECK(canon(R"({"b":1,"a":[true,false,null],"c":{"y":"\u00e9","x":"\/"}})") ==
        R"({"a":[true,false,null],"b":1,"c":{"x":"/","y":"é"}})");
  // Number text kept as written only where it is already canonical.
  CHECK(canon("[0,-0,1,-1,10,123456789012345,1234567890123456,1.5,1.50,0.000001,0.0000001,-0.5,1E3,1e-7]") ==
        "[0,0,1,-1,10,123456789012345,1234567890123456,1.5,1.5,0.000001,1e-7,-0.5,1000,1e-7]");
  CHECK(canon("[0.1,0.10000000000000001,100000000000000000000,1e21,123.456e-789]") ==
        "[0.1,0.1,100000000000000000000,1e+21,0]");
  // Escaped names sort by their decoded value: "\"" (U+0022) before "#" (U+0023).
  CHECK(canon(R"({"#":1,"\"":2,"\u0000":3})") == R"({"\u0000":3,"\"":2,"#":1})");
  // UTF-16 order: U+10000 (a surrogate pair) sorts before U+E000.
  CHECK(canon("{\"\xEE\x80\x80\":1,\"\xF0\x90\x80\x80\":2}") == "{\"\xF0\x90\x80\x80\":2,\"\xEE\x80\x80\":1}");
  CHECK(canon("  \"x\"  ") == "\"x\"");
  CHECK(canon("[[],{},[{}],{\"a\":[]}]") == "[[],{},[{}],{\"a\":[]}]");
}

TEST_CASE("document: values on the tape") {
  const auto d = json::document::parse(R"({"n":12,"f":0.25,"g":1e3,"s":"a\nb","t":"plain"})").value();
  CHECK(d.number_at(d.find_member(0, "n")) == 12);
  CHECK(d.number_at(d.find_member(0, "f")) == 0.25);
  CHECK(d.number_at(d.find_member(0, "g")) == 1000);
  CHECK(d.string_at(d.find_member(0, "s")) == "a\nb");
  CHECK(d.string_at(d.find_member(0, "t")) == "plain");
  CHECK(d.find_member(0, "absent") == 0);
  // The fast parser read it: it keeps canonical number text ("12", "0.25") and marks it; the
  // cursor-driven parser stores every number as a double.
  CHECK(d.nodes()[d.find_member(0, "n")].flag);
  CHECK(d.nodes()[d.find_member(0, "f")].flag);
  CHECK_FALSE(d.nodes()[d.find_member(0, "g")].flag);
  CHECK_FALSE(json::document::parse_with_cursor("[12]").value().nodes()[1].flag);
  CHECK(d.find_member(d.find_member(0, "n"), "n") == 0);  // not an object
  // A copy is independent of the original.
  json::document copy = d;
  CHECK(copy.canonical() == d.canonical());
}

TEST_CASE("document: errors are the cursor's, with position and pointer") {
  CHECK(agree(R"({"a":1,"a":2})") == errc::duplicate_member);
  CHECK(agree(R"({"b":1,"a":2,"b":3})") == errc::duplicate_member);   // out of order, then repeated
  CHECK(agree(R"({"a":1,"b":2,"a":3})") == errc::duplicate_member);   // in order, then repeated
  CHECK(agree(R"({"a\u0062":1,"ab":2})") == errc::duplicate_member);  // escaped and raw spelling
  CHECK(agree("[1,]") == errc::unexpected_character);
  CHECK(agree("[1 2]") == errc::unexpected_character);
  CHECK(agree("{\"a\" 1}") == errc::unexpected_character);
  CHECK(agree("[01]") == errc::invalid_number);
  CHECK(agree("[-]") == errc::invalid_number);
  CHECK(agree("[1.]") == errc::invalid_number);
  CHECK(agree("[1e]") == errc::invalid_number);
  CHECK(agree("[1e400]") == errc::number_overflow);
  CHECK(agree("[tru]") == errc::invalid_literal);
  CHECK(agree("[\"\\x\"]") == errc::invalid_escape);
  CHECK(agree("[\"\\ud800\"]") == errc::lone_surrogate);
  CHECK(agree("[\"\\udc00\"]") == errc::lone_surrogate);
  CHECK(agree("[\"a\x01\"]") == errc::unescaped_control);
  CHECK(agree("[\"\xC0\x80\"]") == errc::invalid_utf8);
  CHECK(agree("[\"\\u00e9\xFF\"]") == errc::invalid_utf8);  // after an escape too
  CHECK(agree("\xEF\xBB\xBF[]") == errc::byte_order_mark);
  CHECK(agree("[] x") == errc::trailing_content);
  CHECK(agree("") == errc::unexpected_end);
  CHECK(agree("[\"abc") == errc::unexpected_end);
  CHECK(agree("{\"a\":{\"b\":[1,{\"c\":\"\x01\"}]}}") == errc::unescaped_control);
}

TEST_CASE("document: every limit at its boundary") {
  CHECK(agree(nest(64, "[", "]")) == errc::ok);
  CHECK(agree(nest(65, "[", "]")) == errc::depth_limit);
  json::limits lim;
  lim.max_members = 3;
  CHECK(agree(R"({"a":1,"b":2,"c":3})", lim) == errc::ok);
  CHECK(agree(R"({"a":1,"b":2,"c":3,"d":4})", lim) == errc::member_limit);
  lim = {};
  lim.max_string_chars = 4;
  CHECK(agree("[\"abcd\",\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\",\"\\u00e9bcd\"]", lim) == errc::ok);
  CHECK(agree("[\"abcde\"]", lim) == errc::string_limit);
  CHECK(agree("[\"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\"]", lim) == errc::string_limit);
  CHECK(agree("[\"\\n\\n\\n\\n\\n\"]", lim) == errc::string_limit);
  CHECK(agree("{\"abcde\":1}", lim) == errc::string_limit);
  lim = {};
  lim.max_input_bytes = 4;
  CHECK(agree("[12]", lim) == errc::ok);
  CHECK(agree("[123]", lim) == errc::size_limit);
  lim = {};
  lim.reject_noncharacters = true;
  CHECK(agree("[\"\xEF\xBF\xBF\"]", lim) == errc::noncharacter);
  CHECK(agree("[\"\\ufdd0\"]", lim) == errc::noncharacter);
  CHECK(agree("[\"\xEF\xBF\xBD\"]", lim) == errc::ok);
}

TEST_CASE("document: escapes, non-ASCII and faults at every place around 16-byte blocks and the input's end") {
  // The fast parser copies the text of an escaped string 16 bytes at a time as it looks for its
  // end and checks its UTF-8; the cursor checks and decodes character by character. Each piece goes after 0..40 bytes
  // of a string that holds an escape before it, in a value and in a name, with the input ending soon after the string
  // or well after it.
  const std::vector<std::string> pieces = {
      "\\n",          "\\\"",     "\\\\",  "\\/",          "\\u00e9",  "\\ud83d\\ude00",
      "\\ud83d",      "\\ude00x", "\\u12", "\\q",          "\xC3\xA9", "\xF0\x9F\x98\x80",
      "\xC3",         "\xE6\x97", "\x80",  "\xED\xA0\x80", "\x01",     "\x1F",
      "\xEF\xBF\xBF", "\\uffff",  "\x01n", "\x1Fu0041"};  // a control that reads as an escape
  std::size_t accepted = 0, refused = 0;
  json::limits nonchar;
  nonchar.reject_noncharacters = true;
  for (const std::string& piece : pieces) {
    for (std::size_t offset = 0; offset <= 40; ++offset) {
      const std::string body = "\\t" + std::string(offset, 'a') + piece;
      for (const std::string& text :
           {"[\"" + body + "\"]", "[\"" + body + "\",\"" + std::string(40, 'z') + "\"]", "{\"" + body + "\":1}",
            "{\"" + body + "\":\"" + std::string(40, 'z') + "\"}", "[\"" + body}) {
        const errc got = agree(text);
        (got == errc::ok ? accepted : refused) += 1;
        agree(text, nonchar);
      }
    }
  }
  CHECK(accepted > 0);
  CHECK(refused > 0);
}

TEST_CASE("document: members ordered by UTF-16 when names share, end within or differ past eight bytes") {
  // The writer orders most names by their first eight bytes; these names tie there, end there,
  // hold U+0000, or are not ASCII there (where byte order and UTF-16 order part).
  const std::vector<std::string> names = {"",
                                          "a",
                                          "a\\u0000",
                                          "a\\u0000b",
                                          "abcdefgh",
                                          "abcdefghi",
                                          "abcdefgg",
                                          "abcdefgh\xC3\xA9",
                                          "abcdefg\xC3\xA9",
                                          "ABCDEFGH",
                                          "\xC3\xA9",
                                          "\xEE\x80\x80",
                                          "\xF0\x9F\x98\x80",
                                          "zz",
                                          "abcdefgh\x7F"};
  std::vector<std::size_t> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::mt19937 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::shuffle(order.begin(), order.end(), rng);
    std::string text = "{";
    for (std::size_t i : order)
      text += (text.size() > 1 ? ",\"" : "\"") + names[i] + "\":" + std::to_string(i);
    text += "}";
    REQUIRE(agree(text) == errc::ok);
  }
}

TEST_CASE("document: repeated names in large and nested unsorted objects") {
  // Past 32 members the fast parser switches to a set; nested objects keep their own.
  std::string big = "{";
  for (int i = 99; i >= 0; --i)
    big += "\"k" + std::to_string(i) + "\":{\"z\":1,\"y\":2,\"x\":" + (i % 7 == 0 ? "{\"q\":1,\"p\":2}" : "3") + "},";
  CHECK(agree(big + "\"end\":0}") == errc::ok);
  CHECK(agree(big + "\"k57\":0}") == errc::duplicate_member);
  CHECK(agree(big + "\"k99\":0}") == errc::duplicate_member);
  std::string inner = "{";
  for (int i = 40; i >= 0; --i)
    inner += "\"m" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  CHECK(agree("[" + inner + "\"m0\":1}]") == errc::duplicate_member);
  CHECK(agree("{\"b\":" + inner + "\"m41\":1},\"a\":" + inner + "\"m42\":1}}") == errc::ok);
}

TEST_CASE("document: number text and value agree with the DOM for generated numbers") {
  // Integers and decimals of every length around the 15-digit rule, signs, leading zeros of the
  // fraction around the 1e-6 boundary, trailing zeros, and exponents.
  std::mt19937_64 rng(20261122);
  std::string doc = "[";
  for (int i = 0; i < 60000; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 19);
    std::string m;
    for (int k = 0; k < digits; ++k)
      m += static_cast<char>('0' + rng() % 10);
    m[0] = static_cast<char>('1' + rng() % 9);
    std::string text = (rng() % 3 == 0) ? "-" : "";
    switch (rng() % 4) {
      case 0:
        text += m;
        break;
      case 1: {
        const std::size_t point = 1 + rng() % static_cast<std::size_t>(digits);
        text.append(m, 0, point);
        if (point < m.size())
          text.append(".").append(m, point);
        break;
      }
      case 2:
        text.append("0.").append(rng() % 9, '0').append(m);
        break;
      default:
        text.append(m).append(rng() % 2 ? "e" : "E").append(rng() % 2 ? "-" : "").append(std::to_string(rng() % 30));
    }
    if (i != 0)
      doc += ',';
    doc += text;
  }
  doc += "]";
  CHECK(agree(doc) == errc::ok);
}

TEST_CASE("document: JSONTestSuite and the RFC 8785 inputs, both parsers" * doctest::test_suite("conformance")) {
  const fs::path root = assay_test::conformance_dir();
  if (root.empty())
    return;
  std::size_t files = 0;
  for (const fs::path& dir : {root / "jsontestsuite" / "test_parsing", root / "jcs" / "input"}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string text = assay_test::read_file(e.path());
      INFO(e.path().filename().string());
      agree(text);
      json::limits strict;
      strict.reject_noncharacters = true;
      agree(text, strict);
      ++files;
    }
  }
  CHECK(files > 300);
}

TEST_CASE("write_canonical_with sets one member of an object, replacing or adding it") {
  auto with = [](std::string_view text, std::string_view name, std::string_view json_text) {
    auto doc = json::document::parse(text).value();
    std::string out;
    json::string_sink s{&out};
    {
      json::writer<json::string_sink> w(s);
      doc.write_canonical_with(w, 0, name, json_text);
    }
    return out;
  };
  // Added, in its canonical place; the other members canonical as usual (sorted, re-escaped).
  CHECK(with(R"({"z":1,"a":{"y":[1.0,"\u00e9"],"b":null}})", "m", R"("x")") ==
        R"({"a":{"b":null,"y":[1,"é"]},"m":"x","z":1})");
  // Replaced: the old value is gone, wherever it stood.
  CHECK(with(R"({"h":null,"a":1})", "h", R"("sha256:00")") == R"({"a":1,"h":"sha256:00"})");
  CHECK(with(R"({"h":{"deep":[1,2]}})", "h", "true") == R"({"h":true})");
  // An empty object, and names that order by UTF-16 code units (U+10000 before U+E000).
  CHECK(with("{}", "only", "0") == R"({"only":0})");
  CHECK(with("{\"\xee\x80\x80\":1}", "\xf0\x90\x80\x80", "2") == "{\"\xf0\x90\x80\x80\":2,\"\xee\x80\x80\":1}");
  // A name that needs escaping is written escaped.
  CHECK(with(R"({"a":1})", "q\"", "3") == R"({"a":1,"q\"":3})");
  // An object inside the document.
  auto doc = json::document::parse(R"([{"b":2,"a":1}])").value();
  std::string out;
  json::string_sink s{&out};
  {
    json::writer<json::string_sink> w(s);
    doc.write_canonical_with(w, 1, "c", "[]");
  }
  CHECK(out == R"({"a":1,"b":2,"c":[]})");
}

TEST_CASE("a large document's tape and side buffer (huge-page allocations) hold what was parsed") {
  // Past the huge-page threshold for both the tape and the side buffer of escaped strings.
  std::string text = "[";
  for (int i = 0; i < 300000; ++i) {
    if (i != 0)
      text += ',';
    text += R"({"k\u0041":"v\u00e9)" + std::to_string(i) + R"(","n":)" + std::to_string(i) + "}";
  }
  text += "]";
  auto doc = json::document::parse(text).value();
  CHECK(doc.nodes().size() == 1 + 300000 * 5);
  const std::size_t last = doc.nodes().size() - 5;  // the last object
  CHECK(doc.string_at(last + 1) == "kA");
  CHECK(doc.string_at(last + 2) ==
        "v\xc3\xa9"
        "299999");
  CHECK(doc.number_at(last + 4) == 299999);
  // Copies and moves keep the contents.
  json::document copy = doc;
  json::document moved = std::move(doc);
  CHECK(copy.canonical() == moved.canonical());
  CHECK(copy.string_at(last + 2) ==
        "v\xc3\xa9"
        "299999");
}

TEST_CASE("document: parsing into a recycled document's buffers gives what a fresh parse gives") {
  // A large first document with escapes, so that the tape and side buffer have grown.
  std::string big = "[";
  for (int i = 0; i < 5000; ++i)
    big += (i ? ",\"" : "\"") + std::string("esc\\n\\u00e9 ") + std::to_string(i) + "\"";
  big += "]";
  auto first = json::document::parse(big);
  REQUIRE(first.has_value());
  CHECK(first->string_at(1) == "esc\n\xC3\xA9 0");
  const std::string small = R"({"b":"x\ty","a":[1.50,"\ud83d\ude80"]})";
  auto again = json::document::parse(small, {}, std::move(*first));
  REQUIRE(again.has_value());
  CHECK(again->nodes().size() == 7);
  CHECK(again->canonical() == "{\"a\":[1.5,\"\xF0\x9F\x9A\x80\"],\"b\":\"x\\ty\"}");
  CHECK(again->canonical() == json::document::parse(small).value().canonical());
  // A refused input gives the same error through recycled buffers.
  auto bad = json::document::parse(R"({"a":1,"a":2})", {}, std::move(*again));
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().code == errc::duplicate_member);
  CHECK(bad.error().format() == json::document::parse(R"({"a":1,"a":2})").error().format());
}
