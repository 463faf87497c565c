// assay/json/lex.hpp — the lexing layer under both strict parsers (docs/json.md).
//
// The pull reader (reader.hpp's `cursor`) and the document's fast parser (document.hpp) read
// the same grammar with the same rules; this header holds those rules once: UTF-8 validation
// and decoding, the scan of string contents (16 bytes at a time where nothing needs attention),
// escape decoding (\uXXXX surrogate pairs, lone surrogates), the number grammar and its
// conversion to a double, and the set of member names that finds duplicates.
//
// The functions here report what went wrong as a `lex::fault` and where (a pointer into the
// input); they never build messages. Callers that only need "valid or not" (the fast parser)
// ignore the details; the cursor turns them into its errors with lex::describe().
#pragma once

#include "assay/error.hpp"
#include "assay/json/detail/eisel_lemire.hpp"
#include "assay/json/inline.hpp"
#include "assay/json/printable.hpp"
#include "assay/json/detail/utf8_blocks.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace assay::json {

// Decodes one UTF-8 sequence at p (first byte >= 0x80). Returns its length, or 0 if the bytes
// are not well-formed UTF-8 (Unicode Table 3-7: no overlong forms, no encoded surrogates,
// nothing above U+10FFFF). `cp` receives the code point.
inline int decode_utf8(const unsigned char* p, const unsigned char* end, std::uint32_t& cp) noexcept {
  const unsigned char c = p[0];
  auto cont = [&](int i) { return p + i < end && (p[i] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) {
    if (!cont(1))
      return 0;
    cp = (std::uint32_t(c & 0x1F) << 6) | (p[1] & 0x3F);
    return 2;
  }
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2))
      return 0;
    if (c == 0xE0 && p[1] < 0xA0)
      return 0;  // overlong
    if (c == 0xED && p[1] > 0x9F)
      return 0;  // encoded surrogate
    cp = (std::uint32_t(c & 0x0F) << 12) | (std::uint32_t(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3))
      return 0;
    if (c == 0xF0 && p[1] < 0x90)
      return 0;  // overlong
    if (c == 0xF4 && p[1] > 0x8F)
      return 0;  // above U+10FFFF
    cp = (std::uint32_t(c & 0x07) << 18) | (std::uint32_t(p[1] & 0x3F) << 12) | (std::uint32_t(p[2] & 0x3F) << 6) |
         (p[3] & 0x3F);
    return 4;
  }
  return 0;  // stray continuation byte, C0/C1 overlong lead, F5..FF
}

// `s` in double quotes for an error message: at most 64 bytes of it (then "…"), made printable
// by the one sanitizer (printable.hpp: control characters, direction marks and invalid UTF-8
// escaped visibly).
inline std::string quote_for_message(std::string_view s) {
  return "\"" + printable(s, 64) + "\"";
}

