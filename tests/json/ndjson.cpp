// NDJSON lines: blank lines left out, CRLF accepted, a last line without newline kept, and each
// line's number and offset into the text.
#include "support.hpp"

#include "assay/json/big_array.hpp"
#include "assay/json/ndjson.hpp"

#include <string>
#include <string_view>

namespace json = assay::json;

TEST_CASE("ndjson_lines: the lines that hold something, with their numbers and offsets") {
  const std::string_view text = "{\"a\":1}\r\n\n  \t\n[2]\n3";
  const auto lines = json::ndjson_lines(text);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].text == "{\"a\":1}");
  CHECK(lines[0].number == 1);
  CHECK(lines[0].offset == 0);
  CHECK(lines[1].text == "[2]");
  CHECK(lines[1].number == 4);
  CHECK(lines[1].offset == 14);
  CHECK(lines[2].text == "3");  // no final newline
  CHECK(lines[2].number == 5);
  CHECK(lines[2].offset == 18);
  CHECK(json::ndjson_lines("").empty());
  CHECK(json::ndjson_lines("\n\r\n \n").empty());
  // A line of other white space is not blank: it reaches the parser, which refuses it.
  CHECK(json::ndjson_lines("\f\n").size() == 1);
}

TEST_CASE("char_buffer grows, copies and moves like a string") {
  json::char_buffer b;
  CHECK(b.size() == 0);
  std::string expect;
  for (int i = 0; i < 100000; ++i) {
    b.append("abc", 3);
    b += static_cast<char>('0' + i % 10);
    expect += "abc";
    expect += static_cast<char>('0' + i % 10);
  }
  CHECK(std::string_view(b.data(), b.size()) == expect);
  json::char_buffer c = b;
  CHECK(std::string_view(c.data(), c.size()) == expect);
  json::char_buffer d = std::move(b);
  CHECK(std::string_view(d.data(), d.size()) == expect);
  CHECK(b.size() == 0);
  c = d;
  c.append(std::string_view("z"));
  CHECK(c.size() == expect.size() + 1);
  // Past the huge-page threshold: reserve keeps what is there.
  json::char_buffer big;
  big.append("xyz", 3);
  big.reserve(std::size_t(16) << 20);
  CHECK(big.capacity() >= (std::size_t(16) << 20));
  CHECK(std::string_view(big.data(), big.size()) == "xyz");
}
