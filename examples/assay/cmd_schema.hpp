// assay schema NAME | assay schema --list — the JSON Schema generated from a contract type.
#pragma once

#include "common.hpp"

#include "assay/contracts/registry.hpp"
#include "assay/json/canonical.hpp"

namespace assay_cli {

inline std::string contract_names() {
  std::string out;
  for (const auto& c : assay::contracts::all())
    out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

inline void add_schema(command_set& cs) {
  auto* sub = cs.app.add_subcommand("schema", "Print the JSON Schema of a contract, or list the contracts");
  auto name = std::make_shared<std::string>();
  auto list = std::make_shared<bool>(false);
  sub->add_option("NAME", *name, "Contract name (see --list)");
  sub->add_flag("--list", *list, "List the contract names, one per line");
  cs.on(sub, [name, list]() -> int {
    if (*list) {
      std::string out;
      for (const auto& c : assay::contracts::all())
        out += std::string(c.name) + "\n";
      return write_stdout(out);
    }
    if (name->empty()) {
      print_error("schema", "name a contract or use --list (contracts: " + contract_names() + ")");
      return exit_usage;
    }
    const auto* c = assay::contracts::find(*name);
    if (c == nullptr) {
      print_error("schema", "unknown contract \"" + *name + "\" (contracts: " + contract_names() + ")");
      return exit_usage;
    }
    return write_stdout(assay::json::to_pretty(c->schema()) + "\n");
  });
}

}  // namespace assay_cli
