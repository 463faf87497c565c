// assay/evidence/codes.hpp — the codes of a bundle that fails verification (docs/evidence.md): the
// reference verifier's names and classes, and how errors of the reader and of the contracts
// become them.
//
//   if (r.error().code == assay::evidence::code::IntegrityEventHash) ...
//   assay::evidence::name(code::LimitJsonDepth)          // "LimitJsonDepth"
//   assay::evidence::error_class(code::LimitJsonDepth)   // "Limits"
//
// The codes occupy the block 500-599 that assay/error.hpp reserves; an assay::error carries one
// as the errc of the same value (the values are stable: callers may store them). This header
// describes the block to error.hpp, so that assay::name() and assay::error_class() of any
// error's code say these names too.
#pragma once

#include "assay/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace assay::evidence {

enum class code : std::uint16_t {
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
};

namespace detail {

struct code_info {
  code value;
  std::string_view name;
  std::string_view error_class;
};

// Every code with its name and class, in the order of their values.
inline constexpr code_info codes[] = {
    {code::IntegrityGzip, "IntegrityGzip", "Integrity"},
    {code::IntegrityTar, "IntegrityTar", "Integrity"},
    {code::IntegrityManifestHash, "IntegrityManifestHash", "Integrity"},
    {code::IntegrityEventHash, "IntegrityEventHash", "Integrity"},
    {code::IntegrityFileSizeMismatch, "IntegrityFileSizeMismatch", "Integrity"},
    {code::IntegrityRunRootMismatch, "IntegrityRunRootMismatch", "Integrity"},
    {code::ContractMissingManifest, "ContractMissingManifest", "Contract"},
    {code::ContractSchemaVersion, "ContractSchemaVersion", "Contract"},
    {code::ContractFileOrder, "ContractFileOrder", "Contract"},
    {code::ContractMissingFile, "ContractMissingFile", "Contract"},
    {code::ContractDuplicateFile, "ContractDuplicateFile", "Contract"},
    {code::ContractUnexpectedFile, "ContractUnexpectedFile", "Contract"},
    {code::ContractRunIdMismatch, "ContractRunIdMismatch", "Contract"},
    {code::ContractSequenceGap, "ContractSequenceGap", "Contract"},
    {code::ContractSequenceStart, "ContractSequenceStart", "Contract"},
    {code::ContractInvalidJson, "ContractInvalidJson", "Contract"},
    {code::ContractInvalidEvent, "ContractInvalidEvent", "Contract"},
    {code::ContractBundleIdMismatch, "ContractBundleIdMismatch", "Contract"},
    {code::LimitPathLength, "LimitPathLength", "Limits"},
    {code::LimitFileSize, "LimitFileSize", "Limits"},
    {code::LimitTotalEvents, "LimitTotalEvents", "Limits"},
    {code::LimitLineBytes, "LimitLineBytes", "Limits"},
    {code::LimitJsonDepth, "LimitJsonDepth", "Limits"},
    {code::LimitBundleBytes, "LimitBundleBytes", "Limits"},
    {code::LimitDecodeBytes, "LimitDecodeBytes", "Limits"},
    {code::SecurityPathTraversal, "SecurityPathTraversal", "Security"},
    {code::SecurityAbsolutePath, "SecurityAbsolutePath", "Security"},
};

inline constexpr std::uint16_t first_code = 500;

constexpr bool codes_are_in_order() {
  for (std::size_t i = 0; i < std::size(codes); ++i)
    if (static_cast<std::size_t>(codes[i].value) != first_code + i)
      return false;
  return true;
}
static_assert(codes_are_in_order(), "detail::codes lists every code once, in the order of its value");

constexpr const code_info* info(std::uint16_t v) noexcept {
  return v >= first_code && static_cast<std::size_t>(v - first_code) < std::size(codes) ? &codes[v - first_code]
                                                                                        : nullptr;
}

}  // namespace detail

// The bundle code an errc value carries, when it is one.
constexpr std::optional<code> bundle_code(errc c) noexcept {
  if (const auto* i = detail::info(static_cast<std::uint16_t>(c)))
    return i->value;
  return std::nullopt;
}

constexpr errc to_errc(code c) noexcept {
  return static_cast<errc>(c);
}

constexpr bool operator==(errc a, code b) noexcept {
  return a == to_errc(b);
}

// The reference's name of a code ("IntegrityGzip").
constexpr std::string_view name(code c) noexcept {
  return detail::codes[static_cast<std::uint16_t>(c) - detail::first_code].name;
}

