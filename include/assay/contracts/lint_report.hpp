// assay/contracts/lint_report.hpp — lint-report-v1, the JSON report of `lint(bundle, packs)`
// (docs/packs.md). The schema is written here, from the type.
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
using threshold = one_of<"none", "info", "warning", "error">;

struct tool_info {
  static constexpr std::string_view schema_name = "tool";
  non_empty name;
  non_empty version;
};

struct bundle_info {
  static constexpr std::string_view schema_name = "bundle";
  sha256_digest bundle_id;
  non_empty run_id;
  bounded<std::int64_t, 0> event_count;
  static constexpr field_info assay_fields[] = {
      {.field = "bundle_id", .description = "The linted bundle's bundle_id (its run_root)."},
  };
};

struct pack_ref {
  static constexpr std::string_view schema_name = "pack_ref";
  pattern<"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"> name;
  std::string version;
  one_of<"compliance", "security", "quality"> kind;
  sha256_digest digest;
  non_empty source;
  std::optional<std::string> source_url{};
  static constexpr field_info assay_fields[] = {
      {.field = "version", .description = "Any string, as in the pack; part of its rules' ids."},
      {.field = "digest", .description = "sha256 of the pack's canonical (JCS) JSON."},
      {.field = "source", .description = "Where the pack came from: built-in, or the path it was read from."},
  };
};

// Where a finding is: an event of events.ndjson.
struct location {
  static constexpr std::string_view schema_name = "location";
  bounded<std::int64_t, 0> seq;
  bounded<std::int64_t, 1> line;
  std::string event_type;
  static constexpr field_info assay_fields[] = {
      {.field = "line", .description = "1-based line of the event in events.ndjson."},
  };
};

struct finding {
  static constexpr std::string_view schema_name = "finding";
  severity_level severity;
  non_empty message;
  std::optional<lint_v1::location> location{};
  sha256_digest fingerprint;
  static constexpr field_info assay_fields[] = {
      {.field = "location", .description = "The event concerned; absent for a finding about the bundle as a whole."},
      {.field = "fingerprint", .description = "The reference's fingerprint: stable across tools."},
  };
};

struct rule_result {
  static constexpr std::string_view schema_name = "rule_result";
  non_empty rule_id;
  severity_level severity;
  one_of<"pass", "violated", "skipped"> outcome;
  std::optional<non_empty> reason{};
  std::optional<std::string> description{};
  std::vector<lint_v1::finding> findings;
  static constexpr field_info assay_fields[] = {
      {.field = "rule_id",
       .description = "A built-in rule id (ASSAY-…), or a pack rule's canonical id <pack>@<version>:<rule id>."},
      {.field = "reason", .description = "Why the rule was skipped (present exactly when it was)."},
      {.field = "findings",
       .description = "Its reported findings (a passing manifest_field rule may carry a warning; a violated rule's "
                      "findings may have been dropped by max_results)."},
  };
  void check_rules(rules& r) const {
    if ((outcome == "skipped") != reason.has_value())
      r.fail("/reason", "reason is present exactly when the outcome is skipped");
    if (outcome == "skipped" && !findings.empty())
      r.fail("/findings", "a skipped rule has no findings");
    for (std::size_t i = 0; i < findings.size(); ++i) {
      const auto& f = findings[i];
      if (outcome == "pass" && (f.severity != "warning" || f.location))
        r.fail("/findings/" + std::to_string(i),
               "a rule that passed reports only a warning about the bundle as a whole (an optional manifest field)");
      if (outcome == "violated" && f.severity.index() != severity.index())
        r.fail("/findings/" + std::to_string(i) + "/severity",
               "a violated rule's findings have its severity (" + std::string(severity.value()) + ")");
    }
  }
};

struct finding_counts {
  bounded<std::int64_t, 0> total;
  bounded<std::int64_t, 0> error;
  bounded<std::int64_t, 0> warning;
  bounded<std::int64_t, 0> info;
};

struct result_summary {
  bounded<std::int64_t, 0> rules;
  bounded<std::int64_t, 0> passed;
  bounded<std::int64_t, 0> violated;
  bounded<std::int64_t, 0> skipped;
  finding_counts findings;
  bounded<std::int64_t, 0> dropped;
  bounded<std::int64_t, 0> max_results;
  static constexpr field_info assay_fields[] = {
      {.field = "findings", .description = "The reported findings, counted by severity."},
      {.field = "dropped", .description = "Findings past max_results, not reported (the highest severities are kept)."},
  };
};

struct disclaimer {
  static constexpr std::string_view schema_name = "disclaimer";
  non_empty pack;
  std::string text;
};

}  // namespace lint_v1

