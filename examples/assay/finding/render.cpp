// assay finding render F.json [--format md|html] [--out FILE] — a finding as a review packet
// (docs/findings.md): Markdown, or one self-contained HTML page. A finding that breaks its contract, or
// whose computed members are not what its own trial_results give (findings::disagreements):
// every violation on stderr as "<json pointer>: <reason>", exit 1.
#include "../cli.hpp"
#include "../verbs.hpp"
#include "../report.hpp"

#include "assay/contracts/finding.hpp"
#include "assay/findings/render.hpp"

#include <CLI/CLI.hpp>

#include <map>
#include <memory>
#include <string>

namespace assay_cli {

namespace {

struct render_args {
  std::string finding;
  std::string format = "md";
  std::string out = "-";
  std::uint64_t max_bytes = default_max_bytes;
};

int render(const render_args& a) {
  constexpr std::string_view command = "finding render";
  assay::contracts::finding f;
  if (int rc = read_contract(command, a.finding, a.max_bytes, "finding", f); rc != exit_ok)
    return rc;
  auto page = a.format == "html" ? assay::findings::render_html(f) : assay::findings::render_markdown(f);
  if (!page) {
    const std::size_t n = page.error().size();
    print_error(command, input_name(a.finding) + ": not what its own trial_results give (" + std::to_string(n) +
                             (n == 1 ? " violation)" : " violations)"));
    for (const auto& e : page.error())
      print_line(stderr, e.format_pointer_line());
    return exit_failed;
  }
  return finish(command, write_file(a.out, *page));
}

}  // namespace

void add_finding_render(CLI::App& finding, dispatcher& d) {
  auto* sub = finding.add_subcommand("render", "A finding as a review packet: Markdown or a self-contained HTML page");
  auto a = std::make_shared<render_args>();
  sub->add_option("FINDING", a->finding, "Finding (finding-v1), JSON (standard input when -)")->required();
  sub->add_option("--format", a->format, "md (default) or html")
      ->transform(CLI::IsMember(std::map<std::string, std::string>{{"md", "md"}, {"html", "html"}}));
  sub->add_option("--out", a->out, "Write the packet here, atomically (default: standard output)");
  add_max_bytes(sub, a->max_bytes);
  d.on(sub, [a] { return render(*a); });
}

}  // namespace assay_cli
