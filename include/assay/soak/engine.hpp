// assay/soak/engine.hpp — a soak: pass^k over real runs (docs/soak.md).
//
//   auto packs = assay::lint::load_packs(values);                     // as lint resolves them
//   assay::soak::bundle_file_target target("run.tar.gz");              // or a directory, a command
//   assay::soak::options o{.iterations = 50, .seed = 7, .jobs = 4};
//   assay::soak::outcome r = assay::soak::run(*packs, target, o);
//   assay::contracts::soak_report report = assay::soak::make_report(r, *packs, o, {.generated_at = now});
//
// Run i (1-based) gets seed `seed + i - 1` (mod 2^64); its target yields a bundle, which is
// verified (docs/evidence.md) and linted with the packs in one pass. The run passes when lint's verdict
// at the threshold passes, fails when a violated rule is at or above it, and is an infrastructure
// error when no verifiable bundle came out (the target's error, or `bundle_invalid` with the
// verifier's code). The time budget bounds a run in progress too: the pass checks the clock at
// every event and ends a run whose verification and lint overrun it (`time_budget_exceeded`),
// without reading the bundle again. A stop_request (a signal, set from outside) ends the runs in
// flight the same way (`interrupted`) and starts no other. Before each run the stop conditions
// are checked: a stop request, the time budget spent, stop_on_first_failure after a run that did
// not pass, max_failures runs that did not pass. With
// jobs > 1 up to that many runs are in flight at once; a run not yet started when a stop
// condition holds is not started, runs in flight finish and count. Runs are reported in index
// order whatever order they finished in, so the report is the one of a single job but for
// durations (and, after an early stop, the runs that were in flight).
#pragma once

#include "assay/contracts/soak_report.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/pack.hpp"
#include "assay/separate.hpp"
#include "assay/stats/interval.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace assay::soak {

using clock = std::chrono::steady_clock;

// Why a run produced no verdict.
struct infra_error {
  std::string kind;  // time_budget_exceeded, subprocess_failed, io_error, bundle_invalid, ...
  std::string message;
};

// What a target produced for one run: a bundle (a file to read, or bytes in memory), or an
// infrastructure error.
struct produced {
  std::string path;        // the bundle file, or empty when `bytes` holds it
  std::string_view bytes;  // the bundle, when `path` is empty (valid until the run is judged)
  std::optional<infra_error> error;
};

// A source of bundles: run `index` (1-based) with `seed`, before `deadline` (when the time budget
// ends). Called from several threads at once when jobs > 1. `finish` is called once the run's
// bundle has been judged (a command's output can then be removed).
class target {
 public:
  virtual ~target() = default;
  virtual produced produce(std::uint64_t index, std::uint64_t seed, clock::time_point deadline) = 0;
  virtual void finish(std::uint64_t /*index*/, const produced& /*p*/) {}
};

// A request to stop the soak now, from outside (the CLI sets it from a signal). Setting it is
// async-signal-safe: an atomic store (lock-free int) and, when `wake_fd` is a pipe's write end, a
// write(2) there by the caller. run() starts no run once it is set; the runs in flight end as
// infra errors of kind `interrupted` (a command killed with its process group, a lint refused at
// its next event), and the outcome says which signal.
struct stop_request {
  std::atomic<int> signal{0};  // the signal that asked to stop (or any non-zero value); 0: none
  int wake_fd = -1;            // optional: a descriptor that is readable once `signal` is set
  bool requested() const noexcept { return signal.load(std::memory_order_acquire) != 0; }
};

struct progress {
  std::uint64_t done = 0, iterations = 0, passes = 0, failures = 0, infra_errors = 0;
  std::chrono::milliseconds elapsed{0};
};

// One machine's share of a soak spread over `count` (docs/soak.md "Past one machine"): the runs i with
// (i - 1) mod count = index, each with the seed of its index in the whole soak.
struct shard_spec {
  std::uint64_t index = 0;  // 0 <= index < count
  std::uint64_t count = 1;
  // "shard I/N", as reports and messages name it.
  std::string label() const { return "shard " + std::to_string(index) + "/" + std::to_string(count); }
  // How many of `iterations` runs are this shard's.
  constexpr std::uint64_t runs_of(std::uint64_t iterations) const noexcept {
    return index >= iterations ? 0 : (iterations - index + count - 1) / count;
  }
  constexpr bool owns(std::uint64_t run_index) const noexcept { return (run_index - 1) % count == index; }
};

