// Parallel soak runs: the wall time of a soak whose runs are a 200 ms command, at --jobs 4
// against --jobs 1, in the same run.
//
//   soak_jobs_bench [--runs N] [--reps K] [--sleep SECONDS]     (defaults: 40 runs, 3 reps, 0.2)
//
// The command sleeps, then copies a small valid bundle to {out}; each run's bundle is verified
// and linted with the default pack, as `assay sim soak --exec` does. Each repetition runs the
// soak with one job, then with four. Printed: min and median wall time of each, and their ratio
// (the goal: at most 0.3). Sleeping commands leave the cores idle, so the figure measures the
// scheduling, not the machine's core count.
#include "assay/evidence/writer.hpp"
#include "assay/lint/resolve.hpp"
#include "assay/soak/engine.hpp"
#include "assay/soak/targets.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
namespace soak = assay::soak;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// A bundle of three events that the default pack passes.
std::string small_bundle() {
  namespace json = assay::json;
  std::vector<json::value> events;
  const char* types[] = {"assay.profile.started", "assay.tool.decision", "assay.profile.finished"};
  const char* data[] = {R"({"profile_name":"p","profile_version":"1","total_runs_aggregated":1})",
                        R"({"tool":"t","decision":"allow","reason_code":"r"})",
                        R"({"files_count":0,"network_count":0,"processes_count":0,"sandbox_degradation_count":0})"};
  for (int i = 0; i < 3; ++i) {
    json::value e =
        json::parse(R"({"specversion":"1.0","source":"urn:assay:bench","datacontenttype":"application/json",)"
                    R"("assaypii":false,"assaysecrets":false,"assayproducer":"bench","assayproducerversion":"1",)"
                    R"("assaygit":"unknown","time":"2026-01-02T03:04:05Z","assayrunid":"r"})")
            .value();
    e.set("type", std::string(types[i]));
    e.set("assayseq", static_cast<double>(i));
    e.set("id", "r:" + std::to_string(i));
    e.set("data", json::parse(data[i]).value());
    events.push_back(std::move(e));
  }
  auto b = assay::evidence::write_bundle(events);
  if (!b) {
    std::fprintf(stderr, "cannot write the bundle: %s\n", b.error().front().format().c_str());
    std::exit(1);
  }
  return *b;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t runs = 40;
  int reps = 3;
  std::string sleep = "0.2";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--runs")
      runs = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (a == "--sleep")
      sleep = argv[i + 1];
  }
  const fs::path dir = fs::temp_directory_path() / ("assay-soak-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path bundle = dir / "bundle.tar.gz";
  std::ofstream(bundle, std::ios::binary) << small_bundle();
  auto packs = assay::lint::load_packs(std::vector<std::string>{});
  if (!packs) {
    std::fprintf(stderr, "cannot load the default pack\n");
    return 1;
  }
  const std::string cmd = "sleep " + sleep + "; cp '" + bundle.string() + "' {out}";
  using clock = std::chrono::steady_clock;
  std::vector<double> t1, t4;
  for (int r = 0; r < reps; ++r) {
    for (unsigned jobs : {1u, 4u}) {
      soak::command_target target(cmd, dir.string());
      soak::options o{.iterations = runs, .jobs = jobs};
      const auto t0 = clock::now();
      auto out = soak::run(*packs, target, o);
      const double s = std::chrono::duration<double>(clock::now() - t0).count();
      if (!out || out->passes != runs) {
        std::fprintf(stderr, "the soak did not pass every run\n");
        return 1;
      }
      (jobs == 1 ? t1 : t4).push_back(s);
    }
  }
  fs::remove_all(dir);
  const double min1 = *std::min_element(t1.begin(), t1.end()), med1 = median(t1);
  const double min4 = *std::min_element(t4.begin(), t4.end()), med4 = median(t4);
  std::printf("%llu runs of a %s s command, %d repetitions\n", static_cast<unsigned long long>(runs), sleep.c_str(),
              reps);
  std::printf("--jobs 1          min %8.1f ms  median %8.1f ms\n", min1 * 1e3, med1 * 1e3);
  std::printf("--jobs 4          min %8.1f ms  median %8.1f ms\n", min4 * 1e3, med4 * 1e3);
  std::printf("jobs 4 / jobs 1   min %8.3f     median %8.3f     (goal: at most 0.3)\n", min4 / min1, med4 / med1);
  return 0;
}
