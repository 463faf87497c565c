// assay/contracts/pack.hpp — pack-v1, a rule pack (SPEC §10): metadata, rules with typed checks,
// and the namespaced `x-assay.requires_signals`. Unknown top-level members are refused except
// `x-` prefixed ones, which are kept (and so count in the pack's digest).
#pragma once

#include "assay/contracts/closure.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace assay::contracts {

namespace pack_v1 {

struct requirements {
  static constexpr std::string_view schema_name = "requirements";
  std::optional<non_empty> assay_min_version{};
  std::optional<non_empty> evidence_schema_version{};
};

// A rule's check: `type` says which; each type has its own members (SPEC §10), checked by rule.
struct check {
  static constexpr std::string_view schema_name = "check";
  one_of<"event_count", "event_type_exists", "event_pairs", "event_field_present", "manifest_field", "json_path_exists">
      type;
  std::optional<bounded<std::int64_t, 0>> min{};
  std::optional<non_empty> pattern{};
  std::optional<non_empty> start_pattern{};
  std::optional<non_empty> finish_pattern{};
  std::optional<list<non_empty, 1>> paths_any_of{};
  std::optional<list<non_empty, 1>> any_of{};
  std::optional<bool> in_data{};
  std::optional<non_empty> path{};
  std::optional<bool> required{};
  std::optional<list<non_empty, 1>> paths{};
  std::optional<json::value> value_equals{};

  static constexpr field_info assay_fields[] = {
      {.field = "min", .description = "event_count: the fewest events that pass."},
      {.field = "pattern", .description = "event_type_exists: an event type glob ('*' matches any run)."},
      {.field = "paths_any_of", .description = "event_field_present: JSON Pointers, any one suffices."},
      {.field = "any_of", .description = "event_field_present: the same as paths_any_of."},
      {.field = "in_data", .description = "event_field_present: the pointers are into data, not the event."},
      {.field = "path", .description = "manifest_field: a JSON Pointer into the manifest."},
      {.field = "paths", .description = "json_path_exists: JSON Pointers into each event."},
  };

  void check_rules(rules& r) const {
    const std::string_view t = type.value();
    // Which members each type takes: the required ones and the optional ones.
    struct member {
      std::string_view name;
      bool present;
    };
    const member all[] = {
        {"min", min.has_value()},
        {"pattern", pattern.has_value()},
        {"start_pattern", start_pattern.has_value()},
        {"finish_pattern", finish_pattern.has_value()},
        {"paths_any_of", paths_any_of.has_value()},
        {"any_of", any_of.has_value()},
        {"in_data", in_data.has_value()},
        {"path", path.has_value()},
        {"required", required.has_value()},
        {"paths", paths.has_value()},
        {"value_equals", value_equals.has_value()},
    };
    std::vector<std::string_view> needed, allowed;
    if (t == "event_count") {
      needed = {"min"};
    } else if (t == "event_type_exists") {
      needed = {"pattern"};
    } else if (t == "event_pairs") {
      needed = {"start_pattern", "finish_pattern"};
    } else if (t == "event_field_present") {
      allowed = {"paths_any_of", "any_of", "in_data"};
      if (paths_any_of.has_value() == any_of.has_value())
        r.fail("", "event_field_present takes exactly one of paths_any_of and any_of");
    } else if (t == "manifest_field") {
      needed = {"path", "required"};
    } else if (t == "json_path_exists") {
      needed = {"paths"};
      allowed = {"value_equals"};
    }
    for (const member& m : all) {
      const bool is_needed = std::find(needed.begin(), needed.end(), m.name) != needed.end();
      const bool is_allowed = is_needed || std::find(allowed.begin(), allowed.end(), m.name) != allowed.end();
      if (is_needed && !m.present)
        r.fail("/" + std::string(m.name), "a " + std::string(t) + " check needs \"" + std::string(m.name) + "\"");
      if (!is_allowed && m.present)
        r.fail("/" + std::string(m.name),
               "\"" + std::string(m.name) + "\" is not a member of a " + std::string(t) + " check");
    }
  }
};

struct rule {
  static constexpr std::string_view schema_name = "rule";
  pattern<"^[A-Za-z0-9][A-Za-z0-9_.-]*$"> id;
  one_of<"info", "warning", "error"> severity;
  non_empty description;
  std::optional<std::string> help_markdown{};
  pack_v1::check check;
};

struct x_assay {
  static constexpr std::string_view schema_name = "pack_x_assay";
  std::optional<std::vector<closure_v1::signal>> requires_signals{};
  static constexpr field_info assay_fields[] = {
      {.field = "requires_signals", .description = "Signal keys of the registry (v0) the pack needs evidence of."},
  };
};

}  // namespace pack_v1

struct pack {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/pack-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Pack v1";

  pattern<"^[a-z0-9][a-z0-9_.-]*$"> name;
  non_empty version;
  one_of<"compliance", "security", "quality"> kind;
  non_empty description;
  std::optional<std::string> author{};
  std::optional<std::string> license{};
  std::optional<pack_v1::requirements> requires_{};
  list<pack_v1::rule, 1> rules;
  std::optional<pack_v1::x_assay> x_assay{};
  extra_members<"x-"> extensions;

  static constexpr field_info assay_fields[] = {
      {.field = "requires_", .json_name = "requires"},
      {.field = "x_assay", .json_name = "x-assay"},
  };

  void check_rules(assay::rules& r) const {
    for (std::size_t i = 0; i < rules.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (rules[j].id == rules[i].id)
          r.fail("/rules/" + std::to_string(i) + "/id", "rule id \"" + rules[i].id + "\" is used twice");
  }
};

}  // namespace assay::contracts
