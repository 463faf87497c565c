// assay/json/reader.hpp — the strict I-JSON pull reader (docs/json.md).
//
// `cursor` walks a byte buffer token by token without building anything: the DOM builder
// (value.hpp), the document's cursor-driven parser (document.hpp) and the typed decoder
// (reflect/codec.hpp) drive it. The lexical rules (strings, escapes, UTF-8, numbers) are
// lex.hpp's, shared with the document's fast parser. Every rule of docs/json.md is enforced here;
// duplicate member names are checked when the driver hands a name it read to
// check_unique_name() (the typed decoder checks the names it knows with a bitset and only the
// others here). skip_value() reads past a value, building nothing.
//
// The first error stops the cursor: every later call returns false and `error()` reports it
// with code, byte offset, line, column and the JSON Pointer of the value being read.
#pragma once

#include "assay/error.hpp"
#include "assay/json/lex.hpp"
#include "assay/json/name_set.hpp"
#include "assay/json/pointer.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace assay::json {

// Limits of the reader. Defaults are the reference verifier's.
struct limits {
  std::size_t max_depth = 64;              // an array or object opens a level
  std::size_t max_members = 10000;         // per object
  std::size_t max_string_chars = 1048576;  // code points per decoded string (and name)
  std::size_t max_input_bytes = static_cast<std::size_t>(-1);
  bool reject_noncharacters = false;  // strict I-JSON (RFC 7493 §2.1)
  // For typed decoding: an integer member takes an integer token only, as the reference's
  // readers (serde's u64) take one: 1.0, 1e0 and -0 are refused though their values are whole.
  bool integers_as_written = false;
};