struct lint_report {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/lint-report-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Lint Report v1";

  const_string<"lint-report-v1"> schema_version;
  std::optional<date_time> generated_at{};
  lint_v1::tool_info tool;
  lint_v1::bundle_info bundle;
  std::vector<lint_v1::pack_ref> packs;
  std::vector<lint_v1::rule_result> results;
  lint_v1::result_summary summary;
  lint_v1::threshold fail_on;
  one_of<"pass", "fail"> verdict;
  std::vector<lint_v1::disclaimer> disclaimers;

  static constexpr field_info assay_fields[] = {
      {.field = "generated_at", .description = "Honours SOURCE_DATE_EPOCH."},
      {.field = "tool", .description = "The program that linted and its version."},
      {.field = "packs", .description = "Every pack applied, in the order given."},
      {.field = "results",
       .description = "Every rule run: the six built-in rules, then each pack's rules in file order."},
      {.field = "fail_on", .description = "The lowest severity of a finding that fails the lint (none: never)."},
      {.field = "verdict", .description = "fail exactly when a finding's severity is at or above fail_on."},
      {.field = "disclaimers", .description = "The disclaimer of every compliance pack applied."},
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
    std::int64_t counts[3] = {0, 0, 0};  // by outcome
    std::int64_t by_severity[3] = {0, 0, 0};
    bool at_threshold = false;
    const std::size_t threshold = fail_on.index();  // none 0, info 1, warning 2, error 3
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& x = results[i];
      const std::string at = "/results/" + std::to_string(i) + "/rule_id";
      for (std::size_t j = 0; j < i; ++j) {
        if (results[j].rule_id == x.rule_id) {
          r.fail(at, "rule \"" + x.rule_id + "\" is reported twice");
          break;
        }
      }
      const std::string_view id = x.rule_id;
      if (id.find('@') != std::string_view::npos) {
        // <pack>@<version>:<id>: a pack in packs, then a rule id (not empty).
        std::optional<std::size_t> prefix;
        for (const auto& p : packs)
          if (id.substr(0, p.name.size() + p.version.size() + 2) == p.name + "@" + p.version + ":")
            prefix = p.name.size() + p.version.size() + 2;
        if (!prefix)
          r.fail(at, "rule \"" + x.rule_id + "\" belongs to no pack in packs");
        else if (id.size() == *prefix)
          r.fail(at, "rule \"" + x.rule_id + "\" names its pack but no rule");
      } else if (id.size() <= 6 || id.substr(0, 6) != "ASSAY-") {
        r.fail(at, "rule \"" + x.rule_id + "\" is neither a built-in rule (ASSAY-…) nor <pack>@<version>:<id>");
      }
      if (x.outcome == "violated" && x.findings.empty() && summary.dropped.value() == 0)
        r.fail("/results/" + std::to_string(i) + "/findings",
               "a violated rule reports its findings (none were dropped)");
      ++counts[x.outcome.index()];
      for (const auto& f : x.findings) {
        ++by_severity[f.severity.index()];
        at_threshold = at_threshold || (threshold != 0 && f.severity.index() + 1 >= threshold);
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
    count("passed", summary.passed.value(), counts[0], "passing rules");
    count("violated", summary.violated.value(), counts[1], "violated rules");
    count("skipped", summary.skipped.value(), counts[2], "skipped rules");
    const auto& s = summary.findings;
    count("findings/total", s.total.value(), by_severity[0] + by_severity[1] + by_severity[2], "reported findings");
    count("findings/info", s.info.value(), by_severity[0], "reported info findings");
    count("findings/warning", s.warning.value(), by_severity[1], "reported warning findings");
    count("findings/error", s.error.value(), by_severity[2], "reported error findings");
    if (s.total.value() > summary.max_results.value())
      r.fail("/summary/findings/total", "more findings are reported than max_results allows");
    // Dropped findings are the lowest severities, so the reported ones decide the verdict; when
    // none were dropped they decide it exactly.
    if (at_threshold && verdict == "pass")
      r.fail("/verdict", "verdict must be fail: a finding's severity is at or above fail_on");
    if (!at_threshold && summary.dropped.value() == 0 && verdict == "fail")
      r.fail("/verdict", "verdict must be pass: no finding's severity is at or above fail_on");
    for (std::size_t i = 0; i < disclaimers.size(); ++i) {
      bool known = false;
      for (const auto& p : packs)
        known = known || (p.name == disclaimers[i].pack && p.kind == "compliance");
      if (!known)
        r.fail("/disclaimers/" + std::to_string(i) + "/pack", "the disclaimer names no compliance pack in packs");
    }
  }
};

}  // namespace assay::contracts
