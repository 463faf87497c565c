// What the `assay sim` verbs share: the tolerance gate (soak, merge) and the human summaries of a
// soak (soak, merge) and of a drift (drift, soak --baseline).
#pragma once

#include "../cli.hpp"

#include "assay/contracts/soak_drift.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/json/number.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay_cli {

// --- the tolerance gate (docs/soak.md "Tolerance") ----------------------------------------------------

struct tolerance_args {
  std::optional<std::string> min_pass_rate;
  std::optional<std::string> gate;  // lower-bound (default) or estimate
  std::optional<std::uint64_t> min_runs;
};

struct tolerance {
  double min_pass_rate = 0;
  bool on_estimate = false;  // pass_rate itself, not the interval's lower bound
  std::uint64_t min_runs = 1;
  bool min_runs_given = false;
};

inline void add_tolerance_options(CLI::App* sub, tolerance_args& a) {
  sub->add_option("--min-pass-rate", a.min_pass_rate,
                  "Tolerance: exit 0 when the pass rate's 95% lower bound (or, --gate estimate, the rate) is at "
                  "least P, instead of when pass^k holds");
  sub->add_option("--gate", a.gate, "What --min-pass-rate judges: lower-bound (default) or estimate");
  in_range(sub->add_option("--min-runs", a.min_runs, "Tolerance: and at least N runs executed (default 1)"), 1,
           max_soak_iterations);
}

// The gate asked for into `gate` (nullopt: none, pass^k decides); a usage error's message otherwise.
inline std::optional<std::string> parse_tolerance(const tolerance_args& a, std::optional<tolerance>& gate) {
  gate.reset();
  if (!a.min_pass_rate) {
    if (a.gate || a.min_runs)
      return std::string(a.gate ? "--gate" : "--min-runs") + " needs --min-pass-rate";
    return std::nullopt;
  }
  const auto p = parse_unit_interval(*a.min_pass_rate);
  if (!p)
    return "--min-pass-rate " + printable(*a.min_pass_rate, echo_cap) + ": expected a number from 0 to 1";
  if (a.gate && *a.gate != "lower-bound" && *a.gate != "estimate")
    return "--gate " + printable(*a.gate, echo_cap) + ": expected lower-bound or estimate";
  tolerance& t = gate.emplace();
  t.min_pass_rate = *p;
  t.on_estimate = a.gate == "estimate";
  t.min_runs = a.min_runs.value_or(1);
  t.min_runs_given = a.min_runs.has_value();
  return std::nullopt;
}

// The gate's summary line, and whether the soak met it.
inline std::string tolerance_line(const assay::contracts::soak_report& r, const tolerance& t, bool& passed) {
  const double value = t.on_estimate ? r.results.pass_rate.value() : (*r.results.pass_rate_ci95)[0].value();
  const auto runs = static_cast<std::uint64_t>(r.results.runs.value());
  const bool rate_ok = value >= t.min_pass_rate, runs_ok = runs >= t.min_runs;
  passed = rate_ok && runs_ok;
  const std::string p = assay::json::number_to_string(t.min_pass_rate);
  std::string out = "  gate --min-pass-rate " + p + " --gate " + (t.on_estimate ? "estimate" : "lower-bound");
  if (t.min_runs_given)
    out += " --min-runs " + std::to_string(t.min_runs);
  out += std::string(": ") + (passed ? "PASS" : "FAIL") + "; " + (t.on_estimate ? "pass rate " : "lower bound ") +
         assay::json::number_to_string(value) + (rate_ok ? " is at least " : " is below ") + p;
  if (!runs_ok)
    out += "; " + std::to_string(runs) + " run(s), fewer than " + std::to_string(t.min_runs);
  return out + " (this gate decides the exit code, not pass^" + std::to_string(r.iterations.value()) + ")\n";
}

// --- summaries ----------------------------------------------------------------------------------

// What a soak's summary says besides its report: its first line, the interval's name, why it
// stopped early (empty: it did not), and the line on pass^k (empty: the report's verdict).
struct soak_summary_head {
  std::string first_line{};
  std::string_view interval{};  // wilson or jeffreys
  std::string stopped{};
  std::string pass_k{};
};