namespace lex {

inline bool is_ws(unsigned char c) noexcept {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Whether the n bytes at a and b are equal. Member names are short: up to 16 bytes they are
// compared in two overlapping words each, not by a call to memcmp.
ASSAY_ALWAYS_INLINE inline bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
  if (n >= 8) {
    if (n > 16)
      return std::memcmp(a, b, n) == 0;
    std::uint64_t a0, b0, a1, b1;
    std::memcpy(&a0, a, 8);
    std::memcpy(&b0, b, 8);
    std::memcpy(&a1, a + n - 8, 8);
    std::memcpy(&b1, b + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n >= 4) {
    std::uint32_t a0, b0, a1, b1;
    std::memcpy(&a0, a, 4);
    std::memcpy(&b0, b, 4);
    std::memcpy(&a1, a + n - 4, 4);
    std::memcpy(&b1, b + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return false;
  return true;
}

inline bool is_noncharacter(std::uint32_t cp) noexcept {
  return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

inline int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

// Upper-case hex digits of a code point: four for the BMP, five or six above it.
inline std::string hex_code_point(std::uint32_t cp) {
  static const char* hex = "0123456789ABCDEF";
  std::string s;
  const int top = cp > 0xFFFFF ? 20 : cp > 0xFFFF ? 16 : 12;
  for (int shift = top; shift >= 0; shift -= 4)
    s += hex[(cp >> shift) & 15];
  return s;
}

template <class Out>  // std::string, or anything with += char
ASSAY_ALWAYS_INLINE inline void append_utf8(Out& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Code points in valid UTF-8.
inline std::size_t code_points(const char* s, std::size_t len) noexcept {
  std::size_t n = 0;
  for (std::size_t i = 0; i < len; ++i)
    n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  return n;
}

// Length of the run of bytes at p (up to end) that need no attention inside a string:
// printable ASCII other than '"' and '\\'.
inline std::size_t plain_run(const char* p, const char* end) noexcept {
  const char* start = p;
#if defined(__SSE2__)
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed compare: bytes below 0x20 and all bytes >= 0x80 (negative) at once.
    const __m128i special =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                     _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    const int mask = _mm_movemask_epi8(special);
    if (mask != 0)
      return static_cast<std::size_t>(p - start) + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    p += 16;
  }
#endif
  // 8 bytes at a time; a shorter tail of a string of 8 bytes or more is read as the last 8
  // bytes, overlapping those already seen.
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t high = 0x8080808080808080ULL;
  // The high bit of each byte that is '"', '\\', < 0x20 or >= 0x80 (above the first such byte
  // the bits may be wrong; the lowest one is exact).
  auto special = [](std::uint64_t w) noexcept {
    const std::uint64_t quote = w ^ (ones * '"');
    const std::uint64_t bslash = w ^ (ones * '\\');
    return (((quote - ones) & ~quote) | ((bslash - ones) & ~bslash) | (w - ones * 0x20) | w) & high;
  };
  static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);
  auto first = [](std::uint64_t bits) noexcept -> std::size_t {
    if constexpr (std::endian::native == std::endian::little)
      return static_cast<std::size_t>(__builtin_ctzll(bits)) / 8;
    else
      return static_cast<std::size_t>(__builtin_clzll(bits)) / 8;
  };
  while (end - p >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if (const std::uint64_t bits = special(w))
      return static_cast<std::size_t>(p - start) + first(bits);
    p += 8;
  }
  if (p != end && end - start >= 8) {
    const std::size_t seen = static_cast<std::size_t>(8 - (end - p));  // bytes of the window already checked
    std::uint64_t w;
    std::memcpy(&w, end - 8, 8);
    std::uint64_t bits = special(w);
    // Clear the flags of the bytes already checked (the first `seen` in memory order).
    if constexpr (std::endian::native == std::endian::little)
      bits &= ~std::uint64_t{0} << (8 * seen);
    else
      bits &= ~std::uint64_t{0} >> (8 * seen);
    return bits != 0 ? static_cast<std::size_t>(end - 8 - start) + first(bits) : static_cast<std::size_t>(end - start);
  }
  if (end - p >= 4) {
    // 4 to 7 bytes (a short string): its first and last 4 bytes as one word.
    const std::size_t n = static_cast<std::size_t>(end - p);
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, end - 4, 4);
    const std::uint64_t w =
        std::endian::native == std::endian::little ? (std::uint64_t{hi} << 32 | lo) : (std::uint64_t{lo} << 32 | hi);
    const std::uint64_t bits = special(w);
    if (bits == 0)
      return static_cast<std::size_t>(end - start);
    const std::size_t k = first(bits);
    return static_cast<std::size_t>(p - start) + (k < 4 ? k : n - 8 + k);
  }
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
      break;
    ++p;
  }
  return static_cast<std::size_t>(p - start);
}

// --- faults -------------------------------------------------------------------------------

// What the lexer found wrong. Each names one error of the reader (describe()).
enum class fault : std::uint8_t {
  none,
  // strings
  string_end,      // the input ended inside a string
  control,         // an unescaped control character (cp)
  utf8,            // bytes that are not well-formed UTF-8
  noncharacter,    // a noncharacter (cp), when limits::reject_noncharacters
  escape,          // a backslash followed by something that is not an escape
  escape_end,      // the input ended after a backslash
  hex_end,         // the input ended inside the four digits of a \u escape
  hex_digits,      // \u not followed by four hex digits
  low_surrogate,   // \uDC00..\uDFFF not preceded by a high surrogate (cp)
  high_surrogate,  // \uD800..\uDBFF not followed by a low surrogate (cp)
  // numbers
  minus_digit,     // no digit after '-'
  leading_zero,    // a digit after a leading 0
  fraction_digit,  // no digit after '.'
  exponent_digit,  // no digit after 'e'
  overflow,        // too large for a double
  number,          // rejected by the conversion (not expected after the grammar)
};

// A fault and where it is: the byte it concerns (see describe() for which byte each names).
struct problem {
  lex::fault fault = lex::fault::none;
  const char* at = nullptr;
  std::uint32_t cp = 0;
};

// The reader's error code and message for a problem.
inline errc describe(const problem& p, std::string& message) {
  switch (p.fault) {
    case fault::string_end:
      message = "input ended inside a string";
      return errc::unexpected_end;
    case fault::control:
      message = "control character U+00" + std::string(1, "0123456789ABCDEF"[p.cp >> 4]) +
                std::string(1, "0123456789ABCDEF"[p.cp & 15]) + " must be escaped in a string";
      return errc::unescaped_control;
    case fault::utf8:
      message = "invalid UTF-8 in a string";
      return errc::invalid_utf8;
    case fault::noncharacter:
      message = "noncharacter U+" + hex_code_point(p.cp) + " in a string";
      return errc::noncharacter;
    case fault::escape:
      message = "invalid escape sequence in a string";
      return errc::invalid_escape;
    case fault::escape_end:
      message = "input ended inside an escape";
      return errc::unexpected_end;
    case fault::hex_end:
      message = "input ended inside a \\u escape";
      return errc::unexpected_end;
    case fault::hex_digits:
      message = "\\u must be followed by four hex digits";
      return errc::invalid_escape;
    case fault::low_surrogate:
      message = "lone low surrogate \\u" + hex_code_point(p.cp) + " in a string";
      return errc::lone_surrogate;
    case fault::high_surrogate:
      message = "high surrogate \\u" + hex_code_point(p.cp) + " not followed by a low surrogate";
      return errc::lone_surrogate;
    case fault::minus_digit:
      message = "invalid number: a digit must follow '-'";
      return errc::invalid_number;
    case fault::leading_zero:
      message = "invalid number: leading zero";
      return errc::invalid_number;
    case fault::fraction_digit:
      message = "invalid number: a digit must follow '.'";
      return errc::invalid_number;
    case fault::exponent_digit:
      message = "invalid number: a digit must follow the exponent";
      return errc::invalid_number;
    case fault::overflow:
      message = "number is too large for a double (overflows to infinity)";
      return errc::number_overflow;
    case fault::number:
    case fault::none:
      break;
  }
  message = "invalid number";
  return errc::invalid_number;
}

// --- strings ------------------------------------------------------------------------------

// At a byte >= 0x80 inside a string: checks the run of multi-byte sequences there and moves p
// past it.
ASSAY_ALWAYS_INLINE inline bool utf8_run(const char*& p, const char* end, bool reject_noncharacters, problem& e) {
  do {
    std::uint32_t cp = 0;
    const int len =
        decode_utf8(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(end), cp);
    if (len == 0) {
      e = problem{fault::utf8, p, 0};
      return false;
    }
    if (reject_noncharacters && is_noncharacter(cp)) {
      e = problem{fault::noncharacter, p, cp};
      return false;
    }
    p += len;
  } while (p != end && static_cast<unsigned char>(*p) >= 0x80);
  return true;
}

// Where scan_plain() stopped.
enum class stop : std::uint8_t { quote, backslash, fault };

// Inside a string: moves p over the characters that need no decoding (validating them) to the
// closing quote or the first backslash, which it leaves at p.
//
// 16 bytes at a time, non-ASCII text included: the block's quotes, backslashes and control
// characters are found with SSE2, and its UTF-8 is checked whole (utf8_blocks.hpp) up to and
// including the first of them, so that a sequence the stop cuts short counts. What the block
// check refuses, a noncharacter check, and the input's last 15 bytes are left to the exact scan
// below, which says what is wrong and where.
//
// `Expect` is what the caller's strings usually hold, and decides when a block is checked. A
// branch on "any non-ASCII here?" skips the check of ASCII blocks, but is mispredicted wherever
// words of other scripts come and go; then checking every block is cheaper.
// - `ascii` (member names, ASCII nearly always): only blocks with non-ASCII bytes.
// - `text` (the rest of a string after an escape): every block.
// - `either` (a string value: an identifier or a digest as often as prose): blocks with
//   non-ASCII bytes until the first of them, every block from there on.
enum class expect : std::uint8_t { text, ascii, either };

template <expect Expect = expect::text>
ASSAY_ALWAYS_INLINE inline stop scan_plain(const char*& p, const char* end, bool reject_noncharacters, problem& e) {
#if defined(__SSE2__)
  if (!reject_noncharacters) {
    const char* q = p;
    __m128i prev = _mm_setzero_si128();  // the block before: ASCII at the start
    bool check = true, every_block = Expect == expect::text;
    while (end - q >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
      const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));
      const __m128i stops = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))), control);
      const auto stop_bits = static_cast<unsigned>(_mm_movemask_epi8(stops));
      // Errors up to and including the first stop (all 16 bytes when there is none).
      const unsigned upto = stop_bits ^ (stop_bits - 1);
      if constexpr (Expect != expect::text) {
        if (!every_block)  // non-ASCII up to the stop, or a sequence left open
          check = ((static_cast<unsigned>(_mm_movemask_epi8(v)) & upto) |
                   (static_cast<unsigned>(_mm_movemask_epi8(prev)) >> 13)) != 0;
        if constexpr (Expect == expect::either)
          every_block = check;
      }
      if (check && (detail::utf8_blocks::errors(v, prev) & upto) != 0)
        break;  // the exact scan locates it, from p
      if (stop_bits == 0) {
        prev = v;
        q += 16;
        continue;
      }
      q += __builtin_ctz(stop_bits);
      p = q;
      const auto c = static_cast<unsigned char>(*q);
      if (c == '"')
        return stop::quote;
      if (c == '\\')
        return stop::backslash;
      e = problem{fault::control, q, c};
      return stop::fault;
    }
    if (end - q < 16) {
      // Fewer than 16 bytes left: on from the start of the character q may be inside, the
      // last lead byte within the three bytes before q (q itself may be the end: not read).
      const char* b = q;
      while (b != p && q - b < 3 && (static_cast<unsigned char>(b[-1]) & 0xC0) == 0x80)
        --b;
      if (b != p && static_cast<unsigned char>(b[-1]) >= 0xC0)
        q = b - 1;
      p = q;
    }
  }
