// assay/inspect/text.hpp — putting strings from a bundle in front of a person: control characters
// made visible (a subject holding an escape sequence must not drive the terminal), widths in code
// points, and long strings shortened in the middle, where their two ends stay readable.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace assay::inspect {

// `s` (valid UTF-8) with each control character (C0, DEL, C1) written as \u00XX, and a backslash
// as itself: what a terminal shows is what the bundle holds.
inline std::string visible(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    unsigned code = 0x100;  // none
    if (c < 0x20 || c == 0x7f)
      code = c;
    else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
             static_cast<unsigned char>(s[i + 1]) < 0xa0)
      code = static_cast<unsigned char>(s[++i]);  // U+0080..U+009F
    if (code == 0x100) {
      out += static_cast<char>(c);
      continue;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", code);
    out += buf;
  }
  return out;
}

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
