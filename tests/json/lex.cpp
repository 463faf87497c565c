// The lexing layer and what stands on it: the keyed duplicate-name set against names chosen to
// collide, skip_value against reading, and inputs nested far deeper than the stack would allow
// a recursive reader, through every parser and writer of json/.
#include "support.hpp"

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/lex.hpp"
#include "assay/json/name_set.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace json = assay::json;
using assay::errc;

namespace {

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

// Reads `text` with skip_value(): the result of reading past one value and finishing.
assay::result<void> skip(std::string_view text, const json::limits& lim = {}) {
  json::cursor c(text, lim);
  if (!json::skip_value(c) || !c.finish())
    return c.error();
  return {};
}

// Every reader of json/ rejects `text` with the same error; returns it.
assay::error same_error_everywhere(std::string_view text, const json::limits& lim = {}) {
  const auto dom = json::parse(text, lim);
  REQUIRE_FALSE(dom.has_value());
  const std::string want = dom.error().format();
  INFO("json::parse: " << want.substr(0, 300));
  const auto fast = json::document::parse(text, lim);
  REQUIRE_FALSE(fast.has_value());
  CHECK(fast.error().format() == want);
  const auto slow = json::document::parse_with_cursor(text, lim);
  REQUIRE_FALSE(slow.has_value());
  CHECK(slow.error().format() == want);
  const auto skipped = skip(text, lim);
  REQUIRE_FALSE(skipped.has_value());
  CHECK(skipped.error().format() == want);
  const auto canon = json::canonicalize(text, lim);
  REQUIRE_FALSE(canon.has_value());
  CHECK(canon.error().format() == want);
  return dom.error();
}

// `count` distinct short names whose libstdc++ std::hash values are equal modulo the bucket
// count std::unordered_set<std::string_view> has once it holds `count` names: every one of them
// lands in a single bucket. Found by brute force over short strings.
std::vector<std::string> colliding_names(std::size_t count) {
  std::unordered_set<std::string_view> sizing;
  std::vector<std::string> filler;
  filler.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    filler.push_back("f" + std::to_string(i));
  for (const auto& f : filler)
    sizing.insert(f);
  const std::size_t buckets = sizing.bucket_count();
  const std::hash<std::string_view> h;
  std::vector<std::string> names;
  std::string s;
  for (std::uint64_t i = 0; names.size() < count; ++i) {
    s.clear();
    for (std::uint64_t v = i; s.empty() || v != 0; v /= 26)
      s += static_cast<char>('a' + v % 26);
    if (h(s) % buckets == 0)
      names.push_back(s);
  }
  return names;
}

}  // namespace

// --- the keyed hash -----------------------------------------------------------------------

TEST_CASE("lex: SipHash-2-4 reference vectors (key 00..0f, message 00..n-1)") {
  if constexpr (std::endian::native != std::endian::little)
    return;
  const std::uint64_t k0 = 0x0706050403020100ULL;
  const std::uint64_t k1 = 0x0F0E0D0C0B0A0908ULL;
  const std::uint64_t expected[] = {0x726fdb47dd0e0e31ULL, 0x74f839c593dc67fdULL, 0x0d6c8009d9a94f5aULL,
                                    0x85676696d7fb7e2dULL, 0xcf2794e0277187b7ULL, 0x18765564cd99a68dULL,
                                    0xcbc9466e58fee3ceULL, 0xab0200f58b01d137ULL, 0x93f5f5799a932462ULL};
  std::string msg;
  for (std::size_t n = 0; n < std::size(expected); ++n) {
    CAPTURE(n);
    CHECK(json::lex::siphash<2, 4>(k0, k1, msg) == expected[n]);
    msg += static_cast<char>(n);
  }
  msg.clear();
  for (int i = 0; i < 16; ++i)
    msg += static_cast<char>(i);
  CHECK(json::lex::siphash<2, 4>(k0, k1, std::string_view(msg).substr(0, 15)) == 0xa129ca6149be45e5ULL);
  CHECK(json::lex::siphash<2, 4>(k0, k1, msg) == 0x3f2acc7f57c29bdbULL);
}

// --- the name set -------------------------------------------------------------------------

