// The soak (SPEC §12) over crafted bundles and real commands: the decision policy, the early
// stops, the time budget (between runs and inside a run's lint), a stop request (a signal),
// infra errors by kind, directory cycling, seeds modulo 2^64, the Wilson and Jeffreys intervals
// against values computed here, parallel runs giving the one-job report, and the report's exact
// bytes.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "assay/lint/pack.hpp"
#include "assay/soak/engine.hpp"
#include "assay/soak/merge.hpp"
#include "assay/soak/targets.hpp"
#include "assay/stats/jeffreys.hpp"

#include <boost/math/distributions/beta.hpp>

#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
namespace json = assay::json;
namespace lint = assay::lint;
namespace soak = assay::soak;

namespace {

// E-1 (error): an x.good event; W-1 (warning): an x.extra event.
lint::loaded_pack soak_pack() {
  const std::string text =
      R"({"name":"soakp","version":"1.0.0","kind":"quality","description":"d","author":"a","license":"l",)"
      R"("requires":{"assay_min_version":"5.0.0"},"rules":[)"
      R"({"id":"E-1","severity":"error","description":"good","check":{"type":"event_type_exists","pattern":"x.good"}},)"
      R"({"id":"W-1","severity":"warning","description":"extra","check":{"type":"event_type_exists","pattern":"x.extra"}}]})";
  auto p = lint::load_pack(text, {lint::pack_source::origin::file, "soakp.json"});
  REQUIRE(p.has_value());
  return std::move(*p);
}

std::string bundle_of_types(const std::vector<std::string>& types) {
  std::vector<json::value> events;
  for (std::size_t i = 0; i < types.size(); ++i) {
    json::value e = assay_test::make_event(i);
    e.set("type", types[i]);
    events.push_back(std::move(e));
  }
  return assay_test::bundle(assay_test::lines_of(std::move(events)));
}

// good: E-1 passes, W-1 is violated (a warning); bad: both violated.
const std::string& good_bundle() {
  static const std::string b = bundle_of_types({"x.good"});
  return b;
}
const std::string& bad_bundle() {
  static const std::string b = bundle_of_types({"x.other"});
  return b;
}

// A fresh directory, removed at the end of the test.
struct temp_dir {
  fs::path path;
  temp_dir() {
    static int n = 0;
    path = fs::temp_directory_path() / ("assay-soak-test-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& bytes) const {
    const fs::path p = path / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
};

// The statuses of the runs, as "p", "f" and "i".
std::string statuses(const soak::outcome& o) {
  std::string s;
  for (const auto& r : o.runs)
    s += r.status == soak::run_status::pass ? 'p' : r.status == soak::run_status::fail ? 'f' : 'i';
  return s;
}

soak::outcome run_ok(soak::target& t, const soak::options& o, const std::vector<lint::loaded_pack>& packs) {
  auto r = soak::run(packs, t, o);
  REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
  return std::move(*r);
}

std::string report_bytes(soak::outcome o, const std::vector<lint::loaded_pack>& packs, const soak::options& opts) {
  for (auto& r : o.runs)
    r.duration_ms = 0;
  auto bytes = assay::encode(soak::make_report(o, packs, opts));
  REQUIRE_MESSAGE(bytes.has_value(), (bytes ? std::string() : bytes.error().front().format()));
  return *bytes;
}

// Wilson's bounds, computed here in double from the SPEC's formula.
std::pair<double, double> wilson_here(double s, double n) {
  const double z = 1.959963984540054;
  const double p = s / n;
  const double d = 1 + z * z / n;
  const double c = p + z * z / (2 * n);
  const double m = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return {std::max(0.0, (c - m) / d), std::min(1.0, (c + m) / d)};
}

}  // namespace

TEST_CASE("soak: all pass, the exact report, Wilson's bounds") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  soak::bundle_bytes_target t(good_bundle());
  soak::options o{.iterations = 4, .seed = 10};
  const soak::outcome r = run_ok(t, o, packs);
  CHECK(statuses(r) == "pppp");
  CHECK(r.pass_all(4));
  CHECK(r.runs[3].seed == 13);
  const auto ci = soak::make_report(r, packs, o).results.pass_rate_ci95.value();
  const auto [low, high] = wilson_here(4, 4);
  CHECK(std::fabs(ci[0].value() - low) < 1e-12);
  CHECK(ci[1].value() == 1.0);
  CHECK(ci[0].value() == doctest::Approx(0.5101).epsilon(1e-4));
  (void)high;
  // A warning below the threshold: every run passes, and W-1 is counted in runs.
  CHECK(report_bytes(r, packs, o) ==
        R"({"decision_policy":{"pass_on_severity_at_or_above":"error","stop_on_first_failure":false},)"
        R"("iterations":4,"limits":{"max_bundle_bytes":104857600,"max_decode_bytes":1073741824,"max_events":100000,)"
        R"("max_events_bytes":524288000,"max_json_depth":64,"max_line_bytes":1048576,"max_manifest_bytes":10485760,)"
        R"("max_path_len":256},"mode":"soak","packs":[{"digest":")" +
            packs[0].digest +
            R"(","kind":"quality","name":"soakp","source":"soakp.json","version":"1.0.0"}],)"
            R"("results":{"failures":0,"first_failure_at":null,"infra_errors":0,"infra_errors_by_kind":{},)"
            R"("pass_all":true,"pass_rate":1,"pass_rate_ci95":[)" +
            json::number_to_string(ci[0].value()) +
            R"(,1],"passes":4,"runs":4,"violations_by_rule":{"soakp@1.0.0:W-1":4}},)"
            R"("runs":[{"duration_ms":0,"index":1,"status":"pass","violated_rules":["soakp@1.0.0:W-1"]},)"
            R"({"duration_ms":0,"index":2,"status":"pass","violated_rules":["soakp@1.0.0:W-1"]},)"
            R"({"duration_ms":0,"index":3,"status":"pass","violated_rules":["soakp@1.0.0:W-1"]},)"
            R"({"duration_ms":0,"index":4,"status":"pass","violated_rules":["soakp@1.0.0:W-1"]}],)"
            R"("schema_version":"soak-report-v1","seed":10,"time_budget_secs":3600})");
  // The report is a valid soak-report-v1.
  CHECK(assay::decode<assay::contracts::soak_report>(report_bytes(r, packs, o)).has_value());
}

