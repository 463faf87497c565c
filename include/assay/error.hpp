// assay/error.hpp — the one error type of the library.
//
// Every failure anywhere in assay is an `assay::error`: a stable code, a one-line message, and,
// when the failure is tied to input bytes, the byte offset, line, column and the JSON Pointer of
// the value being read. Operations that can report several problems at once (typed decoding,
// validation) return an `assay::errors`, a list of the same type.
#pragma once

#include <boost/system/result.hpp>

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
  // JSON syntax and limits (SPEC §1)
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
  // Evidence bundle verification (SPEC §7): the reference verifier's names
  IntegrityGzip = 500,
  IntegrityTar,
  IntegrityManifestHash,
  IntegrityEventHash,
  IntegrityFileSizeMismatch,
  IntegrityRunRootMismatch,
  ContractMissingManifest,
  ContractSchemaVersion,
  ContractFileOrder,
  ContractMissingFile,
  ContractDuplicateFile,
  ContractUnexpectedFile,
  ContractRunIdMismatch,
  ContractSequenceGap,
  ContractSequenceStart,
  ContractInvalidJson,
  ContractInvalidEvent,
  ContractBundleIdMismatch,
  LimitPathLength,
  LimitFileSize,
  LimitTotalEvents,
  LimitLineBytes,
  LimitJsonDepth,
  LimitBundleBytes,
  LimitDecodeBytes,
  SecurityPathTraversal,
  SecurityAbsolutePath,
  // Environment
  io_error = 400,
  invalid_argument,
  unsupported,
};

// The stable, human-readable name of a code (snake_case, as in the enum).
constexpr std::string_view name(errc c) noexcept {
  switch (c) {
    case errc::ok:
      return "ok";
    case errc::unexpected_end:
      return "unexpected_end";
    case errc::unexpected_character:
      return "unexpected_character";
    case errc::invalid_literal:
      return "invalid_literal";
    case errc::invalid_number:
      return "invalid_number";
    case errc::number_overflow:
      return "number_overflow";
    case errc::invalid_escape:
      return "invalid_escape";
    case errc::unescaped_control:
      return "unescaped_control";
    case errc::invalid_utf8:
      return "invalid_utf8";
    case errc::lone_surrogate:
      return "lone_surrogate";
    case errc::noncharacter:
      return "noncharacter";
    case errc::byte_order_mark:
      return "byte_order_mark";
    case errc::trailing_content:
      return "trailing_content";
    case errc::duplicate_member:
      return "duplicate_member";
    case errc::depth_limit:
      return "depth_limit";
    case errc::member_limit:
      return "member_limit";
    case errc::string_limit:
      return "string_limit";
    case errc::size_limit:
      return "size_limit";
    case errc::type_mismatch:
      return "type_mismatch";
    case errc::missing_member:
      return "missing_member";
    case errc::unknown_member:
      return "unknown_member";
    case errc::const_mismatch:
      return "const_mismatch";
    case errc::enum_mismatch:
      return "enum_mismatch";
    case errc::below_minimum:
      return "below_minimum";
    case errc::above_maximum:
      return "above_maximum";
    case errc::too_short:
      return "too_short";
    case errc::pattern_mismatch:
      return "pattern_mismatch";
    case errc::format_mismatch:
      return "format_mismatch";
    case errc::too_few_items:
      return "too_few_items";
    case errc::too_many_items:
      return "too_many_items";
    case errc::not_an_integer:
      return "not_an_integer";
    case errc::rule_violation:
      return "rule_violation";
    case errc::not_finite:
      return "not_finite";
    case errc::unknown_contract:
      return "unknown_contract";
    case errc::duplicate_item:
      return "duplicate_item";
    case errc::invalid_pointer:
      return "invalid_pointer";
    case errc::no_such_value:
      return "no_such_value";
    case errc::IntegrityGzip:
      return "IntegrityGzip";
    case errc::IntegrityTar:
      return "IntegrityTar";
    case errc::IntegrityManifestHash:
      return "IntegrityManifestHash";
    case errc::IntegrityEventHash:
      return "IntegrityEventHash";
    case errc::IntegrityFileSizeMismatch:
      return "IntegrityFileSizeMismatch";
    case errc::IntegrityRunRootMismatch:
      return "IntegrityRunRootMismatch";
    case errc::ContractMissingManifest:
      return "ContractMissingManifest";
    case errc::ContractSchemaVersion:
      return "ContractSchemaVersion";
    case errc::ContractFileOrder:
      return "ContractFileOrder";
    case errc::ContractMissingFile:
      return "ContractMissingFile";
    case errc::ContractDuplicateFile:
      return "ContractDuplicateFile";
    case errc::ContractUnexpectedFile:
      return "ContractUnexpectedFile";
    case errc::ContractRunIdMismatch:
      return "ContractRunIdMismatch";
    case errc::ContractSequenceGap:
      return "ContractSequenceGap";
    case errc::ContractSequenceStart:
      return "ContractSequenceStart";
    case errc::ContractInvalidJson:
      return "ContractInvalidJson";
    case errc::ContractInvalidEvent:
      return "ContractInvalidEvent";
    case errc::ContractBundleIdMismatch:
      return "ContractBundleIdMismatch";
    case errc::LimitPathLength:
      return "LimitPathLength";
    case errc::LimitFileSize:
      return "LimitFileSize";
    case errc::LimitTotalEvents:
      return "LimitTotalEvents";
    case errc::LimitLineBytes:
      return "LimitLineBytes";
    case errc::LimitJsonDepth:
      return "LimitJsonDepth";
    case errc::LimitBundleBytes:
      return "LimitBundleBytes";
    case errc::LimitDecodeBytes:
      return "LimitDecodeBytes";
    case errc::SecurityPathTraversal:
      return "SecurityPathTraversal";
    case errc::SecurityAbsolutePath:
      return "SecurityAbsolutePath";
    case errc::io_error:
      return "io_error";
    case errc::invalid_argument:
      return "invalid_argument";
    case errc::unsupported:
      return "unsupported";
  }
  return "unknown";
}