#endif
  for (;;) {
    p += plain_run(p, end);
    if (p == end) {
      e = problem{fault::string_end, p, 0};
      return stop::fault;
    }
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"')
      return stop::quote;
    if (c == '\\')
      return stop::backslash;
    if (c < 0x20) {
      e = problem{fault::control, p, c};
      return stop::fault;
    }
    if (!utf8_run(p, end, reject_noncharacters, e))
      return stop::fault;
  }
}

// The four hex digits of a \u escape at p (just after the 'u'); moves p past them.
inline bool hex4(const char*& p, const char* end, std::uint32_t& v, problem& e) {
  v = 0;
  for (int i = 0; i < 4; ++i) {
    if (end - p <= i) {
      e = problem{fault::hex_end, p + i, 0};
      return false;
    }
    const int h = hex_value(p[i]);
    if (h < 0) {
      e = problem{fault::hex_digits, p - 2, 0};  // the backslash of this \u
      return false;
    }
    v = v * 16 + static_cast<std::uint32_t>(h);
  }
  p += 4;
  return true;
}

// After "\u" (p at the first hex digit; `at` is the backslash): decodes the code point, a
// surrogate pair counting as one, into `out`.
template <class Out>
bool unicode_escape(const char*& p, const char* end, const char* at, bool reject_noncharacters, Out& out, problem& e) {
  std::uint32_t cp = 0;
  if (!hex4(p, end, cp, e))
    return false;
  if (cp >= 0xDC00 && cp <= 0xDFFF) {
    e = problem{fault::low_surrogate, at, cp};
    return false;
  }
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    if (end - p < 2 || p[0] != '\\' || p[1] != 'u') {
      e = problem{fault::high_surrogate, at, cp};
      return false;
    }
    p += 2;
    std::uint32_t lo = 0;
    if (!hex4(p, end, lo, e))
      return false;
    if (lo < 0xDC00 || lo > 0xDFFF) {
      e = problem{fault::high_surrogate, at, cp};
      return false;
    }
    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
  }
  if (reject_noncharacters && is_noncharacter(cp)) {
    e = problem{fault::noncharacter, at, cp};
    return false;
  }
  append_utf8(out, cp);
  return true;
}

