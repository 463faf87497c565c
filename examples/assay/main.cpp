// assay — the reference command line (SPEC §17), built on the library's public headers.
//
// Layout: a file per verb, a folder per noun. Top-level verbs are examples/assay/<verb>.cpp; the
// verbs of a noun are examples/assay/<noun>/<verb>.cpp (evidence/ now; sim/, finding/, pack/
// the same way), with what a noun's verbs share in <noun>/<noun>.hpp. Each verb is its own
// translation unit and includes only the library headers it needs, plus cli.hpp (exit codes,
// errors, input, write_file) and, for reports, report.hpp (write_report). Verbs that name
// contracts go through contracts.hpp: the registry of every contract is compiled once, in
// contracts.cpp.
//
// Adding a verb: write <noun>/<verb>.cpp defining add_<noun>_<verb>(CLI::App& group,
// dispatcher&), declare it in verbs.hpp, list the file in examples/meson.build, and call it below
// with its group. A new noun gets its group created once here (add_group) and its folder.
#include "assay/version.hpp"
#include "cli.hpp"
#include "verbs.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace {

CLI::App* add_group(CLI::App& app, const std::string& name, const std::string& description) {
  auto* group = app.add_subcommand(name, description);
  group->require_subcommand(1);
  return group;
}

// The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbours each cost 1.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// The names in order, comma-separated.
std::string listed(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The command words (the first words, down to a verb) must name commands: one that does not is
// reported with the nearest command of its group, before CLI11 would say something vaguer.
// Options end the check: CLI11 handles them. Returns false when a word was reported.
bool command_words_known(CLI::App& app, int argc, char** argv) {
  CLI::App* at = &app;
  std::string where;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-')
      return true;
    const auto verbs = at->get_subcommands([](CLI::App*) { return true; });
    if (verbs.empty())
      return true;  // a verb: the rest are its arguments
    CLI::App* next = nullptr;
    const CLI::App* nearest = nullptr;
    std::size_t best = 0;
    std::vector<std::string> names;
    for (auto* v : verbs) {
      if (v->check_name(word))
        next = v;
      const std::size_t dist = edit_distance(word, v->get_name());
      if (nearest == nullptr || dist < best) {
        nearest = v;
        best = dist;
      }
      names.push_back(v->get_name());
    }
    if (next == nullptr) {
      const std::string shown = assay_cli::printable(word, assay_cli::echo_cap);
      // Close enough to be a slip: at most a third of the command's letters (and at least one).
      const std::size_t tolerance = std::max<std::size_t>(1, nearest->get_name().size() / 3);
      if (best <= tolerance)
        assay_cli::print_error(where, "unknown command '" + shown + "'; did you mean '" + nearest->get_name() + "'?");
      else
        assay_cli::print_error(where, "unknown command '" + shown + "' (commands: " + listed(names) + ")");
      return false;
    }
    at = next;
    where += (where.empty() ? "" : " ") + next->get_name();
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"assay — verifiable AI-agent evidence"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "assay " + std::string(assay::version));
  assay_cli::dispatcher d;

  assay_cli::add_digest(app, d);
  assay_cli::add_jcs(app, d);
  assay_cli::add_schema(app, d);
  assay_cli::add_validate(app, d);

  auto* evidence = add_group(app, "evidence",
                             "Evidence bundles: write, verify, show, diff, lint, closure, attest, export-otel, redact");
  assay_cli::add_evidence_bundle(*evidence, d);
  assay_cli::add_evidence_verify(*evidence, d);
  assay_cli::add_evidence_lint(*evidence, d);
  assay_cli::add_evidence_closure(*evidence, d);
  assay_cli::add_evidence_attest(*evidence, d);
  assay_cli::add_evidence_verify_attestation(*evidence, d);
  assay_cli::add_evidence_export_otel(*evidence, d);
  assay_cli::add_evidence_redact(*evidence, d);
  assay_cli::add_evidence_show(*evidence, d);
  assay_cli::add_evidence_diff(*evidence, d);

  auto* sim = add_group(
      app, "sim", "Simulation: soak (pass^k over real runs), drift (two soaks compared), merge (a soak's shards)");
  assay_cli::add_sim_soak(*sim, d);
  assay_cli::add_sim_drift(*sim, d);
  assay_cli::add_sim_merge(*sim, d);

  auto* finding = add_group(app, "finding", "Findings: statistics from a trial ledger, review packets");
  assay_cli::add_finding_stats(*finding, d);
  assay_cli::add_finding_render(*finding, d);

  auto* pack = add_group(app, "pack", "Packs: check and show");
  assay_cli::add_pack_check(*pack, d);
  assay_cli::add_pack_show(*pack, d);

  if (!command_words_known(app, argc, argv))
    return assay_cli::exit_usage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return app.exit(e);  // --help, --version
    assay_cli::print_error("", e.what());
    std::fprintf(stderr, "run 'assay --help' for usage\n");
    return assay_cli::exit_usage;
  }
  try {
    return d.run();
  } catch (const std::bad_alloc&) {
    assay_cli::print_error("", "out of memory");
    return assay_cli::exit_io;
  } catch (const std::exception& e) {
    assay_cli::print_error("", e.what());
    return assay_cli::exit_failed;
  }
}
