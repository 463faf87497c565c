// assay/contracts/payloads.hpp — the payload (`data`) types of the core event types
// (SPEC §8, ADR-006 §3). Each is a reflected struct: validated when an event is recorded or read.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace assay::contracts {

// assay.profile.started
struct profile_started {
  static constexpr std::string_view event_type = "assay.profile.started";
  std::string profile_name;
  std::string profile_version;
  bounded<std::int64_t, 0> total_runs_aggregated;
};

// assay.profile.finished
struct profile_finished {
  static constexpr std::string_view event_type = "assay.profile.finished";
  bounded<std::int64_t, 0> files_count;
  bounded<std::int64_t, 0> network_count;
  bounded<std::int64_t, 0> processes_count;
  bounded<std::int64_t, 0> sandbox_degradation_count;
  std::optional<std::string> integrity_scope{};
};

// assay.tool.decision, with the P56a (policy snapshot) and P56b (tool definition) clusters.
struct tool_decision {
  static constexpr std::string_view event_type = "assay.tool.decision";
  std::string tool;
  one_of<"allow", "deny", "requires_approval"> decision;
  std::string reason_code;
  std::optional<std::string> args_schema_hash{};
  std::optional<std::string> policy_digest{};
  std::optional<std::string> policy_snapshot_digest{};
  std::optional<std::string> policy_snapshot_digest_alg{};
  std::optional<std::string> policy_snapshot_canonicalization{};
  std::optional<std::string> policy_snapshot_schema{};
  std::optional<std::string> tool_definition_digest{};
  std::optional<const_string<"sha256">> tool_definition_digest_alg{};
  std::optional<const_string<"jcs:mcp_tool_definition.v1">> tool_definition_canonicalization{};
  std::optional<const_string<"assay.mcp.tool-definition.snapshot.v1">> tool_definition_schema{};
  std::optional<const_string<"mcp.tools/list">> tool_definition_source{};
  std::optional<std::string> delegated_from{};
  std::optional<bounded<std::int64_t, 0>> delegation_depth{};

  void check_rules(rules& r) const {
    const int p56a = policy_snapshot_digest.has_value() + policy_snapshot_digest_alg.has_value() +
                     policy_snapshot_canonicalization.has_value() + policy_snapshot_schema.has_value();
    if (p56a != 0 && p56a != 4) {
      r.fail("",
             "the policy snapshot members (policy_snapshot_digest, _digest_alg, _canonicalization, _schema) "
             "are all present or all absent");
    }
    if (policy_snapshot_digest && policy_snapshot_digest != policy_digest) {
      r.fail("/policy_snapshot_digest", "policy_snapshot_digest must equal policy_digest");
    }
    const int p56b = tool_definition_digest.has_value() + tool_definition_digest_alg.has_value() +
                     tool_definition_canonicalization.has_value() + tool_definition_schema.has_value() +
                     tool_definition_source.has_value();
    if (p56b != 0 && p56b != 5) {
      r.fail("",
             "the tool definition members (tool_definition_digest, _digest_alg, _canonicalization, _schema, "
             "_source) are all present or all absent");
    }
  }
};

// assay.sandbox.degraded
struct sandbox_degraded {
  static constexpr std::string_view event_type = "assay.sandbox.degraded";
  one_of<"backend_unavailable", "policy_conflict"> reason_code;
  one_of<"audit_fallback"> degradation_mode;
  one_of<"landlock"> component;
  std::optional<std::string> detail{};
};

// assay.env.filtered: key names and counters only, never values.
struct env_filtered {
  static constexpr std::string_view event_type = "assay.env.filtered";
  std::string mode;
  std::vector<std::string> passed_keys;
  std::vector<std::string> dropped_keys;
  std::map<std::string, bounded<std::int64_t, 0>> counters;
};

}  // namespace assay::contracts
