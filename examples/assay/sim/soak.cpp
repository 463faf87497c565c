// assay sim soak --iterations N [--seed S] [--time-budget SECS] [--pack P]…
//   (--target B | --target-dir D | --exec 'CMD {seed} {out}') [--fail-on info|warning|error]
//   [--stop-on-first-failure] [--max-failures N] [--jobs N] [--ci wilson|jeffreys] [--suite NAME]
//   --report R
// — pass^k over real runs (SPEC §12, §17): each run's bundle verified and linted with the packs.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../report.hpp"
#include "../verbs.hpp"

#include "assay/json/number.hpp"
#include "assay/json/time.hpp"
#include "assay/lint/report.hpp"
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
  std::string target, target_dir, exec;
  std::string fail_on = "error";
  bool stop_on_first_failure = false;
  std::optional<std::uint64_t> max_failures;
  unsigned jobs = 1;
  std::string ci = "wilson";
  std::string suite;
  std::string report;
  // Tolerance (SPEC §12): when given, it decides the exit code instead of pass^k.
  std::optional<std::string> min_pass_rate;
  std::optional<std::string> gate;  // lower-bound (default) or estimate
  std::optional<std::uint64_t> min_runs;
};

// The tolerance gate, as asked on the command line.
struct tolerance {
  double min_pass_rate = 0;
  bool on_estimate = false;  // pass_rate itself, not the interval's lower bound
  std::uint64_t min_runs = 1;
  bool min_runs_given = false;
};

// The gate's summary line, and whether the soak met it.
std::string tolerance_line(const assay::contracts::soak_report& r, const tolerance& t, std::uint64_t iterations,
                           bool& passed) {
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
  return out + " (this gate decides the exit code, not pass^" + std::to_string(iterations) + ")\n";
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

// SIGINT, SIGTERM and SIGHUP, taken by a thread of their own for the whole soak (SPEC §12
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

// The short human summary stdout gets.
std::string summary(const assay::contracts::soak_report& r, const soak::outcome& o, const soak_args& a) {
  const auto& res = r.results;
  const std::uint64_t runs = o.executed();
  std::string out = "soak: " + std::to_string(runs) + " of " + std::to_string(a.iterations) + " run(s), seeds from " +
                    std::to_string(a.seed) + ", " + std::to_string(a.jobs) + " job(s)\n";
  out += "  passed " + std::to_string(o.passes) + ", failed " + std::to_string(o.failures) + ", infra errors " +
         std::to_string(o.infra_errors) + "\n";
  const auto& ci = *res.pass_rate_ci95;
  out += "  pass rate " + assay::json::number_to_string(res.pass_rate.value()) + ", 95% interval (" +
         (a.ci == "jeffreys" ? "Jeffreys" : "Wilson") + ") [" + fixed(ci[0].value(), 4) + ", " +
         fixed(ci[1].value(), 4) + "]\n";
  out += "  pass^" + std::to_string(a.iterations) + ": " + (res.pass_all ? "PASS" : "FAIL");
  if (res.first_failure_at && res.first_failure_at->has_value())
    out += " (first run not passing: " + std::to_string((*res.first_failure_at)->value()) + ")";
  out += "\n";
  if (o.stopped_early)
    out += "  stopped early: " + printable(o.stop_reason) + "\n";
  if (!res.violations_by_rule->empty()) {
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
  if (!res.infra_errors_by_kind->empty()) {
    out += "infra errors (runs):\n";
    for (const auto& [kind, n] : *res.infra_errors_by_kind)
      out += "  " + std::to_string(n.value()) + "  " + kind + "\n";
    for (const auto& x : o.runs)
      if (x.error) {
        out += "  first: run " + std::to_string(x.index) + ": " + printable(x.error->kind) + ": " +
               printable(x.error->message) + "\n";
        break;
      }
  }
  return out;
}

int run_soak(const soak_args& a) {
  constexpr std::string_view command = "sim soak";
  auto usage = [&](const std::string& what) {
    print_error(command, what);
    return exit_usage;
  };
  const int targets = !a.target.empty() + !a.target_dir.empty() + !a.exec.empty();
  if (targets != 1)
    return usage("give exactly one of --target, --target-dir and --exec");
  std::optional<lint::severity> threshold;
  if (a.fail_on == "none" || !lint::parse_threshold(a.fail_on, threshold) || !threshold)
    return usage("--fail-on " + printable(a.fail_on, echo_cap) + ": expected info, warning, warn or error");
  if (a.ci != "wilson" && a.ci != "jeffreys")
    return usage("--ci " + printable(a.ci, echo_cap) + ": expected wilson or jeffreys");
  std::optional<tolerance> gate;
  if (a.min_pass_rate) {
    const auto p = parse_unit_interval(*a.min_pass_rate);
    if (!p)
      return usage("--min-pass-rate " + printable(*a.min_pass_rate, echo_cap) + ": expected a number from 0 to 1");
    gate.emplace().min_pass_rate = *p;
    if (a.gate && *a.gate != "lower-bound" && *a.gate != "estimate")
      return usage("--gate " + printable(*a.gate, echo_cap) + ": expected lower-bound or estimate");
    gate->on_estimate = a.gate == "estimate";
    gate->min_runs = a.min_runs.value_or(1);
    gate->min_runs_given = a.min_runs.has_value();
  } else if (a.gate || a.min_runs) {
    return usage(std::string(a.gate ? "--gate" : "--min-runs") + " needs --min-pass-rate");
  }

  // From here on a signal stops the soak (SPEC §12 "Stopping"): every command in flight killed
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
    return exit_io;  // a pack that does not load (SPEC §17)

  soak::options o;
  o.iterations = a.iterations;
  o.seed = a.seed;
  o.time_budget_secs = a.time_budget;
  o.fail_on = *threshold;
  o.stop_on_first_failure = a.stop_on_first_failure;
  o.max_failures = a.max_failures;
  o.jobs = a.jobs;
  o.stop = &stop;
  if (a.ci == "jeffreys")
    o.interval = &assay::stats::jeffreys<>;
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
  std::string text = summary(report, *outcome, a);
  bool passed = report.results.pass_all;
  if (gate)
    text += tolerance_line(report, *gate, a.iterations, passed);
  if (auto w = write_file("-", printable_lines(text)); !w)
    return fail(command, w.error());
  if (stop.requested())  // while the report was written: it is whole (written whole or not at all)
    return 128 + stop.signal.load();
  return passed ? exit_ok : exit_failed;
}

}  // namespace

void add_sim_soak(CLI::App& sim, dispatcher& d) {
  auto* sub = sim.add_subcommand("soak", "pass^k: verify and lint N runs' bundles (SPEC §12)");
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
  sub->add_option("--min-pass-rate", a->min_pass_rate,
                  "Tolerance: exit 0 when the pass rate's 95% lower bound (or, --gate estimate, the rate) is at "
                  "least P, instead of when pass^k holds");
  sub->add_option("--gate", a->gate, "What --min-pass-rate judges: lower-bound (default) or estimate");
  in_range(sub->add_option("--min-runs", a->min_runs, "Tolerance: and at least N runs executed (default 1)"), 1,
           max_soak_iterations);
  d.on(sub, [a] { return run_soak(*a); });
}

}  // namespace assay_cli
