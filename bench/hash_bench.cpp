// Hashing canonical JSON: what streaming through hash_sink costs against hashing bytes that are
// already in memory.
//
//   bench_hash [google-benchmark flags]        (ASSAY_BENCH_MB=64 sets the size of each document)
//
// Three documents, each with its own baseline: sha256 of its canonical bytes, prebuilt in memory.
//   dom/     an evidence-like DOM document (json::value)
//   events/  the same kind of events as typed values: evidence_event<tool_decision>, a list
//   soak/    a soak-report-v1 of 100,000 runs (typed; mostly small numbers and short strings)
// Compared with each baseline, in the same run:
//   sink_single/40     the same bytes through hash_sink in 40-byte writes, helper thread off
//   sink_pipelined/40  the same, helper thread on (the default above 64 KiB)
//   sink_pipelined/16k the same in 16 KiB writes (what json::writer hands its sink)
//   digest_of/single   digest_of<sha256>(value): serialize + hash, streamed, one thread
//   digest_of/pipelined the same with the helper thread hashing (the default)
//   serialize          serialization alone into a counting sink (no hash), for reference
// And many short messages, as the verifier hashes one projection per event (hash/sha256_each.hpp):
//   messages/sha256_prebuilt  each of 90,000 messages of 200..1,000 bytes through hash::sha256, one
//                             at a time (the baseline)
//   messages/sha256_each      the same messages through sha256_each (two at a time with the SHA
//                             extensions, where the processor has them)
// Each line of the summary is real time relative to its document's baseline (1.00 = as fast).
#include "soak_doc.hpp"

#include "assay/contracts/event.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/hash/digest_of.hpp"
#include "assay/hash/hash.hpp"
#include "assay/hash/sha256_each.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
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

using typed_event = assay::contracts::evidence_event<assay::contracts::tool_decision>;

