// assay/contracts/payloads.hpp — the payload (`data`) types of the event types of docs/contracts.md
// and the signal payloads. Each is a reflected struct with a static
// `event_type`: validated when an event is recorded or read, and listed by contracts/events.hpp.
//
// Payloads evolve additively (docs/contracts.md): each type names and checks the members it types,
// and keeps every other member of `data` in its `extra` (extra_members<>: any name, any JSON
// value), exactly as written, in canonical order among the typed ones. A producer adds its own:
//
//   contracts::tool_decision d{.tool = "read_file", .decision = "allow", .reason_code = "P_OK"};
//   d.extra["obligations"] = json::parse(R"([{"type":"log"}])").value();
//
// A name the type declares cannot be an extra member (encoding refuses it as a duplicate).
//
// Privacy classes (docs/privacy.md) are part of each type: a member's `field_info::privacy` says whether
// it is public (the default), sensitive (generalized on redaction) or forbidden (dropped, and the
// event flagged); the extra members are sensitive (nothing says what they hold). The signal payloads
// take a redaction commitment wherever a value may be removed.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/json/value.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace assay::contracts {

// A removed value's commitment (docs/privacy.md): the sha256 of its canonical bytes and their size.
struct commitment {
  static constexpr std::string_view schema_name = "commitment";
  static constexpr std::string_view schema_description =
      "A redacted value: sha256 of its canonical (JCS) bytes and their length.";
  const_string<"sha256"> alg;
  pattern<"^sha256:[0-9a-f]{64}$"> digest;
  bounded<std::int64_t, 0> size_bytes;
};

// A value that may have been replaced by its commitment.
template <class T>
using redactable = either<T, commitment>;

// The capability an event type's subjects stand for, by the reference's naming (docs/contracts.md):
// network for `*.net.*` (or a type ending in `.net`), filesystem for `*.fs.*`, processes for
// `*.process.*`; none for anything else. `assay evidence diff` sorts subjects by it, and a profile's
// finished event counts events by it.
enum class capability : std::uint8_t { network, filesystem, processes, none };

inline capability capability_of(std::string_view type) noexcept {
  constexpr std::string_view names[] = {".net", ".fs", ".process"};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string_view dotted = names[i];
    for (std::size_t at = type.find(dotted); at != std::string_view::npos; at = type.find(dotted, at + 1)) {
      const std::size_t end = at + dotted.size();
      if (end == type.size() || type[end] == '.')
        return static_cast<capability>(i);
    }
  }
  return capability::none;
}

// assay.profile.started
struct profile_started {
  static constexpr std::string_view event_type = "assay.profile.started";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.profile.started.schema.json";
  std::string profile_name;
  std::string profile_version;
  bounded<std::int64_t, 0> total_runs_aggregated;
  extra_members<> extra{};  // the additive members: any other name, any JSON value
};