TEST_CASE("soak: --fail-on warning fails the runs a warning violates; Wilson away from the edges") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  soak::bundle_bytes_target t(good_bundle());
  soak::options o{.iterations = 3, .fail_on = lint::severity::warning};
  const soak::outcome r = run_ok(t, o, packs);
  CHECK(statuses(r) == "fff");
  const auto rep = soak::make_report(r, packs, o);
  CHECK(rep.results.first_failure_at->value().value() == 1);
  CHECK(rep.results.pass_rate.value() == 0);
  CHECK(std::string(rep.decision_policy->pass_on_severity_at_or_above) == "warning");

  temp_dir d;
  d.write("a.tar.gz", good_bundle());
  d.write("b.tar.gz", bad_bundle());
  d.write("c.tar.gz", good_bundle());
  d.write(".hidden", "not a bundle");
  auto dir = soak::directory_target::open(d.path.string());
  REQUIRE(dir.has_value());
  CHECK(dir->files().size() == 3);
  soak::options seven{.iterations = 7};
  const soak::outcome cyc = run_ok(*dir, seven, packs);
  CHECK(statuses(cyc) == "pfppfpp");  // a b c a b c a
  const auto res = soak::make_report(cyc, packs, seven).results;
  const auto ci = res.pass_rate_ci95.value();
  const auto [low, high] = wilson_here(5, 7);
  CHECK(std::fabs(ci[0].value() - low) < 1e-12);
  CHECK(std::fabs(ci[1].value() - high) < 1e-12);
  CHECK(res.violations_by_rule->at("soakp@1.0.0:E-1").value() == 2);
  CHECK(res.violations_by_rule->at("soakp@1.0.0:W-1").value() == 7);
  CHECK(res.first_failure_at->value().value() == 2);
  CHECK(!res.pass_all);
}