// True for the codes that mean "this is not JSON at all" (syntax and reader limits, SPEC §1), as
// opposed to JSON that breaks a contract. Tools exit 2 for the former (SPEC §17).
constexpr bool is_syntax_error(errc code) noexcept {
  const auto v = static_cast<unsigned>(code);
  return v >= 100 && v < 200;
}

// The class of a bundle verification code (SPEC §7): Integrity, Contract, Limits or Security;
// "" for the other codes.
constexpr std::string_view error_class(errc c) noexcept {
  const std::string_view n = name(c);
  for (std::string_view k : {"Integrity", "Contract", "Limits", "Security"}) {
    const std::string_view prefix = k == "Limits" ? std::string_view("Limit") : k;
    if (static_cast<unsigned>(c) >= 500 && n.substr(0, prefix.size()) == prefix)
      return k;
  }
  return {};
}

struct error {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  errc code = errc::ok;
  std::string message;        // one line, no trailing period
  std::size_t offset = npos;  // byte offset into the input, 0-based; npos when not tied to input
  std::size_t line = 0;       // 1-based; 0 when unknown
  std::size_t column = 0;     // 1-based, in code points; 0 when unknown
  std::string pointer;        // RFC 6901 pointer of the value concerned ("" = the root)

  bool has_position() const noexcept { return offset != npos; }

  // "line 3, column 14 (byte 52) at /results/runs: duplicate member name \"runs\""
  std::string format() const {
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

  // "<pointer>: <reason>" — the validation line of SPEC §17; the root is shown as (root).
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
using result = boost::system::result<T, error>;
template <class T>
using results = boost::system::result<T, errors>;

// Found by boost::system::result<T, E>::value() through argument-dependent lookup.
[[noreturn]] inline void throw_exception_from_error(const error& e, const boost::source_location&) {
  throw exception(errors(e));
}
[[noreturn]] inline void throw_exception_from_error(const errors& e, const boost::source_location&) {
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
