// assay validate NAME [FILE] — decode FILE as contract NAME; every violation on stderr as
// "<json pointer>: <reason>", exit 1; not JSON at all: exit 2.
#pragma once

#include "cmd_schema.hpp"
#include "common.hpp"

#include "assay/contracts/registry.hpp"

namespace assay_cli {

inline void add_validate(command_set& cs) {
  auto* sub = cs.app.add_subcommand("validate", "Validate a JSON document against a contract");
  auto name = std::make_shared<std::string>();
  auto file = std::make_shared<std::string>();
  sub->add_option("NAME", *name, "Contract name (see assay schema --list)")->required();
  sub->add_option("FILE", *file, "JSON document (standard input when absent)");
  cs.on(sub, [name, file]() -> int {
    const auto* c = assay::contracts::find(*name);
    if (c == nullptr) {
      print_error("validate", "unknown contract \"" + *name + "\" (contracts: " + contract_names() + ")");
      return exit_usage;
    }
    auto text = read_input(*file);
    if (!text) {
      print_error("validate", text.error().message);
      return exit_io;
    }
    auto r = c->validate(*text, {});
    if (r) {
      std::printf("%s: valid %s\n", input_name(*file).c_str(), std::string(c->name).c_str());
      return exit_ok;
    }
    const auto& errs = r.error();
    if (errs.size() == 1 && assay::contracts::is_syntax_error(errs.front().code)) {
      print_error("validate", input_name(*file) + " is not valid JSON: " + errs.front().format());
      return exit_usage;
    }
    for (const auto& e : errs)
      std::fprintf(stderr, "%s\n", e.format_pointer_line().c_str());
    return exit_failed;
  });
}

}  // namespace assay_cli