TEST_CASE("soak: early stops; runs not started are not counted") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  temp_dir d;
  d.write("1.tar.gz", good_bundle());
  d.write("2.tar.gz", bad_bundle());
  auto dir = soak::directory_target::open(d.path.string());
  REQUIRE(dir.has_value());

  soak::options first{.iterations = 10, .stop_on_first_failure = true};
  const soak::outcome a = run_ok(*dir, first, packs);
  CHECK(statuses(a) == "pf");
  CHECK(a.stopped_early);
  CHECK(a.stop_reason == "run 2 did not pass (--stop-on-first-failure)");
  const auto rep = soak::make_report(a, packs, first);
  CHECK(rep.results.runs.value() == 2);
  CHECK(rep.iterations.value() == 10);
  CHECK(!rep.results.pass_all);

  soak::options two{.iterations = 10, .max_failures = 2};
  const soak::outcome b = run_ok(*dir, two, packs);
  CHECK(statuses(b) == "pfpf");
  CHECK(b.stop_reason == "2 run(s) did not pass (--max-failures 2)");
  CHECK(soak::make_report(b, packs, two).decision_policy->max_failures->value() == 2);
}

TEST_CASE("soak: commands — failures every fourth seed, an invalid bundle, a hang killed at the budget") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  temp_dir d;
  const std::string good = d.write("good.tar.gz", good_bundle());

  // Exit 3 for every seed divisible by 4, after a line on stderr.
  soak::command_target every4(
      "if [ $(( {seed} % 4 )) -eq 0 ]; then echo starting >&2; echo \"agent crashed on seed {seed}\" >&2; exit 3; fi; "
      "cp " +
          good + " {out}",
      d.path.string());
  soak::options o{.iterations = 8, .seed = 1};
  const soak::outcome r = run_ok(every4, o, packs);
  CHECK(statuses(r) == "pppipppi");
  REQUIRE(r.runs[3].error.has_value());
  CHECK(r.runs[3].error->kind == "subprocess_failed");
  CHECK(r.runs[3].error->message == "the command exited with status 3; last stderr line: agent crashed on seed 4");
  const auto res = soak::make_report(r, packs, o).results;
  CHECK(res.infra_errors.value() == 2);
  CHECK(res.infra_errors_by_kind->at("subprocess_failed").value() == 2);
  CHECK(res.first_failure_at->value().value() == 4);
  // Each run's directory is gone once judged.
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 1);

  // Exit 0 with garbage at {out}, or with nothing there.
  soak::command_target garbage("printf 'not gzip' > {out}", d.path.string());
  const soak::outcome g = run_ok(garbage, {.iterations = 1}, packs);
  REQUIRE(g.runs[0].error.has_value());
  CHECK(g.runs[0].error->kind == "bundle_invalid");
  CHECK(g.runs[0].error->message ==
        "IntegrityGzip: the gzip stream is invalid: it does not start with the gzip magic bytes 1f 8b");
  soak::command_target nothing("true", d.path.string());
  const soak::outcome n = run_ok(nothing, {.iterations = 1}, packs);
  CHECK(n.runs[0].error->kind == "bundle_invalid");
  CHECK(n.runs[0].error->message == "the command exited 0 but wrote no bundle to {out}");
  soak::command_target signalled("kill -9 $$", d.path.string());
  const soak::outcome k = run_ok(signalled, {.iterations = 1}, packs);
  CHECK(k.runs[0].error->message == "the command was killed by signal 9");

  // A command that hangs, leaving a child behind: killed with its group when the 1 s budget
  // ends; the next run is never started.
  const auto began = soak::clock::now();
  soak::command_target hang("sleep 30 & sleep 30; cp " + good + " {out}", d.path.string());
  const soak::outcome h = run_ok(hang, {.iterations = 3, .time_budget_secs = 1}, packs);
  const auto took = soak::clock::now() - began;
  CHECK(statuses(h) == "i");
  CHECK(h.runs[0].error->kind == "time_budget_exceeded");
  CHECK(h.runs[0].error->message ==
        "the command was still running when the time budget ended; killed with its process group");
  CHECK(h.stop_reason == "the time budget of 1 s was spent");
  CHECK(took < std::chrono::seconds(10));
}

TEST_CASE("soak: the time budget stops a soak between runs") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  temp_dir d;
  const std::string good = d.write("good.tar.gz", good_bundle());
  // Run 1 (seed 0) is quick; run 2 hangs until the 2 s budget ends and is killed; run 3 is never
  // started (whatever the machine's speed, as long as run 1 takes under 2 s).
  soak::command_target slow("if [ {seed} -eq 0 ]; then cp " + good + " {out}; else sleep 30; fi", d.path.string());
  const soak::outcome r = run_ok(slow, {.iterations = 5, .time_budget_secs = 2}, packs);
  CHECK(statuses(r) == "pi");
  CHECK(r.runs[1].error->kind == "time_budget_exceeded");
  CHECK(r.stop_reason == "the time budget of 2 s was spent");
}

