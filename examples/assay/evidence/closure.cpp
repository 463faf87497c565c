// assay evidence closure B [--pack P[,P…]]… [--report R] [--explain closure.score]
// — completeness against the packs' signals and closure for replay (SPEC §13), in the one
// verification pass.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/verify.hpp"
#include "assay/closure/observer.hpp"

#include <CLI/CLI.hpp>

#include <memory>
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
};

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
  out += "  captured: " + listed(c.captured) + "\n  redacted: " + listed(c.redacted) +
         "\n  unknown:  " + listed(c.unknown) + "\n";
  out += "closure: score " + assay::json::number_to_string(z.score) + ", confidence " + printable(z.confidence) + "\n";
  out += "  captured: " + listed(z.captured) + "\n  missing:  " + listed(z.missing) + "\n";
  std::string deps;
  for (const auto& d : z.uncontrolled_dependencies.value_or(std::vector<assay::non_empty>{}))
    deps += (deps.empty() ? "" : ", ") + printable(d);
  out += "  uncontrolled dependencies: " + (deps.empty() ? std::string("none") : deps) + "\n";
  return out;
}

int run_closure(const closure_args& a) {
  constexpr std::string_view command = "evidence closure";
  if (!a.explain.empty() && a.explain != "closure.score") {
    print_error(command, "--explain " + printable(a.explain, echo_cap) +
                             ": expected closure.score (a rule is explained by evidence lint --explain)");
    return exit_usage;
  }
  auto packs = load_cli_packs(command, a.packs);
  if (!packs)
    return exit_io;  // a pack that does not load (SPEC §17)
  closure::observer observer(*packs);
  if (const verified_input v = verify_input(a.bundle, observer); !v.result)
    return v.fail(command);
  const auto report = observer.report();
  if (!a.report.empty())
    if (auto w = write_report(report, a.report); !w)
      return fail(command, w.error());
  const std::string text = a.explain.empty() ? summary(report) : observer.explain_score();
  return finish(command, write_file("-", printable_lines(text)));
}

}  // namespace

void add_evidence_closure(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("closure", "Completeness and closure of a bundle (SPEC §13)");
  auto a = std::make_shared<closure_args>();
  sub->add_option("BUNDLE", a->bundle.path, "The bundle (.tar.gz; - for standard input)")->required();
  add_limits(sub, a->bundle.limits);
  sub->add_option("--pack", a->packs,
                  "A pack whose requires_signals count: a path, a built-in name or a name in the config "
                  "directory; comma lists allowed (default: cicd-starter)");
  sub->add_option("--report", a->report, "Write the closure-v1 JSON here");
  sub->add_option("--explain", a->explain, "closure.score: each replay-critical signal, its weight and state");
  d.on(sub, [a] { return run_closure(*a); });
}

}  // namespace assay_cli
