// assay sim soak --iterations N [--seed S] [--time-budget SECS] [--pack P]…
//   (--target B | --target-dir D | --exec 'CMD {seed} {out}') [--fail-on info|warning|error]
//   [--stop-on-first-failure] [--max-failures N] [--jobs N] [--ci wilson|jeffreys] [--suite NAME]
//   [--min-pass-rate P [--gate lower-bound|estimate] [--min-runs N]]
//   [--baseline PREV.json [--drift-report D.json] [--allow-pack-change]]
//   [--shard I/N | --shard-index-env VAR --shard-count N] [--limits L.json] --report R
// — pass^k over real runs (docs/soak.md, docs/cli.md): each run's bundle verified and linted with the packs;
// with --shard, one machine's share of a soak that `assay sim merge` puts back together.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../report.hpp"
#include "../evidence/evidence.hpp"
#include "../verbs.hpp"
#include "sim.hpp"

#include "assay/json/number.hpp"
#include "assay/json/time.hpp"
#include "assay/lint/report.hpp"
#include "assay/soak/drift.hpp"
#include "assay/soak/engine.hpp"
#include "assay/soak/targets.hpp"
#include "assay/stats/jeffreys.hpp"
#include "assay/version.hpp"

#include <CLI/CLI.hpp>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace assay_cli {

namespace lint = assay::lint;
namespace soak = assay::soak;

