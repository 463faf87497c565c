// What the verbs that take --pack share: the pack reader the CLI was built with.
#pragma once

#include "assay/lint/pack.hpp"
#if ASSAY_CLI_YAML
#include "assay/lint/pack_yaml.hpp"
#endif

namespace assay_cli {

// YAML and JSON packs when the CLI was built with yaml-cpp, JSON packs otherwise.
inline assay::lint::pack_options cli_pack_options() {
#if ASSAY_CLI_YAML
  return assay::lint::yaml_options();
#else
  return {};
#endif
}

}  // namespace assay_cli
