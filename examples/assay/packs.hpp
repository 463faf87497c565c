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

// The packs of --pack values for a stamp (a bundle's x-assay, an attestation's predicate): loaded
// as load_cli_packs loads them, then held to the check lint and soak hold them to
// (lint::check_packs_together), so nothing is stamped with packs lint refuses; its error printed
// as lint prints it, as `command`'s, and nothing returned (the caller exits 3, as lint does).
inline std::optional<std::vector<assay::lint::loaded_pack>> load_stamp_packs(std::string_view command,
                                                                             const std::vector<std::string>& values) {
  auto packs = load_cli_packs(command, values);
  if (!packs)
    return std::nullopt;
  if (auto together = assay::lint::check_packs_together(*packs); !together) {
    print_error(command, printable(together.error().message));
    return std::nullopt;
  }
  return packs;
}

}  // namespace assay_cli
