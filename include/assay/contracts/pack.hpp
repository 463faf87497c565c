// assay/contracts/pack.hpp — pack-v1: a rule pack as written (docs/packs.md), the Rust reference's
// pack format plus its signal list.
//
// The contract is the JSON form of a pack file: unknown top-level members are refused, unknown
// members of a rule or a check are allowed (the reference ignores them), severities take every
// spelling the reference accepts. A check is `{type, <members>}`; which members a type takes, and
// their JSON types, is the table `pack_v1::check_members`, enforced by the check's rules. An
// unknown `type` is not an error: such a check loads as unsupported (its members unchecked).
//
// Loading a pack (YAML or JSON, version and signal checks, normalization, digest) is
// assay/lint/pack.hpp; this header is the data and its validation only.
#pragma once

#include "assay/contracts/closure.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace pack_v1 {

// --- check types and their members ---------------------------------------------------------------

enum class check_type : std::uint8_t {
  event_count,
  event_pairs,
  event_field_present,
  event_type_exists,
  manifest_field,
  json_path_exists,
  conditional,
  g3_authorization_context_present,
  unsupported,  // any other `type`
};

inline constexpr std::string_view check_type_names[] = {
    "event_count",    "event_pairs",      "event_field_present", "event_type_exists",
    "manifest_field", "json_path_exists", "conditional",         "g3_authorization_context_present",
    "unsupported",
};

constexpr std::string_view name(check_type t) noexcept {
  return check_type_names[static_cast<std::size_t>(t)];
}

// The check type a `type` string names (exact, case-sensitive); unsupported for any other.
constexpr check_type parse_check_type(std::string_view s) noexcept {
  for (std::size_t i = 0; i + 1 < std::size(check_type_names); ++i)
    if (check_type_names[i] == s)
      return static_cast<check_type>(i);
  return check_type::unsupported;
}

// What a check member holds. Optional members may be absent or null (both mean absent), except
// booleans, which may only be absent (then false).
enum class member_kind : std::uint8_t {
  positive_integer,  // an integer > 0
  text,              // a non-empty string
  strings,           // an array of strings
  boolean,
  object,  // a JSON object (required members of this kind: absent or null is "requires a ... object")
  any,     // any JSON value
};

struct check_member {
  std::string_view name;
  member_kind kind;
  bool required;
};

namespace members_of {
using k = member_kind;
inline constexpr check_member event_count[] = {{"min", k::positive_integer, true}};
inline constexpr check_member event_pairs[] = {{"start_pattern", k::text, true}, {"finish_pattern", k::text, true}};
inline constexpr check_member event_field_present[] = {
    {"paths_any_of", k::strings, false}, {"any_of", k::strings, false}, {"in_data", k::boolean, false}};
inline constexpr check_member event_type_exists[] = {{"pattern", k::text, true}};
inline constexpr check_member manifest_field[] = {{"path", k::text, true}, {"required", k::boolean, false}};
inline constexpr check_member json_path_exists[] = {{"paths", k::strings, true}, {"value_equals", k::any, false}};
inline constexpr check_member conditional[] = {{"condition", k::object, true}, {"then", k::object, true}};
}  // namespace members_of

// The members of each check type, in the order the reference declares them.
constexpr std::span<const check_member> check_members(check_type t) noexcept {
  switch (t) {
    case check_type::event_count:
      return members_of::event_count;
    case check_type::event_pairs:
      return members_of::event_pairs;
    case check_type::event_field_present:
      return members_of::event_field_present;
    case check_type::event_type_exists:
      return members_of::event_type_exists;
    case check_type::manifest_field:
      return members_of::manifest_field;
    case check_type::json_path_exists:
      return members_of::json_path_exists;
    case check_type::conditional:
      return members_of::conditional;
    case check_type::g3_authorization_context_present:
    case check_type::unsupported:
      break;
  }
  return {};
}

namespace detail {

inline std::string_view kind_found(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "null";
    case json::kind::boolean:
      return "a boolean";
    case json::kind::number:
      return "a number";
    case json::kind::string:
      return "a string";
    case json::kind::array:
      return "an array";
    case json::kind::object:
      return "an object";
  }
  return "?";
}