TEST_CASE("soak: seeds are seed + i - 1 modulo 2^64, and {seed}/{out} are replaced") {
  struct recording final : soak::target {
    std::vector<std::uint64_t> seeds;
    std::string_view bytes;
    soak::produced produce(std::uint64_t, std::uint64_t seed, soak::clock::time_point) override {
      seeds.push_back(seed);
      return {{}, bytes, {}};
    }
  } t;
  t.bytes = good_bundle();
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  const soak::outcome r = run_ok(t, {.iterations = 3, .seed = UINT64_MAX}, packs);
  CHECK(t.seeds == std::vector<std::uint64_t>{UINT64_MAX, 0, 1});
  CHECK(r.runs[1].seed == 0);
  // The report's seed is a JSON number: above 2^53 the contract refuses it.
  auto bytes = assay::encode(soak::make_report(r, packs, {.iterations = 3, .seed = UINT64_MAX}));
  REQUIRE_FALSE(bytes.has_value());
  CHECK(bytes.error().front().pointer == "/seed");

  soak::command_target c("agent --seed {seed} --out {out} --again {seed}", "w");
  CHECK(c.command_for(42, "/tmp/r/run-1/bundle.tar.gz") ==
        "agent --seed 42 --out /tmp/r/run-1/bundle.tar.gz --again 42");
  CHECK(c.command_for(1, "/tmp/my dir/it's") == "agent --seed 1 --out '/tmp/my dir/it'\\''s' --again 1");
}

TEST_CASE("soak: --jobs 4 gives the one-job report but for durations") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  temp_dir d;
  const std::string good = d.write("good.tar.gz", good_bundle());
  const std::string bad = d.write("bad.tar.gz", bad_bundle());
  // Seeds decide: every third is bad, every fifth crashes.
  const std::string cmd =
      "s={seed}; if [ $((s % 5)) -eq 0 ]; then exit 1; fi; "
      "if [ $((s % 3)) -eq 0 ]; then cp " +
      bad + " {out}; else cp " + good + " {out}; fi";
  soak::command_target one(cmd, d.path.string());
  soak::command_target four(cmd, d.path.string());
  soak::options o1{.iterations = 16, .seed = 1, .jobs = 1};
  soak::options o4{.iterations = 16, .seed = 1, .jobs = 4};
  const soak::outcome a = run_ok(one, o1, packs);
  const soak::outcome b = run_ok(four, o4, packs);
  CHECK(statuses(a) == "ppfpifppfipfppip");
  CHECK(report_bytes(a, packs, o1) == report_bytes(b, packs, o1));
}

TEST_CASE("soak: Jeffreys' interval is Boost.Math's Beta quantiles") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  temp_dir d;
  d.write("1.tar.gz", good_bundle());
  d.write("2.tar.gz", good_bundle());
  d.write("3.tar.gz", bad_bundle());
  auto dir = soak::directory_target::open(d.path.string());
  REQUIRE(dir.has_value());
  soak::options o{.iterations = 6, .interval = &assay::stats::jeffreys<>};
  const soak::outcome r = run_ok(*dir, o, packs);
  CHECK(statuses(r) == "ppfppf");
  const auto ci = soak::make_report(r, packs, o).results.pass_rate_ci95.value();
  const boost::math::beta_distribution<double> posterior(4.5, 2.5);
  CHECK(ci[0].value() == boost::math::quantile(posterior, 0.025));
  CHECK(ci[1].value() == boost::math::quantile(posterior, 0.975));
}