enum class token : std::uint8_t { object, array, string, number, boolean, null, end, error };

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

  // Reads a number without converting it: `out` describes its text (typed integers take their
  // value from the digits, exactly). The input is held to the same rules as read_number(): a
  // number a double cannot hold (it overflows to infinity) is still an error.
  bool read_number_token(lex::number_shape& out) {
    if (expect_value() == token::error)
      return false;
    if (*p_ != '-' && (*p_ < '0' || *p_ > '9'))
      return unexpected_here("a number");
    const char* p = p_;
    lex::problem pr;
    if (!lex::scan_number(p, end_, out, pr))
      return fail(pr);
    // Up to 308 digits and no exponent, a number cannot overflow a double.
    if (out.exponent != nullptr || out.int_digits > 308) [[unlikely]] {
      double ignored = 0;
      if (!lex::number_value(out, ignored, pr))
        return fail(pr);
    }
    p_ = p;
    return true;
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

  // Stops the cursor with a prepared error.
  bool fail(assay::error e) {
    if (!failed_) {
      err_ = std::move(e);
      failed_ = true;
      p_ = end_;
    }
    return false;
  }

  // --- duplicate names and skipping -------------------------------------------------------

  // Records `name`, just read by next_member(), as a member of the object being read. When that
  // object already has a member of that name, fails the cursor with errc::duplicate_member (at
  // the name, with its pointer) and returns false. The names of all open objects live in one
  // name_set; only the names handed over here are compared.
  bool check_unique_name(std::string_view name) {
    frame& f = frames_.back();
    if (!f.named) {
      names_.open();
      f.named = true;
    }
    // A name without escapes is a view of the input, which outlives the cursor.
    const auto at = reinterpret_cast<std::uintptr_t>(name.data());
    const auto base = reinterpret_cast<std::uintptr_t>(in_.data());
    const bool in_input = at >= base && at - base <= in_.size();
    if (in_input ? names_.insert_view(name) : names_.insert(name)) [[likely]]
      return true;
    return fail(make_error(errc::duplicate_member, f.pos, "duplicate member name " + quote_for_message(name)));
  }

  // Reads past the next value, validating it exactly as reading it would (limits, UTF-8,
  // escapes, numbers, duplicate names in every object) and building nothing. Returns false,
  // with the error, when it is not valid. Nesting is followed on the cursor's own stack.
  bool skip() {
    const std::size_t base = frames_.size();
    for (;;) {
      switch (expect_value()) {
        case token::object:
          if (!enter_object())
            return false;
          break;
        case token::array:
          if (!enter_array())
            return false;
          break;
        case token::string: {
          std::string_view s;
          if (!read_string(s))
            return false;
          break;
        }
        case token::number: {
          double d = 0;
          if (!read_number(d))
            return false;
          break;
        }
        case token::boolean: {
          bool b = false;
          if (!read_bool(b))
            return false;
          break;
        }
        case token::null:
          if (!read_null())
            return false;
          break;
        default:
          return false;
      }
      // On to the next value, leaving the containers that end here.
      for (;;) {
        if (frames_.size() == base)
          return true;
        if (frames_.back().is_array) {
          if (next_element())
            break;
        } else {
          std::string_view name;
          if (next_member(name)) {
            if (!check_unique_name(name))
              return false;
            break;
          }
        }
        if (failed_)
          return false;
      }
    }
  }

 private:
  struct frame {
    bool is_array;
    std::size_t pos;    // array: current index; object: offset of the current member name
    std::size_t count;  // elements or members started so far
    bool inside;        // positioned in member/element `pos` (false between two of them)
    bool named;         // object: its names are in names_ (check_unique_name)
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
    while (p_ != end_ && lex::is_ws(static_cast<unsigned char>(*p_)))
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
    frames_.push_back(frame{is_array, 0, 0, false, false});
    return true;
  }

  // Consumes the closing bracket; returns false (the end of the container) for the callers.
  bool leave() {
    ++p_;
    if (frames_.back().named)
      names_.close();
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
    const char* start = in_.data() + at + 1;
    const char* p = start;
    const char* e = in_.data() + in_.size();
    lex::problem ignored;
    const lex::stop s = lex::scan_plain(p, e, false, ignored);
    std::string out(start, static_cast<std::size_t>(p - start));
    if (s == lex::stop::backslash)
      lex::scan_escaped(p, e, false, out, ignored);
    return out;
  }

  // Stops the cursor with the error of a lexer problem.
  bool fail(const lex::problem& pr) {
    std::string message;
    const errc code = lex::describe(pr, message);
    return fail(code, static_cast<std::size_t>(pr.at - in_.data()), std::move(message));
  }

  // At an opening quote. Validates and decodes the string: `out` views the input when the
  // string has no escapes, else `scratch`.
  bool scan_string(std::string_view& out, std::string& scratch) {
    const char* start = p_ + 1;
    const char* p = start;
    lex::problem pr;
    const bool reject = lim_.reject_noncharacters;
    const lex::stop s = lex::scan_plain(p, end_, reject, pr);
    if (s == lex::stop::quote) {
      out = std::string_view(start, static_cast<std::size_t>(p - start));
    } else if (s == lex::stop::backslash) {
      scratch.assign(start, static_cast<std::size_t>(p - start));
      if (!lex::scan_escaped(p, end_, reject, scratch, pr))
        return fail(pr);
      out = scratch;
    } else {
      return fail(pr);
    }
    p_ = p + 1;
    // Code points are at most bytes: count them only when the bytes are over the limit.
    if (out.size() > lim_.max_string_chars) {
      if (const std::size_t chars = lex::code_points(out.data(), out.size()); chars > lim_.max_string_chars) {
        return fail(errc::string_limit, static_cast<std::size_t>(start - 1 - in_.data()),
                    "string of " + std::to_string(chars) + " code points is longer than the limit of " +
                        std::to_string(lim_.max_string_chars));
      }
    }
    return true;
  }

  bool scan_number(double& out) {
    const char* p = p_;
    lex::number_shape shape;
    lex::problem pr;
    if (!lex::scan_number(p, end_, shape, pr) || !lex::number_value(shape, out, pr))
      return fail(pr);
    p_ = p;
    return true;
  }

  std::string_view in_;
  json::limits lim_;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::vector<frame> frames_;
  name_set names_;
  std::string scratch_;
  std::string key_scratch_;
  std::size_t value_offset_ = 0;
  mutable std::size_t loc_offset_ = 0;  // the cache of locate()
  mutable std::size_t loc_line_ = 1;
  mutable std::size_t loc_column_ = 1;
  bool failed_ = false;
  assay::error err_;
};

// Reads past the value at the cursor, as strictly as reading it and building nothing
// (cursor::skip). On failure the cursor holds the error.
inline bool skip_value(cursor& c) {
  return c.skip();
}

}  // namespace assay::json
