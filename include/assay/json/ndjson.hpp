// assay/json/ndjson.hpp — the lines of a newline-delimited JSON text, for tools that read one
// value per line (events files). Lines are views into the text; nothing is parsed here.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace assay::json {

struct ndjson_line {
  std::string_view text;  // without its line end ("\n" or "\r\n")
  std::size_t number;     // 1-based line number in the text
  std::size_t offset;     // byte offset of the line's first byte in the text
};

// The lines that hold something, one at a time: a line of only spaces and tabs separates
// nothing and is left out; "\r\n" line ends are accepted; the last line may lack its newline.
// `at` and `number` carry where the last call stopped (start both at 0); false at the end.
inline bool next_ndjson_line(std::string_view text, std::size_t& at, std::size_t& number, ndjson_line& out) {
  while (at < text.size()) {
    const std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(at, end - at);
    const std::size_t start = at;
    ++number;
    at = nl == std::string_view::npos ? text.size() : nl + 1;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      out = ndjson_line{line, number, start};
      return true;
    }
  }
  return false;
}

// All the lines that hold something, as next_ndjson_line() finds them.
inline std::vector<ndjson_line> ndjson_lines(std::string_view text) {
  std::vector<ndjson_line> out;
  std::size_t at = 0, number = 0;
  ndjson_line line{};
  while (next_ndjson_line(text, at, number, line))
    out.push_back(line);
  return out;
}

}  // namespace assay::json
