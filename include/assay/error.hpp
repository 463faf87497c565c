// assay/error.hpp — the one error type of the library.
//
// Every failure anywhere in assay is an `assay::error`: a stable code, a one-line message, and,
// when the failure is tied to input bytes, the byte offset, line, column and the JSON Pointer of
// the value being read. Operations that can report several problems at once (typed decoding,
// validation) return an `assay::errors`, a list of the same type.
#pragma once

#include "assay/result.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay {

// Stable codes. Never renumber: values may be stored by callers. New codes go at the end of
// their group's block.
enum class errc : std::uint16_t {
  ok = 0,
  // JSON syntax and limits (docs/json.md)
  unexpected_end = 100,  // input ended inside a value
  unexpected_character,  // a byte that cannot start or continue the current token
  invalid_literal,       // misspelt true/false/null
  invalid_number,        // number grammar (leading zero, missing digits, '+', ...)
  number_overflow,       // magnitude rounds to infinity
  invalid_escape,        // unknown backslash escape or malformed \u
  unescaped_control,     // U+0000..U+001F inside a string
  invalid_utf8,          // overlong, surrogate, > U+10FFFF, truncated, stray continuation
  lone_surrogate,        // \uD800-style escape not forming a pair
  noncharacter,          // U+FDD0..FDEF, U+xFFFE, U+xFFFF when rejected by option
  byte_order_mark,       // UTF-8 BOM at the start
  trailing_content,      // non-whitespace after the top-level value
  duplicate_member,      // the same member name twice in one object
  depth_limit,           // nesting deeper than limits::max_depth
  member_limit,          // more members than limits::max_members
  string_limit,          // more code points than limits::max_string_chars
  size_limit,            // input larger than limits::max_input_bytes
  // Typed decoding, validation and encoding
  type_mismatch = 200,  // wrong JSON type for the member
  missing_member,       // a required member is absent
  unknown_member,       // a member the type does not allow
  const_mismatch,       // value differs from the constant the type fixes
  enum_mismatch,        // value not among the allowed strings
  below_minimum,
  above_maximum,
  too_short,  // fewer code points than minLength
  pattern_mismatch,
  format_mismatch,  // e.g. not an RFC 3339 date-time
  too_few_items,
  too_many_items,
  not_an_integer,    // a number with a fraction, or out of the C++ type's range
  rule_violation,    // a cross-field rule of the contract
  not_finite,        // NaN or infinity cannot be encoded
  unknown_contract,  // no contract of that name
  duplicate_item,    // an array item equal to an earlier one where items must be unique
  // JSON Pointer (RFC 6901)
  invalid_pointer = 300,
  no_such_value,
  // Environment
  io_error = 400,
  invalid_argument,
  unsupported,
  // 500-599: reserved for evidence bundle verification (docs/evidence.md). Those codes, with the reference
  // verifier's names (IntegrityGzip = 500, ...) and classes, belong to the evidence floor:
  // assay::evidence::code in assay/evidence/codes.hpp. An error carries them as errc values of
  // this range; name() and error_class() below say them once that header describes its block.
};

// A block of codes that a floor above this one owns (500-599: bundle verification, described
// by assay/evidence/codes.hpp): how to name them, and their class.
struct code_block {
  std::uint16_t first = 0;
  std::uint16_t last = 0;
  std::string_view (*name)(errc) noexcept = nullptr;         // "" for a code of the block it lacks
  std::string_view (*error_class)(errc) noexcept = nullptr;  // "" when the code has none
};

namespace detail {

struct code_name {
  errc code;
  std::string_view name;
};

// The names of the codes declared above, as spelt in the enum.
inline constexpr code_name code_names[] = {
    {errc::ok, "ok"},
    {errc::unexpected_end, "unexpected_end"},
    {errc::unexpected_character, "unexpected_character"},
    {errc::invalid_literal, "invalid_literal"},
    {errc::invalid_number, "invalid_number"},
    {errc::number_overflow, "number_overflow"},
    {errc::invalid_escape, "invalid_escape"},
    {errc::unescaped_control, "unescaped_control"},
    {errc::invalid_utf8, "invalid_utf8"},
    {errc::lone_surrogate, "lone_surrogate"},
    {errc::noncharacter, "noncharacter"},
    {errc::byte_order_mark, "byte_order_mark"},
    {errc::trailing_content, "trailing_content"},
    {errc::duplicate_member, "duplicate_member"},
    {errc::depth_limit, "depth_limit"},
    {errc::member_limit, "member_limit"},
    {errc::string_limit, "string_limit"},
    {errc::size_limit, "size_limit"},
    {errc::type_mismatch, "type_mismatch"},
    {errc::missing_member, "missing_member"},
    {errc::unknown_member, "unknown_member"},
    {errc::const_mismatch, "const_mismatch"},
    {errc::enum_mismatch, "enum_mismatch"},
    {errc::below_minimum, "below_minimum"},
    {errc::above_maximum, "above_maximum"},
    {errc::too_short, "too_short"},
    {errc::pattern_mismatch, "pattern_mismatch"},
    {errc::format_mismatch, "format_mismatch"},
    {errc::too_few_items, "too_few_items"},
    {errc::too_many_items, "too_many_items"},
    {errc::not_an_integer, "not_an_integer"},
    {errc::rule_violation, "rule_violation"},
    {errc::not_finite, "not_finite"},
    {errc::unknown_contract, "unknown_contract"},
    {errc::duplicate_item, "duplicate_item"},
    {errc::invalid_pointer, "invalid_pointer"},
    {errc::no_such_value, "no_such_value"},
    {errc::io_error, "io_error"},
    {errc::invalid_argument, "invalid_argument"},
    {errc::unsupported, "unsupported"},
};

// The blocks described so far, by the hundreds of their codes (set before main, read after).
inline constexpr unsigned code_hundreds = 10;
inline std::atomic<const code_block*> code_blocks[code_hundreds];

inline const code_block* block_of(errc c) noexcept {
  const auto v = static_cast<std::uint16_t>(c);
  if (v / 100u >= code_hundreds)
    return nullptr;
  const code_block* b = code_blocks[v / 100u].load(std::memory_order_acquire);
  return b != nullptr && v >= b->first && v <= b->last ? b : nullptr;
}

}  // namespace detail

