// What the verbs that take --pack share: the pack reader the CLI was built with.
#pragma once

#include "cli.hpp"

#include "assay/lint/pack.hpp"
#include "assay/lint/resolve.hpp"
#if ASSAY_CLI_YAML
#include "assay/lint/pack_yaml.hpp"
#endif

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay_cli {

// YAML and JSON packs when the CLI was built with libyaml, JSON packs otherwise.
inline assay::lint::pack_options cli_pack_options() {
#if ASSAY_CLI_YAML
  return assay::lint::yaml_options();
#else
  return {};
#endif
}

// The packs of --pack values, resolved as lint resolves them; when one does not load, every error
// printed as `command`'s and nothing returned (the caller exits 3, docs/cli.md).
inline std::optional<std::vector<assay::lint::loaded_pack>> load_cli_packs(std::string_view command,
                                                                           const std::vector<std::string>& values) {
  auto packs = assay::lint::load_packs(values, cli_pack_options());
  if (!packs) {
    for (const auto& e : packs.error())
      print_error(command, printable(e.format()));
    return std::nullopt;
  }
  return std::move(*packs);
}

}  // namespace assay_cli