// At a backslash: decodes one escape into `out` and moves p past it. Problems about the
// escaped character are located at its backslash.
template <class Out>  // std::string, char_buffer: anything with += char
ASSAY_ALWAYS_INLINE inline bool escape(const char*& p, const char* end, bool reject_noncharacters, Out& out,
                                       problem& e) {
  const char* at = p;
  if (end - p < 2) {
    e = problem{fault::escape_end, p + 1, 0};
    return false;
  }
  const auto c = static_cast<unsigned char>(p[1]);
  p += 2;
  // The character each one-letter escape stands for (0: not one), looked up rather than
  // switched on: escapes come in no order a branch predictor could learn.
  static constexpr std::array<char, 256> simple = [] {
    std::array<char, 256> t{};
    t['"'] = '"';
    t['\\'] = '\\';
    t['/'] = '/';
    t['b'] = '\b';
    t['f'] = '\f';
    t['n'] = '\n';
    t['r'] = '\r';
    t['t'] = '\t';
    return t;
  }();
  if (const char x = simple[c]; x != 0) [[likely]] {
    out += x;
    return true;
  }
  if (c == 'u')
    return unicode_escape(p, end, at, reject_noncharacters, out, e);
  e = problem{fault::escape, at, 0};
  return false;
}

// At a backslash inside a string: decodes the rest of the string into `out` (appended), up
// to the closing quote, which it leaves at p.
template <class Out>  // as for escape(), plus append(const char*, std::size_t)
bool scan_escaped(const char*& p, const char* end, bool reject_noncharacters, Out& out, problem& e) {
  for (;;) {
    if (!escape(p, end, reject_noncharacters, out, e))
      return false;
    const char* run = p;
    const stop s = scan_plain(p, end, reject_noncharacters, e);
    if constexpr (requires { out.append_run(run, std::size_t{0}, end); })
      out.append_run(run, static_cast<std::size_t>(p - run), end);
    else
      out.append(run, static_cast<std::size_t>(p - run));
    if (s != stop::backslash)
      return s == stop::quote;
  }
}