TEST_CASE("same_bytes: every length to 40, a difference at every place, as memcmp says") {
  const std::string a = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH";
  for (std::size_t n = 0; n <= 40; ++n) {
    CHECK(json::lex::same_bytes(a.data(), a.data() + 0, n));
    std::string b = a;
    CHECK(json::lex::same_bytes(a.data(), b.data(), n));
    for (std::size_t i = 0; i < n; ++i) {
      b = a;
      b[i] = static_cast<char>(b[i] ^ 0x20);
      if (json::lex::same_bytes(a.data(), b.data(), n)) {
        INFO("length " << n << ", difference at " << i);
        CHECK(std::memcmp(a.data(), b.data(), n) == 0);
      }
    }
  }
}

TEST_CASE("name_set: one scope per open object, names copied or viewed") {
  json::name_set s;
  s.open();
  CHECK(s.insert("a"));
  CHECK(s.insert_view("b"));
  CHECK_FALSE(s.insert("b"));
  CHECK_FALSE(s.insert_view("a"));
  CHECK(s.insert(""));
  CHECK_FALSE(s.insert_view(""));
  {
    std::string reused = "inner";
    s.open();
    CHECK(s.insert(reused));  // a copy: the buffer may change at once
    reused = "other";
    CHECK(s.insert(reused));
    CHECK_FALSE(s.insert("inner"));
    CHECK(s.insert("a"));  // the outer object's names are not this one's
    CHECK(s.depth() == 2);
    s.close();
  }
  CHECK_FALSE(s.insert("a"));
  CHECK(s.insert("inner"));
  s.close();
  CHECK(s.depth() == 0);
  // Many names, many scopes, long names: past the linear path and across copy-store blocks.
  s.open();
  for (int round = 0; round < 3; ++round) {
    s.open();
    for (int i = 0; i < 5000; ++i)
      REQUIRE(s.insert(std::string(static_cast<std::size_t>(i % 7) * 300, 'x') + std::to_string(i)));
    for (int i = 0; i < 5000; i += 97)
      CHECK_FALSE(s.insert(std::string(static_cast<std::size_t>(i % 7) * 300, 'x') + std::to_string(i)));
    s.close();
  }
  s.close();
}

TEST_CASE("name_set: a repeat is found at every place in objects of up to 16 names, fingerprints shared") {
  // Names compared directly carry a fingerprint of their length and first and last bytes; a
  // name whose fingerprint is new is taken without comparing. Here half of the names share one
  // fingerprint ("k" + two digits + "z") and the others have their own; every name is repeated
  // after every prefix of the object, viewed and copied.
  std::vector<std::string> names;
  for (int i = 0; i < 8; ++i) {
    names.push_back("k" + std::to_string(10 + i) + "z");
    names.push_back(std::string(static_cast<std::size_t>(i) + 1, static_cast<char>('a' + i)));
  }
  for (std::size_t count = 1; count <= names.size(); ++count) {
    for (std::size_t repeat_of = 0; repeat_of < count; ++repeat_of) {
      for (const bool copy : {false, true}) {
        json::name_set s;
        s.open();
        for (std::size_t i = 0; i < count; ++i)
          REQUIRE((copy ? s.insert(names[i]) : s.insert_view(names[i])));
        const std::string again = names[repeat_of];
        CHECK_FALSE((copy ? s.insert(again) : s.insert_view(again)));
        if (count < names.size())  // a new name with a shared fingerprint is still new
          CHECK((copy ? s.insert("k99z") : s.insert_view("k99z")));
        s.close();
      }
    }
  }
}