// A shard report's suite records its shard: "shard I/N", after the soak's own suite and "; " when
// it has one ("nightly; shard 0/3").
inline std::string shard_suite(const std::optional<std::string>& suite, const shard_spec& s) {
  return suite ? *suite + "; " + s.label() : s.label();
}

// A shard's runs, the first four of them: "2, 5, 8, 11, …".
inline std::string shard_runs(const shard_spec& s, std::uint64_t iterations) {
  std::string out;
  std::uint64_t shown = 0;
  for (std::uint64_t i = s.index + 1; i <= iterations; i += s.count) {
    if (shown++ == 4) {
      out += ", …";
      break;
    }
    out += (out.empty() ? "" : ", ") + std::to_string(i);
    if (iterations - i < s.count)  // the last (no wrap past 2^64)
      break;
  }
  return out;
}

// The shard a suite records, and the soak's own suite before it; nullopt when it records none.
struct shard_of_suite {
  std::optional<std::string> suite;
  shard_spec shard;
};
inline std::optional<shard_of_suite> parse_shard_suite(std::string_view suite) {
  const std::size_t at = suite.rfind("shard ");
  if (at == std::string_view::npos || (at != 0 && suite.substr(0, at).ends_with("; ") == false))
    return std::nullopt;
  auto number = [](std::string_view& t, std::uint64_t& v) {
    std::size_t n = 0;
    v = 0;
    while (n < t.size() && t[n] >= '0' && t[n] <= '9' && n < 19) {
      v = v * 10 + static_cast<std::uint64_t>(t[n] - '0');
      ++n;
    }
    const bool ok = n > 0 && (n == 1 || t[0] != '0');
    t.remove_prefix(n);
    return ok;
  };
  std::string_view t = suite.substr(at + 6);
  shard_of_suite out;
  if (!number(t, out.shard.index) || t.empty() || t[0] != '/')
    return std::nullopt;
  t.remove_prefix(1);
  if (!number(t, out.shard.count) || !t.empty() || out.shard.count == 0 || out.shard.index >= out.shard.count)
    return std::nullopt;
  if (at != 0)
    out.suite = std::string(suite.substr(0, at - 2));
  return out;
}

struct options {
  std::uint64_t iterations = 1;
  std::uint64_t seed = 0;
  std::int64_t time_budget_secs = 3600;
  lint::severity fail_on = lint::severity::error;  // decision_policy.pass_on_severity_at_or_above
  bool stop_on_first_failure = false;
  std::optional<std::uint64_t> max_failures{};  // stop once this many runs did not pass
  unsigned jobs = 1;
  std::optional<shard_spec> shard{};  // this machine's share only (the report records it in `suite`)
  evidence::bundle_limits limits{};
  // The interval of pass_rate_ci95: stats::wilson by default; the CLI passes stats::jeffreys<>
  // (assay/stats/jeffreys.hpp) for `--ci jeffreys`.
  stats::interval (*interval)(std::int64_t successes, std::int64_t trials) = &stats::wilson;
  std::function<void(const progress&)> on_progress{};  // after each run, one call at a time
  const stop_request* stop = nullptr;                  // optional: a request to stop from outside
};

enum class run_status : std::uint8_t { pass, fail, infra_error };

constexpr std::string_view name(run_status s) noexcept {
  return s == run_status::pass ? "pass" : s == run_status::fail ? "fail" : "infra_error";
}

struct run_record {
  std::uint64_t index = 0;  // 1-based
  std::uint64_t seed = 0;
  run_status status = run_status::pass;
  std::int64_t duration_ms = 0;
  std::vector<std::string> violated_rules;  // every violated rule, any severity, sorted
  std::optional<infra_error> error;
};

struct outcome {
  std::vector<run_record> runs;  // the executed runs, in index order
  std::uint64_t passes = 0, failures = 0, infra_errors = 0;
  bool stopped_early = false;  // runs of this soak (or shard) were left unstarted
  std::string stop_reason;     // why runs were left unstarted (empty when none were)
  int interrupted = 0;         // the stop_request's signal when one ended the soak; 0 otherwise

  std::uint64_t executed() const noexcept { return runs.size(); }
  // pass^k: every requested run executed and passed.
  bool pass_all(std::uint64_t iterations) const noexcept { return runs.size() == iterations && passes == iterations; }
};

namespace detail {

// The first visitor of a run's verification pass: before each event reaches the linter, the
// clock and the stop request are checked, and the pass is refused once the deadline has passed
// or a stop was requested; `ended` then says which (the refusal's error is not the verifier's).
struct run_guard {
  run_guard(clock::time_point d, const stop_request* s) noexcept : deadline(d), stop(s) {}

