// assay schema NAME | assay schema --list — the JSON Schema generated from a contract type.
#include "cli.hpp"
#include "contracts.hpp"
#include "verbs.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace assay_cli {

namespace {

struct schema_args {
  std::string name;
  bool list = false;
};

int schema(const schema_args& a) {
  if (a.list)
    return finish("schema", write_file("-", contract_list()));
  if (a.name.empty()) {
    return usage_error("schema", "name a contract or use --list (contracts: " + contract_names() + ")");
  }
  if (!has_contract(a.name)) {
    return usage_error("schema", unknown_contract(a.name));
  }
  return finish("schema", write_file("-", contract_schema(a.name)));
}

}  // namespace

void add_schema(CLI::App& parent, dispatcher& d) {
  auto* sub = parent.add_subcommand("schema", "Print the JSON Schema of a contract, or list the contracts");
  auto a = std::make_shared<schema_args>();
  sub->add_option("NAME", a->name, "Contract name (see --list)");
  sub->add_flag("--list", a->list, "List the contract names, one per line");
  d.on(sub, [a] { return schema(*a); });
}

}  // namespace assay_cli