TEST_CASE("names chosen to collide in std::hash: accepted, canonicalized, repeats still found") {
  constexpr std::size_t n = 3000;
  const std::vector<std::string> names = colliding_names(n);
  {
    // They do collide: in an unordered_set of that size they share one bucket.
    std::unordered_set<std::string_view> set(names.begin(), names.end());
    REQUIRE(set.size() == n);
    CHECK(set.bucket_size(set.bucket(names[0])) == n);
  }
  json::limits lim;
  lim.max_members = n + 1;
  // Out of canonical order (so the fast parser keeps a set too), each with its index.
  std::string text = "{";
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = (i * 7919) % n;
    text += (i ? ",\"" : "\"") + names[k] + "\":" + std::to_string(k);
  }
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
  std::string expected = "{";
  for (std::size_t i = 0; i < n; ++i)
    expected += (i ? ",\"" : "\"") + names[order[i]] + "\":" + std::to_string(order[i]);
  expected += "}";

  const std::string ok = text + "}";
  const auto dom = json::parse(ok, lim);
  REQUIRE(dom.has_value());
  CHECK(json::to_canonical(*dom).value() == expected);
  CHECK(json::document::parse(ok, lim).value().canonical() == expected);
  CHECK(json::document::parse_with_cursor(ok, lim).value().canonical() == expected);
  CHECK(skip(ok, lim).has_value());
  // Inside an array too, and with each name written with an escape (the copied path).
  std::string escaped = "[" + ok + ",{";
  for (std::size_t i = 0; i < n; ++i)
    escaped += (i ? ",\"\\u00" : "\"\\u00") + std::string(1, "0123456789abcdef"[names[i][0] >> 4]) +
               std::string(1, "0123456789abcdef"[names[i][0] & 15]) + names[i].substr(1) + "\":0";
  CHECK(json::parse(escaped + "}]", lim).has_value());
  CHECK(json::document::parse(escaped + "}]", lim).has_value());
  CHECK(skip(escaped + "}]", lim).has_value());

  // A repeat of any of them, early or late, raw or escaped, is found by every reader.
  for (const std::size_t k : {std::size_t{0}, n / 2, n - 1}) {
    const std::string dup = text + ",\"" + names[k] + "\":0}";
    const assay::error e = same_error_everywhere(dup, lim);
    CHECK(e.code == errc::duplicate_member);
    CHECK(e.offset == text.size() + 1);
    CHECK(e.pointer == "/" + names[k]);
    const assay::error e2 = same_error_everywhere(escaped + ",\"" + names[k] + "\":0}]", lim);
    CHECK(e2.code == errc::duplicate_member);
    CHECK(e2.pointer == "/1/" + names[k]);
  }
}

// --- skip_value ---------------------------------------------------------------------------

TEST_CASE("skip_value: the same answer and the same error as reading") {
  const char* inputs[] = {
      "[1,{\"a\":[true,false,null,\"x\\u00e9\\uD83D\\uDE00\"],\"b\":{\"c\":{}}},-2.5e-3]",
      "{\"a\":{\"b\":1,\"b\":2}}",
      "[{\"x\":1},{\"x\":1,\"y\":{\"x\":[],\"x\":0}}]",
      "{\"a\\u0062\":1,\"ab\":2}",
      "[1,]",
      "[1 2]",
      "{\"a\" 1}",
      "{\"a\":1,}",
      "[01]",
      "[-]",
      "[1.]",
      "[1e]",
      "[1e400]",
      "[-1e400]",
      "[1e-400]",
      "[+1]",
      "[.5]",
      "[tru]",
      "[nul]",
      "[\"\\x\"]",
      "[\"\\u12\"]",
      "[\"\\u12",
      "[\"\\",
      "[\"\\ud800\"]",
      "[\"\\ud800\\u0041\"]",
      "[\"\\udc00\"]",
      "[\"a\x01\"]",
      "[\"\xC0\x80\"]",
      "[\"\xED\xA0\x80\"]",
      "[\"\\u00e9\xFF\"]",
      "\xEF\xBB\xBF[]",
      "[] x",
      "",
      "[\"abc",
      "{\"a\":{\"b\":[1,{\"c\":\"\x01\"}]}}",
      "{\"a\":[1,2",
  };
  for (const char* text : inputs) {
    CAPTURE(text);
    const auto dom = json::parse(text);
    const auto skipped = skip(text);
    REQUIRE(dom.has_value() == skipped.has_value());
    if (!dom)
      CHECK(skipped.error().format() == dom.error().format());
  }
  // Limits too.
  json::limits tiny;
  tiny.max_depth = 2;
  tiny.max_members = 2;
  tiny.max_string_chars = 3;
  tiny.reject_noncharacters = true;
  const char* limited[] = {"[[[]]]",
                           "{\"a\":1,\"b\":2,\"c\":3}",
                           "[\"abcd\"]",
                           "{\"abcd\":1}",
                           "[\"\\n\\n\\n\\n\"]",
                           "[\"\xEF\xBF\xBF\"]",
                           "[\"\\ufdd0\"]",
                           "[[\"abc\"]]"};
  for (const char* text : limited) {
    CAPTURE(text);
    const auto dom = json::parse(text, tiny);
    const auto skipped = skip(text, tiny);
    REQUIRE(dom.has_value() == skipped.has_value());
    if (!dom)
      CHECK(skipped.error().format() == dom.error().format());
  }
}

