// assay evidence show B [--format table|json] [--no-verify] [--limits L.json] — a bundle for a person, or for a
// script (docs/inspect.md): verified first, the manifest's summary and a table of events sized to the
// terminal.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "evidence.hpp"

#include "assay/inspect/show.hpp"

#include <CLI/CLI.hpp>

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace assay_cli {

namespace {

struct show_args {
  std::string bundle;
  std::string limits;
  std::string format = "table";
  bool no_verify = false;
};

// The columns to size the table to: $COLUMNS when set to a number, else the terminal's width;
// when standard output is no terminal, no limit (a pipe gets every cell whole).
std::size_t columns() {
  if (const char* c = std::getenv("COLUMNS"); c != nullptr && *c != '\0') {
    char* end = nullptr;
    const unsigned long n = std::strtoul(c, &end, 10);
    if (*end == '\0' && n >= 20 && n <= 100000)
      return n;
  }
  winsize ws{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return static_cast<std::size_t>(-1) / 4;
}

// Colour only on a terminal, and not when NO_COLOR is set (no-color.org) or TERM is dumb.
bool colour() {
  const char* no = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && (no == nullptr || *no == '\0') &&
         (term == nullptr || std::string_view(term) != "dumb");
}

int run_show(const show_args& a) {
  constexpr std::string_view command = "evidence show";
  assay::inspect::show_options o;
  if (auto code = read_limits_option(command, a.limits, o.limits))
    return *code;
  o.fmt = a.format == "json" ? assay::inspect::show_options::format::json : assay::inspect::show_options::format::table;
  o.verify = !a.no_verify;
  o.width = columns();
  o.colour = o.fmt == assay::inspect::show_options::format::table && colour();
  // Streamed from the file (or standard input), never read whole: memory stays flat on any bundle.
  auto r = [&] {
    if (!is_std_stream(a.bundle))
      return assay::inspect::show_bundle_file(a.bundle, o, stdout);
    assay::evidence::byte_source src(stdin);
    return assay::inspect::show_bundle(src, o, stdout);
  }();
  if (r && std::fflush(stdout) != 0)
    r = assay::make_error(assay::errc::io_error, std::string("cannot write the output: ") + std::strerror(errno));
  if (!r)
    return fail_bundle(command, r.error());
  return exit_ok;
}

}  // namespace

void add_evidence_show(CLI::App& evidence, dispatcher& d) {
  auto* sub = evidence.add_subcommand("show", "A bundle's summary and its events");
  auto a = std::make_shared<show_args>();
  sub->add_option("BUNDLE", a->bundle, "The bundle (.tar.gz; - for standard input)")->required();
  add_limits(sub, a->limits);
  sub->add_option("--format", a->format, "table (for a person; the default) or json (for a script)")
      ->check(CLI::IsMember({"table", "json"}));
  sub->add_flag("--no-verify", a->no_verify,
                "Show what the bundle holds without verifying it (said on the first line; for a bundle that "
                "fails)");
  d.on(sub, [a] { return run_show(*a); });
}

}  // namespace assay_cli