TEST_CASE("soak: refusals") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  soak::bundle_bytes_target t(good_bundle());
  auto zero = soak::run(packs, t, {.iterations = 0});
  REQUIRE_FALSE(zero.has_value());
  CHECK(zero.error().message == "a soak needs at least one iteration");
  auto no_time = soak::run(packs, t, {.iterations = 1, .time_budget_secs = 0});
  REQUIRE_FALSE(no_time.has_value());
  CHECK(no_time.error().message == "the time budget must be at least 1 second");
  auto empty = soak::directory_target::open(fs::temp_directory_path().string() + "/assay-no-such-dir-for-soak");
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().code == assay::errc::io_error);
  temp_dir d;
  d.write(".only-hidden", "x");
  auto hidden = soak::directory_target::open(d.path.string());
  REQUIRE_FALSE(hidden.has_value());
  CHECK(hidden.error().message == "the directory " + d.path.string() + " holds no bundle (no regular file)");

  // A bundle that does not verify: every run is an infra error, bundle_invalid.
  soak::bundle_bytes_target broken("not a bundle");
  const soak::outcome r = run_ok(broken, {.iterations = 2}, packs);
  CHECK(statuses(r) == "ii");
  CHECK(r.runs[0].error->kind == "bundle_invalid");
}

namespace {

// A target whose bundle comes only once the deadline has passed: its verification and lint run
// past the time budget from their first event.
class late_target final : public soak::target {
 public:
  explicit late_target(std::string_view bytes) : bytes_(bytes) {}
  soak::produced produce(std::uint64_t, std::uint64_t, soak::clock::time_point deadline) override {
    std::this_thread::sleep_until(deadline + std::chrono::milliseconds(5));
    return {{}, bytes_, {}};
  }

 private:
  std::string_view bytes_;
};

// True while `pid` is a process that has not ended (a zombie has ended).
bool running(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z' && text[paren + 2] != 'X';
}

}  // namespace

TEST_CASE("soak: the time budget ends a verification and lint in progress") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  late_target late(good_bundle());
  const soak::outcome r = run_ok(late, {.iterations = 3, .time_budget_secs = 1}, packs);
  CHECK(statuses(r) == "i");
  REQUIRE(r.runs[0].error.has_value());
  CHECK(r.runs[0].error->kind == "time_budget_exceeded");
  CHECK(r.runs[0].error->message == "the time budget ended while the bundle was being verified and linted");
  CHECK(r.runs[0].violated_rules.empty());
  CHECK(r.stop_reason == "the time budget of 1 s was spent");
  CHECK(r.interrupted == 0);

  // judge() alone: a deadline already spent ends the pass at its first event; none, it runs.
  soak::options o;
  const soak::run_record spent = soak::judge(packs, {{}, good_bundle(), {}}, o, soak::clock::now());
  CHECK(spent.error->kind == "time_budget_exceeded");
  const soak::run_record open = soak::judge(packs, {{}, good_bundle(), {}}, o);
  CHECK(open.status == soak::run_status::pass);
}

TEST_CASE("soak: a time budget past the clock's range is refused, not wrapped") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  soak::bundle_bytes_target t(good_bundle());
  auto r = soak::run(packs, t, {.iterations = 1, .time_budget_secs = INT64_MAX});
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "the time budget of 9223372036854775807 s is past what the clock can count to");
}

TEST_CASE("soak: a stop request starts no run and ends the runs in flight, their groups killed") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  {  // set before the soak: nothing runs
    soak::stop_request stop;
    stop.signal = SIGTERM;
    soak::bundle_bytes_target t(good_bundle());
    const soak::outcome r = run_ok(t, {.iterations = 3, .stop = &stop}, packs);
    CHECK(r.runs.empty());
    CHECK(r.stopped_early);
    CHECK(r.interrupted == SIGTERM);
    CHECK(r.stop_reason == "interrupted by signal 15");
  }
  // Set while two commands hang, each with a child in the background: both runs end as
  // `interrupted`, every process of their groups is killed, no third run starts.
  temp_dir d;
  const std::string pids = (d.path / "pids").string();
  int wake[2];
  REQUIRE(::pipe(wake) == 0);
  soak::stop_request stop;
  stop.wake_fd = wake[0];
  soak::command_target hang("echo $$ >> " + pids + "; sleep 60 & echo $! >> " + pids + "; wait", d.path.string(),
                            &stop);
  std::thread stopper([&] {
    for (int i = 0; i < 2000; ++i) {  // until both runs have written their two pids (at most 20 s)
      std::ifstream in(pids);
      std::string line;
      int n = 0;
      while (std::getline(in, line))
        ++n;
      if (n == 4)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    stop.signal.store(SIGINT);
    [[maybe_unused]] const auto n = ::write(wake[1], "x", 1);
  });
  const auto began = soak::clock::now();
  const soak::outcome r = run_ok(hang, {.iterations = 5, .jobs = 2, .stop = &stop}, packs);
  stopper.join();
  CHECK(soak::clock::now() - began < std::chrono::seconds(30));
  CHECK(statuses(r) == "ii");
  for (const auto& x : r.runs) {
    CHECK(x.error->kind == "interrupted");
    CHECK(x.error->message == "the soak was interrupted while the command was running; killed with its process group");
  }
  CHECK(r.interrupted == SIGINT);
  CHECK(r.stop_reason == "interrupted by signal 2");
  std::ifstream in(pids);
  std::vector<std::string> listed;
  for (std::string line; std::getline(in, line);)
    listed.push_back(line);
  CHECK(listed.size() == 4);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // SIGKILL delivered: they end
  for (const std::string& pid : listed)
    CHECK_MESSAGE(!running(pid), pid);
  // Only the pid file is left: every run's directory is gone.
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 1);
  ::close(wake[0]);
  ::close(wake[1]);
}

