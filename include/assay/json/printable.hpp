// assay/json/printable.hpp — the one sanitizer (docs/cli.md): text from a bundle, a pack, a ledger
// or an envelope made safe to put on one line of a terminal, for every message and every verb.
//
//   std::string line = assay::json::printable(untrusted);      // one line, escaped
//   std::string cut  = assay::json::printable(untrusted, 64);  // at most 64 bytes of it, then "…"
//
// It sits at the lowest floor (standard headers only), so the JSON reader's messages, the
// inspectors, lint's reports and the CLI all use this one policy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace assay::json {

// One character of UTF-8 text: its length in bytes (1 for a byte that does not start a
// well-formed sequence), its code point, and whether it is well-formed.
struct utf8_char {
  std::size_t len = 1;
  std::uint32_t cp = 0;
  bool valid = false;
};

// The character that starts at byte `i` of `s` (i < s.size()).
inline utf8_char utf8_at(std::string_view s, std::size_t i) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  const unsigned char c = p[i];
  utf8_char u{1, c, c < 0x80};
  if (c >= 0xC2 && c <= 0xF4) {
    u.len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    const unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    u.valid = i + u.len <= n && p[i + 1] >= lo && p[i + 1] <= hi;
    u.cp = c & (0x7F >> u.len);
    for (std::size_t k = 1; u.valid && k < u.len; ++k) {
      u.valid = k == 1 || (p[i + k] & 0xC0) == 0x80;
      u.cp = (u.cp << 6) | (p[i + k] & 0x3F);
    }
    if (!u.valid) {
      u.len = 1;
      u.cp = c;
    }
  }
  return u;
}

// The code points above ASCII that no reader should get as themselves: C1 controls, the line
// and paragraph separators and the invisible direction marks, embeddings, overrides and
// isolates (U+0080..U+009F, U+200E, U+200F, U+2028..U+202E, U+2066..U+2069). Every output that
// shows untrusted text escapes them visibly (as `\uHHHH`).
constexpr bool invisible_control(std::uint32_t cp) noexcept {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// `cp` as `\uHHHH` (cp <= U+FFFF), appended to `out`.
inline void append_u_escape(std::string& out, std::uint32_t cp) {
  static constexpr char hex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4)
    out += hex[(cp >> shift) & 15];
}

// `s` made safe to print on one line of a terminal: ASCII control bytes (ESC, CR, LF, TAB, DEL)
// and bytes that are not well-formed UTF-8 become `\xHH`; the code points invisible_control()
// names become `\uHHHH`. Everything else, backslash included, is kept, so escaping twice changes
// nothing. With `max_bytes`, at most that many bytes of `s` are shown (never half a character),
// followed by "…" when some were left out.
inline std::string printable(std::string_view s, std::size_t max_bytes = std::string_view::npos) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() < 256 ? s.size() : 256);
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    const auto c = static_cast<unsigned char>(s[i]);
    const utf8_char u = utf8_at(s, i);
    if (max_bytes != std::string_view::npos && i + u.len > max_bytes) {
      out += "\xE2\x80\xA6";  // …
      break;
    }
    if (!u.valid || c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (invisible_control(u.cp)) {
      append_u_escape(out, u.cp);
    } else {
      out.append(s.data() + i, u.len);
    }
    i += u.len;
  }
  return out;
}

// printable() for text of several lines: each line made safe, the newlines kept (for text whose
// line breaks are its own, each piece of untrusted text in it already made printable).
inline std::string printable_lines(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    out += printable(text.substr(0, nl)) + "\n";
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  return out;
}

}  // namespace assay::json
