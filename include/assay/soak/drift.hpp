// assay/soak/drift.hpp — two soaks compared (docs/soak.md "Drift"): soak-drift-v1 from a baseline
// and a candidate soak-report-v1.
//
//   auto d = assay::soak::drift(last_week, today);     // result<contracts::soak_drift>
//   if (d && d->verdict == "regressed") ...            // the difference's upper bound is below 0
//
// The soaks must have used the same packs (name, version and digest); drift_options::
// allow_pack_change compares them anyway and says so (packs_changed). They must also have used
// the same decision policy (what fails a run): pass rates of different policies count different
// things, so that is refused whatever the options, as sim merge refuses shards of two policies.
#pragma once

#include "assay/contracts/soak_drift.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/error.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/stats/interval.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace assay::soak {

struct drift_options {
  bool allow_pack_change = false;
  std::optional<std::string> generated_at{};   // RFC 3339 (json::report_time() honours SOURCE_DATE_EPOCH)
  std::optional<std::string> assay_version{};  // written as is
};

namespace detail {

// Each pack as "name@version (digest)", sorted and unique.
inline std::set<std::string> pack_keys(std::span<const contracts::soak::pack_ref> packs) {
  std::set<std::string> out;
  for (const auto& p : packs)
    out.insert(std::string(p.name) + "@" + std::string(p.version) +
               (p.digest ? " (" + std::string(*p.digest) + ")" : std::string()));
  return out;
}

inline std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items)
    out += (out.empty() ? "" : ", ") + s;
  return out;
}

inline contracts::soak_drift_v1::side side_of(const contracts::soak_report& r) {
  contracts::soak_drift_v1::side s;
  s.suite = r.suite;
  s.generated_at = r.generated_at;
  s.seed = r.seed;
  s.iterations = r.iterations;
  s.runs = r.results.runs;
  s.passes = r.results.passes;
  s.pass_rate = r.results.pass_rate;
  const stats::interval w = stats::wilson(r.results.passes.value(), r.results.runs.value());
  s.pass_rate_ci95 = {decltype(s.pass_rate)(w.low), decltype(s.pass_rate)(w.high)};
  return s;
}

}  // namespace detail

// What differs between the packs of two soaks (name, version, digest), as a sentence; nullopt
// when they are the same packs.
inline std::optional<std::string> packs_differ(std::span<const contracts::soak::pack_ref> baseline,
                                               std::span<const contracts::soak::pack_ref> candidate) {
  const auto a = detail::pack_keys(baseline), b = detail::pack_keys(candidate);
  std::vector<std::string> only_a, only_b;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
  if (only_a.empty() && only_b.empty())
    return std::nullopt;
  std::string what = "the two soaks used different packs:";
  if (!only_a.empty())
    what += " in the baseline only: " + detail::joined(only_a) + (only_b.empty() ? "" : ";");
  if (!only_b.empty())
    what += " in the candidate only: " + detail::joined(only_b);
  return what;
}

// What differs between the decision policies of two soaks (the severity that fails a run,
// stop_on_first_failure, max_failures; a report may record none), as a sentence giving each side's
// policy; nullopt when they are the same. The one comparison of policies: sim drift and sim merge
// both refuse soaks it finds different.
inline std::optional<std::string> decision_policies_differ(
    const std::optional<contracts::soak::decision_policy>& baseline,
    const std::optional<contracts::soak::decision_policy>& candidate) {
  auto shown = [](const std::optional<contracts::soak::decision_policy>& p) {
    if (!p)
      return std::string("none");
    auto text = encode(*p);
    return text ? *text : std::string("?");
  };
  const std::string a = shown(baseline), b = shown(candidate);
  if (a == b)
    return std::nullopt;
  return "the two soaks used different decision policies: the baseline " + a + ", the candidate " + b;
}

// The drift from `baseline` to `candidate`: an error (errc::invalid_argument) naming the decision
// policies when they differ (decision_policies_differ), or the packs that differ unless
// o.allow_pack_change.
inline result<contracts::soak_drift> drift(const contracts::soak_report& baseline,
                                           const contracts::soak_report& candidate, const drift_options& o = {}) {
  if (const auto policies = decision_policies_differ(baseline.decision_policy, candidate.decision_policy))
    return make_error(errc::invalid_argument, *policies);
  const auto differ = packs_differ(baseline.packs, candidate.packs);
  const bool changed = differ.has_value();
  if (changed && !o.allow_pack_change)
    return make_error(errc::invalid_argument, *differ);

  contracts::soak_drift d;
  if (o.generated_at)
    d.generated_at = *o.generated_at;
  if (o.assay_version)
    d.assay_version = *o.assay_version;
  d.baseline = detail::side_of(baseline);
  d.candidate = detail::side_of(candidate);
  d.packs_changed = changed;
  const stats::difference diff = stats::newcombe(candidate.results.passes.value(), candidate.results.runs.value(),
                                                 baseline.results.passes.value(), baseline.results.runs.value());
  using bound = decltype(d.difference.estimate);
  d.difference.estimate = bound(diff.estimate);
  d.difference.ci95 = {bound(diff.low), bound(diff.high)};
  d.verdict = diff.high < 0  ? decltype(d.verdict)("regressed")
              : diff.low > 0 ? decltype(d.verdict)("improved")
                             : decltype(d.verdict)("unchanged");

  // Rules: the share of runs violating each, on both sides.
  const auto &va = baseline.results.violations_by_rule, &vb = candidate.results.violations_by_rule;
  auto share = [](const auto& counts, const std::string& id, std::int64_t runs) {
    if (!counts)
      return 0.0;
    const auto at = counts->find(id);
    return at == counts->end() ? 0.0 : static_cast<double>(at->second.value()) / static_cast<double>(runs);
  };
  std::set<std::string> ids;
  for (const auto* m : {&va, &vb})
    if (*m)
      for (const auto& [id, n] : **m)
        ids.insert(id);
  for (const std::string& id : ids) {
    auto& r = d.rules[id];
    r.baseline = decltype(r.baseline)(share(va, id, baseline.results.runs.value()));
    r.candidate = decltype(r.candidate)(share(vb, id, candidate.results.runs.value()));
    if (r.baseline.value() == 0)
      d.new_rules.push_back(id);
    else if (r.candidate.value() == 0)
      d.resolved_rules.push_back(id);
  }
  if (baseline.results.infra_errors_by_kind)
    d.infra_errors.baseline = *baseline.results.infra_errors_by_kind;
  if (candidate.results.infra_errors_by_kind)
    d.infra_errors.candidate = *candidate.results.infra_errors_by_kind;
  return d;
}

}  // namespace assay::soak