TEST_CASE("skip_value: inside a document, the cursor goes on after the value") {
  json::cursor c(R"({"skip":{"a":[1,{"a":2}],"b":"\u00e9"},"keep":[{"a":1},{"a":1}],"x":{"a":1,"a":1}})");
  REQUIRE(c.enter_object());
  std::string_view name;
  REQUIRE(c.next_member(name));
  REQUIRE(c.check_unique_name(name));
  CHECK(name == "skip");
  REQUIRE(json::skip_value(c));
  REQUIRE(c.next_member(name));
  REQUIRE(c.check_unique_name(name));
  CHECK(name == "keep");
  REQUIRE(json::skip_value(c));
  REQUIRE(c.next_member(name));
  REQUIRE(c.check_unique_name(name));
  CHECK_FALSE(json::skip_value(c));
  CHECK(c.error().code == errc::duplicate_member);
  CHECK(c.error().pointer == "/x/a");
  CHECK(c.error().offset == 75);
}

TEST_CASE("check_unique_name: the driver's names, one scope per object") {
  json::cursor c(R"({"a":{"a":1},"b":[{"a":1}],"a":0})");
  REQUIRE(c.enter_object());
  std::string_view name;
  REQUIRE(c.next_member(name));
  REQUIRE(c.check_unique_name(name));
  REQUIRE(json::skip_value(c));
  REQUIRE(c.next_member(name));
  REQUIRE(c.check_unique_name(name));
  REQUIRE(json::skip_value(c));
  REQUIRE(c.next_member(name));
  CHECK_FALSE(c.check_unique_name(name));
  CHECK(c.error().format() == json::parse(R"({"a":{"a":1},"b":[{"a":1}],"a":0})").error().format());
}

// --- depth --------------------------------------------------------------------------------

TEST_CASE("200,000 levels under a raised depth limit: clean errors from every reader and writer") {
  json::limits deep;
  deep.max_depth = 1000000;
  constexpr std::size_t d = 200000;
  {
    const auto e = same_error_everywhere(repeat("[", d) + "x", deep);
    CHECK(e.code == errc::unexpected_character);
    CHECK(e.offset == d);
  }
  {
    const auto e = same_error_everywhere(repeat("{\"a\":", d) + "}", deep);
    CHECK(e.code == errc::unexpected_character);
    CHECK(e.offset == 5 * d);
  }
  {
    const auto e = same_error_everywhere(repeat("{\"a\":[", d) + "1" + repeat("]}", d - 1) + "]", deep);
    CHECK(e.code == errc::unexpected_end);
  }
  {
    const auto e = same_error_everywhere(repeat("[{\"a\":", d) + "{\"k\":1,\"k\":2}", deep);
    CHECK(e.code == errc::duplicate_member);
    CHECK(e.offset == 6 * d + 7);
    CHECK(e.pointer == repeat("/0/a", d) + "/k");
  }
  {
    // The limit still holds at its boundary.
    json::limits capped;
    capped.max_depth = d - 1;
    const auto e = same_error_everywhere(repeat("[", d) + repeat("]", d), capped);
    CHECK(e.code == errc::depth_limit);
    CHECK(e.offset == d - 1);
  }
}

TEST_CASE("200,000 levels under a raised depth limit: valid documents read, copy, compare and write") {
  json::limits deep;
  deep.max_depth = 1000000;
  constexpr std::size_t d = 200000;
  const std::string text = repeat("{\"b\":0,\"a\":[", d) + "1" + repeat("]}", d);
  const std::string canonical = repeat("{\"a\":[", d) + "1" + repeat("],\"b\":0}", d);
  CHECK(skip(text, deep).has_value());
  const auto doc = json::document::parse(text, deep);
  REQUIRE(doc.has_value());
  CHECK(doc->canonical() == canonical);
  CHECK(json::document::parse_with_cursor(text, deep).value().canonical() == canonical);
  const auto v = json::parse(text, deep);
  REQUIRE(v.has_value());
  CHECK(json::to_canonical(*v).value() == canonical);
  CHECK(json::canonicalize(text, deep).value() == canonical);
  // The tape's DOM, a copy and the comparisons follow the depth on the heap too.
  const json::value from_tape = doc->to_value();
  CHECK(from_tape == *v);
  json::value copy = *v;
  CHECK(copy == *v);
  json::value* leaf = &copy;
  while (leaf->is_object())
    leaf = &leaf->as_object()[1].value.as_array()[0];
  *leaf = json::value(2);
  CHECK_FALSE(copy == *v);
  CHECK_FALSE(*v == copy);
  copy = *v;
  CHECK(copy == *v);
}