// The short human summary stdout gets after a soak or a merge.
inline std::string soak_summary(const assay::contracts::soak_report& r, const soak_summary_head& h) {
  const auto& res = r.results;
  std::string out = h.first_line + "\n";
  out += "  passed " + std::to_string(res.passes.value()) + ", failed " + std::to_string(res.failures.value()) +
         ", infra errors " + std::to_string(res.infra_errors.value()) + "\n";
  const auto& ci = *res.pass_rate_ci95;
  out += "  pass rate " + fixed(res.pass_rate.value(), 4) + ", 95% interval (" +
         (h.interval == "jeffreys" ? "Jeffreys" : "Wilson") + ") [" + fixed(ci[0].value(), 4) + ", " +
         fixed(ci[1].value(), 4) + "]\n";
  if (!h.pass_k.empty()) {
    out += "  " + h.pass_k + "\n";
  } else {
    out += "  pass^" + std::to_string(r.iterations.value()) + ": " + (res.pass_all ? "PASS" : "FAIL");
    if (res.first_failure_at && res.first_failure_at->has_value())
      out += " (first run not passing: " + std::to_string((*res.first_failure_at)->value()) + ")";
    out += "\n";
  }
  if (!h.stopped.empty())
    out += "  stopped early: " + printable(h.stopped) + "\n";
  if (res.violations_by_rule && !res.violations_by_rule->empty()) {
    std::vector<std::pair<std::int64_t, std::string>> top;
    for (const auto& [id, n] : *res.violations_by_rule)
      top.emplace_back(n.value(), id);
    std::stable_sort(top.begin(), top.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    out += "violated rules (runs):\n";
    for (std::size_t i = 0; i < top.size() && i < 5; ++i)
      out += "  " + std::to_string(top[i].first) + "  " + printable(top[i].second) + "\n";
    if (top.size() > 5)
      out += "  ... " + std::to_string(top.size() - 5) + " more in the report\n";
  }
  if (res.infra_errors_by_kind && !res.infra_errors_by_kind->empty()) {
    out += "infra errors (runs):\n";
    for (const auto& [kind, n] : *res.infra_errors_by_kind)
      out += "  " + std::to_string(n.value()) + "  " + printable(kind) + "\n";
    if (r.runs)
      for (const auto& x : *r.runs)
        if (x.infra_error_kind) {
          out += "  first: run " + std::to_string(x.index.value()) + ": " + printable(*x.infra_error_kind) + ": " +
                 printable(x.infra_error_message.value_or("")) + "\n";
          break;
        }
  }
  return out;
}

// The short human summary of a drift.
inline std::string drift_summary(const assay::contracts::soak_drift& d) {
  auto percent = [](double share) { return fixed(share * 100, 1) + "%"; };
  const auto& b = d.baseline;
  const auto& c = d.candidate;
  std::string out = "drift: pass rate " + assay::json::number_to_string(b.pass_rate.value()) + " -> " +
                    assay::json::number_to_string(c.pass_rate.value()) + " (baseline " +
                    std::to_string(b.passes.value()) + " of " + std::to_string(b.runs.value()) + ", candidate " +
                    std::to_string(c.passes.value()) + " of " + std::to_string(c.runs.value()) + ")\n";
  out += "  difference " + fixed(d.difference.estimate.value(), 4) + ", 95% interval (Newcombe) [" +
         fixed(d.difference.ci95[0].value(), 4) + ", " + fixed(d.difference.ci95[1].value(), 4) +
         "]: " + std::string(d.verdict.value()) + "\n";
  if (d.packs_changed)
    out += "  the packs differ (compared with --allow-pack-change)\n";
  auto list = [&](std::string_view title, const std::vector<std::string>& ids, bool candidate_side) {
    if (ids.empty())
      return;
    out += std::string(title) + ":\n";
    for (const auto& id : ids) {
      const auto& r = d.rules.at(id);
      out += "  " + printable(id) + "  " + percent(candidate_side ? r.candidate.value() : r.baseline.value()) +
             " of runs\n";
    }
  };
  list("rules newly violated", d.new_rules, true);
  list("rules no longer violated", d.resolved_rules, false);
  std::string infra;
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> kinds;
  for (const auto& [k, n] : d.infra_errors.baseline)
    kinds[k].first = n.value();
  for (const auto& [k, n] : d.infra_errors.candidate)
    kinds[k].second = n.value();
  for (const auto& [k, n] : kinds)
    if (n.first != n.second)
      infra += "  " + printable(k) + "  " + std::to_string(n.first) + " -> " + std::to_string(n.second) + "\n";
  if (!infra.empty())
    out += "infra errors (runs):\n" + infra;
  return out;
}

}  // namespace assay_cli