  clock::time_point deadline;
  const stop_request* stop = nullptr;
  enum class why : std::uint8_t { none, time_budget, interrupted } ended = why::none;

  std::optional<error> on_event(const evidence::verified_event&) {
    if (stop != nullptr && stop->requested())
      ended = why::interrupted;
    else if (clock::now() >= deadline)
      ended = why::time_budget;
    else
      return std::nullopt;
    return make_error(errc::unsupported, "the run was ended");
  }
};

}  // namespace detail

// Judges one produced bundle: verified and linted in one pass, which ends the run when it is
// still going at `deadline` (time_budget_exceeded) or when o.stop is set (interrupted).
template <class = void>  // compiled only where used: it holds the verifier and the linter
run_record judge(std::span<const lint::loaded_pack> packs, const produced& p, const options& o,
                 clock::time_point deadline = clock::time_point::max()) {
  run_record r;
  if (p.error) {
    r.status = run_status::infra_error;
    r.error = p.error;
    return r;
  }
  auto linter = lint::linter::create(packs);
  if (!linter) {  // not reached: run() checks the packs first
    r.status = run_status::infra_error;
    r.error = infra_error{"pack_conflict", linter.error().message};
    return r;
  }
  detail::run_guard guard{deadline, o.stop};
  auto verified = p.path.empty() ? evidence::verify_bundle_bytes(p.bytes, o.limits, guard, *linter)
                                 : evidence::verify_bundle_file(p.path, o.limits, guard, *linter);
  if (!verified && guard.ended != detail::run_guard::why::none) {
    r.status = run_status::infra_error;
    r.error =
        guard.ended == detail::run_guard::why::time_budget
            ? infra_error{"time_budget_exceeded",
                          "the time budget ended while the bundle was being verified and linted"}
            : infra_error{"interrupted", "the soak was interrupted while the bundle was being verified and linted"};
    return r;
  }
  if (!verified) {
    const error& e = verified.error();
    r.status = run_status::infra_error;
    r.error = e.code == errc::io_error ? infra_error{"io_error", e.message}
                                       : infra_error{"bundle_invalid", std::string(name(e.code)) + ": " + e.message};
    return r;
  }
  const lint::lint_result l = linter->take();
  for (const lint::rule_result& x : l.rules)
    if (x.status == lint::outcome::violated)
      r.violated_rules.push_back(x.rule_id);
  std::sort(r.violated_rules.begin(), r.violated_rules.end());
  r.violated_rules.erase(std::unique(r.violated_rules.begin(), r.violated_rules.end()), r.violated_rules.end());
  r.status = l.fails(o.fail_on) ? run_status::fail : run_status::pass;
  return r;
}