TEST_CASE("to_pretty and copies of nested values keep their shape") {
  json::limits lim;
  lim.max_depth = 1000;
  const json::value v =
      json::parse(repeat("[{\"z\":[],\"y\":{},\"x\":", 300) + "\"leaf\"" + repeat("}]", 300), lim).value();
  const std::string pretty = json::to_pretty(v);
  CHECK(json::parse(pretty, lim).value() == v);
  CHECK(pretty.substr(0, 16) == "[\n  {\n    \"x\": [");
  const json::value copy = v;
  CHECK(json::to_canonical(copy).value() == json::to_canonical(v).value());
}

TEST_CASE("scan_plain: the 16-byte UTF-8 path and the exact scan agree wherever a sequence falls") {
  // With reject_noncharacters the exact per-sequence scan runs; without, the block path (none
  // of these pieces holds a noncharacter, so the two must give the same answer).
  const std::vector<std::string> pieces = {"\xC3\xA9",
                                           "\xE6\x97\xA5",
                                           "\xF0\x9F\x98\x80",
                                           "\xC0\x80",
                                           "\xED\xA0\x80",
                                           "\xE0\x9F\xBF",
                                           "\xF0\x8F\xBF\xBF",
                                           "\xF4\x90\x80\x80",
                                           "\x80",
                                           "\xFF",
                                           "\xC3",
                                           "\xE6\x97",
                                           "\xF0\x9F\x98",
                                           "\x01",
                                           "\x1F",
                                           "\\",
                                           "\x7F",
                                           "\xC3\xA9\xC3"};
  std::size_t compared = 0;
  for (const std::string& piece : pieces) {
    for (std::size_t offset = 0; offset < 40; ++offset) {
      for (const char* tail : {"\"", "xyz\"", "\xC3\xA9\"", ""}) {
        const std::string text = std::string(offset, 'a') + piece + tail + std::string(20, 'b');
        const char* b = text.data();
        const char* e = b + text.size();
        const char* fast = b;
        const char* exact = b;
        json::lex::problem pf, pe;
        const json::lex::stop sf = json::lex::scan_plain(fast, e, false, pf);
        const json::lex::stop se = json::lex::scan_plain(exact, e, true, pe);
        INFO("piece " << json::quote_for_message(piece) << " at offset " << offset << ", tail " << tail);
        CHECK(sf == se);
        CHECK(fast - b == exact - b);
        CHECK(pf.fault == pe.fault);
        CHECK(pf.at == pe.at);
        CHECK(pf.cp == pe.cp);
        ++compared;
      }
    }
  }
  CHECK(compared == pieces.size() * 40 * 4);
  // And the answers themselves, at a block boundary (bytes 14..17 of the string).
  const auto scan = [](const std::string& text, json::lex::problem& pr) {
    const char* p = text.data();
    const json::lex::stop s = json::lex::scan_plain(p, text.data() + text.size(), false, pr);
    return std::pair{s, static_cast<std::size_t>(p - text.data())};
  };
  json::lex::problem pr;
  const std::string pad(14, 'a'), after(32, 'z');
  CHECK(scan(pad + "\xF0\x9F\x98\x80\"" + after, pr) == std::pair{json::lex::stop::quote, std::size_t{18}});
  CHECK(scan(pad + "\xE6\x97\\" + after, pr).first == json::lex::stop::fault);
  CHECK(pr.fault == json::lex::fault::utf8);
  CHECK(scan(pad + "\xC3\xA9\x01" + after, pr).first == json::lex::stop::fault);
  CHECK(pr.fault == json::lex::fault::control);
  CHECK(pr.cp == 1);
  CHECK(scan(pad + "\xED\xA0\x80\"" + after, pr).first == json::lex::stop::fault);
  CHECK(pr.fault == json::lex::fault::utf8);
}

