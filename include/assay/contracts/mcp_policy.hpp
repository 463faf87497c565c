// assay/contracts/mcp_policy.hpp — mcp-policy: the policy of the MCP gate (docs/mcp.md),
// the reference's v2 format.
//
// One type serves both sides: decoding reads a policy file (after YAML, every member optional,
// unknown members refused), and the loader (assay/mcp/policy.hpp) then fills in every member of
// the reference's policy model, so that encoding the loaded policy gives the object whose JCS is
// `policy_digest` (P56a `jcs:mcp_policy`): each member present, an absent optional `null`, an
// empty map `{}`, an empty list `[]`. Which keys the gate enforces, and which it refuses, is the
// loader's business; this header is the data.
#pragma once

#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace assay::contracts {

namespace mcp_policy_v1 {

// A member that is absent or null when read, and written (after loading) as its value or null.
template <class T>
using maybe = std::optional<nullable<T>>;

using name_list = maybe<std::vector<std::string>>;

struct scope_contract {
  static constexpr std::string_view schema_name = "restrict_scope_contract";
  std::string scope_type;
  std::string scope_value;
  std::string scope_match_mode;
};

struct redaction_contract {
  static constexpr std::string_view schema_name = "redact_args_contract";
  std::string redaction_target;
  std::string redaction_mode;
  std::string redaction_scope;
};

// `tools`: name patterns and class lists (each null when absent, else as written, order kept).
struct tool_rules {
  static constexpr std::string_view schema_name = "tool_rules";
  name_list allow{};
  name_list deny{};
  name_list allow_classes{};
  name_list deny_classes{};
  name_list approval_required{};
  name_list approval_required_classes{};
  name_list restrict_scope{};
  name_list restrict_scope_classes{};
  maybe<scope_contract> restrict_scope_contract{};
  name_list redact_args{};
  name_list redact_args_classes{};
  maybe<redaction_contract> redact_args_contract{};
};

using unconstrained_mode = one_of<"warn", "deny", "allow">;

struct enforcement_rules {
  static constexpr std::string_view schema_name = "enforcement";
  std::optional<unconstrained_mode> unconstrained_tools{};
};

struct limit_rules {
  static constexpr std::string_view schema_name = "limits";
  maybe<bounded<std::int64_t, 0>> max_requests_total{};
  maybe<bounded<std::int64_t, 0>> max_tool_calls_total{};
};

struct signature_rules {
  static constexpr std::string_view schema_name = "signatures";
  std::optional<bool> check_descriptions{};
};

using hex64 = pattern<"^[0-9a-f]{64}$">;

// A tool's pinned identity (docs/mcp.md).
struct tool_pin {
  static constexpr std::string_view schema_name = "tool_pin";
  std::string server_id;
  std::string tool_name;
  hex64 schema_hash;
  hex64 meta_hash;
};

struct policy {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/mcp-policy-v1.schema.json";
  std::optional<std::string> version{};
  std::optional<std::string> name{};
  std::optional<tool_rules> tools{};
  name_list allow{};  // legacy: appended to tools.allow when loading, then null
  name_list deny{};   // legacy: appended to tools.deny when loading, then null
  std::optional<std::map<std::string, json::value>> schemas{};
  std::optional<json::value> constraints{};  // v1: list or map form, migrated into schemas
  std::optional<enforcement_rules> enforcement{};
  maybe<limit_rules> limits{};
  maybe<signature_rules> signatures{};
  std::optional<std::map<std::string, tool_pin>> tool_pins{};
  std::optional<std::map<std::string, std::vector<std::string>>> tool_classes{};
  std::optional<json::value> discovery{};        // runtime features of the reference: refused
  std::optional<json::value> runtime_monitor{};  // when present (docs/mcp.md)
  std::optional<json::value> kill_switch{};
  static constexpr field_info assay_fields[] = {
      {.field = "schemas", .description = "Tool name -> the JSON Schema of its arguments; $defs is shared by all."},
      {.field = "constraints", .description = "v1 argument constraints, migrated into schemas when loading."},
      {.field = "tool_classes", .description = "Tool name -> the classes it belongs to (a sorted set once loaded)."},
  };
};

}  // namespace mcp_policy_v1

using mcp_policy = mcp_policy_v1::policy;

}  // namespace assay::contracts
