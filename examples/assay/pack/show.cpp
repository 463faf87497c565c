// assay pack show P — one pack, loaded as lint loads it, printed as JSON: its digest document
// (docs/packs.md, docs/cli.md); a folder of packs holding one pack, that pack.
#include "../cli.hpp"
#include "../packs.hpp"
#include "../verbs.hpp"

#include "assay/json/canonical.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/resolve.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <memory>
#include <string>

namespace assay_cli {

namespace lint = assay::lint;

namespace {

// The pack `ref` names: a file, a directory with pack.yaml, a name; or a folder of packs holding
// exactly one (show prints one pack: a folder of several is refused, naming them, for pack check).
assay::results<lint::loaded_pack> load_one(const std::string& ref) {
  if (!lint::is_pack_folder(ref))
    return lint::load_pack_ref(ref, cli_pack_options());
  auto files = lint::folder_pack_files(std::filesystem::path(ref), ref);
  if (!files)
    return std::move(files).error();
  if (files->size() == 1)
    return lint::load_pack_file(files->front(), cli_pack_options());
  std::string names;
  for (const std::filesystem::path& f : *files)
    names += (names.empty() ? "" : ", ") + f.filename().string();
  return assay::errors(assay::make_error(assay::errc::invalid_argument,
                                         "pack folder " + lint::quoted_text(ref) + " holds " +
                                             std::to_string(files->size()) + " packs (" + names +
                                             "): pack show prints one, so name its file; pack check lists them all"));
}

int show(const std::string& ref) {
  constexpr std::string_view command = "pack show";
  auto p = load_one(ref);
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
