// bench/soak_doc.hpp — a deterministic soak-report-v1 of n runs for benchmarks: mostly passes,
// some failures naming violated rules, a few infrastructure errors, consistent results.
#pragma once

#include "evidence_doc.hpp"

#include "assay/contracts/soak_report.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace assay_bench {

inline assay::contracts::soak_report make_soak_report(std::int64_t n) {
  assay_bench::prng r(assay_bench::default_seed);
  static const char* const rules[] = {"core@1.0.0:E001", "core@1.0.0:E002", "core@1.0.0:W010", "privacy@2.1.0:P003",
                                      "replay@0.3.0:R001"};
  assay::contracts::soak_report rep;
  rep.generated_at = std::string("2025-06-01T12:00:00Z");
  rep.assay_version = std::string("0.1.0");
  rep.suite = std::string("nightly");
  rep.iterations = n;
  rep.seed = 20250601u;
  rep.time_budget_secs = 86400;
  rep.limits = {104857600, 1073741824, 10485760, 1073741824, 100000, 1048576, 256, 64};
  rep.packs.push_back({std::string("core"), std::string("1.0.0"), std::string("compliance"),
                       std::string("sha256:" + std::string(64, 'a')), std::string("built-in")});
  rep.packs.push_back({std::string("privacy"), std::string("2.1.0"), std::nullopt, std::nullopt, std::nullopt});
  rep.decision_policy = assay::contracts::soak::decision_policy{"error", false, std::nullopt};

  std::vector<assay::contracts::soak::run_result> runs;
  runs.reserve(static_cast<std::size_t>(n));
  std::int64_t passes = 0, failures = 0, infra = 0;
  std::optional<std::int64_t> first_failure;
  std::map<std::string, assay::bounded<std::int64_t, 1>> by_rule;
  for (std::int64_t i = 1; i <= n; ++i) {
    assay::contracts::soak::run_result run;
    run.index = i;
    run.duration_ms = static_cast<std::int64_t>(r.below(5000));
    const auto roll = r.below(100);
    if (roll < 88) {
      run.status = "pass";
      ++passes;
    } else if (roll < 98) {
      run.status = "fail";
      ++failures;
      std::vector<assay::non_empty> violated;
      const std::size_t k = 1 + r.below(3);
      for (std::size_t j = 0; j < k; ++j) {
        const char* rule = rules[(j + r.below(5)) % 5];
        bool dup = false;
        for (const auto& v : violated)
          dup = dup || v == rule;
        if (dup)
          continue;
        violated.emplace_back(rule);
        auto [it, inserted] = by_rule.try_emplace(rule, 1);
        if (!inserted)
          it->second = it->second.value() + 1;
      }
      run.violated_rules = std::move(violated);
    } else {
      run.status = "infra_error";
      ++infra;
      run.infra_error_kind = std::string("subprocess_failed");
      run.infra_error_message = std::string("exit status 2: \"bundle\" not written");
    }
    if (!first_failure && roll >= 88)
      first_failure = i;
    runs.push_back(std::move(run));
  }
  rep.runs = std::move(runs);
  rep.results.runs = n;
  rep.results.passes = passes;
  rep.results.failures = failures;
  rep.results.infra_errors = infra;
  rep.results.pass_rate = static_cast<double>(passes) / static_cast<double>(n);
  rep.results.pass_all = false;
  rep.results.first_failure_at = first_failure ? assay::nullable<assay::bounded<std::int64_t, 1>>(*first_failure)
                                               : assay::nullable<assay::bounded<std::int64_t, 1>>();
  rep.results.violations_by_rule = std::move(by_rule);
  rep.results.infra_errors_by_kind = std::map<std::string, assay::bounded<std::int64_t, 1>>{};
  if (infra > 0)
    rep.results.infra_errors_by_kind->emplace("subprocess_failed", infra);
  return rep;
}

}  // namespace assay_bench
