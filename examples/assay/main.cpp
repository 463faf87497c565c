// assay — the reference command line: the library's public headers, one command per file.
// Adding a command: write cmd_NAME.hpp with add_NAME(command_set&), include it, list it below.
#include "cmd_digest.hpp"
#include "cmd_evidence.hpp"
#include "cmd_jcs.hpp"
#include "cmd_schema.hpp"
#include "cmd_validate.hpp"
#include "common.hpp"

#include <cstdio>

int main(int argc, char** argv) {
  CLI::App app{"assay — verifiable AI-agent evidence"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "assay 0.1.0");
  assay_cli::action chosen;
  assay_cli::command_set cs{app, &chosen};

  assay_cli::add_digest(cs);
  assay_cli::add_evidence(cs);
  assay_cli::add_jcs(cs);
  assay_cli::add_schema(cs);
  assay_cli::add_validate(cs);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0)
      return app.exit(e);  // --help, --version
    std::fprintf(stderr, "assay: %s\n", e.what());
    std::fprintf(stderr, "run 'assay --help' for usage\n");
    return assay_cli::exit_usage;
  }
  try {
    return chosen ? chosen() : assay_cli::exit_usage;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "assay: out of memory\n");
    return assay_cli::exit_io;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "assay: %s\n", e.what());
    return assay_cli::exit_failed;
  }
}
