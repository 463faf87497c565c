// Hashing canonical JSON: what streaming through hash_sink costs against hashing bytes that are
// already in memory.
//
//   bench_hash [google-benchmark flags]        (ASSAY_BENCH_MB=64 sets the input size)
//
// Baseline: sha256 of a prebuilt buffer (the canonical bytes of a generated document).
// Compared with it, in the same run:
//   sink_single/40     the same bytes through hash_sink in 40-byte writes, helper thread off
//   sink_pipelined/40  the same, helper thread on (the default above 1 MiB)
//   sink_pipelined/16k the same in 16 KiB writes (what json::writer hands its sink)
//   digest_of_dom      digest_of<sha256>(document): serialize + hash, streamed
//   serialize_dom      serialization alone into a counting sink (no hash), for reference
// Each line of the summary is real time relative to the baseline (1.00 = as fast).
#include "assay/hash/hash.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace {

namespace json = assay::json;
using namespace assay::hash;

std::size_t target_bytes() {
  const char* mb = std::getenv("ASSAY_BENCH_MB");
  const long v = mb ? std::atol(mb) : 64;
  return static_cast<std::size_t>(v > 0 ? v : 64) << 20;
}

// An evidence-like document: an array of events with text, numbers, flags and small arrays.
json::value make_document(std::size_t bytes) {
  json::array events;
  std::size_t approx = 0;
  for (std::size_t i = 0; approx < bytes; ++i) {
    json::object e;
    e.push_back({"type", json::value("assay.tool.decision")});
    e.push_back({"seq", json::value(static_cast<double>(i))});
    e.push_back({"time", json::value("2025-01-0" + std::to_string(1 + i % 9) + "T12:34:56.789Z")});
    e.push_back({"score", json::value(static_cast<double>(i % 1000) / 7.0)});
    e.push_back({"ok", json::value(i % 3 != 0)});
    e.push_back({"tool", json::value("fs.read_file#" + std::to_string(i % 97))});
    e.push_back({"args", json::value(json::array{json::value("src/main.cpp"),
                                                 json::value(static_cast<double>(i % 4096)), json::value(nullptr)})});
    e.push_back({"reason", json::value("policy allows reads under the workspace root; path normalized, "
                                       "no symlink escape, size below the limit (\"ok\")")});
    events.push_back(json::value(std::move(e)));
    approx += 330;
  }
  json::object root;
  root.push_back({"schema", json::value("assay.bench.v1")});
  root.push_back({"events", json::value(std::move(events))});
  return json::value(std::move(root));
}

struct fixture {
  json::value doc;
  std::string canon;
  fixture() : doc(make_document(target_bytes())), canon(json::to_canonical(doc).value()) {}
};

const fixture& data() {
  static const fixture f;
  return f;
}

const sink_options single_thread{std::numeric_limits<std::size_t>::max()};

void feed(hash_sink<sha256>& sink, const std::string& bytes, std::size_t step) {
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  while (static_cast<std::size_t>(end - p) > step) {
    sink.write(p, step);
    p += step;
  }
  sink.write(p, static_cast<std::size_t>(end - p));
}

void sha256_prebuilt(benchmark::State& st) {
  const auto& f = data();
  for (auto _ : st)
    benchmark::DoNotOptimize(digest_bytes<sha256>(f.canon));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(f.canon.size()));
}

void sha256_sink(benchmark::State& st, const sink_options& o, std::size_t step) {
  const auto& f = data();
  const auto expect = digest_bytes<sha256>(f.canon);
  for (auto _ : st) {
    hash_sink<sha256> sink(o);
    feed(sink, f.canon, step);
    auto d = sink.finish();
    if (d != expect)
      st.SkipWithError("digest differs from the one-shot digest");
    benchmark::DoNotOptimize(d);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(f.canon.size()));
}

void digest_of_dom(benchmark::State& st, const sink_options& o) {
  const auto& f = data();
  const auto expect = digest_bytes<sha256>(f.canon);
  for (auto _ : st) {
    auto d = digest_of<sha256>(f.doc, o);
    if (!d || *d != expect)
      st.SkipWithError("digest differs from the one-shot digest");
    benchmark::DoNotOptimize(d);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(f.canon.size()));
}

void serialize_dom(benchmark::State& st) {
  const auto& f = data();
  for (auto _ : st) {
    json::counting_sink c;
    benchmark::DoNotOptimize(json::to_sink(c, f.doc));
    benchmark::DoNotOptimize(c.bytes);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(f.canon.size()));
}

// Small values: no helper thread is started, so the sink must cost next to nothing.
void small_prebuilt(benchmark::State& st) {
  const std::string canon = json::to_canonical(make_document(1)).value();
  for (auto _ : st)
    benchmark::DoNotOptimize(digest_bytes<sha256>(canon));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(canon.size()));
}
void small_digest_of(benchmark::State& st) {
  const json::value doc = make_document(1);
  const std::size_t n = json::to_canonical(doc).value().size();
  for (auto _ : st)
    benchmark::DoNotOptimize(digest_of<sha256>(doc));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(n));
}

// Console output as usual, then each benchmark's median real time over the baseline's.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.run_type == Run::RT_Iteration && !r.error_occurred) {
        times_[r.run_name.function_name].push_back(r.GetAdjustedRealTime());
        if (std::find(order_.begin(), order_.end(), r.run_name.function_name) == order_.end()) {
          order_.push_back(r.run_name.function_name);
        }
      }
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nreal time relative to its baseline (median of repetitions):\n");
    for (const auto& name : order_) {
      const std::string base = name.rfind("small/", 0) == 0 ? "small/sha256_prebuilt" : "sha256_prebuilt";
      if (!times_.count(base))
        continue;
      std::printf("  %-28s %6.3f  (baseline %s)\n", name.c_str(), median(times_[name]) / median(times_[base]),
                  base.c_str());
    }
  }

 private:
  static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  }
  std::map<std::string, std::vector<double>> times_;
  std::vector<std::string> order_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::RegisterBenchmark("sha256_prebuilt", sha256_prebuilt)->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark("sink_single/40", sha256_sink, single_thread, std::size_t{40})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("sink_pipelined/40", sha256_sink, sink_options{}, std::size_t{40})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("sink_pipelined/16k", sha256_sink, sink_options{}, std::size_t{16384})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("digest_of_dom/single", digest_of_dom, single_thread)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("digest_of_dom/pipelined", digest_of_dom, sink_options{})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("serialize_dom", serialize_dom)->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark("small/sha256_prebuilt", small_prebuilt)->UseRealTime();
  benchmark::RegisterBenchmark("small/digest_of", small_digest_of)->UseRealTime();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  std::printf("input: %zu bytes of canonical JSON\n", data().canon.size());
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
