// assay evidence diff BASELINE CANDIDATE [--format human|json] [--report R]
// [--fail-on-new KIND[,KIND…]] — what changed between two runs (docs/inspect.md); with --fail-on-new, a
// CI gate on new capabilities.
#include "../cli.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/inspect/diff.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace assay_cli {

namespace {

struct diff_args {
  std::string baseline, candidate;
  std::string limits;  // --limits, for both
  std::string format = "human";
  std::string report;
  std::vector<std::string> fail_on_new;
};

// One bundle of the diff, verified by its own pass.
std::variant<assay::inspect::diff_side, int> side(std::string_view command, std::string_view role,
                                                  const bundle_input& in) {
  assay::inspect::diff_side s;
  if (const verified_input v = verify_input(in, s); !v.result)
    return v.fail(command, std::string(role) + " " + input_name(in.path));
  return s;
}

int run_diff(const diff_args& a) {
  constexpr std::string_view command = "evidence diff";
  std::vector<std::string> gate;
  for (const auto& k : a.fail_on_new) {
    if (!assay::contracts::diff_v1::category::parse(k)) {
      return usage_error(command, "--fail-on-new " + printable(k, echo_cap) +
                                      ": expected network, filesystem, processes or tools (comma-separated)");
    }
    gate.push_back(k);
  }
  auto base = side(command, "baseline", {a.baseline, a.limits});
  if (auto* code = std::get_if<int>(&base))
    return *code;
  auto cand = side(command, "candidate", {a.candidate, a.limits});
  if (auto* code = std::get_if<int>(&cand))
    return *code;
  const auto d = assay::inspect::diff(std::get<0>(base), std::get<0>(cand));
  if (!a.report.empty())
    if (auto w = write_report(d, a.report); !w)
      return fail(command, w.error());
  if (a.format == "json") {
    if (auto w = write_report(d, "-"); !w)
      return fail(command, w.error());
  } else if (auto w = write_file("-", assay::inspect::diff_text(d)); !w) {
    return fail(command, w.error());
  }
  const auto added = assay::inspect::added_in(d, gate);
  if (added.empty())
    return exit_ok;
  std::string kinds;
  for (const auto& k : added)
    kinds += (kinds.empty() ? "" : ", ") + k;
  print_error(command, "the candidate adds to " + kinds + " (--fail-on-new)");
  return exit_failed;
}

}  // namespace

void add_evidence_diff(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("diff", "What changed between two bundles");
  auto a = std::make_shared<diff_args>();
  sub->add_option("BASELINE", a->baseline, "The baseline bundle (.tar.gz)")->required();
  sub->add_option("CANDIDATE", a->candidate, "The candidate bundle (.tar.gz)")->required();
  add_limits(sub, a->limits);
  sub->add_option("--format", a->format, "human (the default) or json (evidence-diff-v1)")
      ->check(CLI::IsMember({"human", "json"}));
  sub->add_option("--report", a->report, "Write the evidence-diff-v1 JSON here");
  sub->add_option("--fail-on-new", a->fail_on_new,
                  "Exit 1 when the candidate adds anything in these categories: network, filesystem, processes, "
                  "tools")
      ->delimiter(',');
  d.on(sub, [a] { return run_diff(*a); });
}

}  // namespace assay_cli