// scan_escaped() into a buffer with room for 16 bytes past every position the decoded text can
// reach (data(), size(), resize_within(): char_buffer reserved to the input's size + 16),
// noncharacters allowed. Each block of 16 is stored where it goes before its stops are looked
// for, so a run is copied as it is scanned (scan_escaped() finds a run's end, then copies it);
// its UTF-8 is checked block by block as scan_plain() checks text. A run the block check
// refuses, and the last bytes of the input, go through scan_plain(), which locates the fault.
template <class Out>
bool scan_escaped_copy(const char*& p, const char* end, Out& out, problem& e) {
  for (;;) {
    if (!escape(p, end, false, out, e))
      return false;
    const char* run = p;
#if defined(__SSE2__)
    char* o = out.data() + out.size();
    __m128i prev = _mm_setzero_si128();  // an escape is ASCII
    bool stopped = false;
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o), v);
      const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));
      const __m128i stops = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))), control);
      const auto stop_bits = static_cast<unsigned>(_mm_movemask_epi8(stops));
      if ((detail::utf8_blocks::errors(v, prev) & (stop_bits ^ (stop_bits - 1))) != 0) {
        p = run;  // the whole run again, by the exact scan (out still ends where the run began)
        o = out.data() + out.size();
        break;
      }
      if (stop_bits == 0) {
        prev = v;
        p += 16;
        o += 16;
        continue;
      }
      const int k = __builtin_ctz(stop_bits);
      p += k;
      out.resize_within(static_cast<std::size_t>(o + k - out.data()));
      stopped = true;
      break;
    }
    if (stopped) {
      const auto c = static_cast<unsigned char>(*p);
      if (c == '"')
        return true;
      if (c != '\\') {
        e = problem{fault::control, p, c};
        return false;
      }
      continue;
    }
    // Fewer than 16 bytes left (or a run to check exactly): from the start of the character p
    // may be inside, its lead within the three bytes before p.
    const char* b = p;
    while (b != run && p - b < 3 && (static_cast<unsigned char>(b[-1]) & 0xC0) == 0x80)
      --b;
    if (b != run && static_cast<unsigned char>(b[-1]) >= 0xC0) {
      o -= p - (b - 1);
      p = b - 1;
    }
    out.resize_within(static_cast<std::size_t>(o - out.data()));
    run = p;
