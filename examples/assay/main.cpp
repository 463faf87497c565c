// assay — the reference command line (SPEC §17), built on the library's public headers.
//
// Layout: a file per verb, a folder per noun. Top-level verbs are examples/assay/<verb>.cpp; the
// verbs of a noun are examples/assay/<noun>/<verb>.cpp (evidence/ now; sim/, finding/, pack/
// the same way), with what a noun's verbs share in <noun>/<noun>.hpp. Each verb is its own
// translation unit and includes only the library headers it needs, plus cli.hpp (exit codes,
// errors, input, write_file) and, for reports, report.hpp (write_report).
//
// Adding a verb: write <noun>/<verb>.cpp defining add_<noun>_<verb>(CLI::App& group,
// dispatcher&), declare it in verbs.hpp, list the file in examples/meson.build, and call it below
// with its group. A new noun gets its group created once here (add_group) and its folder.
#include "cli.hpp"
#include "verbs.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <new>
#include <string>

namespace {

CLI::App* add_group(CLI::App& app, const std::string& name, const std::string& description) {
  auto* group = app.add_subcommand(name, description);
  group->require_subcommand(1);
  return group;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"assay — verifiable AI-agent evidence"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "assay 0.1.0");
  assay_cli::dispatcher d;

  assay_cli::add_digest(app, d);
  assay_cli::add_jcs(app, d);
  assay_cli::add_schema(app, d);
  assay_cli::add_validate(app, d);

  auto* evidence = add_group(app, "evidence", "Evidence bundles: write, verify, redact");
  assay_cli::add_evidence_bundle(*evidence, d);
  assay_cli::add_evidence_verify(*evidence, d);
  assay_cli::add_evidence_redact(*evidence, d);

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
