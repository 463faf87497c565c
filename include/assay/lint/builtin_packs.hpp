// assay/lint/builtin_packs.hpp — the packs that ship with the library (docs/packs.md), written for it.
//
// They are JSON, so they load without a YAML library. `cicd-starter` is the pack used when none
// is named; `replay-readiness` requires the replay-critical signals of registry v0 (closure,
// docs/packs.md) and checks that the bundle has evidence of each.
#pragma once

#include <span>
#include <string_view>

namespace assay::lint {

struct builtin_pack {
  std::string_view name;
  std::string_view text;  // pack-v1 JSON
};

// The pack used when no pack is named.
inline constexpr std::string_view default_pack_name = "cicd-starter";

namespace detail {

// The reference's cicd-starter rules (the same ids, severities and checks, so a bundle gets the
// same outcomes from either tool), described here in our own words, under a version of its own:
// one name@version never names two packs (docs/packs.md).
inline constexpr std::string_view cicd_starter_text = R"json({
  "name": "cicd-starter",
  "version": "1.0.0+assay",
  "kind": "quality",
  "description": "A floor for evidence produced in CI: something was recorded, the run's start and end are there, events can be tied to their run, and the build that ran is named.",
  "author": "assay",
  "license": "Apache-2.0",
  "requires": {"assay_min_version": ">=5.4.0", "evidence_schema_version": "1.0"},
  "rules": [
    {
      "id": "CICD-001",
      "severity": "error",
      "description": "The bundle holds at least one event.",
      "help_markdown": "## CICD-001: something was recorded\n\nAn empty bundle means the run left no evidence at all.\n\n**To fix:**\n- Record events before the bundle is written (`assay evidence bundle`, or the library's `recorder`).\n- Lint again: `assay evidence lint bundle.tar.gz`",
      "check": {"type": "event_count", "min": 1}
    },
    {
      "id": "CICD-002",
      "severity": "warning",
      "description": "The run's start and end are recorded (assay.profile.started and assay.profile.finished).",
      "help_markdown": "## CICD-002: both ends of the run\n\nA run whose start or end is missing may have been cut short, and its evidence with it.\n\n**To fix:**\n- Record an `assay.profile.started` event first and an `assay.profile.finished` event last.\n- Lint again: `assay evidence lint bundle.tar.gz`",
      "check": {"type": "event_pairs", "start_pattern": "assay.profile.started", "finish_pattern": "assay.profile.finished"}
    },
    {
      "id": "CICD-003",
      "severity": "warning",
      "description": "Some event carries a correlation id: the run id or W3C trace context.",
      "help_markdown": "## CICD-003: correlation\n\nA correlation id ties the evidence to the pipeline and the traces that produced it: `assayrunid`, a `run_id`, or W3C `traceparent` / `tracestate`, on the event or in its data.\n\n**To fix:**\n- Events written by assay carry `assayrunid`.\n- When the run is traced, propagate `traceparent` into the events.\n- Lint again: `assay evidence lint bundle.tar.gz`",
      "check": {
        "type": "event_field_present",
        "paths_any_of": ["/assayrunid", "/run_id", "/traceparent", "/tracestate", "/data/run_id", "/data/traceparent", "/data/tracestate"]
      }
    },
    {
      "id": "CICD-004",
      "severity": "info",
      "description": "Some event names the build that ran (data.build_id or data.version).",
      "help_markdown": "## CICD-004: build identity\n\nNaming the build that produced the evidence is the first step towards provenance (SLSA-style attestations).\n\n**To fix:**\n- Put `build_id` or `version` in the data of an event, e.g. the run's `assay.profile.started`.\n- Lint again: `assay evidence lint bundle.tar.gz`",
      "check": {"type": "event_field_present", "paths_any_of": ["/data/build_id", "/data/version"]}
    }
  ]
})json";

inline constexpr std::string_view replay_readiness_text = R"json({
  "name": "replay-readiness",
  "version": "1.0.0",
  "kind": "quality",
  "description": "Whether a run could be replayed from its evidence: its inputs, its random seeds, the models it used and the bodies of its tool calls were captured.",
  "author": "assay",
  "license": "Apache-2.0",
  "requires": {"assay_min_version": ">=5.4.0", "evidence_schema_version": "1.0"},
  "rules": [
    {
      "id": "REPLAY-001",
      "severity": "warning",
      "description": "The run's input is recorded (assay.run.input with data.input).",
      "help_markdown": "Record what the run was given as an `assay.run.input` event; a redaction commitment in place of the value still shows it was captured.",
      "event_types": ["assay.run.input"],
      "check": {"type": "event_field_present", "paths_any_of": ["/data/input"]}
    },
    {
      "id": "REPLAY-002",
      "severity": "warning",
      "description": "The random seeds the run used are recorded (assay.run.seed with data.seed).",
      "help_markdown": "A replay must draw the same random numbers: record each seed as an `assay.run.seed` event.",
      "event_types": ["assay.run.seed"],
      "check": {"type": "event_field_present", "paths_any_of": ["/data/seed"]}
    },
    {
      "id": "REPLAY-003",
      "severity": "warning",
      "description": "The model that served the run is identified (data.model of assay.model.invoked, or data.gen_ai.request.model).",
      "help_markdown": "Record the model of every inference as an `assay.model.invoked` event, or carry the OpenTelemetry attribute `gen_ai.request.model` in event data.",
      "check": {"type": "event_field_present", "paths_any_of": ["/data/model", "/data/gen_ai.request.model"]}
    },
    {
      "id": "REPLAY-004",
      "severity": "warning",
      "description": "Tool calls carry their bodies (data.arguments or data.result of assay.tool.call).",
      "help_markdown": "A replay stands tools in with what they returned: record the arguments and the result of each `assay.tool.call` (or commitments to them).",
      "event_types": ["assay.tool.call"],
      "check": {"type": "event_field_present", "paths_any_of": ["/data/arguments", "/data/result"]}
    }
  ],
  "x-assay": {"requires_signals": ["model_identity", "rng_seeds", "run_inputs", "tool_io_bodies"]}
})json";

inline constexpr builtin_pack builtin_pack_table[] = {
    {"cicd-starter", cicd_starter_text},
    {"replay-readiness", replay_readiness_text},
};

}  // namespace detail

// Every built-in pack, in name order.
constexpr std::span<const builtin_pack> builtin_packs() noexcept {
  return detail::builtin_pack_table;
}

constexpr const builtin_pack* find_builtin_pack(std::string_view name) noexcept {
  for (const builtin_pack& p : builtin_packs())
    if (p.name == name)
      return &p;
  return nullptr;
}

}  // namespace assay::lint