// Runs the soak. The packs must be able to run together (lint::linter::create); the error says
// why when they cannot.
template <class = void>
result<outcome> run(std::span<const lint::loaded_pack> packs, target& t, const options& o) {
  if (auto l = lint::linter::create(packs); !l)
    return l.error();
  if (o.iterations == 0)
    return make_error(errc::invalid_argument, "a soak needs at least one iteration");
  if (o.time_budget_secs < 1)
    return make_error(errc::invalid_argument, "the time budget must be at least 1 second");
  const shard_spec shard = o.shard.value_or(shard_spec{});
  if (shard.count == 0 || shard.index >= shard.count)
    return make_error(errc::invalid_argument, shard.label() + ": the index must be below the count");
  const std::uint64_t share = shard.runs_of(o.iterations);
  if (share == 0)
    return make_error(errc::invalid_argument, shard.label() + " has no run: the soak has only " +
                                                  std::to_string(o.iterations) + " iteration(s)");
  const clock::time_point start = clock::now();
  if (o.time_budget_secs > std::chrono::duration_cast<std::chrono::seconds>(clock::time_point::max() - start).count())
    return make_error(errc::invalid_argument, "the time budget of " + std::to_string(o.time_budget_secs) +
                                                  " s is past what the clock can count to");
  const clock::time_point deadline = start + std::chrono::seconds(o.time_budget_secs);

  std::mutex m;
  std::uint64_t next = shard.index + 1, done = 0, not_passed = 0;  // the shard's runs: every count-th index
  outcome out;
  bool stop = false, more = true;
  progress prog;
  prog.iterations = share;

  auto worker = [&] {
    while (true) {
      std::uint64_t index = 0;
      {
        std::lock_guard lock(m);
        if (stop || !more)
          return;
        if (o.stop != nullptr && o.stop->requested()) {
          stop = true;
          out.stop_reason = "interrupted by signal " + std::to_string(o.stop->signal.load());
          return;
        }
        if (clock::now() >= deadline) {
          stop = true;
          out.stop_reason = "the time budget of " + std::to_string(o.time_budget_secs) + " s was spent";
          return;
        }
        index = next;
        if (o.iterations - next < shard.count)  // the shard's last run (no wrap past 2^64)
          more = false;
        else
          next += shard.count;
      }
      const std::uint64_t seed = o.seed + (index - 1);  // mod 2^64
      const clock::time_point began = clock::now();
      const produced p = t.produce(index, seed, deadline);
      run_record r = judge(packs, p, o, deadline);
      t.finish(index, p);
      r.index = index;
      r.seed = seed;
      r.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - began).count();
      std::lock_guard lock(m);
      ++done;
      prog.done = done;
      if (r.status == run_status::pass)
        ++prog.passes;
      else
        ++(r.status == run_status::fail ? prog.failures : prog.infra_errors);
      if (r.status != run_status::pass) {
        ++not_passed;
        if (o.stop_on_first_failure && !stop) {
          stop = true;
          out.stop_reason = "run " + std::to_string(index) + " did not pass (--stop-on-first-failure)";
        } else if (o.max_failures && not_passed >= *o.max_failures && !stop) {
          stop = true;
          out.stop_reason = std::to_string(not_passed) + " run(s) did not pass (--max-failures " +
                            std::to_string(*o.max_failures) + ")";
        }
      }
      out.runs.push_back(std::move(r));  // in the order they finished: sorted below
      if (o.on_progress) {
        prog.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - start);
        o.on_progress(prog);
      }
    }
  };
  const unsigned jobs = std::max(1u, static_cast<unsigned>(std::min<std::uint64_t>(o.jobs, share)));
  if (jobs == 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    threads.reserve(jobs);
    for (unsigned j = 0; j < jobs; ++j)
      threads.emplace_back(worker);
    for (std::thread& th : threads)
      th.join();
  }

  std::sort(out.runs.begin(), out.runs.end(),
            [](const run_record& a, const run_record& b) { return a.index < b.index; });
  for (const run_record& r : out.runs)
    ++(r.status == run_status::pass ? out.passes : r.status == run_status::fail ? out.failures : out.infra_errors);
  out.stopped_early = out.runs.size() < share;
  if (o.stop != nullptr && o.stop->requested()) {  // the runs it ended, or a soak stopped before its end
    const bool ended_one = std::any_of(out.runs.begin(), out.runs.end(),
                                       [](const run_record& x) { return x.error && x.error->kind == "interrupted"; });
    if (ended_one || out.stopped_early) {
      out.interrupted = o.stop->signal.load();
      out.stop_reason = "interrupted by signal " + std::to_string(out.interrupted);
    }
  }
  if (!out.stopped_early && out.interrupted == 0)
    out.stop_reason.clear();
  return out;
}

// The decision policy a soak of `o` records in its report (what fails a run).
inline contracts::soak::decision_policy decision_policy_of(const options& o) {
  contracts::soak::decision_policy policy;
  policy.pass_on_severity_at_or_above = contracts::soak::severity::of(o.fail_on);
  policy.stop_on_first_failure = o.stop_on_first_failure;
  if (o.max_failures)
    policy.max_failures.emplace(static_cast<std::int64_t>(std::min<std::uint64_t>(*o.max_failures, INT64_MAX)));
  return policy;
}

struct report_options {
  std::optional<std::string> generated_at{};  // RFC 3339 (json::report_time(): SOURCE_DATE_EPOCH when set)
  std::optional<std::string> assay_version{};
  std::optional<std::string> suite{};
  bool per_run = true;  // include runs[] (the per-run detail)
};