// The violations of one member of a check of type `t` (present: `v` is its value).
inline void check_member_value(std::string_view t, const check_member& m, const json::value* v, rules& r) {
  const std::string where = std::string(t) + "." + std::string(m.name);
  const std::string at = "/" + std::string(m.name);
  const bool absent = v == nullptr || (v->is_null() && m.kind != member_kind::boolean);
  if (absent) {
    if (m.kind == member_kind::object)
      r.fail(at, std::string(t) + " requires a " + std::string(m.name) + " object");
    else if (m.required)
      r.fail(at, std::string(t) + " requires " + std::string(m.name));
    return;
  }
  switch (m.kind) {
    case member_kind::positive_integer: {
      const bool integer = v->is_number() && v->as_number() >= 0 && v->as_number() <= 18446744073709551616.0 &&
                           std::floor(v->as_number()) == v->as_number();
      if (!integer)
        r.fail(at, where + " must be an integer > 0, found " +
                       (v->is_number() ? json::to_canonical(*v).value() : std::string(kind_found(*v))));
      else if (v->as_number() == 0)
        r.fail(at, where + " must be > 0");
      return;
    }
    case member_kind::text:
      if (!v->is_string())
        r.fail(at, where + " must be a string, found " + std::string(kind_found(*v)));
      else if (v->as_string().empty())
        r.fail(at, where + " cannot be empty");
      return;
    case member_kind::strings:
      if (!v->is_array()) {
        r.fail(at, where + " must be an array of strings, found " + std::string(kind_found(*v)));
        return;
      }
      for (std::size_t i = 0; i < v->as_array().size(); ++i)
        if (!v->as_array()[i].is_string())
          r.fail(at + "/" + std::to_string(i), where + " must be an array of strings, found " +
                                                   std::string(kind_found(v->as_array()[i])) + " at " +
                                                   std::to_string(i));
      if (m.required && v->as_array().empty())
        r.fail(at, where + " cannot be empty");
      return;
    case member_kind::boolean:
      if (!v->is_bool())
        r.fail(at, where + " must be a boolean, found " + std::string(kind_found(*v)));
      return;
    case member_kind::object:
      if (!v->is_object())
        r.fail(at, std::string(t) + "." + std::string(m.name) + " must be an object");
      return;
    case member_kind::any:
      return;
  }
}

}  // namespace detail

// --- the members of a pack ----------------------------------------------------------------------

struct requirements {
  static constexpr std::string_view schema_name = "pack_requirements";
  std::string assay_min_version;
  std::optional<std::string> evidence_schema_version{};
  static constexpr field_info assay_fields[] = {
      {.field = "assay_min_version",
       .description = "The lowest Assay version whose pack engine the pack needs: \">=X.Y[.Z]\" or \"X.Y[.Z]\"; "
                      "this library implements the pack format of 5.4.0."},
      {.field = "evidence_schema_version", .description = "The evidence spec version the pack was written for."},
  };
};

// A rule's check: `type` says which; the other members depend on it (check_members). Members a
// type does not take are ignored, as are all members of an unsupported type.
struct check {
  static constexpr std::string_view schema_name = "pack_check";
  static constexpr std::string_view schema_description =
      "event_count {min}, event_pairs {start_pattern, finish_pattern}, event_field_present {paths_any_of | any_of, "
      "in_data}, event_type_exists {pattern}, manifest_field {path, required}, json_path_exists {paths, "
      "value_equals}, conditional {condition, then}, g3_authorization_context_present {}; any other type loads as "
      "unsupported.";
  std::string type;
  extra_members<> members;

  check_type kind() const noexcept { return parse_check_type(type); }
  const json::value* member(std::string_view name) const {
    auto it = members.find(std::string(name));
    return it == members.end() ? nullptr : &it->second;
  }

