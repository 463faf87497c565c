// Lint against verification: what linting a bundle with every reference pack at once costs on top
// of verifying it, in the same run.
//
//   lint_bench PACK_DIR [--events N] [--reps K]     (defaults: 90,000 events, 7 repetitions)
//
// The bundle (N events: a profile start, then tool decisions, tool calls and vendor notes) is
// written in memory, then each repetition, alternately:
//   verify  verify_bundle_bytes(bundle)                           the baseline
//   lint    load every *.yaml pack of PACK_DIR, create the linter, verify_bundle_bytes(bundle,
//           linter), take the result, build the lint-report-v1 and the SARIF log
//   wings, two passes   the packs loaded once beforehand; a linter and a closure observer on one
//                       pass, then attest::statement_for on its own pass (how a caller had to
//                       attest before the statement builder was a visitor)
//   wings, one pass     the same linter, observer and an attest::statement_builder on one pass
//   file sha256         SHA-256 of the bundle's compressed bytes alone: what every verification
//                       now also computes (verified_bundle::file_sha256), on the inflater thread
// Printed: min and median wall time of each, lint/verify (the goal: at most 1.5), and each wings
// row against verify.
#include "assay/attest/attest.hpp"
#include "assay/closure/observer.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/pack_yaml.hpp"
#include "assay/lint/report.hpp"
#include "assay/lint/resolve.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace lint = assay::lint;
namespace fs = std::filesystem;

std::string hex64(std::uint64_t x) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(64, '0');
  for (std::size_t i = 0; i < 64; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    out[i] = digits[(x >> 59) & 15];
  }
  return out;
}