// assay.profile.finished
struct profile_finished {
  static constexpr std::string_view event_type = "assay.profile.finished";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.profile.finished.schema.json";
  bounded<std::int64_t, 0> files_count;
  bounded<std::int64_t, 0> network_count;
  bounded<std::int64_t, 0> processes_count;
  bounded<std::int64_t, 0> sandbox_degradation_count;
  std::optional<std::string> integrity_scope{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
};

// assay.tool.decision, with the P56a (policy snapshot) and P56b (tool definition) clusters, and
// the members of the reference's runtime decisions that its packs read (mandate-baseline,
// mcp-signal-followup): tool_call_id, mandate_id, principal, auth_scheme, auth_issuer, reason.
// Its other runtime members (obligations, approval_*, ...) are additive: kept in `extra`.
struct tool_decision {
  static constexpr std::string_view event_type = "assay.tool.decision";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.tool.decision.schema.json";
  std::string tool;
  one_of<"allow", "deny", "requires_approval", "error"> decision;
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
  std::optional<std::string> tool_call_id{};
  std::optional<std::string> mandate_id{};
  std::optional<std::string> principal{};
  std::optional<std::string> auth_scheme{};
  std::optional<std::string> auth_issuer{};
  std::optional<std::string> reason{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {
      {.field = "tool_call_id", .description = "The id of the tool call the decision is about."},
      {.field = "mandate_id", .description = "The mandate that authorized the call (mandate-baseline reads it)."},
      {.field = "principal", .description = "Who the call is made for (G3 authorization context)."},
      {.field = "auth_scheme", .description = "How the principal was authenticated, e.g. oauth2, jwt_bearer (G3)."},
      {.field = "auth_issuer", .description = "Who issued the principal's credential (G3)."},
      {.field = "reason", .description = "Why, in words.", .privacy = privacy::sensitive},
  };

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
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.sandbox.degraded.schema.json";
  one_of<"backend_unavailable", "policy_conflict"> reason_code;
  one_of<"audit_fallback"> degradation_mode;
  one_of<"landlock"> component;
  std::optional<std::string> detail{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {{.field = "detail", .privacy = privacy::sensitive}};
};

// assay.fs.access: how often a file was touched. The observed members are declared; anything
// else a collector adds is kept in `extra`.
struct fs_access {
  static constexpr std::string_view event_type = "assay.fs.access";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.fs.access.schema.json";
  bounded<std::int64_t, 0> hits;
  std::optional<std::string> file{};
  std::optional<date_time> first_seen{};
  std::optional<date_time> last_seen{};
  std::optional<bounded<std::int64_t, 0>> runs_seen{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {{.field = "file", .privacy = privacy::sensitive}};
  static constexpr privacy subject_privacy = privacy::sensitive;  // the event's subject is the path
};

// assay.net.access: like fs.access; the host:port is the event's `subject`.
struct net_access {
  static constexpr std::string_view event_type = "assay.net.access";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.net.access.schema.json";
  bounded<std::int64_t, 0> hits;
  std::optional<date_time> first_seen{};
  std::optional<date_time> last_seen{};
  std::optional<bounded<std::int64_t, 0>> runs_seen{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr privacy subject_privacy = privacy::sensitive;  // the event's subject is host:port
};

// assay.env.filtered: key names and counters only, never values.
struct env_filtered {
  static constexpr std::string_view event_type = "assay.env.filtered";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.env.filtered.schema.json";
  std::string mode;
  std::vector<std::string> passed_keys;
  std::vector<std::string> dropped_keys;
  std::map<std::string, bounded<std::int64_t, 0>> counters;
  extra_members<> extra{};  // the additive members: any other name, any JSON value
};

// --- docs/packs.md: the signal payloads ----------------------------------------------------------

// assay.tool.call: a tool invocation and, optionally, its input and output bodies.
struct tool_call {
  static constexpr std::string_view event_type = "assay.tool.call";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.tool.call.schema.json";
  redactable<non_empty> tool;
  std::optional<redactable<std::string>> call_id{};
  std::optional<json::value> arguments{};
  std::optional<json::value> result{};
  std::optional<bool> nondeterministic{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {
      {.field = "arguments", .description = "The call's input (or its commitment).", .privacy = privacy::sensitive},
      {.field = "result", .description = "The call's output (or its commitment).", .privacy = privacy::sensitive},
      {.field = "nondeterministic", .description = "True when the tool's output may differ between runs."},
  };
};

// assay.model.invoked: which model served an inference.
struct model_invoked {
  static constexpr std::string_view event_type = "assay.model.invoked";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.model.invoked.schema.json";
  redactable<non_empty> model;
  std::optional<redactable<std::string>> provider{};
  std::optional<redactable<std::string>> operation{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
};

// assay.run.input: the run's input.
struct run_input {
  static constexpr std::string_view event_type = "assay.run.input";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.run.input.schema.json";
  json::value input;
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {{.field = "input", .privacy = privacy::sensitive}};
};

// assay.run.seed: a random seed the run used (a number or a string).
struct run_seed {
  static constexpr std::string_view event_type = "assay.run.seed";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.run.seed.schema.json";
  json::value seed;
  extra_members<> extra{};  // the additive members: any other name, any JSON value
};

// assay.prompt.lineage: the prompt's digest and the one it was derived from.
struct prompt_lineage {
  static constexpr std::string_view event_type = "assay.prompt.lineage";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.prompt.lineage.schema.json";
  redactable<non_empty> prompt_digest;
  std::optional<redactable<non_empty>> parent_digest{};
  extra_members<> extra{};  // the additive members: any other name, any JSON value
};

// assay.approval.recorded: a human's decision on a gated action.
struct approval_recorded {
  static constexpr std::string_view event_type = "assay.approval.recorded";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.approval.recorded.schema.json";
  std::optional<redactable<std::string>> tool{};
  redactable<non_empty> approver;
  redactable<non_empty> decision;
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {{.field = "approver", .privacy = privacy::sensitive}};
};

// --- docs/mcp.md: what the MCP gate records beside its decisions --------------------------------

// One tool of a tools/list result the gate read: its name and P56b digest (absent when the
// reference would bind none: an input schema that is not an object, a blank name).
struct mcp_listed_tool {
  static constexpr std::string_view schema_name = "mcp_listed_tool";
  std::string name;
  std::optional<pattern<"^sha256:[0-9a-f]{64}$">> tool_definition_digest{};
};

// assay.mcp.tools_listed: the tools a server listed (one event per readable tools/list result).
struct mcp_tools_listed {
  static constexpr std::string_view event_type = "assay.mcp.tools_listed";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.mcp.tools_listed.schema.json";
  std::string server_id;
  std::vector<mcp_listed_tool> tools;
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {
      {.field = "server_id", .description = "The gate's label for the server (--label)."},
  };
};

// assay.mcp.refused: a client line the gate did not forward (not JSON-RPC 2.0, not one message,
// not readable): why, the JSON-RPC error code it answered, and the line's digest and size, never
// the line.
struct mcp_refused {
  static constexpr std::string_view event_type = "assay.mcp.refused";
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/assay.mcp.refused.schema.json";
  std::string reason;
  std::int64_t code;
  pattern<"^[0-9a-f]{64}$"> line_sha256;
  bounded<std::int64_t, 0> line_bytes;
  extra_members<> extra{};  // the additive members: any other name, any JSON value
  static constexpr field_info assay_fields[] = {
      {.field = "code", .description = "The JSON-RPC error code answered (-32700, -32600, -32602, -32000)."},
      {.field = "line_sha256", .description = "Hex sha256 of the line as received."},
  };
};

}  // namespace assay::contracts
