// json_bench — throughput of the JSON core and the typed codec (Google Benchmark).
//
//   baseline_byte_scan   one pass over the document counting quotes and backslashes: the
//                        floor any reader pays; every other line is also shown as a ratio to it
//   parse                json::parse of a ~25 MiB evidence document (bench/evidence_doc.hpp)
//   canonicalize         json::canonicalize of the same document (parse + JCS to a string)
//   write_canonical      json::to_canonical of the already parsed document (the writer alone)
//   document_parse       json::document::parse (the flat read-only tape), when the header exists
//   document_canonicalize  json::document::parse + canonical(): the tape path of `assay jcs`
//   encode_soak_report   assay::encode of a soak_report with 100,000 runs
//   decode_soak_report   assay::decode<soak_report> of that report's bytes
//   names_ordinary_parse, names_colliding_parse, names_ordinary_document,
//   names_colliding_document
//                        json::parse and json::document::parse of objects of 5,000 members whose
//                        names are ordinary, or chosen (by brute force at start-up) so that their
//                        std::hash values share one bucket of a std::unordered_set of that size:
//                        a reader whose duplicate check such names can aim at turns quadratic.
//                        The summary gives colliding / ordinary members per second from the
//                        same run (the two documents differ a little in size).
//
// Throughput is bytes of JSON text per second (input for the readers, output for the writers),
// through state.SetBytesProcessed. Inputs are generated with a fixed seed, so every run and
// every machine measures the same bytes.
#include "evidence_doc.hpp"
#include "soak_doc.hpp"

#include "assay/contracts/soak_report.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#if __has_include("assay/json/document.hpp")
#include "assay/json/document.hpp"
#define ASSAY_BENCH_HAS_DOCUMENT 1
#endif

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include <unistd.h>

namespace {

namespace json = assay::json;

const std::string& document() {
  static const std::string doc = assay_bench::make_evidence_document();
  return doc;
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "json_bench: %s\n", what.c_str());
  std::exit(1);
}

// --- the soak report ------------------------------------------------------------------------

using assay_bench::make_soak_report;

constexpr std::int64_t soak_runs = 100000;

const assay::contracts::soak_report& soak_report() {
  static const auto rep = make_soak_report(soak_runs);
  return rep;
}

const std::string& soak_report_bytes() {
  static const std::string bytes = [] {
    auto e = assay::encode(soak_report());
    if (!e)
      die("the benchmark soak report does not encode: " + e.error().format());
    return std::move(*e);
  }();
  return bytes;
}

// --- member names chosen to collide ---------------------------------------------------------

constexpr std::size_t names_per_object = 5000;
constexpr std::size_t names_objects = 40;

// `count` distinct short names: ordinary ones, or ones whose std::hash values are equal modulo
// the bucket count of a std::unordered_set<std::string_view> holding `count` names.
std::vector<std::string> member_names(std::size_t count, bool colliding) {
  std::size_t buckets = 1;
  if (colliding) {
    std::vector<std::string> filler;
    for (std::size_t i = 0; i < count; ++i)
      filler.push_back("f" + std::to_string(i));
    std::unordered_set<std::string_view> sizing(filler.begin(), filler.end());
    buckets = sizing.bucket_count();
  }
  const std::hash<std::string_view> h;
  std::vector<std::string> names;
  std::string s;
  for (std::uint64_t i = 0; names.size() < count; ++i) {
    s.clear();
    for (std::uint64_t v = i; s.empty() || v != 0; v /= 26)
      s += static_cast<char>('a' + v % 26);
    if (h(s) % buckets == 0)
      names.push_back(s);
  }
  return names;
}

// An array of objects with those names, out of canonical order.
std::string names_document(bool colliding) {
  const std::vector<std::string> names = member_names(names_per_object, colliding);
  std::string out = "[";
  for (std::size_t o = 0; o < names_objects; ++o) {
    out += o ? ",{" : "{";
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::size_t k = (i * 7919 + o) % names.size();
      out += (i ? ",\"" : "\"") + names[k] + "\":" + std::to_string(k);
    }
    out += "}";
  }
  return out + "]";
}

