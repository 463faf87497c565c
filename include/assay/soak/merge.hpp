// assay/soak/merge.hpp — a soak spread over machines, put back together (docs/soak.md "Past one
// machine").
//
//   // on machine I of N:  soak::options o{...}; o.shard = {I, N};  -> a shard report each
//   auto m = assay::soak::merge(shard_reports, {.generated_at = now, .names = files});
//   if (m) write(m->report);  // the report one machine would have written for the same seeds
//
// The shards must be of one soak: the same seed, iterations, time budget, limits, packs (name,
// version, kind, digest, source), decision policy, interval method and suite, and every shard
// 0…N-1 exactly once. Each shard's runs[] must be its own indices (i - 1 ≡ I mod N) in order and
// without a gap, and its results must be the ones its runs[] give: the merge rebuilds the soak's
// outcome from the runs and writes it with make_report, the same code as one machine, so the
// bytes are the one-machine report's but for durations and generated_at. A shard that stopped
// early (stop_on_first_failure, max_failures, its time budget) holds a prefix of its indices: the
// merged soak is then stopped early too, and pass^k fails.
#pragma once

#include "assay/contracts/soak_report.hpp"
#include "assay/error.hpp"
#include "assay/json/number.hpp"
#include "assay/soak/drift.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/separate.hpp"
#include "assay/soak/engine.hpp"
#include "assay/stats/interval.hpp"
#include "assay/stats/jeffreys.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::soak {

struct merge_options {
  std::optional<std::string> generated_at{};   // RFC 3339 (json::report_time() honours SOURCE_DATE_EPOCH)
  std::optional<std::string> assay_version{};  // written as is
  std::vector<std::string> names{};            // how errors name each shard (its file); else "shard report k"
};

struct merged {
  contracts::soak_report report;  // the soak's report, as one machine would write it
  outcome runs;                   // the soak rebuilt from its shards' runs (stop_reason names short shards)
  options soak;                   // the soak's options, as the shards record them
  std::string_view interval;      // "wilson" or "jeffreys": the method the shards' intervals were computed with
};

namespace detail {

inline std::string shard_name(const merge_options& o, std::size_t k) {
  return k < o.names.size() ? o.names[k] : "shard report " + std::to_string(k + 1);
}

// A shard's runs[] as run records (the seed from the soak's, by index).
inline std::vector<run_record> records_of(const contracts::soak_report& r) {
  std::vector<run_record> out;
  out.reserve(r.runs->size());
  for (const auto& x : *r.runs) {
    run_record rec;
    rec.index = static_cast<std::uint64_t>(x.index.value());
    rec.seed = r.seed.value() + (rec.index - 1);
    rec.status = x.status == "pass"   ? run_status::pass
                 : x.status == "fail" ? run_status::fail
                                      : run_status::infra_error;
    rec.duration_ms = x.duration_ms.value();
    if (x.violated_rules)
      for (const auto& id : *x.violated_rules)
        rec.violated_rules.emplace_back(id);
    if (x.infra_error_kind)
      rec.error = infra_error{std::string(*x.infra_error_kind), x.infra_error_message.value_or("")};
    out.push_back(std::move(rec));
  }
  return out;
}

inline outcome outcome_of(std::vector<run_record> runs, std::uint64_t expected) {
  outcome out;
  out.runs = std::move(runs);
  for (const run_record& r : out.runs)
    ++(r.status == run_status::pass ? out.passes : r.status == run_status::fail ? out.failures : out.infra_errors);
  out.stopped_early = out.runs.size() < expected;
  return out;
}

// A member's JSON, to compare two of them (a report that was decoded encodes).
template <class T>
std::string json_of(const T& v) {
  auto text = encode(v);
  return text ? *text : std::string();
}

// The first member of `results` where the shard's report and the one its runs give differ.
inline std::optional<std::string_view> results_differ(const contracts::soak::results& a,
                                                      const contracts::soak::results& b) {
  if (a.runs != b.runs)
    return "runs";
  if (a.passes != b.passes)
    return "passes";
  if (a.failures != b.failures)
    return "failures";
  if (a.infra_errors != b.infra_errors)
    return "infra_errors";
  if (a.pass_rate != b.pass_rate)
    return "pass_rate";
  if (a.pass_all != b.pass_all)
    return "pass_all";
  auto first = [](const contracts::soak::results& r) -> std::int64_t {
    return r.first_failure_at && r.first_failure_at->has_value() ? (*r.first_failure_at)->value() : 0;
  };
  if (a.first_failure_at.has_value() != b.first_failure_at.has_value() || first(a) != first(b))
    return "first_failure_at";
  if (a.violations_by_rule != b.violations_by_rule)
    return "violations_by_rule";
  if (a.infra_errors_by_kind != b.infra_errors_by_kind)
    return "infra_errors_by_kind";
  return std::nullopt;
}

}  // namespace detail