namespace {

// Calls `each(seq)` for every sequence of one to four of `bytes` (n + n^2 + n^3 + n^4 of them).
void for_each_sequence(const std::vector<unsigned char>& bytes, const std::function<void(const std::string&)>& each) {
  std::string seq;
  const std::function<void()> extend = [&] {
    for (unsigned char c : bytes) {
      seq.push_back(static_cast<char>(c));
      each(seq);
      if (seq.size() < 4)
        extend();
      seq.pop_back();
    }
  };
  extend();
}

// What scan_plain() must answer, from decode_utf8() one character at a time (the rules of
// SPEC §1 without the noncharacter option): where it stops and why.
struct scan_answer {
  json::lex::stop stop;
  std::size_t at;
  json::lex::fault fault;
  bool operator==(const scan_answer&) const = default;
};

scan_answer expected_scan(const std::string& text) {
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  const auto* e = b + text.size();
  for (const unsigned char* p = b; p != e;) {
    const auto at = static_cast<std::size_t>(p - b);
    if (*p == '"')
      return {json::lex::stop::quote, at, json::lex::fault::none};
    if (*p == '\\')
      return {json::lex::stop::backslash, at, json::lex::fault::none};
    if (*p < 0x20)
      return {json::lex::stop::fault, at, json::lex::fault::control};
    if (*p < 0x80) {
      ++p;
      continue;
    }
    std::uint32_t cp = 0;
    const int len = json::decode_utf8(p, e, cp);
    if (len == 0)
      return {json::lex::stop::fault, at, json::lex::fault::utf8};
    p += len;
  }
  return {json::lex::stop::fault, text.size(), json::lex::fault::string_end};
}

template <json::lex::expect Expect>
scan_answer actual_scan(const std::string& text) {
  const char* p = text.data();
  json::lex::problem pr;
  const json::lex::stop s = json::lex::scan_plain<Expect>(p, text.data() + text.size(), false, pr);
  if (s == json::lex::stop::fault)
    return {s, static_cast<std::size_t>(pr.at - text.data()), pr.fault};
  return {s, static_cast<std::size_t>(p - text.data()), json::lex::fault::none};
}

}  // namespace