namespace {

// Bundles in memory by seed: every third bad, every seventh a crash (SPEC §12 "Past one machine").
struct seeded_target : soak::target {
  soak::produced produce(std::uint64_t, std::uint64_t seed, soak::clock::time_point) override {
    if (seed % 7 == 0)
      return {{}, {}, soak::infra_error{"subprocess_failed", "seed " + std::to_string(seed)}};
    return {{}, seed % 3 == 0 ? bad_bundle() : good_bundle(), {}};
  }
};

std::string zero_durations(assay::contracts::soak_report r) {
  for (auto& x : *r.runs)
    x.duration_ms = 0;
  auto bytes = assay::encode(r);
  REQUIRE(bytes.has_value());
  return *bytes;
}

}  // namespace

TEST_CASE("soak shards: each runs (i - 1) mod N = I with its index's seed; merged, the one-machine report") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  for (const bool jeffreys : {false, true}) {
    CAPTURE(jeffreys);
    soak::options o{.iterations = 11, .seed = 5, .jobs = 2};
    if (jeffreys)
      o.interval = &assay::stats::jeffreys<>;
    const soak::report_options ro{.generated_at = "2023-11-14T22:13:20Z", .suite = "nightly"};
    seeded_target t;
    const soak::outcome whole = run_ok(t, o, packs);
    CHECK(statuses(whole) == "pfipfppfpif");
    const auto one = soak::make_report(whole, packs, o, ro);

    std::vector<assay::contracts::soak_report> shards;
    for (const std::uint64_t i : {2u, 0u, 3u, 1u}) {  // any order
      soak::options so = o;
      so.shard = soak::shard_spec{i, 4};
      const soak::outcome part = run_ok(t, so, packs);
      std::vector<std::uint64_t> idx;
      for (const auto& r : part.runs) {
        idx.push_back(r.index);
        CHECK(r.seed == 5 + r.index - 1);
      }
      std::vector<std::uint64_t> want;
      for (std::uint64_t k = i + 1; k <= 11; k += 4)
        want.push_back(k);
      CHECK(idx == want);
      CHECK_FALSE(part.stopped_early);
      shards.push_back(soak::make_report(part, packs, so, ro));
      CHECK(*shards.back().suite == "nightly; shard " + std::to_string(i) + "/4");
      CHECK_FALSE(shards.back().results.pass_all);
    }
    auto m = soak::merge(shards, {.generated_at = "2023-11-14T22:13:20Z"});
    REQUIRE_MESSAGE(m.has_value(), (m ? std::string() : m.error().message));
    CHECK(m->interval == (jeffreys ? "jeffreys" : "wilson"));
    CHECK(zero_durations(m->report) == zero_durations(one));
    CHECK(m->runs.stop_reason.empty());
  }
}

