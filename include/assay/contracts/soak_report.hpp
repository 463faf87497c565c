// assay/contracts/soak_report.hpp — soak-report-v1 (docs/soak.md; normative schema
// schemas/soak-report-v1.schema.json). The schema generated from this type equals that file.
#pragma once

#include "assay/contracts/bundle.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace assay::contracts {

namespace soak {

// The eight bundle-reading limits in force for the soak (docs/evidence.md).
using limits = bundle_limits;

struct pack_ref {
  static constexpr std::string_view schema_name = "pack_ref";
  non_empty name;
  non_empty version;
  std::optional<non_empty> kind{};
  std::optional<non_empty> digest{};
  std::optional<std::string> source{};
  static constexpr field_info assay_fields[] = {
      {.field = "source", .description = "Optional URI/path for provenance (built-in, local, url)."},
  };
};

using severity = one_of<"info", "warning", "error">;

struct decision_policy {
  severity pass_on_severity_at_or_above;
  std::optional<bool> stop_on_first_failure{};
  std::optional<bounded<std::int64_t, 1>> max_failures{};
  static constexpr field_info assay_fields[] = {
      {.field = "pass_on_severity_at_or_above",
       .description = "Defines what counts as a failing rule severity threshold."},
      {.field = "stop_on_first_failure", .default_json = "false"},
      {.field = "max_failures", .description = "Optional early-stop threshold."},
  };
};

struct results {
  bounded<std::int64_t, 1> runs;
  bounded<std::int64_t, 0> passes;
  bounded<std::int64_t, 0> failures;
  bounded<std::int64_t, 0> infra_errors;
  bounded<double, 0, 1> pass_rate;
  bool pass_all = false;
  std::optional<nullable<bounded<std::int64_t, 1>>> first_failure_at{};
  std::optional<std::map<std::string, bounded<std::int64_t, 1>>> violations_by_rule{};
  std::optional<std::map<std::string, bounded<std::int64_t, 1>>> infra_errors_by_kind{};
  std::optional<std::array<bounded<double, 0, 1>, 2>> pass_rate_ci95{};

  static constexpr field_info assay_fields[] = {
      {.field = "pass_all", .description = "True iff all runs passed under the decision policy."},
      {.field = "first_failure_at", .description = "1-based index of first failing run, or null if none."},
      {.field = "violations_by_rule",
       .description = "Map from canonical rule id (pack@ver:rule) to count of runs where it violated."},
      {.field = "infra_errors_by_kind",
       .description = "Optional breakdown, e.g. time_budget_exceeded, subprocess_failed, io_error."},
      {.field = "pass_rate_ci95",
       .description = "Optional 95% CI for pass_rate; implement as Wilson or Beta posterior interval."},
  };

  // Rules a schema cannot state (docs/soak.md).
  void check_rules(rules& r) const {
    if (runs.value() != passes.value() + failures.value() + infra_errors.value()) {
      r.fail("/runs", "runs (" + std::to_string(runs.value()) + ") must equal passes + failures + infra_errors (" +
                          std::to_string(passes.value() + failures.value() + infra_errors.value()) + ")");
    }
    if (runs.value() > 0) {
      const double expected = static_cast<double>(passes.value()) / static_cast<double>(runs.value());
      if (pass_rate.value() != expected)
        r.fail("/pass_rate", "pass_rate must equal passes / runs");
    }
    if (pass_all && (failures.value() != 0 || infra_errors.value() != 0)) {
      r.fail("/pass_all", "pass_all cannot be true when a run failed or had an infrastructure error");
    }
    if (pass_rate_ci95 && (*pass_rate_ci95)[0].value() > (*pass_rate_ci95)[1].value()) {
      r.fail("/pass_rate_ci95", "the interval's lower bound is above its upper bound");
    }
  }
};

struct run_result {
  static constexpr std::string_view schema_name = "run_result";
  bounded<std::int64_t, 1> index;
  one_of<"pass", "fail", "infra_error"> status;
  bounded<std::int64_t, 0> duration_ms;
  std::optional<std::vector<non_empty>> violated_rules{};
  std::optional<non_empty> infra_error_kind{};
  std::optional<std::string> infra_error_message{};
  static constexpr field_info assay_fields[] = {
      {.field = "violated_rules", .description = "Canonical rule ids (pack@ver:rule) that violated in this run."},
  };
};

}  // namespace soak

struct soak_report {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/soak-report-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Soak Report v1";

  const_string<"soak-report-v1"> schema_version;
  const_string<"soak"> mode;
  std::optional<date_time> generated_at{};
  std::optional<non_empty> assay_version{};
  std::optional<non_empty> suite{};
  bounded<std::int64_t, 1> iterations;
  bounded<std::uint64_t, 0> seed;
  bounded<std::int64_t, 1> time_budget_secs;
  soak::limits limits;
  list<soak::pack_ref, 1> packs;
  std::optional<soak::decision_policy> decision_policy{};
  soak::results results;
  std::optional<std::vector<soak::run_result>> runs{};

  static constexpr field_info assay_fields[] = {
      {.field = "suite", .description = "Optional tier/name, e.g. quick/nightly or a named soak profile."},
      {.field = "runs", .description = "Optional per-run detail; can be omitted for compact reports."},
  };

  void check_rules(rules& r) const {
    if (results.runs.value() > iterations.value()) {
      r.fail("/results/runs", "more runs executed than iterations requested");
    }
    if (results.pass_all && results.runs.value() != iterations.value()) {
      r.fail("/results/pass_all", "pass_all requires every requested iteration to have run");
    }
    // Runs keep their index in the whole soak, so a shard's (docs/soak.md "Past one machine") can be
    // past its count of runs: the bound is the iterations.
    const auto& first = results.first_failure_at;
    if (first && first->has_value() && (*first)->value() > iterations.value()) {
      r.fail("/results/first_failure_at", "first_failure_at is after the last requested iteration");
    }
  }
};

}  // namespace assay::contracts