// Makes the codes of `b` known to name() and error_class(). `b` must live as long as the program
// (a constant of the header that declares the codes). Returns true, so that it can initialize a
// variable.
inline bool describe_codes(const code_block& b) noexcept {
  for (unsigned h = b.first / 100u; h <= b.last / 100u && h < detail::code_hundreds; ++h)
    detail::code_blocks[h].store(&b, std::memory_order_release);
  return true;
}

// The stable, human-readable name of a code: snake_case as in the enum, or the name the block's
// owner gives it (the reference verifier's, e.g. "IntegrityGzip"); "unknown" for any other value.
inline std::string_view name(errc c) noexcept {
  for (const detail::code_name& n : detail::code_names)
    if (n.code == c)
      return n.name;
  if (const code_block* b = detail::block_of(c)) {
    const std::string_view n = b->name(c);
    if (!n.empty())
      return n;
  }
  return "unknown";
}

// True for the codes that mean "this is not JSON at all" (syntax and reader limits, docs/json.md), as
// opposed to JSON that breaks a contract. Tools exit 2 for the former (docs/cli.md).
constexpr bool is_syntax_error(errc code) noexcept {
  const auto v = static_cast<unsigned>(code);
  return v >= 100 && v < 200;
}

// The class its owner gives a code (bundle verification: Integrity, Contract, Limits or
// Security, docs/evidence.md); "" for the codes that have none.
inline std::string_view error_class(errc c) noexcept {
  const code_block* b = detail::block_of(c);
  return b != nullptr && b->error_class != nullptr ? b->error_class(c) : std::string_view();
}

struct error {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  errc code = errc::ok;
  std::string message;        // one line, no trailing period
  std::size_t offset = npos;  // byte offset into the input, 0-based; npos when not tied to input
  std::size_t line = 0;       // 1-based; 0 when unknown
  std::size_t column = 0;     // 1-based, in code points; 0 when unknown
  std::string pointer;        // RFC 6901 pointer of the value concerned ("" = the root)
  std::string source;         // the file the position is in, when it names one (a pack's path); else ""

  bool has_position() const noexcept { return offset != npos; }

  // "line 3, column 14 (byte 52) at /results/runs: duplicate member name \"runs\""; an error in a
  // named file takes the form compilers use, which editors and terminals jump to:
  // "packs/bad.yaml:11:15: \"loud\" is not one of … (at /rules/0/severity)".
  std::string format() const {
    if (!source.empty()) {
      std::string out = source;
      if (has_position()) {  // appended piece by piece: GCC 12 -O3 warns falsely on "x" + string
        out += ':';
        out += std::to_string(line);
        out += ':';
        out += std::to_string(column);
      }
      out += ": ";
      out += message;
      if (!pointer.empty()) {
        out += " (at ";
        out += pointer;
        out += ')';
      }
      return out;
    }
    std::string out;
    if (has_position()) {
      out += "line " + std::to_string(line) + ", column " + std::to_string(column) + " (byte " +
             std::to_string(offset) + ")";
    }
    if (!pointer.empty()) {
      out += out.empty() ? "at " : " at ";
      out += pointer;
    }
    if (!out.empty())
      out += ": ";
    out += message;
    return out;
  }

  // "<pointer>: <reason>" — the validation line of docs/cli.md; the root is shown as (root).
  std::string format_pointer_line() const {
    return (pointer.empty() ? std::string("(root)") : pointer) + ": " + message;
  }

  friend bool operator==(const error& a, const error& b) = default;
};

// Several errors at once: every violation a typed decode or a validation found, in input order.
struct errors {
  std::vector<error> items;

  errors() = default;
  errors(error e) { items.push_back(std::move(e)); }  // NOLINT: implicit on purpose

  bool empty() const noexcept { return items.empty(); }
  std::size_t size() const noexcept { return items.size(); }
  const error& front() const { return items.front(); }
  auto begin() const noexcept { return items.begin(); }
  auto end() const noexcept { return items.end(); }

  std::string format() const {
    std::string out;
    for (const auto& e : items) {
      if (!out.empty())
        out += '\n';
      out += e.format();
    }
    return out;
  }
};

// Thrown by the throwing convenience wrappers (and by result<T>::value() on an error).
class exception : public std::runtime_error {
 public:
  explicit exception(assay::errors es) : std::runtime_error(es.format()), errors_(std::move(es)) {}
  const assay::errors& all() const noexcept { return errors_; }
  errc code() const noexcept { return errors_.empty() ? errc::ok : errors_.front().code; }

 private:
  assay::errors errors_;
};

template <class T>
using result = basic_result<T, error>;
template <class T>
using results = basic_result<T, errors>;

// Found by basic_result<T, E>::value() through argument-dependent lookup.
[[noreturn]] inline void throw_exception_from_error(const error& e) {
  throw exception(errors(e));
}
[[noreturn]] inline void throw_exception_from_error(const errors& e) {
  throw exception(e);
}

inline error make_error(errc code, std::string message, std::string pointer = {}) {
  error e;
  e.code = code;
  e.message = std::move(message);
  e.pointer = std::move(pointer);
  return e;
}

}  // namespace assay