TEST_CASE("soak shards: a shard's suite, written and read back") {
  CHECK(soak::shard_suite(std::nullopt, {0, 3}) == "shard 0/3");
  CHECK(soak::shard_suite(std::string("nightly"), {12, 40}) == "nightly; shard 12/40");
  for (const std::string s : {"shard 0/3", "nightly; shard 2/3", "a; b; shard 10/11"}) {
    auto p = soak::parse_shard_suite(s);
    REQUIRE(p.has_value());
    CHECK(soak::shard_suite(p->suite, p->shard) == s);
  }
  for (const std::string s : {"shard 3/3", "shard 0/0", "shard 01/3", "shard 0/03", "shard 0/3 ", "nightly;shard 0/3",
                              "xshard 0/3", "shard 0/", "shard /3", "shard -1/3", "shard 0/3/4", "nightly", ""})
    CHECK_MESSAGE(!soak::parse_shard_suite(s).has_value(), s);
  CHECK(soak::shard_runs({1, 3}, 14) == "2, 5, 8, 11, …");
  CHECK(soak::shard_runs({2, 3}, 6) == "3, 6");
  CHECK(soak::shard_spec{1, 4}.runs_of(11) == 3);
  CHECK(soak::shard_spec{3, 4}.runs_of(11) == 2);
  CHECK(soak::shard_spec{3, 4}.runs_of(3) == 0);
}

TEST_CASE("soak shards: refused shard options") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  seeded_target t;
  for (const auto& [shard, message] : std::vector<std::pair<soak::shard_spec, std::string>>{
           {{0, 0}, "shard 0/0: the index must be below the count"},
           {{3, 3}, "shard 3/3: the index must be below the count"},
           {{4, 5}, "shard 4/5 has no run: the soak has only 4 iteration(s)"}}) {
    soak::options o{.iterations = 4, .shard = shard};
    auto r = soak::run(packs, t, o);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == message);
  }
  // The last shard of a soak of 2^64 - 1 iterations does not wrap around.
  CHECK(soak::shard_spec{UINT64_MAX - 1, UINT64_MAX}.runs_of(UINT64_MAX) == 1);
  CHECK(soak::shard_runs({UINT64_MAX - 2, UINT64_MAX - 1}, UINT64_MAX) == "18446744073709551614");
}

TEST_CASE("soak shards: a report's word for the count costs nothing (a hostile 2^60 shards)") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  seeded_target t;
  soak::options o{.iterations = 3, .seed = 1};
  o.shard = soak::shard_spec{0, 3};
  auto r = soak::make_report(run_ok(t, o, packs), packs, o);
  const std::uint64_t huge = std::uint64_t{1} << 60;
  r.iterations = static_cast<std::int64_t>(huge);
  r.suite = "shard 0/" + std::to_string(huge);
  const std::vector<assay::contracts::soak_report> one{r};
  auto m = soak::merge(one, {.names = {"big.json"}});
  REQUIRE_FALSE(m.has_value());
  CHECK(m.error().message == "shard 1/1152921504606846976 is missing: runs 2 are in no shard report");
}

TEST_CASE("soak drift: two decision policies are refused, by the comparison merge uses") {
  const std::vector<lint::loaded_pack> packs{soak_pack()};
  soak::bundle_bytes_target t(good_bundle());
  soak::options on_error{.iterations = 2}, on_warning{.iterations = 2, .fail_on = lint::severity::warning};
  const auto a = soak::make_report(run_ok(t, on_error, packs), packs, on_error);
  const auto b = soak::make_report(run_ok(t, on_warning, packs), packs, on_warning);
  CHECK_FALSE(soak::decision_policies_differ(a.decision_policy, a.decision_policy).has_value());
  const std::string why =
      "the two soaks used different decision policies: the baseline "
      R"({"pass_on_severity_at_or_above":"error","stop_on_first_failure":false}, the candidate )"
      R"({"pass_on_severity_at_or_above":"warning","stop_on_first_failure":false})";
  CHECK(soak::decision_policies_differ(a.decision_policy, b.decision_policy).value() == why);
  auto d = soak::drift(a, b, {.allow_pack_change = true});
  REQUIRE_FALSE(d.has_value());
  CHECK(d.error().code == assay::errc::invalid_argument);
  CHECK(d.error().message == why);
  CHECK(soak::drift(a, a).has_value());
  auto none = a;
  none.decision_policy.reset();
  CHECK(soak::decision_policies_differ(none.decision_policy, a.decision_policy).value() ==
        "the two soaks used different decision policies: the baseline none, the candidate "
        R"({"pass_on_severity_at_or_above":"error","stop_on_first_failure":false})");
  CHECK(soak::decision_policy_of(on_warning).pass_on_severity_at_or_above ==
        b.decision_policy->pass_on_severity_at_or_above);
}
