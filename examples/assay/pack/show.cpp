// assay pack show P — one pack, loaded as lint loads it, printed as JSON: its digest document
// (docs/packs.md, docs/cli.md).
#include "../cli.hpp"
#include "../packs.hpp"
#include "../verbs.hpp"

#include "assay/json/canonical.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/resolve.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace assay_cli {

namespace lint = assay::lint;

namespace {

int show(const std::string& ref) {
  constexpr std::string_view command = "pack show";
  auto p = lint::load_pack_ref(ref, cli_pack_options());
  if (!p) {
    for (const auto& e : p.error())
      print_error(command, printable(e.format()));
    return exit_failed;
  }
  auto text = assay::json::to_canonical(lint::digest_document(p->definition));
  if (!text)
    return fail(command, text.error());
  return finish(command, write_file("-", *text + "\n"));
}

}  // namespace

void add_pack_show(CLI::App& pack, dispatcher& d) {
  auto* sub = pack.add_subcommand("show", "Print a pack, resolved and normalized, as JSON (its digest document)");
  auto ref = std::make_shared<std::string>();
  sub->add_option("PACK", *ref, "A path, a built-in name or a name in the config directory")->required();
  d.on(sub, [ref] { return show(*ref); });
}

}  // namespace assay_cli