namespace {

struct soak_args {
  std::uint64_t iterations = 0;
  std::uint64_t seed = 0;
  std::int64_t time_budget = 3600;
  std::vector<std::string> packs;
  std::string limits;  // a JSON object of reader limits each run's bundle is held to; empty: the defaults
  std::string target, target_dir, exec;
  std::string fail_on = "error";
  bool stop_on_first_failure = false;
  std::optional<std::uint64_t> max_failures;
  unsigned jobs = 1;
  std::string ci = "wilson";
  std::string suite;
  std::string report;
  tolerance_args tol;  // docs/soak.md "Tolerance": when given, it decides the exit code instead of pass^k
  std::string baseline, drift_report;  // docs/soak.md "Drift": compared with an earlier soak
  bool allow_pack_change = false;
  std::optional<std::string> shard;      // I/N (docs/soak.md "Past one machine")
  std::optional<std::string> shard_env;  // the variable that holds I
  std::optional<std::uint64_t> shard_count;
};

// --shard I/N, or I from --shard-index-env with --shard-count N: the shard, or a usage error's
// message.
std::optional<std::string> parse_shard(const soak_args& a, std::optional<soak::shard_spec>& out) {
  auto number = [](std::string_view t, std::uint64_t& v) {
    if (t.empty() || t.size() > 7 || (t.size() > 1 && t[0] == '0'))
      return false;
    v = 0;
    for (char c : t) {
      if (c < '0' || c > '9')
        return false;
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return true;
  };
  soak::shard_spec s;
  if (a.shard) {
    if (a.shard_env || a.shard_count)
      return std::string("give --shard I/N, or --shard-index-env VAR with --shard-count N, not both");
    const std::string_view t = *a.shard;
    const std::size_t slash = t.find('/');
    if (slash == std::string_view::npos || !number(t.substr(0, slash), s.index) ||
        !number(t.substr(slash + 1), s.count))
      return "--shard " + printable(*a.shard, echo_cap) + ": expected I/N, e.g. 0/3";
  } else if (a.shard_env || a.shard_count) {
    if (!a.shard_env || !a.shard_count)
      return std::string(a.shard_env ? "--shard-index-env needs --shard-count"
                                     : "--shard-count needs --shard-index-env");
    const char* v = std::getenv(a.shard_env->c_str());
    if (v == nullptr || *v == '\0')
      return "--shard-index-env " + printable(*a.shard_env, echo_cap) + ": the variable is not set";
    if (!number(v, s.index))
      return "--shard-index-env " + printable(*a.shard_env, echo_cap) + ": its value " + printable(v, echo_cap) +
             " is not a shard index (0, 1, 2, ...)";
    s.count = *a.shard_count;
  } else {
    return std::nullopt;
  }
  const std::string label = s.label();
  if (s.count == 0 || s.count > max_soak_iterations)
    return label + ": the count must be from 1 to " + std::to_string(max_soak_iterations);
  if (s.index >= s.count)
    return label + ": the index must be below the count (shards are numbered from 0)";
  if (s.count > a.iterations)
    return label + ": a soak of " + std::to_string(a.iterations) + " iteration(s) cannot give every shard a run";
  out = s;
  return std::nullopt;
}

// A temporary directory for the runs of --exec, removed when the soak ends.
struct scratch_dir {
  std::string path;
  ~scratch_dir() {
    if (!path.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  }
};

// SIGINT, SIGTERM and SIGHUP, taken by a thread of their own for the whole soak (docs/soak.md
// "Stopping"): they are blocked in every thread (the runs' threads, started later, inherit the
// mask; commands start with none blocked, targets.hpp), and this thread waits for them with
// sigtimedwait, so no handler runs in the middle of anything. The first one sets the stop request
// and writes a byte to its pipe, which wakes every command wait; run() then ends the runs in
// flight and starts no other.
class signal_watch {
 public:
  explicit signal_watch(soak::stop_request& stop) : stop_(stop) {
    sigemptyset(&set_);
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
      sigaddset(&set_, sig);
    ::pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    if (::pipe2(pipe_, O_CLOEXEC | O_NONBLOCK) == 0)
      stop_.wake_fd = pipe_[0];
    thread_ = std::thread([this] { watch(); });
  }
  signal_watch(const signal_watch&) = delete;
  signal_watch& operator=(const signal_watch&) = delete;
  // Stops watching; a signal that arrives afterwards stays blocked and pending (the process exits
  // with the status this soak decided).
  ~signal_watch() {
    done_.store(true);
    thread_.join();
    stop_.wake_fd = -1;
    for (int fd : pipe_)
      if (fd >= 0)
        ::close(fd);
  }

 private:
  void watch() {
    const timespec tick{0, 50'000'000};  // 50 ms: how soon the destructor is answered
    while (!done_.load()) {
      const int sig = ::sigtimedwait(&set_, nullptr, &tick);
      if (sig <= 0)
        continue;  // the tick, or EINTR
      int none = 0;
      stop_.signal.compare_exchange_strong(none, sig);
      if (pipe_[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const auto n = ::write(pipe_[1], &byte, 1);
      }
    }
  }

  soak::stop_request& stop_;
  sigset_t set_{};
  int pipe_[2] = {-1, -1};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

int run_soak(const soak_args& a) {
  constexpr std::string_view command = "sim soak";
  auto usage = [&](const std::string& what) { return usage_error(command, what); };
  const int targets = !a.target.empty() + !a.target_dir.empty() + !a.exec.empty();
  if (targets != 1)
    return usage("give exactly one of --target, --target-dir and --exec");
  std::optional<lint::severity> threshold;
  if (a.fail_on == "none" || !lint::parse_threshold(a.fail_on, threshold) || !threshold)
    return usage("--fail-on " + printable(a.fail_on, echo_cap) + ": expected info, warning, warn or error");
  if (a.ci != "wilson" && a.ci != "jeffreys")
    return usage("--ci " + printable(a.ci, echo_cap) + ": expected wilson or jeffreys");
  std::optional<tolerance> gate;
  if (auto bad = parse_tolerance(a.tol, gate))
    return usage(*bad);
  std::optional<soak::shard_spec> shard;
  if (auto bad = parse_shard(a, shard))
    return usage(*bad);
  if (shard && gate)
    return usage("--min-pass-rate judges the whole soak: give it to sim merge, not to a shard");
  if (shard && !a.baseline.empty())
    return usage("--baseline compares the whole soak: give the merged report to sim drift, not a shard");
  if (a.baseline.empty() && (!a.drift_report.empty() || a.allow_pack_change))
    return usage(std::string(a.drift_report.empty() ? "--allow-pack-change" : "--drift-report") + " needs --baseline");
  assay::contracts::soak_report baseline;
  if (!a.baseline.empty())
    if (int rc = read_contract(command, a.baseline, default_max_bytes, "soak-report-v1", baseline); rc != exit_ok)
      return rc;
  assay::evidence::bundle_limits limits;
  if (auto code = read_limits_option(command, a.limits, limits))
    return *code;

  // From here on a signal stops the soak (docs/soak.md "Stopping"): every command in flight killed
  // with its process group, the scratch directory removed, no report written, exit 128 + signal.
  // (The watch is declared before the scratch directory, so it outlives it.)
  soak::stop_request stop;
  signal_watch watch(stop);
  auto interrupted = [&] {
    const int sig = stop.signal.load();
    print_error(command,
                std::string("interrupted by ") + signal_name(sig) + ": runs in flight ended, no report written");
    return 128 + sig;
  };

  auto packs = load_cli_packs(command, a.packs);
  if (stop.requested())
    return interrupted();
  if (!packs)
    return exit_io;                                 // a pack that does not load (docs/cli.md)
  if (!a.baseline.empty() && !a.allow_pack_change)  // before hours of runs, not after
    if (auto differ = soak::packs_differ(baseline.packs, soak::pack_refs(*packs)))
      return usage("--baseline " + printable(a.baseline) + ": " + printable(*differ) +
                   " (--allow-pack-change compares them anyway)");

  soak::options o;
  o.iterations = a.iterations;
  o.seed = a.seed;
  o.time_budget_secs = a.time_budget;
  o.limits = limits;
  o.fail_on = *threshold;
  o.stop_on_first_failure = a.stop_on_first_failure;
  o.max_failures = a.max_failures;
  o.jobs = a.jobs;
  o.shard = shard;
  o.stop = &stop;
  if (a.ci == "jeffreys")
    o.interval = &assay::stats::jeffreys<>;
  if (!a.baseline.empty())  // before hours of runs, not after
    if (auto differ = soak::decision_policies_differ(baseline.decision_policy, soak::decision_policy_of(o)))
      return usage("--baseline " + printable(a.baseline) + ": " + printable(*differ));
  const bool live = ::isatty(2) == 1;
  if (live)
    o.on_progress = [](const soak::progress& p) {
      std::fprintf(stderr, "\rrun %llu of %llu: %llu passed, %llu failed, %llu infra error(s), %.1f s   ",
                   static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.iterations),
                   static_cast<unsigned long long>(p.passes), static_cast<unsigned long long>(p.failures),
                   static_cast<unsigned long long>(p.infra_errors), static_cast<double>(p.elapsed.count()) / 1000.0);
      std::fflush(stderr);
    };

  std::optional<input> bundle;
  std::unique_ptr<soak::target> target;
  scratch_dir scratch;
  if (!a.target.empty()) {
    auto in = input::open(a.target, o.limits.max_bundle_bytes, input::over_limit::pass);
    if (!in)
      return fail(command, in.error(), "--target");
    bundle.emplace(std::move(*in));
    target = std::make_unique<soak::bundle_bytes_target>(bundle->bytes());
  } else if (!a.target_dir.empty()) {
    auto dir = soak::directory_target::open(a.target_dir);
    if (!dir) {
      print_error(command, "--target-dir: " + printable(dir.error().message));
      return dir.error().code == assay::errc::io_error ? exit_io : exit_usage;
    }
    target = std::make_unique<soak::directory_target>(std::move(*dir));
  } else {
    std::string tmpl = (std::getenv("TMPDIR") != nullptr ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
                       "/assay-soak.XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) {
      print_error(command, "cannot create a directory for the runs in " + printable(tmpl));
      return exit_io;
    }
    scratch.path = tmpl;
    target = std::make_unique<soak::command_target>(a.exec, scratch.path, &stop);
  }

  auto outcome = soak::run(*packs, *target, o);
  if (live)
    std::fprintf(stderr, "\n");
  if (stop.requested())  // what finished is not reported: a report is of the whole soak or none
    return interrupted();
  if (!outcome) {
    print_error(command, printable(outcome.error().message));
    return exit_io;
  }
  auto now = assay::json::report_time();
  if (!now)
    return fail(command, now.error());
  soak::report_options ro{.generated_at = *now, .assay_version = std::string(assay::version)};
  if (!a.suite.empty())
    ro.suite = a.suite;
  const auto report = soak::make_report(*outcome, *packs, o, ro);
  if (auto w = write_report(report, a.report); !w)
    return fail(command, w.error());
  soak_summary_head head{.interval = a.ci, .stopped = outcome->stopped_early ? outcome->stop_reason : ""};
  const std::string runs = std::to_string(outcome->executed()), jobs = std::to_string(a.jobs) + " job(s)";
  if (shard) {
    const std::string label = shard->label();
    head.first_line = "soak, " + label + ": " + runs + " of its " + std::to_string(shard->runs_of(a.iterations)) +
                      " run(s) (runs " + soak::shard_runs(*shard, a.iterations) + " of " +
                      std::to_string(a.iterations) + "), seeds from " + std::to_string(a.seed) + " by index, " + jobs;
    head.pass_k = "pass^" + std::to_string(a.iterations) + ": decided by sim merge over the " +
                  std::to_string(shard->count) + " shards (this is " + label + ")";
  } else {
    head.first_line = "soak: " + runs + " of " + std::to_string(a.iterations) + " run(s), seeds from " +
                      std::to_string(a.seed) + ", " + jobs;
  }
  std::string text = soak_summary(report, head);
  bool passed = shard || report.results.pass_all;  // a shard's verdict is the merge's
  if (gate)
    text += tolerance_line(report, *gate, passed);
  if (!a.baseline.empty()) {
    auto d =
        soak::drift(baseline, report,
                    {.allow_pack_change = true, .generated_at = *now, .assay_version = std::string(assay::version)});
    if (!d)  // not reached: the packs and decision policies were compared before the soak
      return fail(command, d.error());
    if (!a.drift_report.empty())
      if (auto w = write_report(*d, a.drift_report); !w)
        return fail(command, w.error());
    text += drift_summary(*d);
  }
  if (auto w = write_file("-", printable_lines(text)); !w)
    return fail(command, w.error());
  if (stop.requested())  // while the report was written: it is whole (written whole or not at all)
    return 128 + stop.signal.load();
  return passed ? exit_ok : exit_failed;
}

}  // namespace

void add_sim_soak(CLI::App& sim, dispatcher& d) {
  auto* sub = sim.add_subcommand("soak", "pass^k: verify and lint N runs' bundles");
  auto a = std::make_shared<soak_args>();
  in_range(sub->add_option("--iterations", a->iterations, "How many runs (k of pass^k)"), 1, max_soak_iterations)
      ->required();
  // Up to 2^53: the report's seed is a JSON number.
  in_range(sub->add_option("--seed", a->seed, "The seed of run 1; run i gets seed + i - 1 (default 0)"), 0,
           max_exact_json_integer);
  in_range(sub->add_option("--time-budget", a->time_budget,
                           "Seconds for the whole soak (default 3600): no run starts after it; a run still "
                           "being linted, or an --exec command still running, is ended"),
           1, max_time_budget_secs);
  sub->add_option("--pack", a->packs, "A pack, as lint takes it (default: cicd-starter); comma lists allowed");
  add_limits(sub, a->limits);
  sub->add_option("--target", a->target, "Every run verifies and lints this bundle");
  sub->add_option("--target-dir", a->target_dir, "Run i takes the i-th bundle of this directory in name order");
  sub->add_option("--exec", a->exec,
                  "Run i runs this command through /bin/sh -c, {seed} and {out} replaced, and judges "
                  "the bundle it wrote to {out}");
  sub->add_option("--fail-on", a->fail_on, "A run fails on a violated rule at or above: info, warning, error");
  sub->add_flag("--stop-on-first-failure", a->stop_on_first_failure, "Start no run after one that did not pass");
  in_range(sub->add_option("--max-failures", a->max_failures, "Start no run once this many did not pass"), 1,
           max_soak_iterations);
  in_range(sub->add_option("--jobs", a->jobs, "Runs at once (default 1)"), 1, max_soak_jobs);
  sub->add_option("--ci", a->ci, "The interval of pass_rate_ci95: wilson (default) or jeffreys");
  sub->add_option("--suite", a->suite, "A name for the soak, written to the report");
  sub->add_option("--report", a->report, "Write the soak-report-v1 JSON here")->required();
  add_tolerance_options(sub, a->tol);
  sub->add_option("--baseline", a->baseline,
                  "Compare with this earlier soak's report (soak-report-v1) after the soak: the drift's summary");
  sub->add_option("--drift-report", a->drift_report, "With --baseline: write the soak-drift-v1 JSON here");
  sub->add_flag("--allow-pack-change", a->allow_pack_change,
                "With --baseline: compare even when the packs differ by name, version or digest");
  sub->add_option("--shard", a->shard,
                  "Run only shard I of N (0 <= I < N): the runs i with (i - 1) mod N = I, seeds by index; "
                  "sim merge joins the shard reports");
  sub->add_option("--shard-index-env", a->shard_env,
                  "Take the shard index I from this environment variable (e.g. JOB_COMPLETION_INDEX)");
  in_range(sub->add_option("--shard-count", a->shard_count, "With --shard-index-env: the number of shards N"), 1,
           max_soak_iterations);
  d.on(sub, [a] { return run_soak(*a); });
}

}  // namespace assay_cli