const std::string& names_doc(bool colliding) {
  static const std::string ordinary = names_document(false);
  static const std::string chosen = names_document(true);
  return colliding ? chosen : ordinary;
}

json::limits names_limits() {
  json::limits lim;
  lim.max_members = names_per_object;
  return lim;
}

template <bool Colliding>
void names_parse(benchmark::State& state) {
  const std::string& doc = names_doc(Colliding);
  const json::limits lim = names_limits();
  for (auto _ : state) {
    auto v = json::parse(doc, lim);
    if (!v) {
      state.SkipWithError(v.error().format().c_str());
      break;
    }
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(names_per_object * names_objects));
}

#ifdef ASSAY_BENCH_HAS_DOCUMENT
template <bool Colliding>
void names_document_parse(benchmark::State& state) {
  const std::string& doc = names_doc(Colliding);
  const json::limits lim = names_limits();
  for (auto _ : state) {
    auto d = json::document::parse(doc, lim);
    if (!d) {
      state.SkipWithError(d.error().format().c_str());
      break;
    }
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(names_per_object * names_objects));
}
#endif

// --- benchmarks -----------------------------------------------------------------------------

void baseline_byte_scan(benchmark::State& state) {
  const std::string& doc = document();
  for (auto _ : state) {
    std::size_t specials = 0;
    for (char c : doc)
      specials += static_cast<std::size_t>(c == '"') + static_cast<std::size_t>(c == '\\');
    benchmark::DoNotOptimize(specials);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
}

void parse(benchmark::State& state) {
  const std::string& doc = document();
  for (auto _ : state) {
    auto v = json::parse(doc);
    if (!v) {
      state.SkipWithError(v.error().format().c_str());
      break;
    }
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
}

void canonicalize(benchmark::State& state) {
  const std::string& doc = document();
  std::size_t out_size = 0;
  for (auto _ : state) {
    auto c = json::canonicalize(doc);
    if (!c) {
      state.SkipWithError(c.error().format().c_str());
      break;
    }
    out_size = c->size();
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
  state.counters["out_bytes"] = static_cast<double>(out_size);
}

void write_canonical(benchmark::State& state) {
  auto v = json::parse(document());
  if (!v)
    die("the benchmark document does not parse: " + v.error().format());
  std::size_t out_size = 0;
  for (auto _ : state) {
    auto c = json::to_canonical(*v);
    out_size = c->size();
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(out_size));
}

#ifdef ASSAY_BENCH_HAS_DOCUMENT
void document_parse(benchmark::State& state) {
  const std::string& doc = document();
  for (auto _ : state) {
    auto d = json::document::parse(doc);
    if (!d) {
      state.SkipWithError(d.error().format().c_str());
      break;
    }
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
}

void document_canonicalize(benchmark::State& state) {
  const std::string& doc = document();
  for (auto _ : state) {
    auto d = json::document::parse(doc);
    if (!d) {
      state.SkipWithError(d.error().format().c_str());
      break;
    }
    auto c = d->canonical();
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(doc.size()));
}
#endif

void encode_soak_report(benchmark::State& state) {
  const auto& rep = soak_report();
  std::size_t out_size = 0;
  for (auto _ : state) {
    auto e = assay::encode(rep);
    if (!e) {
      state.SkipWithError(e.error().format().c_str());
      break;
    }
    out_size = e->size();
    benchmark::DoNotOptimize(e);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(out_size));
  state.counters["runs"] = static_cast<double>(soak_runs);
}

void decode_soak_report(benchmark::State& state) {
  const std::string& bytes = soak_report_bytes();
  for (auto _ : state) {
    auto d = assay::decode<assay::contracts::soak_report>(bytes);
    if (!d) {
      state.SkipWithError(d.error().format().c_str());
      break;
    }
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes.size()));
  state.counters["runs"] = static_cast<double>(soak_runs);
}

BENCHMARK(baseline_byte_scan)->Unit(benchmark::kMillisecond);
BENCHMARK(parse)->Unit(benchmark::kMillisecond);
BENCHMARK(canonicalize)->Unit(benchmark::kMillisecond);
BENCHMARK(write_canonical)->Unit(benchmark::kMillisecond);
#ifdef ASSAY_BENCH_HAS_DOCUMENT
BENCHMARK(document_parse)->Unit(benchmark::kMillisecond);
BENCHMARK(document_canonicalize)->Unit(benchmark::kMillisecond);
#endif
BENCHMARK(encode_soak_report)->Unit(benchmark::kMillisecond);
BENCHMARK(decode_soak_report)->Unit(benchmark::kMillisecond);
BENCHMARK(names_parse<false>)->Name("names_ordinary_parse")->Unit(benchmark::kMillisecond);
BENCHMARK(names_parse<true>)->Name("names_colliding_parse")->Unit(benchmark::kMillisecond);
#ifdef ASSAY_BENCH_HAS_DOCUMENT
BENCHMARK(names_document_parse<false>)->Name("names_ordinary_document")->Unit(benchmark::kMillisecond);
BENCHMARK(names_document_parse<true>)->Name("names_colliding_document")->Unit(benchmark::kMillisecond);
#endif

// Console output as usual, then a summary: MB/s of each benchmark and its ratio to the
// baseline measured in the same run.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  explicit ratio_reporter(bool color) : ConsoleReporter(color ? OO_ColorTabular : OO_Tabular) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.error_occurred)
        continue;
      // With repetitions, keep the mean; without, the single run.
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "mean")
        continue;
      auto it = r.counters.find("bytes_per_second");
      if (it == r.counters.end())
        continue;
      rates_[r.run_name.function_name] = it->second.value;
      if (auto items = r.counters.find("items_per_second"); items != r.counters.end())
        items_[r.run_name.function_name] = items->second.value;
      if (std::find(order_.begin(), order_.end(), r.run_name.function_name) == order_.end())
        order_.push_back(r.run_name.function_name);
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    auto base = rates_.find("baseline_byte_scan");
    std::ostringstream out;
    out << "\nsummary: throughput over CPU time, MB = 10^6 bytes (document " << document().size()
        << " bytes; soak report " << soak_runs << " runs)\n";
    out << std::left << std::setw(26) << "benchmark" << std::right << std::setw(12) << "MB/s" << std::setw(16)
        << "x baseline"
        << "\n";
    for (const auto& name : order_) {
      const double rate = rates_[name];
      out << std::left << std::setw(26) << name << std::right << std::setw(12) << std::fixed << std::setprecision(1)
          << rate / 1e6;
      if (base != rates_.end() && base->second > 0)
        out << std::setw(16) << std::setprecision(3) << rate / base->second;
      out << "\n";
    }
    // Members per second with names chosen to collide, over ordinary names: about 1 when the
    // duplicate check cannot be aimed at.
    for (const char* reader : {"parse", "document"}) {
      auto ordinary = items_.find(std::string("names_ordinary_") + reader);
      auto colliding = items_.find(std::string("names_colliding_") + reader);
      if (ordinary != items_.end() && colliding != items_.end() && ordinary->second > 0) {
        out << "colliding / ordinary names, " << std::left << std::setw(9) << reader << std::right << std::setw(10)
            << std::setprecision(3) << colliding->second / ordinary->second << "\n";
      }
    }
    GetOutputStream() << out.str();
  }

 private:
  std::map<std::string, double> rates_;
  std::map<std::string, double> items_;  // items per second, where counted
  std::vector<std::string> order_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  // Colour only on a terminal, as the default reporter does (and never with NO_COLOR set).
  ratio_reporter reporter(isatty(fileno(stdout)) != 0 && std::getenv("NO_COLOR") == nullptr);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