#endif
    const stop s = scan_plain(p, end, false, e);
    out.append(run, static_cast<std::size_t>(p - run));
    if (s != stop::backslash)
      return s == stop::quote;
  }
}

// --- numbers ------------------------------------------------------------------------------

// What scan_number() saw of a number's text: enough to tell whether the text is already in
// canonical form, and where a conversion that ran out of range overflowed.
struct number_shape {
  const char* begin = nullptr;  // the first byte ('-' or a digit)
  const char* end = nullptr;    // one past the last
  std::size_t int_digits = 0;
  std::size_t frac_digits = 0;
  std::size_t frac_zeros = 0;  // leading zeros of the fraction
  bool negative = false;
  bool zero_int = false;            // the integer part is 0
  bool frac_trailing_zero = false;  // the fraction ends in 0
  const char* exponent = nullptr;   // the exponent's sign or first digit; nullptr without one
  // The integer and fraction digits as one integer, exact when there are at most 19 of them
  // after the leading zeros (else it has wrapped around: use the text).
  std::uint64_t significand = 0;

  // The value of the exponent (0 without one), held at ±10^8 for longer ones: far past any
  // double's range, so the sign and "too large" are all a caller can need.
  long long exponent_value() const noexcept {
    if (exponent == nullptr)
      return 0;
    const char* p = exponent;
    const bool neg = *p == '-';
    if (*p == '+' || *p == '-')
      ++p;
    long long x = 0;
    for (; p != end; ++p)
      if (x < 100000000)
        x = x * 10 + (*p - '0');
    return neg ? -x : x;
  }
};

// Length of the run of ASCII digits at p (up to end), 8 bytes at a time: a number of 17
// significant digits is three steps, not seventeen branches. The digits are appended to `w`
// (w × 10^k + their value, wrapping around past 64 bits) as they are found: eight at a time in
// three multiplications (pairs, then quads, then the eight joined in one word) rather than eight
// steps that each wait for the one before.
ASSAY_ALWAYS_INLINE inline std::size_t digit_run(const char* p, const char* end, std::uint64_t& w) noexcept {
  const char* start = p;
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t high = 0x8080808080808080ULL;
  // The value of 8 digit bytes, the first in the lowest byte (after the subtraction of '0').
  auto eight = [](std::uint64_t x) ASSAY_ALWAYS_INLINE {
    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFULL;         // 16-bit lanes of two digits
    x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFULL;       // 32-bit lanes of four
    return (x * 10000 + (x >> 32)) & 0x00000000FFFFFFFFULL;  // the eight
  };
  static constexpr std::uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
  while (end - p >= 8) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    if constexpr (std::endian::native == std::endian::big)
      x = __builtin_bswap64(x);
    // The high bit of each byte above '9' (+0x46 reaches 0x80), below '0' (-0x30 borrows) or
    // >= 0x80; carries and borrows only disturb the bytes after the first such byte.
    const std::uint64_t bits = ((x + ones * 0x46) | (x - ones * 0x30) | x) & high;
    if (bits != 0) {
      const auto k = static_cast<std::size_t>(__builtin_ctzll(bits)) / 8;
      if (k != 0)  // the k digits moved to the top, zeros below them: the same value
        w = w * pow10[k] + eight((x - ones * 0x30) << (8 * (8 - k)));
      return static_cast<std::size_t>(p - start) + k;
    }
    w = w * 100000000 + eight(x - ones * 0x30);
    p += 8;
  }
  for (; p != end && *p >= '0' && *p <= '9'; ++p)
    w = w * 10 + static_cast<unsigned>(*p - '0');
  return static_cast<std::size_t>(p - start);
}