TEST_CASE("scan_plain: every sequence of up to four boundary bytes, at every place in a block") {
  // The bytes where Table 3-7's ranges begin and end, and ASCII, a quote, a control character.
  const std::vector<unsigned char> bytes = {0x41, 0x22, 0x01, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                            0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
                                            0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
  std::size_t compared = 0, valid = 0;
  for_each_sequence(bytes, [&](const std::string& seq) {
    // The sequence after 0..17 ASCII bytes (across the first block boundary), then the end
    // of the string, then enough bytes for the 16-byte path to run to the end; and with the
    // input ending at the string's end (with and without its quote), where the last bytes are
    // left to the exact scan, up to a string that fills its last block to the input's end.
    for (std::size_t offset : {0, 1, 12, 13, 14, 15, 16, 17, 18, 19, 28, 29, 30, 31}) {
      const std::string tail = offset < 18 ? "\"" + std::string(20, 'z') : offset < 20 ? "\"" : "";
      const std::string text = std::string(offset, 'a') + seq + tail;
      const scan_answer want = expected_scan(text);
      const scan_answer text_scan = actual_scan<json::lex::expect::text>(text);
      const scan_answer name_scan = actual_scan<json::lex::expect::ascii>(text);
      const scan_answer value_scan = actual_scan<json::lex::expect::either>(text);
      if (text_scan != want || name_scan != want || value_scan != want) {
        INFO("sequence " << json::quote_for_message(seq) << " after " << offset << " bytes");
        CHECK(text_scan == want);
        CHECK(name_scan == want);
        CHECK(value_scan == want);
      }
      valid += want.stop == json::lex::stop::quote;
      ++compared;
    }
  });
  const std::size_t n = bytes.size();
  CHECK(compared == 14 * (n + n * n + n * n * n + n * n * n * n));
  CHECK(valid > 0);
  CHECK(valid < compared);
}

namespace {

// scan_escaped_copy() and scan_escaped() on the same text (a backslash first): where each stops,
// why, and what it decoded.
struct escaped_answer {
  bool ok;
  std::size_t at;  // where p stopped, or the fault's place
  json::lex::fault fault;
  std::string decoded;
  bool operator==(const escaped_answer&) const = default;
};

escaped_answer exact_escaped(const std::string& text) {
  const char* p = text.data();
  json::lex::problem pr;
  std::string out;
  const bool ok = json::lex::scan_escaped(p, text.data() + text.size(), false, out, pr);
  return ok ? escaped_answer{true, static_cast<std::size_t>(p - text.data()), json::lex::fault::none, out}
            : escaped_answer{false, static_cast<std::size_t>(pr.at - text.data()), pr.fault, {}};
}

escaped_answer copying_escaped(const std::string& text) {
  const char* p = text.data();
  json::lex::problem pr;
  json::char_buffer out;
  out.reserve(text.size() + 16);
  const bool ok = json::lex::scan_escaped_copy(p, text.data() + text.size(), out, pr);
  return ok ? escaped_answer{true, static_cast<std::size_t>(p - text.data()), json::lex::fault::none,
                             std::string(out.data(), out.size())}
            : escaped_answer{false, static_cast<std::size_t>(pr.at - text.data()), pr.fault, {}};
}

}  // namespace

TEST_CASE("scan_escaped_copy: every sequence of up to four boundary bytes after an escape, as scan_escaped") {
  const std::vector<unsigned char> bytes = {0x41, 0x22, 0x5C, 0x01, 0x80, 0xBF, 0xC2, 0xDF,
                                            0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0x6E, 0xC0};
  std::size_t compared = 0, accepted = 0;
  for_each_sequence(bytes, [&](const std::string& seq) {
    // After 0..33 bytes of the run that follows an escape (across the first two blocks), with
    // the input ending at the sequence, soon after it, or well after it; a second escape (the
    // sequence's backslash followed by 'n' or a quote) starts a run of its own.
    for (std::size_t offset : {0, 1, 13, 14, 15, 16, 17, 30, 31, 32, 33}) {
      for (const char* tail : {"", "z\"", "zzzz\\n\"zzzzzzzzzzzzzzzzzzzz"}) {
        const std::string text = "\\t" + std::string(offset, 'a') + seq + tail;
        const escaped_answer want = exact_escaped(text);
        const escaped_answer got = copying_escaped(text);
        if (got != want) {
          INFO("sequence " << json::quote_for_message(seq) << " after " << offset << " bytes, then "
                           << json::quote_for_message(tail));
          CHECK(got.ok == want.ok);
          CHECK(got.at == want.at);
          CHECK(got.fault == want.fault);
          CHECK(got.decoded == want.decoded);
        }
        accepted += want.ok;
        ++compared;
      }
    }
  });
  const std::size_t n = bytes.size();
  CHECK(compared == 11 * 3 * (n + n * n + n * n * n + n * n * n * n));
  CHECK(accepted > 0);
  CHECK(accepted < compared);
}

TEST_CASE("scan_plain: long runs of mixed scripts with one fault planted at each position") {
  // Text of 1-, 2-, 3- and 4-byte characters, long enough for many blocks, after a run of
  // ASCII; then the same text with a byte replaced, at every position, by a stray continuation,
  // an ASCII byte that cuts a sequence short, or a lead byte.
  const std::string text =
      "caf\xC3\xA9 \xE7\xB5\x90\xE6\x9E\x9C \xF0\x9F\x98\x80 \xD0\xB7\xD0\xB0\xD0\xBF\xD1\x80"
      "\xD0\xBE\xD1\x81 \xED\x9F\xBF\xEE\x80\x80 \xF4\x8F\xBF\xBF x";
  const std::string body = std::string(37, 'a') + repeat(text, 6);
  REQUIRE(actual_scan<json::lex::expect::text>(body + "\"" + std::string(20, 'z')) ==
          scan_answer{json::lex::stop::quote, body.size(), json::lex::fault::none});
  std::size_t faults = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    for (char replacement : {'\x80', 'q', '\xC3', '\xF0'}) {
      std::string bad = body;
      bad[i] = replacement;
      const std::string full = bad + "\"" + std::string(20, 'z');
      const scan_answer want = expected_scan(full);
      faults += want.stop == json::lex::stop::fault;
      for (const scan_answer got :
           {actual_scan<json::lex::expect::text>(full), actual_scan<json::lex::expect::ascii>(full),
            actual_scan<json::lex::expect::either>(full)}) {
        if (got != want) {
          INFO("byte " << i << " replaced");
          CHECK(got == want);
        }
      }
    }
  }
  CHECK(faults > body.size());
}

