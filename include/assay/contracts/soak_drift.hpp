// assay/contracts/soak_drift.hpp — soak-drift-v1, what `assay sim drift BASELINE CANDIDATE`
// writes (docs/soak.md "Drift"): two soaks of the same packs compared, the difference of their pass
// rates with its 95% interval (Newcombe's hybrid score method), a verdict, and what changed in
// the rules violated and the infrastructure errors. The schema is written here, from the type.
#pragma once

#include "assay/contracts/soak_report.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace soak_drift_v1 {

// One soak as the comparison reads it.
struct side {
  static constexpr std::string_view schema_name = "side";
  std::optional<non_empty> suite{};
  std::optional<date_time> generated_at{};
  bounded<std::uint64_t, 0> seed;
  bounded<std::int64_t, 1> iterations;
  bounded<std::int64_t, 1> runs;
  bounded<std::int64_t, 0> passes;
  bounded<double, 0, 1> pass_rate;
  std::array<bounded<double, 0, 1>, 2> pass_rate_ci95;
  static constexpr field_info assay_fields[] = {
      {.field = "pass_rate_ci95",
       .description = "Wilson's 95% score interval of pass_rate, the one the difference is built from (whatever "
                      "interval the soak report wrote)."},
  };
};

struct difference {
  static constexpr std::string_view schema_name = "difference";
  const_string<"newcombe-hybrid-score"> method;
  bounded<double, -1, 1> estimate;
  std::array<bounded<double, -1, 1>, 2> ci95;
  static constexpr field_info assay_fields[] = {
      {.field = "method",
       .description =
           "Newcombe (1998), method 10: from the two Wilson intervals (l1, u1) of the candidate and (l2, u2) "
           "of the baseline, [d - sqrt((p1-l1)^2 + (u2-p2)^2), d + sqrt((u1-p1)^2 + (p2-l2)^2)]."},
      {.field = "estimate", .description = "candidate.pass_rate - baseline.pass_rate."},
  };
};

// The share of runs in which a rule was violated, on each side (0 where it was not).
struct rule_shares {
  static constexpr std::string_view schema_name = "rule_shares";
  bounded<double, 0, 1> baseline;
  bounded<double, 0, 1> candidate;
};

// Runs that ended in an infrastructure error, by kind, on each side.
struct infra_error_counts {
  static constexpr std::string_view schema_name = "infra_error_counts";
  std::map<std::string, bounded<std::int64_t, 1>> baseline;
  std::map<std::string, bounded<std::int64_t, 1>> candidate;
};

}  // namespace soak_drift_v1

struct soak_drift {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/soak-drift-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Soak Drift v1";

  const_string<"soak-drift-v1"> schema_version;
  std::optional<date_time> generated_at{};
  std::optional<non_empty> assay_version{};
  soak_drift_v1::side baseline;
  soak_drift_v1::side candidate;
  soak_drift_v1::difference difference;
  one_of<"regressed", "unchanged", "improved"> verdict;
  bool packs_changed = false;
  std::map<std::string, soak_drift_v1::rule_shares> rules;
  std::vector<std::string> new_rules;
  std::vector<std::string> resolved_rules;
  soak_drift_v1::infra_error_counts infra_errors;

  static constexpr field_info assay_fields[] = {
      {.field = "verdict",
       .description = "regressed when the difference's upper bound is below 0, improved when its lower bound is "
                      "above 0, else unchanged."},
      {.field = "packs_changed",
       .description = "True when the two soaks' packs differ by name, version or digest (compared only with "
                      "--allow-pack-change)."},
      {.field = "rules", .description = "Every rule violated on either side, by canonical id."},
      {.field = "new_rules", .description = "Violated in the candidate and not in the baseline, sorted."},
      {.field = "resolved_rules", .description = "Violated in the baseline and no longer in the candidate, sorted."},
  };
};

}  // namespace assay::contracts
