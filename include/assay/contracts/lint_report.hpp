// assay/contracts/lint_report.hpp — lint-report-v1, the JSON report of `lint(bundle, packs)`
// (SPEC §11). The schema is written here, from the type.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace lint_v1 {

using sha256_digest = pattern<"^sha256:[0-9a-f]{64}$">;
using severity_level = one_of<"info", "warning", "error">;
// `<pack>@<version>:<rule id>` (SPEC §10), with the pack name and rule id forms of pack-v1.
using canonical_rule_id = pattern<"^[a-z0-9][a-z0-9_.-]*@[^@:]+:[A-Za-z0-9][A-Za-z0-9_.-]*$">;
using json_pointer = pattern<"^(/([^~/]|~[01])*)*$">;

struct tool_info {
  static constexpr std::string_view schema_name = "tool";
  non_empty name;
  non_empty version;
};

struct pack_ref {
  static constexpr std::string_view schema_name = "pack_ref";
  pattern<"^[a-z0-9][a-z0-9_.-]*$"> name;
  non_empty version;
  one_of<"compliance", "security", "quality"> kind;
  sha256_digest digest;
  std::optional<std::string> source{};
  static constexpr field_info assay_fields[] = {
      {.field = "digest", .description = "sha256 of the pack's canonical (JCS) JSON."},
      {.field = "source", .description = "Where the pack came from: built-in, or the path it was read from."},
  };
};

// Where a rule was violated: an event of the bundle, a value (in that event, or in the manifest
// when no event is named), or both.
struct location {
  static constexpr std::string_view schema_name = "location";
  std::optional<bounded<std::int64_t, 0>> event_index{};
  std::optional<json_pointer> pointer{};
  static constexpr field_info assay_fields[] = {
      {.field = "event_index", .description = "0-based position of the event in events.ndjson."},
      {.field = "pointer", .description = "JSON Pointer to the value concerned."},
  };
  void check_rules(rules& r) const {
    if (!event_index && !pointer)
      r.fail("", "a location names an event_index, a pointer or both");
  }
};

struct rule_result {
  static constexpr std::string_view schema_name = "rule_result";
  canonical_rule_id rule_id;
  severity_level severity;
  one_of<"pass", "violated"> status;
  non_empty message;
  std::vector<location> where;
  static constexpr field_info assay_fields[] = {
      {.field = "rule_id", .description = "Canonical rule id: <pack>@<version>:<rule id>."},
      {.field = "where", .description = "Where the rule was violated; empty when it passed or has no one place."},
  };
};

struct severity_counts {
  bounded<std::int64_t, 0> info;
  bounded<std::int64_t, 0> warning;
  bounded<std::int64_t, 0> error;
};

struct result_summary {
  bounded<std::int64_t, 0> rules;
  bounded<std::int64_t, 0> passed;
  bounded<std::int64_t, 0> violated;
  severity_counts violated_by_severity;
  static constexpr field_info assay_fields[] = {
      {.field = "rules", .description = "Rules run: the number of results."},
      {.field = "violated_by_severity", .description = "Violated rules, counted by their severity."},
  };
};

}  // namespace lint_v1

struct lint_report {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/lint-report-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Lint Report v1";

  const_string<"lint-report-v1"> schema_version;
  std::optional<date_time> generated_at{};
  lint_v1::tool_info tool;
  std::optional<lint_v1::sha256_digest> bundle_id{};
  list<lint_v1::pack_ref, 1> packs;
  std::vector<lint_v1::rule_result> results;
  lint_v1::result_summary summary;
  lint_v1::severity_level fail_on;
  bool passed = false;

  static constexpr field_info assay_fields[] = {
      {.field = "generated_at", .description = "Honours SOURCE_DATE_EPOCH."},
      {.field = "tool", .description = "The program that linted and its version."},
      {.field = "bundle_id", .description = "The linted bundle's bundle_id (its run_root)."},
      {.field = "packs",
       .description = "Every pack applied, once each (the built-in cicd-starter when none was named)."},
      {.field = "results", .description = "One result per rule of every pack."},
      {.field = "fail_on", .description = "The lowest severity of a violated rule that fails the lint."},
      {.field = "passed", .description = "False exactly when a violated rule's severity is at or above fail_on."},
  };

  void check_rules(rules& r) const {
    for (std::size_t i = 0; i < packs.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (packs[j].name == packs[i].name && packs[j].version == packs[i].version) {
          r.fail("/packs/" + std::to_string(i), "pack \"" + packs[i].name + "@" + packs[i].version +
                                                    "\" is listed twice (also at /packs/" + std::to_string(j) + ")");
          break;
        }
      }
    }
    std::int64_t passes = 0, violations = 0;
    std::int64_t by_severity[3] = {0, 0, 0};
    bool fails = false;
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& x = results[i];
      const std::string at = "/results/" + std::to_string(i) + "/rule_id";
      for (std::size_t j = 0; j < i; ++j) {
        if (results[j].rule_id == x.rule_id) {
          r.fail(at, "rule \"" + x.rule_id + "\" is reported twice");
          break;
        }
      }
      // The pack part: everything before the last ':' (rule ids have none).
      const std::string_view id = x.rule_id;
      const std::string_view pack_part = id.substr(0, id.rfind(':'));
      bool known = false;
      for (const auto& p : packs)
        known = known || pack_part == p.name + "@" + p.version;
      if (!known)
        r.fail(at, "rule \"" + x.rule_id + "\" belongs to no pack in packs");
      if (x.status == "pass") {
        if (!x.where.empty())
          r.fail("/results/" + std::to_string(i) + "/where", "a rule that passed has no location: where must be empty");
        ++passes;
      } else {
        ++violations;
        ++by_severity[x.severity.index()];
        fails = fails || x.severity.index() >= fail_on.index();
      }
    }
    const auto count = [&](std::string_view member, std::int64_t have, std::int64_t want, std::string_view what) {
      if (have != want) {
        std::string label(member);
        std::replace(label.begin(), label.end(), '/', '.');
        r.fail("/summary/" + std::string(member), "summary." + label + " (" + std::to_string(have) +
                                                      ") must equal the number of " + std::string(what) + " (" +
                                                      std::to_string(want) + ")");
      }
    };
    count("rules", summary.rules.value(), static_cast<std::int64_t>(results.size()), "results");
    count("passed", summary.passed.value(), passes, "passing results");
    count("violated", summary.violated.value(), violations, "violated results");
    const auto& s = summary.violated_by_severity;
    count("violated_by_severity/info", s.info.value(), by_severity[0], "violated info rules");
    count("violated_by_severity/warning", s.warning.value(), by_severity[1], "violated warning rules");
    count("violated_by_severity/error", s.error.value(), by_severity[2], "violated error rules");
    if (passed == fails)
      r.fail("/passed", "passed must be false exactly when a violated rule's severity is at or above fail_on");
  }
};

}  // namespace assay::contracts
