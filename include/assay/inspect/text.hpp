// assay/inspect/text.hpp — putting strings from a bundle in front of a person: made printable by
// the one sanitizer (a subject holding an escape sequence must not drive the terminal, nor a
// direction override reorder a line), widths in code points, and long strings shortened in the middle, where their two
// ends stay readable.
#pragma once

#include "assay/json/printable.hpp"

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace assay::inspect {

// Strings from a bundle are made safe by the one sanitizer, json::printable (docs/cli.md): control
// characters, direction marks and invalid UTF-8 escaped visibly.
using json::printable;

// The number of code points of UTF-8 `s` (its width on a terminal, wide characters aside).
inline std::size_t width_of(std::string_view s) noexcept {
  std::size_t n = 0;
  for (const char c : s)
    n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

// `s` in at most `width` code points: as it is when it fits, else its start and end around "…".
inline std::string shorten_middle(std::string_view s, std::size_t width) {
  const std::size_t have = width_of(s);
  if (have <= width)
    return std::string(s);
  if (width == 0)
    return {};
  const std::size_t keep = width - 1;  // "…" takes one
  const std::size_t head = (keep + 1) / 2, tail = keep / 2;
  // Byte offsets of code point `k` from the start.
  auto offset_of = [&](std::size_t k) {
    std::size_t i = 0, seen = 0;
    for (; i < s.size(); ++i) {
      if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80) {
        if (seen == k)
          return i;
        ++seen;
      }
    }
    return s.size();
  };
  return std::string(s.substr(0, offset_of(head))) + "\xe2\x80\xa6" + std::string(s.substr(offset_of(have - tail)));
}

}  // namespace assay::inspect