// Events of a plausible agent run, as JSON text.
std::vector<std::string> make_events(std::size_t n) {
  std::vector<std::string> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string seq = std::to_string(i);
    const std::string time = "2026-01-01T00:" + std::string(i % 3600 / 60 < 10 ? "0" : "") +
                             std::to_string(i % 3600 / 60) + ":" + std::string(i % 60 < 10 ? "0" : "") +
                             std::to_string(i % 60) + "Z";
    std::string type, data;
    if (i == 0) {
      type = "assay.profile.started";
      data = R"({"profile_name":"bench","profile_version":"1","total_runs_aggregated":0})";
    } else if (i % 3 == 1) {
      type = "assay.tool.decision";
      data = R"({"tool":"read_file","decision":")" + std::string(i % 7 == 0 ? "deny" : "allow") +
             R"(","reason_code":"P_)" + seq + R"(","policy_snapshot_digest":"sha256:)" + hex64(i) +
             R"(","args":{"path":"/workspace/src/module_)" + std::to_string(i % 97) + "/file_" + seq +
             R"(.py","mode":"r"}})";
    } else if (i % 3 == 2) {
      type = "assay.tool.call";
      data = R"({"tool":"shell_exec","call_id":"c)" + seq + R"(","arguments":{"cmd":"make test","cwd":"/w"}})";
    } else {
      type = "vendor.note";
      data = R"({"text":"step )" + seq + R"( done","tags":["a","b"]})";
    }
    out.push_back(R"({"specversion":"1.0","type":")" + type + R"(","source":"urn:assay:bench","id":"run-bench:)" + seq +
                  R"(","time":")" + time + R"(","datacontenttype":"application/json",)" +
                  R"("assayrunid":"run-bench","assayseq":)" + seq +
                  R"(,"assayproducer":"bench","assayproducerversion":"1.0.0","assaygit":"unknown",)" +
                  R"("assaypii":false,"assaysecrets":false,"subject":"step-)" + seq + R"(","data":)" + data + "}");
  }
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "lint_bench: %s\n", what.c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2)
    die("usage: lint_bench PACK_DIR [--events N] [--reps K]");
  const fs::path pack_dir = argv[1];
  std::size_t events = 90000, reps = 7;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    const std::size_t v = std::strtoull(argv[i + 1], nullptr, 10);
    if (flag == "--events" && v > 0)
      events = v;
    else if (flag == "--reps" && v > 0)
      reps = v;
    else
      die("unknown or bad argument " + std::string(flag));
  }
  std::vector<std::string> pack_files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(pack_dir, ec))
    if (entry.path().extension() == ".yaml")
      pack_files.push_back(entry.path().string());
  if (ec || pack_files.empty())
    die("no *.yaml pack in " + pack_dir.string());
  std::sort(pack_files.begin(), pack_files.end());

  const std::vector<std::string> texts = make_events(events);
  const std::vector<std::string_view> views(texts.begin(), texts.end());
  // Shaped like the reference's fixtures, whose payloads are not SPEC §8 payloads: written with
  // the envelope checked and the payloads not (bundle --unchecked-payloads).
  assay::evidence::bundle_options unchecked;
  unchecked.check_payloads = false;
  auto bundle = assay::evidence::write_bundle(views, unchecked);
  if (!bundle)
    die("cannot write the bundle: " + bundle.error().front().format());
  const assay::evidence::bundle_limits limits;

  using clock = std::chrono::steady_clock;
  std::vector<double> t_verify, t_lint, t_file;
  std::size_t findings = 0, rules = 0;
  for (std::size_t r = 0; r < reps; ++r) {
    auto t0 = clock::now();
    auto v = assay::evidence::verify_bundle_bytes(*bundle, limits);
    t_verify.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    t0 = clock::now();
    const auto file_digest = assay::hash::digest_bytes<assay::hash::sha256>(*bundle).to_string();
    t_file.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    if (file_digest != v->file_sha256)
      die("the pass's file digest is not the file's");
    if (!v)
      die("the bundle does not verify: " + v.error().format());

    t0 = clock::now();
    auto packs = lint::load_packs(pack_files, lint::yaml_options());
    if (!packs)
      die("a pack does not load: " + packs.error().format());
    auto linter = lint::linter::create(*packs, {.bundle_path = "bench.tar.gz"});
    if (!linter)
      die(linter.error().format());
    auto verified = assay::evidence::verify_bundle_bytes(*bundle, limits, *linter);
    if (!verified)
      die("the bundle does not verify: " + verified.error().format());
    const lint::lint_result result = linter->take();
    const auto report = lint::make_report(result, *packs);
    const auto sarif = assay::encode(lint::sarif_log(result, *packs));
    t_lint.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    findings = result.findings.size() + result.dropped;
    rules = result.rules.size();
    if (report.results.size() != rules || !sarif)
      die("the report lost rules");
  }
  // lint + closure + attest: one pass against two.
  auto packs = lint::load_packs(pack_files, lint::yaml_options());
  if (!packs)
    die("a pack does not load: " + packs.error().format());
  assay::attest::attest_options ao;
  for (const lint::loaded_pack& p : *packs)
    ao.packs.push_back(lint::ref_of<assay::contracts::intoto_v1::pack_ref>(p).value());
  std::vector<double> t_two, t_one;
  std::string statement_two, statement_one;
  for (std::size_t r = 0; r < reps; ++r) {
    auto t0 = clock::now();
    {
      auto linter = lint::linter::create(*packs, {.bundle_path = "bench.tar.gz"});
      if (!linter)
        die(linter.error().format());
      assay::closure::observer closure(*packs);
      if (!assay::evidence::verify_bundle_bytes(*bundle, limits, *linter, closure))
        die("the bundle does not verify");
      auto st = assay::attest::statement_for(*bundle, ao);
      if (!st)
        die("no statement: " + st.error().format());
      const auto lr = lint::make_report(linter->take(), *packs);
      const auto cr = closure.report();
      statement_two = assay::encode(*st).value();
      if (lr.results.size() != rules || !cr.bundle_digest)
        die("the two-pass wings lost their reports");
    }
    t_two.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    t0 = clock::now();
    {
      auto linter = lint::linter::create(*packs, {.bundle_path = "bench.tar.gz"});
      if (!linter)
        die(linter.error().format());
      assay::closure::observer closure(*packs);
      assay::attest::statement_builder attest(ao);
      if (!assay::evidence::verify_bundle_bytes(*bundle, limits, *linter, closure, attest))
        die("the bundle does not verify");
      const auto lr = lint::make_report(linter->take(), *packs);
      const auto cr = closure.report();
      statement_one = assay::encode(*attest.statement()).value();
      if (lr.results.size() != rules || !cr.bundle_digest)
        die("the one-pass wings lost their reports");
    }
    t_one.push_back(std::chrono::duration<double>(clock::now() - t0).count());
    if (statement_one != statement_two)
      die("the one-pass statement differs from statement_for's");
  }

  const double vmin = *std::min_element(t_verify.begin(), t_verify.end()), vmed = median(t_verify);
  const double lmin = *std::min_element(t_lint.begin(), t_lint.end()), lmed = median(t_lint);
  std::printf("bundle: %zu events, %zu bytes; %zu packs, %zu rules, %zu findings; %zu repetitions\n", events,
              bundle->size(), pack_files.size(), rules, findings, reps);
  std::printf("verify alone      min %8.1f ms  median %8.1f ms\n", vmin * 1e3, vmed * 1e3);
  std::printf("lint (all packs)  min %8.1f ms  median %8.1f ms\n", lmin * 1e3, lmed * 1e3);
  std::printf("lint / verify     min %8.3f     median %8.3f     (goal: at most 1.5)\n", lmin / vmin, lmed / vmed);
  const double fmin = *std::min_element(t_file.begin(), t_file.end()), fmed = median(t_file);
  std::printf("file sha256 alone  min %8.2f ms  median %8.2f ms  (%.4f / %.4f of verify, on the inflater thread)\n",
              fmin * 1e3, fmed * 1e3, fmin / vmin, fmed / vmed);
  const double twomin = *std::min_element(t_two.begin(), t_two.end()), twomed = median(t_two);
  const double onemin = *std::min_element(t_one.begin(), t_one.end()), onemed = median(t_one);
  std::printf("lint + closure + attest, two passes  min %8.1f ms  median %8.1f ms  (%.3f / %.3f of verify)\n",
              twomin * 1e3, twomed * 1e3, twomin / vmin, twomed / vmed);
  std::printf("lint + closure + attest, one pass    min %8.1f ms  median %8.1f ms  (%.3f / %.3f of verify)\n",
              onemin * 1e3, onemed * 1e3, onemin / vmin, onemed / vmed);
  return 0;
}