  void check_rules(rules& r) const {
    const check_type t = kind();
    for (const check_member& m : check_members(t))
      detail::check_member_value(type, m, member(m.name), r);
    if (t == check_type::event_field_present) {
      auto listed = [&](std::string_view n) {
        const json::value* v = member(n);
        return v != nullptr && v->is_array() && !v->as_array().empty();
      };
      if (!listed("paths_any_of") && !listed("any_of"))
        r.fail("", "event_field_present requires paths_any_of or any_of");
    } else if (t == check_type::json_path_exists) {
      const json::value* paths = member("paths");
      const json::value* equals = member("value_equals");
      if (equals != nullptr && !equals->is_null() && paths != nullptr && paths->is_array() &&
          paths->as_array().size() > 1)
        r.fail("/value_equals", "json_path_exists.value_equals requires exactly one path");
    }
  }
};

struct rule {
  static constexpr std::string_view schema_name = "pack_rule";
  non_empty id;
  one_of<"error", "Error", "warning", "Warning", "warn", "Warn", "info", "Info"> severity;
  std::string description;
  std::optional<std::string> article_ref{};
  std::optional<std::string> help_markdown{};
  std::optional<std::string> engine_min_version{};
  std::optional<list<non_empty, 1>> event_types{};
  pack_v1::check check;
  extra_members<> ignored;  // the reference ignores other members

  static constexpr field_info assay_fields[] = {
      {.field = "id", .description = "Unique in the pack; the canonical id is <pack name>@<version>:<id>."},
      {.field = "severity", .description = "error, warning (or warn) or info; a capitalized spelling is the same."},
      {.field = "article_ref", .description = "The article or control the rule maps to."},
      {.field = "engine_min_version",
       .description = "The pack engine the rule needs (major.minor); above 1.2 the "
                      "rule is unsupported."},
      {.field = "event_types", .description = "Only events of these types (exact match) are checked."},
  };
};

struct x_assay {
  static constexpr std::string_view schema_name = "pack_x_assay";
  std::optional<std::vector<closure_v1::signal>> requires_signals{};
  static constexpr field_info assay_fields[] = {
      {.field = "requires_signals", .description = "Signals of the registry the pack needs evidence of."},
  };
};

}  // namespace pack_v1

struct pack {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/pack-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Pack v1";

  pattern<"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"> name;
  std::string version;
  one_of<"compliance", "security", "quality"> kind;
  std::string description;
  std::string author;
  std::string license;
  std::optional<std::string> source_url{};
  std::optional<std::string> disclaimer{};
  pack_v1::requirements requires_;
  std::vector<pack_v1::rule> rules;
  std::optional<pack_v1::x_assay> x_assay{};
  std::optional<std::vector<closure_v1::signal>> x_assay_requires_signals{};

  static constexpr field_info assay_fields[] = {
      {.field = "version", .description = "Any string; part of the canonical rule ids."},
      {.field = "disclaimer", .description = "Required when kind is compliance (it may be empty)."},
      {.field = "requires_", .json_name = "requires"},
      {.field = "x_assay", .json_name = "x-assay"},
      {.field = "x_assay_requires_signals",
       .json_name = "x-assay.requires_signals",
       .description = "The same list as x-assay.requires_signals, written as one key (give only one of the two)."},
  };

  void check_rules(assay::rules& r) const {
    if (kind == "compliance" && !disclaimer)
      r.fail("/disclaimer", "a compliance pack needs a disclaimer (it may be empty)");
    for (std::size_t i = 0; i < rules.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (rules[j].id == rules[i].id) {
          r.fail("/rules/" + std::to_string(i) + "/id", "rule id \"" + rules[i].id + "\" is used twice");
          break;
        }
    if (x_assay && x_assay_requires_signals)
      r.fail("/x-assay.requires_signals", "x-assay.requires_signals is given twice: as a key and inside x-assay");
  }

  // The signals the pack requires, in either spelling.
  const std::vector<closure_v1::signal>* requires_signals() const noexcept {
    if (x_assay_requires_signals)
      return &*x_assay_requires_signals;
    if (x_assay && x_assay->requires_signals)
      return &*x_assay->requires_signals;
    return nullptr;
  }
};

}  // namespace assay::contracts