// Typed evidence events: a tool decision each, with the envelope of a real bundle.
std::vector<typed_event> make_events(std::size_t bytes) {
  std::vector<typed_event> out;
  std::size_t approx = 0;
  static const char* const tools[] = {"fs.read_file", "fs.write_file", "shell.exec", "http.get"};
  for (std::size_t i = 0; approx < bytes; ++i) {
    typed_event e;
    e.type = std::string("assay.tool.decision");
    e.source = std::string("urn:assay:bench-agent");
    e.assayrunid = std::string("run_8f3a1c2d9e");
    e.assayseq = static_cast<std::int64_t>(i);
    e.id = "run_8f3a1c2d9e:" + std::to_string(i);
    e.time = "2025-06-01T12:" + std::string(i % 60 < 10 ? "0" : "") + std::to_string(i % 60) + ":00." +
             std::to_string(100 + i % 900) + "Z";
    e.subject = std::string(tools[i % 4]);
    e.assayproducer = "bench-runtime";
    e.assayproducerversion = "1.4.0";
    e.assaycontenthash = std::string("sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
    e.data.tool = tools[i % 4];
    if (i % 5 == 0)
      e.data.decision = "deny";
    else
      e.data.decision = "allow";
    e.data.reason_code = i % 5 == 0 ? "P_PATH_OUTSIDE_WORKSPACE" : "P_OK";
    e.data.policy_digest = std::string("sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae");
    e.data.args_schema_hash = std::string("sha256:fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9");
    e.data.delegated_from = "planner step " + std::to_string(i % 13) + ": read the workspace sources and summarize";
    out.push_back(std::move(e));
    approx += 600;
  }
  return out;
}

// A document and its canonical bytes.
template <class T>
struct fixture {
  T value;
  std::string canon;
};

template <class T>
std::string canonical_of(const T& v) {
  if constexpr (std::is_same_v<T, json::value>) {
    return json::to_canonical(v).value();
  } else {
    return assay::encode(v).value();
  }
}

template <class T, class Make>
const fixture<T>& data(Make make) {
  static const fixture<T> f = [&] {
    fixture<T> x{make(), {}};
    x.canon = canonical_of(x.value);
    return x;
  }();
  return f;
}

const fixture<json::value>& dom() {
  return data<json::value>([] { return make_document(target_bytes()); });
}
const fixture<std::vector<typed_event>>& events() {
  return data<std::vector<typed_event>>([] { return make_events(target_bytes()); });
}
const fixture<assay::contracts::soak_report>& soak_doc() {
  return data<assay::contracts::soak_report>([] { return assay_bench::make_soak_report(100000); });
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

template <class F>
void sha256_prebuilt(benchmark::State& st, F doc) {
  const auto& f = doc();
  for (auto _ : st)
    benchmark::DoNotOptimize(digest_bytes<sha256>(f.canon));
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(f.canon.size()));
}

template <class F>
void sha256_sink(benchmark::State& st, F doc, const sink_options& o, std::size_t step) {
  const auto& f = doc();
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

template <class F>
void digest_of_value(benchmark::State& st, F doc, const sink_options& o) {
  const auto& f = doc();
  const auto expect = digest_bytes<sha256>(f.canon);
  for (auto _ : st) {
    auto d = digest_of<sha256>(f.value, o);
    if (!d || *d != expect)
      st.SkipWithError("digest differs from the one-shot digest");
    benchmark::DoNotOptimize(d);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(f.canon.size()));
}

template <class F>
void serialize(benchmark::State& st, F doc) {
  const auto& f = doc();
  for (auto _ : st) {
    json::counting_sink c;
    if constexpr (std::is_same_v<std::decay_t<decltype(f.value)>, json::value>) {
      benchmark::DoNotOptimize(json::to_sink(c, f.value));
    } else {
      benchmark::DoNotOptimize(assay::reflect::encode_to(c, f.value));
    }
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

// 90,000 messages of 200..1,000 bytes (fixed lengths from a simple generator), one buffer.
struct message_set {
  std::string bytes;
  std::vector<std::string_view> views;
};
const message_set& messages() {
  static const message_set m = [] {
    message_set out;
    std::vector<std::size_t> lengths;
    std::uint32_t x = 12345;
    for (int i = 0; i < 90000; ++i) {
      x = x * 1103515245u + 12345u;
      lengths.push_back(200 + (x >> 8) % 801);
    }
    for (std::size_t len : lengths)
      for (std::size_t j = 0; j < len; ++j)
        out.bytes.push_back(static_cast<char>('a' + (j * 7 + len) % 26));
    std::size_t at = 0;
    for (std::size_t len : lengths) {
      out.views.emplace_back(out.bytes.data() + at, len);
      at += len;
    }
    return out;
  }();
  return m;
}

void messages_one_at_a_time(benchmark::State& st) {
  const auto& m = messages();
  std::vector<sha256_bytes> out(m.views.size());
  for (auto _ : st) {
    detail::sha256_lanes::each_alone(m.views.data(), m.views.size(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(m.bytes.size()));
}

void messages_each(benchmark::State& st) {
  const auto& m = messages();
  std::vector<sha256_bytes> out(m.views.size()), alone(m.views.size());
  detail::sha256_lanes::each_alone(m.views.data(), m.views.size(), alone.data());
  for (auto _ : st) {
    sha256_each(m.views.data(), m.views.size(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  if (out != alone)
    st.SkipWithError("sha256_each differs from one message at a time");
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(m.bytes.size()));
}

// Console output as usual, then each benchmark's median real time over its document's baseline
// ("<doc>/sha256_prebuilt").
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
      const std::string base = name.substr(0, name.find('/')) + "/sha256_prebuilt";
      if (!times_.count(base))
        continue;
      std::printf("  %-30s %6.3f  (baseline %s)\n", name.c_str(), median(times_[name]) / median(times_[base]),
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

template <class F>
void register_document(const std::string& name, F doc, bool sink_variants) {
  auto reg = [&](const std::string& what, auto&&... args) {
    benchmark::RegisterBenchmark((name + "/" + what).c_str(), args...)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  reg("sha256_prebuilt", [doc](benchmark::State& st) { sha256_prebuilt(st, doc); });
  if (sink_variants) {
    reg("sink_single/40", [doc](benchmark::State& st) { sha256_sink(st, doc, single_thread, 40); });
    reg("sink_pipelined/40", [doc](benchmark::State& st) { sha256_sink(st, doc, sink_options{}, 40); });
    reg("sink_pipelined/16k", [doc](benchmark::State& st) { sha256_sink(st, doc, sink_options{}, 16384); });
  }
  reg("digest_of/single", [doc](benchmark::State& st) { digest_of_value(st, doc, single_thread); });
  reg("digest_of/pipelined", [doc](benchmark::State& st) { digest_of_value(st, doc, sink_options{}); });
  reg("serialize", [doc](benchmark::State& st) { serialize(st, doc); });
}

}  // namespace

int main(int argc, char** argv) {
  register_document("dom", dom, true);
  register_document("events", events, false);
  register_document("soak", soak_doc, false);
  benchmark::RegisterBenchmark("small/sha256_prebuilt", small_prebuilt)->UseRealTime();
  benchmark::RegisterBenchmark("small/digest_of", small_digest_of)->UseRealTime();
  benchmark::RegisterBenchmark("messages/sha256_prebuilt", messages_one_at_a_time)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("messages/sha256_each", messages_each)->Unit(benchmark::kMillisecond)->UseRealTime();

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  std::printf("documents: dom %zu, events %zu, soak %zu bytes of canonical JSON\n", dom().canon.size(),
              events().canon.size(), soak_doc().canon.size());
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