// Its class: "Integrity", "Contract", "Limits" or "Security".
constexpr std::string_view error_class(code c) noexcept {
  return detail::codes[static_cast<std::uint16_t>(c) - detail::first_code].error_class;
}

inline error make_error(code c, std::string message, std::string pointer = {}) {
  return assay::make_error(to_errc(c), std::move(message), std::move(pointer));
}

// --- from the reader's and the contracts' errors ------------------------------------------------

// The limit of docs/evidence.md a reader error stands for (a value nested deeper than max_json_depth:
// LimitJsonDepth); nullopt for the others.
constexpr std::optional<code> limit_code(errc reader) noexcept {
  if (reader == errc::depth_limit)
    return code::LimitJsonDepth;
  return std::nullopt;
}

// The code of JSON in a bundle that the reader refused: its limit, else ContractInvalidJson.
constexpr code invalid_json_code(errc reader) noexcept {
  return limit_code(reader).value_or(code::ContractInvalidJson);
}

namespace detail {

// How the verifier reports manifest.json read as contracts::manifest_view: for each member, in
// the order the checks run, the message and code of a member that is missing or has the wrong
// type or range. The first failing member in this order is reported.
struct manifest_rule {
  std::string_view pointer;  // the member, and everything under it
  std::string_view message;
};

inline constexpr manifest_rule manifest_rules[] = {
    {"", "not a JSON object"},
    {"/schema_version", "\"schema_version\" must be an integer"},
    {"/run_id", "\"run_id\" must be a string"},
    {"/run_root", "\"run_root\" must be a string"},
    {"/bundle_id", "\"bundle_id\" must be a string"},
    {"/event_count", "\"event_count\" must be an integer"},
    {"/producer", "\"producer\" must be an object with string members \"name\" and \"version\""},
    {"/producer/git", "\"producer.git\" must be a string"},
    {"/files", "\"files\" must be an object"},
    {"/files/events.ndjson", "\"files.events.ndjson\" must have an integer \"bytes\" and a string \"sha256\""},
};

// The most specific rule that covers `pointer`.
constexpr std::size_t manifest_rule_of(std::string_view pointer) noexcept {
  std::size_t best = 0;
  for (std::size_t i = 1; i < std::size(manifest_rules); ++i) {
    const std::string_view p = manifest_rules[i].pointer;
    if (pointer.substr(0, p.size()) == p && (pointer.size() == p.size() || pointer[p.size()] == '/') &&
        p.size() > manifest_rules[best].pointer.size())
      best = i;
  }
  return best;
}

}  // namespace detail

// The verifier's error for manifest.json that did not decode (docs/evidence.md step 3): not JSON (or too
// deep) as the reader says; a schema_version that is a number other than 1,
// ContractSchemaVersion; any other member, ContractInvalidJson with the first broken rule in
// the order of the checks.
inline error manifest_error(const errors& es) {
  const error& first = es.front();
  if (es.size() == 1 && is_syntax_error(first.code))
    return make_error(invalid_json_code(first.code), "manifest.json is not valid JSON: " + first.format());
  std::size_t rule = std::size(detail::manifest_rules);
  const error* chosen = &first;
  for (const error& e : es) {
    const std::size_t r = detail::manifest_rule_of(e.pointer);
    if (r < rule) {
      rule = r;
      chosen = &e;
    }
  }
  // A schema_version that is an integer but not 1 is unsupported; one that is not an integer
  // (1.0 included, as the reference reads it) is invalid JSON for the manifest.
  if (detail::manifest_rules[rule].pointer == "/schema_version" && chosen->code != errc::type_mismatch &&
      chosen->code != errc::missing_member && chosen->code != errc::not_an_integer)
    return make_error(code::ContractSchemaVersion, "manifest.json: unsupported schema_version (1 is supported)");
  return make_error(code::ContractInvalidJson, "manifest.json: " + std::string(detail::manifest_rules[rule].message));
}

namespace detail {

inline std::string_view name_of(errc c) noexcept {
  const auto* i = info(static_cast<std::uint16_t>(c));
  return i != nullptr ? i->name : std::string_view();
}

inline std::string_view class_of(errc c) noexcept {
  const auto* i = info(static_cast<std::uint16_t>(c));
  return i != nullptr ? i->error_class : std::string_view();
}

inline constexpr code_block bundle_codes{first_code, 599, &name_of, &class_of};

// Described before main in every program that includes this header.
inline const bool bundle_codes_described = describe_codes(bundle_codes);

}  // namespace detail

}  // namespace assay::evidence