TEST_CASE("eisel_lemire: the nearest double, as std::from_chars finds it, for every exponent of the table") {
  if (!json::detail::eisel_lemire::available)
    return;
  std::mt19937_64 rng(20261125);
  std::vector<std::uint64_t> significands = {1,
                                             2,
                                             5,
                                             9,
                                             10,
                                             999999999999999999ULL,
                                             9999999999999999999ULL,
                                             (1ULL << 53) - 1,
                                             (1ULL << 53) + 1,  // a tie at q = 0
                                             (1ULL << 54) + 2,
                                             17976931348623157ULL,
                                             22250738585072011ULL,
                                             49406564584124654ULL};
  for (int i = 0; i < 40; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 19);
    std::uint64_t w = 1 + rng() % 9;
    for (int d = 1; d < digits; ++d)
      w = w * 10 + rng() % 10;
    significands.push_back(w);
  }
  std::size_t normal = 0, answered = 0;
  for (int q = -360; q <= 330; ++q) {
    for (std::uint64_t w : significands) {
      const std::string text = std::to_string(w) + "e" + std::to_string(q);
      double want = 0;
      const auto r = std::from_chars(text.data(), text.data() + text.size(), want);
      const bool is_normal = r.ec == std::errc() && std::fpclassify(want) == FP_NORMAL;
      normal += is_normal;
      for (bool negative : {false, true}) {
        double got = 0;
        if (!json::detail::eisel_lemire::to_double(w, q, negative, got))
          continue;
        answered += !negative;
        if (!is_normal || std::bit_cast<std::uint64_t>(got) != std::bit_cast<std::uint64_t>(negative ? -want : want)) {
          INFO(text << (negative ? " (negative)" : ""));
          CHECK(is_normal);
          CHECK(std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(negative ? -want : want));
        }
      }
    }
  }
  // It declines ties and the ends of the range only: nearly every normal double is answered.
  CHECK(normal > 30000);
  CHECK(answered > normal * 99 / 100);
  double tie = 0;
  CHECK(!json::detail::eisel_lemire::to_double((1ULL << 53) + 1, 0, false, tie));
}

TEST_CASE("eisel_lemire: a million random 17-digit decimals, the form every double prints in") {
  if (!json::detail::eisel_lemire::available)
    return;
  std::mt19937_64 rng(17);
  std::size_t declined = 0;
  for (int i = 0; i < 1000000; ++i) {
    const double x = std::bit_cast<double>(rng());
    if (!std::isfinite(x) || x == 0)
      continue;
    char buf[64];
    const auto w = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific, 16);
    // d.ddddddddddddddddde±x: the significand's 17 digits as an integer, the exponent moved.
    const std::string text(buf, w.ptr);
    const bool negative = text[0] == '-';
    std::string digits;
    std::size_t e = text.find('e');
    for (std::size_t k = negative ? 1 : 0; k < e; ++k)
      if (text[k] != '.')
        digits += text[k];
    const int q = std::stoi(text.substr(e + 1)) - 16;
    double got = 0;
    if (!json::detail::eisel_lemire::to_double(std::stoull(digits), q, negative, got)) {
      ++declined;
      continue;
    }
    double want = 0;
    std::from_chars(text.data(), text.data() + text.size(), want);
    if (std::bit_cast<std::uint64_t>(got) != std::bit_cast<std::uint64_t>(want)) {
      INFO(text);
      CHECK(std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(want));
    }
  }
  // Declined: subnormals (a 64-bit pattern is one about once in 2,000) and near-ties.
  CHECK(declined < 2000);
}

TEST_CASE("numbers through the parsers: ties, range ends and long significands as from_chars reads them") {
  for (const char* text :
       {"9007199254740993", "9007199254740992.5", "9007199254740993.0000000000000000001", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "4.9406564584124654e-324", "1.7976931348623157e308", "1.7976931348623158e308",
        "-1.7976931348623157e308", "0.30000000000000004", "1e-400", "-1e-400", "0.000000000000000000000000001e27",
        "12345678901234567890123", "123456789012345678901234567890e-30", "0e999999999", "-0.0", "1E+2", "8.5e-323"}) {
    double want = 0;
    std::from_chars(text, text + std::strlen(text), want);
    if (std::strcmp(text, "1e-400") == 0 || std::strcmp(text, "-1e-400") == 0)
      want = text[0] == '-' ? -0.0 : 0.0;  // below the range: ±0 (SPEC §1)
    auto doc = json::document::parse(text);
    REQUIRE(doc);
    INFO(text);
    CHECK(std::bit_cast<std::uint64_t>(doc->number_at(0)) == std::bit_cast<std::uint64_t>(want));
    auto v = json::parse(text);
    REQUIRE(v);
    CHECK(std::bit_cast<std::uint64_t>(v->as_number()) == std::bit_cast<std::uint64_t>(want));
  }
  CHECK(json::document::parse("1.7976931348623159e308").error().code == errc::number_overflow);
}
