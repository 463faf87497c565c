// assay evidence lint B [--pack P[,P…]]… [--fail-on none|info|warning|warn|error]
//   [--format text|json|sarif] [--report R] [--sarif S] [--max-results N] [--explain RULE]
// assay evidence lint --explain RULE [--pack P]…   (no bundle: the rule and its help)
// — lint a bundle against packs (docs/packs.md, docs/cli.md), in the one verification pass.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../report.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/evidence/verify.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/time.hpp"
#include "assay/closure/observer.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/explain.hpp"
#include "assay/lint/report.hpp"
#include "assay/version.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace assay_cli {

namespace closure = assay::closure;
namespace lint = assay::lint;

namespace {

struct lint_args {
  bundle_input bundle;
  std::vector<std::string> packs;
  std::string fail_on = "error";
  std::string format = "text";
  std::string report;
  std::string sarif;
  std::size_t max_results = 500;
  std::string explain;
};

// What --explain prints for a rule with a bundle: the rule as its pack says (lint/explain.hpp),
// the signals its pack requires that the bundle does not show captured, its outcome and findings,
// then its help. Each piece of a pack's or the bundle's text in it is made printable, so its line
// breaks are its own.
std::string explain(const lint::lint_result& r, std::span<const lint::loaded_pack> packs,
                    const closure::observer& signals, const lint::rule_ref& rule) {
  std::string out = lint::describe_rule(packs, rule);
  if (rule.pack && !packs[*rule.pack].requires_signals().empty()) {
    std::string list;
    for (const std::string& m : signals.not_captured(packs[*rule.pack]))
      list += (list.empty() ? "" : ", ") + printable(m);
    out += "  signals its pack requires, not captured: " + (list.empty() ? std::string("none") : list) + "\n";
  }
  const std::string id = rule.pack
                             ? packs[*rule.pack].canonical_rule_id(packs[*rule.pack].definition.rules[rule.index].id)
                             : std::string(rule.builtin->id);
  for (std::size_t i = 0; i < r.rules.size(); ++i) {
    const lint::rule_result& x = r.rules[i];
    if (x.rule_id != id)
      continue;
    out += "  outcome: " + std::string(lint::name(x.status)) +
           (x.reason.empty() ? "" : " (" + printable(x.reason) + ")") + "\n";
    for (const lint::finding& f : r.findings)
      if (f.rule == i)
        out += "  finding: " + printable(f.message) +
               (f.location ? " (events.ndjson:" + std::to_string(f.location->line) + ")" : std::string()) + "\n";
    break;
  }
  return out + lint::rule_help(packs, rule);
}

int run_lint(const lint_args& a) {
  constexpr std::string_view command = "evidence lint";
  std::optional<lint::severity> threshold;
  if (!lint::parse_threshold(a.fail_on, threshold)) {
    return usage_error(command,
                       "--fail-on " + printable(a.fail_on, echo_cap) + ": expected none, info, warning, warn or error");
  }
  if (a.format != "text" && a.format != "json" && a.format != "sarif") {
    return usage_error(command, "--format " + printable(a.format, echo_cap) + ": expected text, json or sarif");
  }
  if (a.bundle.path.empty() && (a.explain.empty() || a.explain == "closure.score")) {
    return usage_error(command, a.explain.empty() ? "BUNDLE is required (only --explain <rule> works without one)"
                                                  : "--explain closure.score needs a BUNDLE");
  }
  auto packs = load_cli_packs(command, a.packs);
  if (!packs)
    return exit_io;  // a pack that does not load (docs/cli.md)
  std::optional<lint::rule_ref> rule;
  if (!a.explain.empty() && a.explain != "closure.score") {
    rule = lint::find_rule(*packs, a.explain);
    if (!rule) {
      return usage_error(command, "--explain " + printable(a.explain, echo_cap) + ": no rule of that id in the packs");
    }
    // Without a bundle: the rule as its pack says, and its help (docs/packs.md, "Explain").
    if (a.bundle.path.empty())
      return finish(command, write_file("-", printable_lines(lint::describe_rule(*packs, *rule) +
                                                             lint::rule_help(*packs, *rule))));
  }
  auto linter = lint::linter::create(*packs, {.max_results = a.max_results, .bundle_path = input_name(a.bundle.path)});
  if (!linter) {
    print_error(command, printable(linter.error().message));
    return exit_io;
  }
  // --explain also says what the bundle shows of the packs' signals (closure.score: of the
  // replay-critical ones): completeness and closure are computed in the same pass then.
  closure::observer signals(*packs);
  const verified_input v =
      a.explain.empty() ? verify_input(a.bundle, *linter) : verify_input(a.bundle, *linter, signals);
  if (!v.result)
    return v.fail(command);
  const lint::lint_result result = linter->take();
  if (a.explain == "closure.score")
    return finish(command, write_file("-", printable_lines(signals.explain_score())));
  if (rule)
    return finish(command, write_file("-", printable_lines(explain(result, *packs, signals, *rule))));
  auto now = assay::json::report_time();
  if (!now)
    return fail(command, now.error());
  lint::report_options ro{.fail_on = threshold,
                          .tool_version = std::string(assay::version),
                          .generated_at = *now,
                          .bundle_path = input_name(a.bundle.path)};
  const auto report = lint::make_report(result, *packs, ro);
  auto sarif_bytes = [&]() -> assay::result<std::string> {
    auto s = assay::encode(lint::sarif_log(result, *packs, ro));
    if (!s)
      return s.error().front();
    return *s + "\n";
  };
  // --report and --sarif: both written or neither (docs/cli.md), before standard output.
  if (!a.report.empty() || !a.sarif.empty()) {
    output_set files;
    std::vector<std::pair<std::string, std::string>> planned;  // path, bytes
    if (!a.report.empty()) {
      auto bytes = report_bytes(report);
      if (!bytes)
        return fail(command, bytes.error());
      planned.emplace_back(a.report, std::move(*bytes));
    }
    if (!a.sarif.empty()) {
      auto bytes = sarif_bytes();
      if (!bytes)
        return fail(command, bytes.error());
      planned.emplace_back(a.sarif, std::move(*bytes));
    }
    std::vector<output_file*> opened;
    for (const auto& [path, bytes] : planned) {
      auto f = files.add(path);
      if (!f)
        return fail(command, f.error());
      opened.push_back(*f);
    }
    for (std::size_t i = 0; i < planned.size(); ++i)
      opened[i]->write(planned[i].second);
    if (auto w = files.commit(); !w)
      return fail(command, w.error());
  }
  assay::result<void> out;
  if (a.format == "json") {
    out = write_report(report, "-");
  } else if (a.format == "sarif") {
    auto s = sarif_bytes();
    out = s ? write_file("-", *s) : assay::result<void>(s.error());
  } else {
    out = write_file("-", printable_lines(lint::text_report(result, threshold)));
  }
  if (!out)
    return fail(command, out.error());
  return result.fails(threshold) ? exit_failed : exit_ok;
}

}  // namespace

void add_evidence_lint(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("lint", "Lint a bundle against packs");
  auto a = std::make_shared<lint_args>();
  sub->add_option("BUNDLE", a->bundle.path,
                  "The bundle (.tar.gz; - for standard input); not needed to --explain a rule");
  add_limits(sub, a->bundle.limits);
  sub->add_option("--pack", a->packs,
                  "A pack: a path, a built-in name or a name in the config directory; "
                  "comma lists allowed (default: cicd-starter)");
  sub->add_option("--fail-on", a->fail_on, "Fail (exit 1) on a finding at or above: none, info, warning, error");
  sub->add_option("--format", a->format, "What standard output gets: text, json (lint-report-v1) or sarif");
  sub->add_option("--report", a->report, "Write the lint-report-v1 JSON here");
  sub->add_option("--sarif", a->sarif, "Write SARIF 2.1.0 here");
  in_range(sub->add_option("--max-results", a->max_results, "Report at most N findings (the highest severities)"), 0,
           max_lint_results);
  sub->add_option("--explain", a->explain, "Explain a rule (its id, short or canonical) or closure.score");
  d.on(sub, [a] { return run_lint(*a); });
}

}  // namespace assay_cli