// The soak of `shards` (shard reports of `sim soak --shard I/N`, in any order). The error
// (errc::invalid_argument) names the shard report and what is wrong with it.
template <class = void>  // compiled only where used: it reflects the report contract
result<merged> merge(std::span<const contracts::soak_report> shards, const merge_options& mo = {}) {
  auto fail = [](std::string what) { return make_error(errc::invalid_argument, std::move(what)); };
  if (shards.empty())
    return fail("no shard report to merge");

  // Each report's shard, from its suite.
  std::vector<shard_of_suite> of;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const auto& r = shards[k];
    auto s = r.suite ? parse_shard_suite(*r.suite) : std::nullopt;
    if (!s)
      return fail(detail::shard_name(mo, k) +
                  " is not a shard report: its suite records no shard (a soak run with --shard I/N)");
    if (!r.runs)
      return fail(detail::shard_name(mo, k) + " has no runs[]: a shard is merged from its runs");
    of.push_back(std::move(*s));
  }

  // One soak: what every shard must share with the first.
  const contracts::soak_report& first = shards[0];
  const std::string first_name = detail::shard_name(mo, 0);
  for (std::size_t k = 1; k < shards.size(); ++k) {
    const auto& r = shards[k];
    std::string_view what;
    if (of[k].shard.count != of[0].shard.count)
      what = "shard count";
    else if (of[k].suite != of[0].suite)
      what = "suite";
    else if (r.seed != first.seed)
      what = "seed";
    else if (r.iterations != first.iterations)
      what = "iterations";
    else if (r.time_budget_secs != first.time_budget_secs)
      what = "time_budget_secs";
    else if (detail::json_of(r.limits) != detail::json_of(first.limits))
      what = "limits";
    else if (detail::json_of(r.packs) != detail::json_of(first.packs))
      what = "packs";
    else if (decision_policies_differ(first.decision_policy, r.decision_policy))
      what = "decision_policy";
    if (!what.empty())
      return fail(detail::shard_name(mo, k) + " and " + first_name + " are not shards of one soak: they differ in " +
                  std::string(what));
  }
  const std::uint64_t count = of[0].shard.count;
  const auto iterations = static_cast<std::uint64_t>(first.iterations.value());
  if (count > iterations)
    return fail(first_name + " is " + of[0].shard.label() + " of a soak of " + std::to_string(iterations) +
                " iteration(s): some shards would have no run");

  // Every shard exactly once. (A map, not a table of `count` entries: the count is the report's
  // word, and a report may say 2^60; the first missing shard is found among the first
  // shards.size() + 1 indices.)
  std::map<std::uint64_t, std::size_t> holder;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const auto [at, fresh] = holder.try_emplace(of[k].shard.index, k);
    if (!fresh)
      return fail(detail::shard_name(mo, at->second) + " and " + detail::shard_name(mo, k) + " are both " +
                  of[k].shard.label());
  }
  for (std::uint64_t i = 0; i < count; ++i)
    if (!holder.contains(i))
      return fail(shard_spec{i, count}.label() + " is missing: runs " + shard_runs({i, count}, iterations) +
                  " are in no shard report");

  // The soak's options, as the first shard records them.
  options o;
  o.iterations = iterations;
  o.seed = first.seed.value();
  o.time_budget_secs = first.time_budget_secs.value();
  o.limits = first.limits;
  if (first.decision_policy) {
    const auto& p = *first.decision_policy;
    o.fail_on = lint::parse_severity(p.pass_on_severity_at_or_above.value()).value();
    o.stop_on_first_failure = p.stop_on_first_failure.value_or(false);
    if (p.max_failures)
      o.max_failures = static_cast<std::uint64_t>(p.max_failures->value());
  }

  // Each shard: its own indices, in order, no gap; its results the ones its runs give; its
  // interval by one method, the same for all.
  struct method {
    std::string_view name;
    stats::interval (*f)(std::int64_t, std::int64_t);
    std::size_t used_by = 0;  // the shards whose interval is this method's
  };
  method methods[] = {{"Wilson", &stats::wilson}, {"Jeffreys", &stats::jeffreys<>}};
  std::string mixed;  // "a.json (Wilson)", one shard of each method, for the message
  std::vector<run_record> all;
  std::string short_shards;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const shard_spec s = of[k].shard;
    const std::string name = detail::shard_name(mo, k) + " (" + s.label() + ")";
    std::vector<run_record> runs = detail::records_of(shards[k]);
    std::uint64_t expected = s.index + 1;
    for (const run_record& r : runs) {
      if (r.index > iterations)
        return fail(name + " holds run " + std::to_string(r.index) + ", past the soak's " + std::to_string(iterations) +
                    " iteration(s)");
      if (!s.owns(r.index))
        return fail(name + " holds run " + std::to_string(r.index) + ", which is " +
                    shard_spec{(r.index - 1) % count, count}.label() + "'s");
      if (r.index < expected)
        return fail(name + " holds run " + std::to_string(r.index) + " twice, or out of order");
      if (r.index > expected)
        return fail("run " + std::to_string(expected) + " is missing from " + name + ", which holds run " +
                    std::to_string(r.index));
      expected += count;
    }
    const std::uint64_t share = s.runs_of(iterations);
    options so = o;
    so.shard = s;
    const outcome own = detail::outcome_of(runs, share);
    std::size_t matches = 0;
    for (method& m : methods) {
      so.interval = m.f;
      const contracts::soak_report again = make_report(own, std::vector<contracts::soak::pack_ref>{}, so);
      if (auto differ = detail::results_differ(shards[k].results, again.results))
        return fail(name + ": its results do not agree with its runs[] (results." + std::string(*differ) + ")");
      if (shards[k].results.pass_rate_ci95 == again.results.pass_rate_ci95) {
        if (m.used_by++ == 0)
          mixed += (mixed.empty() ? "" : ", ") + detail::shard_name(mo, k) + " " + std::string(m.name);
        ++matches;
      }
    }
    if (matches == 0)
      return fail(name + ": its pass_rate_ci95 is neither the Wilson nor the Jeffreys interval of its runs");
    if (own.runs.size() < share)
      short_shards += std::string(short_shards.empty() ? "" : "; ") + s.label() + " ran " +
                      std::to_string(own.runs.size()) + " of its " + std::to_string(share) + " run(s)";
    std::move(runs.begin(), runs.end(), std::back_inserter(all));
  }
  // An interval both methods give (never seen in practice) counts for both.
  const method& used = methods[0].used_by == shards.size() ? methods[0] : methods[1];
  if (used.used_by != shards.size())
    return fail("the shards' intervals are of different methods (" + mixed + "): run every shard with the same --ci");
  o.interval = used.f;

  std::sort(all.begin(), all.end(), [](const run_record& a, const run_record& b) { return a.index < b.index; });
  merged m;
  m.runs = detail::outcome_of(std::move(all), iterations);
  m.runs.stop_reason = short_shards;
  report_options ro{.generated_at = mo.generated_at, .assay_version = mo.assay_version, .suite = of[0].suite};
  m.report = make_report(m.runs, first.packs, o, ro);
  m.soak = o;
  m.interval = used.f == &stats::wilson ? "wilson" : "jeffreys";
  return m;
}

}  // namespace assay::soak

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::soak {
ASSAY_EXTERN_TEMPLATE result<merged> merge<void>(std::span<const contracts::soak_report>, const merge_options&);
}  // namespace assay::soak
#endif