// The soak-report-v1 of an outcome. Its contract refuses what JSON cannot hold exactly: a seed
// above 2^53 (check before soaking: encode() fails on such a report).
// The report of the packs as listed (`packs` as the report writes them: soak::merge passes a shard's).
template <class = void>  // compiled only where used: it reflects the report contract
contracts::soak_report make_report(const outcome& r, std::vector<contracts::soak::pack_ref> packs, const options& o,
                                   const report_options& ro = {}) {
  namespace s = contracts::soak;
  auto i64 = [](std::uint64_t v) { return static_cast<std::int64_t>(std::min<std::uint64_t>(v, INT64_MAX)); };
  contracts::soak_report rep;
  if (ro.generated_at)
    rep.generated_at = *ro.generated_at;
  if (ro.assay_version)
    rep.assay_version = *ro.assay_version;
  if (o.shard)
    rep.suite = shard_suite(ro.suite, *o.shard);
  else if (ro.suite)
    rep.suite = *ro.suite;
  rep.iterations = decltype(rep.iterations)(i64(o.iterations));
  rep.seed = decltype(rep.seed)(o.seed);
  rep.time_budget_secs = decltype(rep.time_budget_secs)(o.time_budget_secs);
  rep.limits = o.limits;
  rep.packs = std::move(packs);
  rep.decision_policy = decision_policy_of(o);

  s::results& res = rep.results;
  const std::uint64_t runs = r.executed();
  res.runs = decltype(res.runs)(i64(runs));
  res.passes = decltype(res.passes)(i64(r.passes));
  res.failures = decltype(res.failures)(i64(r.failures));
  res.infra_errors = decltype(res.infra_errors)(i64(r.infra_errors));
  res.pass_rate = decltype(res.pass_rate)(runs == 0 ? 0.0 : static_cast<double>(r.passes) / static_cast<double>(runs));
  res.pass_all = r.pass_all(o.iterations);
  auto& first = res.first_failure_at.emplace();
  for (const run_record& x : r.runs)
    if (x.status != run_status::pass) {
      first.emplace(i64(x.index));
      break;
    }
  std::map<std::string, bounded<std::int64_t, 1>> by_rule, by_kind;
  for (const run_record& x : r.runs) {
    for (const std::string& id : x.violated_rules) {
      auto [it, fresh] = by_rule.try_emplace(id, bounded<std::int64_t, 1>(1));
      if (!fresh)
        it->second = bounded<std::int64_t, 1>(it->second.value() + 1);
    }
    if (x.error) {
      auto [it, fresh] = by_kind.try_emplace(x.error->kind, bounded<std::int64_t, 1>(1));
      if (!fresh)
        it->second = bounded<std::int64_t, 1>(it->second.value() + 1);
    }
  }
  res.violations_by_rule = std::move(by_rule);
  res.infra_errors_by_kind = std::move(by_kind);
  const stats::interval ci = o.interval(i64(r.passes), i64(runs));
  res.pass_rate_ci95.emplace(
      std::array<bounded<double, 0, 1>, 2>{bounded<double, 0, 1>(ci.low), bounded<double, 0, 1>(ci.high)});

  if (ro.per_run) {
    std::vector<s::run_result> list;
    list.reserve(r.runs.size());
    for (const run_record& x : r.runs) {
      s::run_result rr;
      rr.index = decltype(rr.index)(i64(x.index));
      rr.status = decltype(rr.status)::of(x.status);
      rr.duration_ms = decltype(rr.duration_ms)(x.duration_ms);
      if (!x.violated_rules.empty()) {
        auto& v = rr.violated_rules.emplace();
        for (const std::string& id : x.violated_rules) {
          non_empty n;
          n = id;
          v.push_back(std::move(n));
        }
      }
      if (x.error) {
        rr.infra_error_kind = x.error->kind;
        rr.infra_error_message = x.error->message;
      }
      list.push_back(std::move(rr));
    }
    rep.runs = std::move(list);
  }
  return rep;
}

// The packs as a soak report lists them: each once (name, version, digest).
template <class = void>  // compiled only where used: it reflects the pack reference
std::vector<contracts::soak::pack_ref> pack_refs(std::span<const lint::loaded_pack> packs) {
  return lint::refs_of<contracts::soak::pack_ref>(packs);
}

// The report of a soak run with `packs`.
template <class = void>
contracts::soak_report make_report(const outcome& r, std::span<const lint::loaded_pack> packs, const options& o,
                                   const report_options& ro = {}) {
  return make_report(r, pack_refs(packs), o, ro);
}

}  // namespace assay::soak

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::soak {
ASSAY_EXTERN_TEMPLATE run_record judge<void>(std::span<const lint::loaded_pack>, const produced&, const options&,
                                             clock::time_point);
ASSAY_EXTERN_TEMPLATE result<outcome> run<void>(std::span<const lint::loaded_pack>, target&, const options&);
ASSAY_EXTERN_TEMPLATE std::vector<contracts::soak::pack_ref> pack_refs<void>(std::span<const lint::loaded_pack>);
ASSAY_EXTERN_TEMPLATE contracts::soak_report make_report<void>(const outcome&, std::vector<contracts::soak::pack_ref>,
                                                               const options&, const report_options&);
ASSAY_EXTERN_TEMPLATE contracts::soak_report make_report<void>(const outcome&, std::span<const lint::loaded_pack>,
                                                               const options&, const report_options&);
}  // namespace assay::soak
#endif
