// assay evidence closure B [--pack P[,P…]]… [--report R] [--explain closure.score]
//                          [--min-score S] [--require-confidence high|medium]
// — completeness against the packs' signals and closure for replay (docs/packs.md), in the one
// verification pass; with a gate, exit 1 when the score or the confidence is below it.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/verify.hpp"
#include "assay/closure/observer.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace assay_cli {

namespace closure = assay::closure;
namespace lint = assay::lint;

namespace {

struct closure_args {
  bundle_input bundle;
  std::vector<std::string> packs;
  std::string report;
  std::string explain;
  std::optional<std::string> min_score;           // the gate (docs/packs.md)
  std::optional<std::string> require_confidence;  // high or medium
};

// The confidences in increasing order.
int confidence_rank(std::string_view c) {
  return c == "high" ? 2 : c == "medium" ? 1 : 0;
}

// The gate's line: what was asked, and PASS, or FAIL with each bound the report is below.
std::string gate_line(const assay::contracts::closure_report& r, std::optional<double> min_score,
                      std::string_view confidence, bool& passed) {
  std::string asked, below;
  const std::string score = assay::json::number_to_string(r.closure.score);
  if (min_score) {
    asked += " --min-score " + assay::json::number_to_string(*min_score);
    if (r.closure.score.value() < *min_score)
      below += "; score " + score + " is below " + assay::json::number_to_string(*min_score);
  }
  if (!confidence.empty()) {
    asked += " --require-confidence " + std::string(confidence);
    if (confidence_rank(r.closure.confidence) < confidence_rank(confidence))
      below += "; confidence " + std::string(r.closure.confidence.value()) + " is below " + std::string(confidence);
  }
  passed = below.empty();
  return "gate" + asked + ": " + (passed ? std::string("PASS") : "FAIL" + below) + "\n";
}

std::string listed(const std::vector<assay::contracts::closure_v1::signal>& list) {
  std::string out;
  for (const auto& s : list)
    out += (out.empty() ? "" : ", ") + printable(s);
  return out.empty() ? "none" : out;
}

// The short summary stdout gets.
std::string summary(const assay::contracts::closure_report& r) {
  const auto& c = r.completeness;
  const auto& z = r.closure;
  std::string out = "completeness: " + std::to_string(c.captured.size()) + " of " + std::to_string(c.required.size()) +
                    " required signal(s) captured\n";
  // One signal, two words (the report's): completeness says a required signal it did not find is
  // "unknown" (the bundle may simply not show it); closure, that a replay-critical one is
  // "missing" from the score. The summary says so beside each.
  out += "  captured: " + listed(c.captured) + "\n  redacted: " + listed(c.redacted) +
         "\n  unknown:  " + listed(c.unknown) + (c.unknown.empty() ? "" : "  (required, not found in the bundle)") +
         "\n";
  out += "closure: score " + assay::json::number_to_string(z.score) + ", confidence " + printable(z.confidence) + "\n";
  out += "  captured: " + listed(z.captured) + "\n  missing:  " + listed(z.missing) +
         (z.missing.empty() ? "" : "  (not captured: they count 0 in the score)") + "\n";
  std::string deps;
  for (const auto& d : z.uncontrolled_dependencies.value_or(std::vector<assay::non_empty>{}))
    deps += (deps.empty() ? "" : ", ") + printable(d);
  out += "  uncontrolled dependencies: " + (deps.empty() ? std::string("none") : deps) + "\n";
  return out;
}

int run_closure(const closure_args& a) {
  constexpr std::string_view command = "evidence closure";
  if (!a.explain.empty() && a.explain != "closure.score") {
    return usage_error(command, "--explain " + printable(a.explain, echo_cap) +
                                    ": expected closure.score (a rule is explained by evidence lint --explain)");
  }
  std::optional<double> min_score;
  if (a.min_score) {
    min_score = parse_unit_interval(*a.min_score);
    if (!min_score) {
      return usage_error(command,
                         "--min-score " + printable(*a.min_score, echo_cap) + ": expected a number from 0 to 1");
    }
  }
  const std::string confidence = a.require_confidence.value_or("");
  if (a.require_confidence && confidence != "high" && confidence != "medium") {
    return usage_error(command,
                       "--require-confidence " + printable(confidence, echo_cap) + ": expected high or medium");
  }
  auto packs = load_cli_packs(command, a.packs);
  if (!packs)
    return exit_io;  // a pack that does not load (docs/cli.md)
  closure::observer observer(*packs);
  if (const verified_input v = verify_input(a.bundle, observer); !v.result)
    return v.fail(command);
  const auto report = observer.report();
  if (!a.report.empty())
    if (auto w = write_report(report, a.report); !w)
      return fail(command, w.error());
  std::string text = a.explain.empty() ? summary(report) : observer.explain_score();
  bool passed = true;
  if (min_score || a.require_confidence)
    text += gate_line(report, min_score, confidence, passed);
  if (const int code = finish(command, write_file("-", printable_lines(text))); code != exit_ok)
    return code;
  return passed ? exit_ok : exit_failed;
}

}  // namespace

void add_evidence_closure(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("closure", "Completeness and closure of a bundle");
  auto a = std::make_shared<closure_args>();
  sub->add_option("BUNDLE", a->bundle.path, "The bundle (.tar.gz; - for standard input)")->required();
  add_limits(sub, a->bundle.limits);
  sub->add_option("--pack", a->packs,
                  "A pack whose requires_signals count: a path, a built-in name or a name in the config "
                  "directory; comma lists allowed (default: cicd-starter)");
  sub->add_option("--report", a->report, "Write the closure-v1 JSON here");
  sub->add_option("--explain", a->explain, "closure.score: each replay-critical signal, its weight and state");
  sub->add_option("--min-score", a->min_score, "Gate: exit 1 when the closure score is below S (0 to 1)");
  sub->add_option("--require-confidence", a->require_confidence,
                  "Gate: exit 1 when the closure confidence is below it (high or medium)");
  d.on(sub, [a] { return run_closure(*a); });
}

}  // namespace assay_cli
