// assay/json/reader.hpp — the strict I-JSON pull reader (SPEC §1).
//
// `cursor` walks a byte buffer token by token without building anything: the DOM builder
// (value.hpp) and the typed decoder (reflect/codec.hpp) both drive it. Every rule of SPEC §1
// is enforced here except duplicate member names, which the two drivers check (the typed
// decoder with a bitset, the DOM with a name set), because only they know the names.
//
// The first error stops the cursor: every later call returns false and `error()` reports it
// with code, byte offset, line, column and the JSON Pointer of the value being read.
#pragma once

#include "assay/error.hpp"
#include "assay/json/pointer.hpp"

#include <charconv>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace assay::json {

// Limits of the reader. Defaults are the reference verifier's.
struct limits {
  std::size_t max_depth = 64;              // an array or object opens a level
  std::size_t max_members = 10000;         // per object
  std::size_t max_string_chars = 1048576;  // code points per decoded string (and name)
  std::size_t max_input_bytes = static_cast<std::size_t>(-1);
  bool reject_noncharacters = false;  // strict I-JSON (RFC 7493 §2.1)
};

enum class token : std::uint8_t { object, array, string, number, boolean, null, end, error };

namespace detail {

inline bool is_ws(unsigned char c) noexcept {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline bool is_noncharacter(std::uint32_t cp) noexcept {
  return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
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

template <class Out>  // std::string, or anything with += char
void append_utf8(Out& out, std::uint32_t cp) {
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

// Decodes one well-formed UTF-8 sequence at p (first byte >= 0x80). Returns its length, or 0 if
// the bytes are not well-formed UTF-8 (Unicode Table 3-7). `cp` receives the code point.
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

inline int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

}  // namespace detail

// Line (1-based) and column (1-based, in code points) of a byte offset in `input`.
inline void line_and_column(std::string_view input, std::size_t offset, std::size_t& line,
                            std::size_t& column) noexcept {
  if (offset > input.size())
    offset = input.size();
  line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (input[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  column = 1;
  for (std::size_t i = line_start; i < offset; ++i)
    if ((static_cast<unsigned char>(input[i]) & 0xC0) != 0x80)
      ++column;
}

class cursor {
 public:
  explicit cursor(std::string_view input, const limits& lim = {}) : in_(input), lim_(lim) {
    p_ = input.data();
    end_ = p_ + input.size();
    if (input.size() > lim_.max_input_bytes) {
      fail(errc::size_limit, lim_.max_input_bytes,
           "input is " + std::to_string(input.size()) + " bytes, more than the limit of " +
               std::to_string(lim_.max_input_bytes));
    } else if (input.size() >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) {
      fail(errc::byte_order_mark, 0, "byte-order mark at the start of the input (not allowed)");
    }
    frames_.reserve(16);
  }

  cursor(const cursor&) = delete;
  cursor& operator=(const cursor&) = delete;

  bool ok() const noexcept { return !failed_; }
  const assay::error& error() const noexcept { return err_; }
  std::string_view input() const noexcept { return in_; }
  const json::limits& limits() const noexcept { return lim_; }
  std::size_t offset() const noexcept { return static_cast<std::size_t>(p_ - in_.data()); }
  std::size_t depth() const noexcept { return frames_.size(); }
  // Offset of the opening quote of the member name most recently read by next_member().
  std::size_t name_offset() const noexcept { return frames_.empty() ? 0 : frames_.back().pos; }
  // Offset of the value most recently classified by peek().
  std::size_t value_offset() const noexcept { return value_offset_; }

  // Skips whitespace and classifies the next value. At the end of input returns token::end
  // (callers that need a value turn that into unexpected_end via expect_value()).
  token peek() {
    if (failed_)
      return token::error;
    skip_ws();
    value_offset_ = offset();
    if (p_ == end_)
      return token::end;
    switch (*p_) {
      case '{':
        return token::object;
      case '[':
        return token::array;
      case '"':
        return token::string;
      case 't':
      case 'f':
        return token::boolean;
      case 'n':
        return token::null;
      case '-':
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
      case '8':
      case '9':
        return token::number;
      case '+':
      case '.':
        // "+1" and ".5" are number grammar errors, not stray characters.
        if (end_ - p_ >= 2 && p_[1] >= '0' && p_[1] <= '9') {
          fail(
              errc::invalid_number, offset(),
              *p_ == '+' ? "invalid number: a leading '+' is not allowed" : "invalid number: a digit must precede '.'");
          return token::error;
        }
        break;
      default:
        break;
    }
    unexpected_here("a JSON value");
    return token::error;
  }

  // peek(), with the end of input reported as an error.
  token expect_value() {
    token t = peek();
    if (t == token::end) {
      fail(errc::unexpected_end, offset(), "input ended where a value was expected");
      return token::error;
    }
    return t;
  }

  // --- containers -----------------------------------------------------------------------

  bool enter_object() { return enter('{', false); }
  bool enter_array() { return enter('[', true); }

  // Advances to the next member of the current object. Returns true with `name` set (valid
  // until the next cursor call); returns false at the closing brace (consumed) or on error.
  bool next_member(std::string_view& name) {
    if (failed_)
      return false;
    frame& f = frames_.back();
    skip_ws();
    f.inside = false;  // between members: errors here belong to the object itself
    if (p_ == end_)
      return fail_end("input ended inside an object");
    if (f.count == 0) {
      if (*p_ == '}')
        return leave();
    } else {
      if (*p_ == '}')
        return leave();
      if (*p_ != ',')
        return unexpected_here("',' or '}' after an object member");
      ++p_;
      skip_ws();
      if (p_ == end_)
        return fail_end("input ended inside an object");
    }
    if (*p_ != '"') {
      return unexpected_here(f.count == 0 ? "a member name or '}'" : "a member name after ','");
    }
    const std::size_t name_at = offset();
    if (f.count >= lim_.max_members) {
      return fail(errc::member_limit, name_at, "object has more than " + std::to_string(lim_.max_members) + " members");
    }
    if (!scan_string(name, key_scratch_))
      return false;
    // The name is known: from here on errors belong to this member.
    f.pos = name_at;
    f.inside = true;
    ++f.count;
    skip_ws();
    if (p_ == end_)
      return fail_end("input ended after a member name");
    if (*p_ != ':')
      return unexpected_here("':' after a member name");
    ++p_;
    return true;
  }

  // Advances to the next element of the current array. Returns false at the closing bracket
  // (consumed) or on error.
  bool next_element() {
    if (failed_)
      return false;
    frame& f = frames_.back();
    f.inside = false;  // between elements: errors here belong to the array itself
    skip_ws();
    if (p_ == end_)
      return fail_end("input ended inside an array");
    if (*p_ == ']')
      return leave();
    if (f.count != 0) {
      if (*p_ != ',')
        return unexpected_here("',' or ']' after an array element");
      ++p_;
      skip_ws();
      if (p_ == end_)
        return fail_end("input ended inside an array");
      if (*p_ == ']')
        return unexpected_here("a value after ',' (trailing comma)");
    }
    f.pos = f.count;
    f.inside = true;
    ++f.count;
    return true;
  }

  // --- scalars ----------------------------------------------------------------------------

  // Reads a string value. `out` views the input when the string has no escapes, else the
  // cursor's scratch buffer; it stays valid until the next cursor call.
  bool read_string(std::string_view& out) {
    if (expect_value() == token::error)
      return false;
    if (*p_ != '"')
      return unexpected_here("a string");
    return scan_string(out, scratch_);
  }

  bool read_number(double& out) {
    if (expect_value() == token::error)
      return false;
    if (*p_ != '-' && (*p_ < '0' || *p_ > '9'))
      return unexpected_here("a number");
    return scan_number(out);
  }

  bool read_bool(bool& out) {
    if (expect_value() == token::error)
      return false;
    if (match_literal("true")) {
      out = true;
      return true;
    }
    if (match_literal("false")) {
      out = false;
      return true;
    }
    return fail(errc::invalid_literal, offset(), "invalid literal (expected true or false)");
  }

  bool read_null() {
    if (expect_value() == token::error)
      return false;
    if (match_literal("null"))
      return true;
    return fail(errc::invalid_literal, offset(), "invalid literal (expected null)");
  }

  // After the top-level value: only whitespace may follow.
  bool finish() {
    if (failed_)
      return false;
    skip_ws();
    if (p_ != end_) {
      return fail(errc::trailing_content, offset(), "unexpected content after the JSON value");
    }
    return true;
  }

  // --- errors -----------------------------------------------------------------------------

  // The JSON Pointer of the value being read (built on demand; cost proportional to depth).
  // Between two members or elements (a missing ',', a trailing comma, a malformed name) it is
  // the pointer of the container.
  std::string pointer() const {
    std::string out;
    for (const frame& f : frames_) {
      if (!f.inside)
        continue;
      out += '/';
      if (f.is_array) {
        out += std::to_string(f.pos);
      } else {
        out += escape_pointer_token(name_at(f.pos));
      }
    }
    return out;
  }

  // Pointer of the member `name` in the object being read (for errors about absent members).
  std::string pointer_to_member(std::string_view name) const {
    std::string base;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      const frame& f = frames_[i];
      if (!f.inside)
        continue;
      base += '/';
      base += f.is_array ? std::to_string(f.pos) : escape_pointer_token(name_at(f.pos));
    }
    return base + "/" + escape_pointer_token(name);
  }

  // Builds an error at `at` with the current pointer and computed line/column.
  assay::error make_error(errc code, std::size_t at, std::string message, std::string pointer_override = {},
                          bool use_override = false) const {
    assay::error e;
    e.code = code;
    e.message = std::move(message);
    e.offset = at;
    locate(at, e.line, e.column);
    e.pointer = use_override ? std::move(pointer_override) : pointer();
    return e;
  }

  // Stops the cursor with an error (returns false for convenience).
  bool fail(errc code, std::size_t at, std::string message) {
    if (!failed_) {
      err_ = make_error(code, at, std::move(message));
      failed_ = true;
      p_ = end_;
    }
    return false;
  }

  // Stops the cursor with a prepared error (used by drivers for duplicate names).
  bool fail(assay::error e) {
    if (!failed_) {
      err_ = std::move(e);
      failed_ = true;
      p_ = end_;
    }
    return false;
  }

 private:
  struct frame {
    bool is_array;
    std::size_t pos;    // array: current index; object: offset of the current member name
    std::size_t count;  // elements or members started so far
    bool inside;        // positioned in member/element `pos` (false between two of them)
  };

  // line_and_column(), resumed from the position located last: drivers that report many
  // errors (in input order) pay for one pass over the input, not one per error.
  void locate(std::size_t at, std::size_t& line, std::size_t& column) const noexcept {
    if (at > in_.size())
      at = in_.size();
    if (at < loc_offset_) {
      loc_offset_ = 0;
      loc_line_ = 1;
      loc_column_ = 1;
    }
    for (std::size_t i = loc_offset_; i < at; ++i) {
      const auto c = static_cast<unsigned char>(in_[i]);
      if (c == '\n') {
        ++loc_line_;
        loc_column_ = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++loc_column_;
      }
    }
    loc_offset_ = at;
    line = loc_line_;
    column = loc_column_;
  }

  void skip_ws() noexcept {
    while (p_ != end_ && detail::is_ws(static_cast<unsigned char>(*p_)))
      ++p_;
  }

  bool fail_end(const char* what) { return fail(errc::unexpected_end, offset(), what); }

  bool unexpected_here(const char* expected) {
    if (p_ == end_)
      return fail(errc::unexpected_end, offset(), std::string("input ended; expected ") + expected);
    const auto c = static_cast<unsigned char>(*p_);
    std::string shown;
    if (c >= 0x21 && c < 0x7F) {
      shown = std::string("'") + static_cast<char>(c) + "'";
    } else {
      static const char* hex = "0123456789abcdef";
      shown = std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
    }
    return fail(errc::unexpected_character, offset(), "unexpected " + shown + ", expected " + expected);
  }

  bool enter(char open, bool is_array) {
    if (expect_value() == token::error)
      return false;
    if (*p_ != open)
      return unexpected_here(is_array ? "an array" : "an object");
    if (frames_.size() >= lim_.max_depth) {
      return fail(errc::depth_limit, offset(), "nesting deeper than " + std::to_string(lim_.max_depth) + " levels");
    }
    ++p_;
    frames_.push_back(frame{is_array, 0, 0, false});
    return true;
  }

  // Consumes the closing bracket; returns false (the end of the container) for the callers.
  bool leave() {
    ++p_;
    frames_.pop_back();
    return false;
  }

  bool match_literal(std::string_view lit) {
    if (static_cast<std::size_t>(end_ - p_) >= lit.size() && std::memcmp(p_, lit.data(), lit.size()) == 0) {
      p_ += lit.size();
      return true;
    }
    return false;
  }

  // Re-decodes the (already validated) member name whose quote is at `at`; for pointers.
  std::string name_at(std::size_t at) const {
    std::string out;
    const char* p = in_.data() + at + 1;
    const char* e = in_.data() + in_.size();
    while (p < e && *p != '"') {
      if (*p != '\\') {
        out += *p++;
        continue;
      }
      ++p;
      const char c = *p++;
      switch (c) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          for (int i = 0; i < 4; ++i)
            cp = cp * 16 + static_cast<std::uint32_t>(detail::hex_value(*p++));
          if (cp >= 0xD800 && cp <= 0xDBFF && p + 6 <= e) {
            std::uint32_t lo = 0;
            for (int i = 2; i < 6; ++i)
              lo = lo * 16 + static_cast<std::uint32_t>(detail::hex_value(p[i]));
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p += 6;
          }
          detail::append_utf8(out, cp);
          break;
        }
        default:
          out += c;
          break;
      }
    }
    return out;
  }

  // At an opening quote. Validates and decodes the string.
  bool scan_string(std::string_view& out, std::string& scratch) {
    const char* start = p_;
    ++p_;
    std::size_t chars = 0;
    const char* run = p_;
    bool escaped = false;
    for (;;) {
      const std::size_t n = detail::plain_run(p_, end_);
      p_ += n;
      chars += n;
      if (p_ == end_)
        return fail(errc::unexpected_end, offset(), "input ended inside a string");
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        if (escaped) {
          scratch.append(run, static_cast<std::size_t>(p_ - run));
          out = scratch;
        } else {
          out = std::string_view(run, static_cast<std::size_t>(p_ - run));
        }
        ++p_;
        if (chars > lim_.max_string_chars) {
          return fail(errc::string_limit, static_cast<std::size_t>(start - in_.data()),
                      "string of " + std::to_string(chars) + " code points is longer than the limit of " +
                          std::to_string(lim_.max_string_chars));
        }
        return true;
      }
      if (c == '\\') {
        if (!escaped) {
          escaped = true;
          scratch.clear();
        }
        scratch.append(run, static_cast<std::size_t>(p_ - run));
        if (!scan_escape(scratch))
          return false;
        ++chars;
        run = p_;
        continue;
      }
      if (c < 0x20) {
        return fail(errc::unescaped_control, offset(),
                    "control character U+00" + std::string(1, "0123456789ABCDEF"[c >> 4]) +
                        std::string(1, "0123456789ABCDEF"[c & 15]) + " must be escaped in a string");
      }
      // c >= 0x80: one UTF-8 sequence
      std::uint32_t cp = 0;
      const int len = detail::decode_utf8(reinterpret_cast<const unsigned char*>(p_),
                                          reinterpret_cast<const unsigned char*>(end_), cp);
      if (len == 0)
        return fail(errc::invalid_utf8, offset(), "invalid UTF-8 in a string");
      if (lim_.reject_noncharacters && detail::is_noncharacter(cp)) {
        return fail(errc::noncharacter, offset(), "noncharacter U+" + hex_cp(cp) + " in a string");
      }
      p_ += len;
      ++chars;
    }
  }

  static std::string hex_cp(std::uint32_t cp) {
    static const char* hex = "0123456789ABCDEF";
    std::string s;
    // Four digits for the BMP, five or six above it (U+1FFFE, U+10FFFF).
    const int top = cp > 0xFFFFF ? 20 : cp > 0xFFFF ? 16 : 12;
    for (int shift = top; shift >= 0; shift -= 4)
      s += hex[(cp >> shift) & 15];
    return s;
  }

  bool read_hex4(std::uint32_t& v) {
    v = 0;
    for (int i = 0; i < 4; ++i) {
      if (end_ - p_ <= i)
        return fail(errc::unexpected_end, offset() + static_cast<std::size_t>(i), "input ended inside a \\u escape");
      const int h = detail::hex_value(p_[i]);
      if (h < 0)
        return fail(errc::invalid_escape, offset() - 2, "\\u must be followed by four hex digits");
      v = v * 16 + static_cast<std::uint32_t>(h);
    }
    p_ += 4;
    return true;
  }

  // At a backslash. Appends the decoded character to `out`.
  bool scan_escape(std::string& out) {
    const std::size_t at = offset();
    ++p_;
    if (p_ == end_)
      return fail(errc::unexpected_end, offset(), "input ended inside an escape");
    const char c = *p_++;
    switch (c) {
      case '"':
        out += '"';
        return true;
      case '\\':
        out += '\\';
        return true;
      case '/':
        out += '/';
        return true;
      case 'b':
        out += '\b';
        return true;
      case 'f':
        out += '\f';
        return true;
      case 'n':
        out += '\n';
        return true;
      case 'r':
        out += '\r';
        return true;
      case 't':
        out += '\t';
        return true;
      case 'u':
        break;
      default:
        return fail(errc::invalid_escape, at, "invalid escape sequence in a string");
    }
    std::uint32_t cp = 0;
    if (!read_hex4(cp))
      return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return fail(errc::lone_surrogate, at, "lone low surrogate \\u" + hex_cp(cp) + " in a string");
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
        return fail(errc::lone_surrogate, at, "high surrogate \\u" + hex_cp(cp) + " not followed by a low surrogate");
      }
      p_ += 2;
      std::uint32_t lo = 0;
      if (!read_hex4(lo))
        return false;
      if (lo < 0xDC00 || lo > 0xDFFF) {
        return fail(errc::lone_surrogate, at, "high surrogate \\u" + hex_cp(cp) + " not followed by a low surrogate");
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    if (lim_.reject_noncharacters && detail::is_noncharacter(cp)) {
      return fail(errc::noncharacter, at, "noncharacter U+" + hex_cp(cp) + " in a string");
    }
    detail::append_utf8(out, cp);
    return true;
  }

  bool scan_number(double& out) {
    const char* start = p_;
    const char* p = p_;
    if (*p == '-')
      ++p;
    auto digit = [&](const char* q) { return q < end_ && *q >= '0' && *q <= '9'; };
    long long lead_exp = 0;  // decimal exponent of the first significant digit, before 'e'
    bool nonzero_seen = false;
    if (!digit(p))
      return fail(errc::invalid_number, offset(), "invalid number: a digit must follow '-'");
    if (*p == '0') {
      ++p;
      if (digit(p))
        return fail(errc::invalid_number, offset(), "invalid number: leading zero");
    } else {
      const char* int_start = p;
      while (digit(p))
        ++p;
      nonzero_seen = true;
      lead_exp = p - int_start;
    }
    if (p < end_ && *p == '.') {
      ++p;
      if (!digit(p))
        return fail(errc::invalid_number, offset(), "invalid number: a digit must follow '.'");
      long long zeros = 0;
      while (digit(p)) {
        if (!nonzero_seen) {
          if (*p == '0') {
            ++zeros;
          } else {
            nonzero_seen = true;
            lead_exp = -zeros;
          }
        }
        ++p;
      }
    }
    long long exp = 0;
    if (p < end_ && (*p == 'e' || *p == 'E')) {
      ++p;
      bool neg = false;
      if (p < end_ && (*p == '+' || *p == '-'))
        neg = (*p++ == '-');
      if (!digit(p))
        return fail(errc::invalid_number, offset(), "invalid number: a digit must follow the exponent");
      while (digit(p)) {
        if (exp < 100000000)
          exp = exp * 10 + (*p - '0');
        ++p;
      }
      if (neg)
        exp = -exp;
    }
    const auto r = std::from_chars(start, p, out);
    if (r.ec == std::errc::result_out_of_range) {
      if (nonzero_seen && lead_exp + exp > 0) {
        return fail(errc::number_overflow, offset(), "number is too large for a double (overflows to infinity)");
      }
      out = (*start == '-') ? -0.0 : 0.0;  // underflow rounds to zero
    } else if (r.ec != std::errc() || r.ptr != p) {
      return fail(errc::invalid_number, offset(), "invalid number");
    }
    p_ = p;
    return true;
  }

  std::string_view in_;
  json::limits lim_;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::vector<frame> frames_;
  std::string scratch_;
  std::string key_scratch_;
  std::size_t value_offset_ = 0;
  mutable std::size_t loc_offset_ = 0;  // the cache of locate()
  mutable std::size_t loc_line_ = 1;
  mutable std::size_t loc_column_ = 1;
  bool failed_ = false;
  assay::error err_;
};

}  // namespace assay::json
