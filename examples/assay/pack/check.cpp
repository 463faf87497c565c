// assay pack check P… — load packs as lint does (docs/packs.md resolution) and say what each is;
// a folder of packs, each pack in it.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../verbs.hpp"

#include "assay/lint/pack.hpp"
#include "assay/lint/resolve.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace assay_cli {

namespace lint = assay::lint;

namespace {

struct pack_args {
  std::vector<std::string> packs;
};

// One reference's outcome: the pack's line, or every problem.
int check(const pack_args& a) {
  constexpr std::string_view command = "pack check";
  auto refs = lint::split_pack_refs(a.packs);
  if (!refs) {
    return usage_error(command, printable(refs.error().front().message));
  }
  std::string out;
  bool failed = false;
  // A pack's line, or FAIL and every problem (`shown` names what failed).
  auto report = [&](const std::string& shown, const assay::results<lint::loaded_pack>& p) {
    if (!p) {
      failed = true;
      out += "FAIL " + printable(shown, echo_cap) + "\n";
      for (const auto& e : p.error())
        out += "  " + printable(e.format()) + "\n";
      return;
    }
    const auto& d = p->definition;
    std::string signals;
    for (const std::string& s : p->requires_signals())
      signals += (signals.empty() ? "" : ", ") + s;
    out += "ok   " + printable(std::string(d.name) + "@" + d.version) + " " + std::string(d.kind.value()) + " " +
           p->digest + "\n";
    out += "  " + std::to_string(d.rules.size()) + (d.rules.size() == 1 ? " rule" : " rules") + "; source " +
           printable(p->source.report_value()) + "; signals: " + (signals.empty() ? std::string("none") : signals) +
           "\n";
  };
  for (const std::string& ref : *refs) {
    if (!lint::is_pack_folder(ref)) {
      report(ref, lint::load_pack_ref(ref, cli_pack_options()));
      continue;
    }
    // A folder of packs: each of its pack files, as lint loads them (docs/packs.md).
    auto files = lint::folder_pack_files(std::filesystem::path(ref), ref);
    if (!files) {
      report(ref, std::move(files).error());
      continue;
    }
    for (const std::filesystem::path& f : *files)
      report(f.string(), lint::load_pack_file(f, cli_pack_options()));
  }
  if (auto w = write_file("-", out); !w)
    return fail(command, w.error());
  return failed ? exit_failed : exit_ok;
}

}  // namespace

void add_pack_check(CLI::App& pack, dispatcher& d) {
  auto* sub = pack.add_subcommand("check", "Load packs and report each one's name, kind, digest and problems");
  auto a = std::make_shared<pack_args>();
  sub->add_option("PACK", a->packs, "Packs: paths, built-in names or names in the config directory")->required();
  d.on(sub, [a] { return check(*a); });
}

}  // namespace assay_cli
