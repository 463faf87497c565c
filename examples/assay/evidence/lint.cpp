// assay evidence lint B [--pack P[,P…]]… [--fail-on none|info|warning|warn|error]
//   [--format text|json|sarif] [--report R] [--sarif S] [--max-results N] [--explain RULE]
// — lint a bundle against packs (SPEC §11, §17), in the one verification pass.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../report.hpp"
#include "../verbs.hpp"

#include "assay/evidence/verify.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/time.hpp"
#include "assay/lint/closure.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/report.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace assay_cli {

namespace lint = assay::lint;

namespace {

struct lint_args {
  std::string bundle;
  std::vector<std::string> packs;
  std::string fail_on = "error";
  std::string format = "text";
  std::string report;
  std::string sarif;
  std::size_t max_results = 500;
  std::string explain;
};

// What --explain prints for a rule: what it looks for, where, what it found, and the signals its
// pack requires that the bundle does not show captured. Each string from a pack or the bundle is
// made printable here, so the text's own newlines are the only ones.
std::string explain(const lint::lint_result& r, std::span<const lint::loaded_pack> packs,
                    const lint::closure_observer& signals, const std::string& id) {
  for (std::size_t i = 0; i < r.rules.size(); ++i) {
    const lint::rule_result& x = r.rules[i];
    if (x.rule_id != id && x.short_id != id)
      continue;
    std::string out =
        printable(x.rule_id) + " (" + std::string(lint::name(x.level)) + ")\n  " + printable(x.description) + "\n";
    if (x.pack) {
      const lint::loaded_pack& p = packs[*x.pack];
      for (std::size_t k = 0; k < p.definition.rules.size(); ++k) {
        const auto& def = p.definition.rules[k];
        if (def.id != x.short_id)
          continue;
        const auto doc = lint::digest_document(p.definition);
        auto check = assay::json::to_canonical(*doc.find("rules")->as_array()[k].find("check"));
        out += "  pack: " + printable(std::string(p.definition.name) + "@" + p.definition.version) + " (" +
               printable(p.source.report_value()) + ")\n";
        out += "  check: " + (check ? printable(*check) : std::string("?")) + "\n";
        if (def.event_types) {
          std::string types;
          for (const auto& t : *def.event_types)
            types += (types.empty() ? "" : ", ") + printable(t);
          out += "  looks at: events of type " + types + "\n";
        } else {
          out += "  looks at: every event\n";
        }
        if (def.article_ref)
          out += "  article: " + printable(*def.article_ref) + "\n";
      }
      if (!p.requires_signals().empty()) {
        const std::vector<std::string> missing = signals.not_captured(p);
        std::string list;
        for (const std::string& m : missing)
          list += (list.empty() ? "" : ", ") + printable(m);
        out += "  signals its pack requires, not captured: " + (list.empty() ? std::string("none") : list) + "\n";
      }
    }
    out += "  outcome: " + std::string(lint::name(x.status)) +
           (x.reason.empty() ? "" : " (" + printable(x.reason) + ")") + "\n";
    for (const lint::finding& f : r.findings)
      if (f.rule == i)
        out += "  finding: " + printable(f.message) +
               (f.location ? " (events.ndjson:" + std::to_string(f.location->line) + ")" : std::string()) + "\n";
    return out;
  }
  return {};
}

int run_lint(const lint_args& a) {
  constexpr std::string_view command = "evidence lint";
  std::optional<lint::severity> threshold;
  if (!lint::parse_threshold(a.fail_on, threshold)) {
    print_error(command,
                "--fail-on " + printable(a.fail_on, echo_cap) + ": expected none, info, warning, warn or error");
    return exit_usage;
  }
  if (a.format != "text" && a.format != "json" && a.format != "sarif") {
    print_error(command, "--format " + printable(a.format, echo_cap) + ": expected text, json or sarif");
    return exit_usage;
  }
  auto packs = load_cli_packs(command, a.packs);
  if (!packs)
    return exit_io;  // a pack that does not load (SPEC §17)
  auto linter = lint::linter::create(*packs, {.max_results = a.max_results, .bundle_path = input_name(a.bundle)});
  if (!linter) {
    print_error(command, printable(linter.error().message));
    return exit_io;
  }
  assay::evidence::bundle_limits limits;
  auto in = input::open(a.bundle, limits.max_bundle_bytes, input::over_limit::pass);
  if (!in)
    return fail(command, in.error());
  // --explain also says what the bundle shows of the packs' signals (closure.score: of the
  // replay-critical ones): completeness and closure are computed in the same pass then.
  lint::closure_observer signals(*packs);
  auto verified = a.explain.empty() ? assay::evidence::verify_bundle_bytes(in->bytes(), limits, *linter)
                                    : assay::evidence::verify_bundle_bytes(in->bytes(), limits, *linter, signals);
  if (!verified)
    return fail_bundle(command, verified.error());
  const lint::lint_result result = linter->take();
  if (a.explain == "closure.score")
    return finish(command, write_file("-", printable_lines(signals.explain_score())));
  if (!a.explain.empty()) {
    const std::string text = explain(result, *packs, signals, a.explain);
    if (text.empty()) {
      print_error(command, "--explain " + printable(a.explain, echo_cap) + ": no such rule was run");
      return exit_usage;
    }
    return finish(command, write_file("-", printable_lines(text)));
  }
  auto now = assay::json::report_time();
  if (!now)
    return fail(command, now.error());
  lint::report_options ro{
      .fail_on = threshold, .tool_version = "0.1.0", .generated_at = *now, .bundle_path = input_name(a.bundle)};
  const auto report = lint::make_report(result, *packs, ro);
  auto sarif_bytes = [&]() -> assay::result<std::string> {
    auto s = assay::json::to_canonical(lint::sarif_log(result, *packs, ro));
    if (!s)
      return s.error();
    return *s + "\n";
  };
  // --report and --sarif: both written or neither (SPEC §17), before standard output.
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
  auto* sub = evidence.add_subcommand("lint", "Lint a bundle against packs (SPEC §11)");
  auto a = std::make_shared<lint_args>();
  sub->add_option("BUNDLE", a->bundle, "The bundle (.tar.gz; - for standard input)")->required();
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