// At the first byte of a number (or of something that is not a value): checks the RFC 8259
// grammar and moves p past the number. Problems are located at the number's first byte.
ASSAY_ALWAYS_INLINE inline bool scan_number(const char*& p, const char* end, number_shape& n, problem& e) {
  auto digit = [](char c) noexcept { return c >= '0' && c <= '9'; };
  auto bad = [&](fault f) {
    e = problem{f, n.begin, 0};
    return false;
  };
  n.begin = p;
  n.negative = *p == '-';
  if (n.negative)
    ++p;
  if (p == end || !digit(*p))
    return bad(fault::minus_digit);
  const char* int_start = p;
  n.zero_int = *p == '0';
  if (n.zero_int) {
    ++p;
    if (p != end && digit(*p))
      return bad(fault::leading_zero);
  } else {
    p += digit_run(p, end, n.significand);
  }
  n.int_digits = static_cast<std::size_t>(p - int_start);
  if (p != end && *p == '.') {
    ++p;
    const char* f = p;
    p += digit_run(p, end, n.significand);
    n.frac_digits = static_cast<std::size_t>(p - f);
    if (n.frac_digits == 0)
      return bad(fault::fraction_digit);
    while (n.frac_zeros < n.frac_digits && f[n.frac_zeros] == '0')
      ++n.frac_zeros;
    n.frac_trailing_zero = p[-1] == '0';
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    n.exponent = p;
    if (p != end && (*p == '+' || *p == '-'))
      ++p;
    if (p == end || !digit(*p))
      return bad(fault::exponent_digit);
    std::uint64_t ignored = 0;
    p += digit_run(p, end, ignored);
  }
  n.end = p;
  return true;
}

// The double nearest a scanned number. Too small for a double rounds to ±0; too large is
// fault::overflow.
ASSAY_ALWAYS_INLINE inline bool number_value(const number_shape& n, double& out, problem& e) {
  // Up to 19 significant digits (every double's shortest form has at most 17): the significand
  // as an integer and the exponent, to eisel_lemire.hpp, which answers all but ties and
  // numbers at the ends of the double range.
  const std::size_t significant = n.zero_int ? n.frac_digits - n.frac_zeros : n.int_digits + n.frac_digits;
  if (detail::eisel_lemire::available && significant <= 19) {
    const std::uint64_t w = n.significand;
    if (w == 0) {
      out = n.negative ? -0.0 : 0.0;
      return true;
    }
    const long long q = n.exponent_value() - static_cast<long long>(n.frac_digits);
    if (q >= -100000 && q <= 100000 && detail::eisel_lemire::to_double(w, static_cast<int>(q), n.negative, out))
      return true;
  }
  const auto r = std::from_chars(n.begin, n.end, out);
  if (r.ec == std::errc() && r.ptr == n.end) [[likely]]
    return true;
  if (r.ec == std::errc::result_out_of_range) {
    // The decimal exponent of the first significant digit decides: overflow or underflow.
    const bool nonzero = !n.zero_int || n.frac_zeros < n.frac_digits;
    long long lead = n.zero_int ? -static_cast<long long>(n.frac_zeros) : static_cast<long long>(n.int_digits);
    if (nonzero && lead + n.exponent_value() > 0) {
      e = problem{fault::overflow, n.begin, 0};
      return false;
    }
    out = n.negative ? -0.0 : 0.0;
    return true;
  }
  e = problem{fault::number, n.begin, 0};
  return false;
}

}  // namespace lex
}  // namespace assay::json
