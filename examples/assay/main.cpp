// assay — the reference command line (docs/cli.md), built on the library's public headers.
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
#include "assay/json/nearest.hpp"
#include "assay/version.hpp"
#include "cli.hpp"
#include "verbs.hpp"

#include <CLI/CLI.hpp>

#include <csignal>

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
    std::vector<std::string> names;
    for (auto* v : verbs) {
      if (v->check_name(word))
        next = v;
      names.push_back(v->get_name());
    }
    if (next == nullptr) {
      const std::string shown = assay_cli::printable(word, assay_cli::echo_cap);
      if (const auto nearest = assay::json::nearest_name(word, names))
        assay_cli::print_error(where, "unknown command '" + shown + "'; did you mean '" + std::string(*nearest) + "'?");
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
  // A file size limit (ulimit -f) is then the error of the write that meets it (EFBIG), which
  // every verb reports and survives — a journal kept, a temporary removed — not a signal that
  // kills the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App app{"assay — verifiable AI-agent evidence"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "assay " + std::string(assay::version));
  assay_cli::dispatcher d;

  assay_cli::add_digest(app, d);
  assay_cli::add_jcs(app, d);
  assay_cli::add_schema(app, d);
  assay_cli::add_validate(app, d);

  auto* evidence = add_group(app, "evidence",
                             "Evidence bundles: write (bundle, record, recover), verify, show, diff, lint, closure, "
                             "attest, export-otel, redact");
  assay_cli::add_evidence_bundle(*evidence, d);
  assay_cli::add_evidence_record(*evidence, d);
  assay_cli::add_evidence_recover(*evidence, d);
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

  auto* mcp = add_group(app, "mcp", "The MCP gate: wrap (a stdio server behind it), check (a gate policy)");
  assay_cli::add_mcp_wrap(*mcp, d);
  assay_cli::add_mcp_check(*mcp, d);

  if (!command_words_known(app, argc, argv))
    return assay_cli::exit_usage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return app.exit(e);  // --help, --version
    assay_cli::print_error("", e.what());
    // The help of the command the error is about: the deepest one given ("assay evidence lint").
    std::string where = "assay";
    for (const CLI::App* at = &app; !at->get_subcommands().empty();) {
      at = at->get_subcommands().front();
      where += " " + at->get_name();
    }
    std::fprintf(stderr, "run '%s --help' for usage\n", where.c_str());
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
