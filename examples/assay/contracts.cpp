// The library's contract registry, compiled once for the verbs that name contracts.
#include "contracts.hpp"

#include "cli.hpp"

#include "assay/contracts/registry.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/nearest.hpp"

#include <vector>

namespace assay_cli {

std::string contract_list() {
  std::string out;
  for (const auto& c : assay::contracts::all())
    out += std::string(c.name) + "\n";
  return out;
}

std::string contract_names() {
  std::string out;
  for (const auto& c : assay::contracts::all())
    out += (out.empty() ? "" : ", ") + std::string(c.name);
  return out;
}

std::string unknown_contract(std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& c : assay::contracts::all())
    names.push_back(c.name);
  std::string out = "unknown contract \"" + printable(name, echo_cap) + "\"";
  if (const auto nearest = assay::json::nearest_name(name, names))
    out += "; did you mean \"" + std::string(*nearest) + "\"?";
  return out + " (contracts: " + contract_names() + ")";
}

bool has_contract(std::string_view name) {
  return assay::contracts::find(name) != nullptr;
}

std::string contract_schema(std::string_view name) {
  const auto* c = assay::contracts::find(name);
  return c == nullptr ? std::string() : assay::json::to_pretty(c->schema()) + "\n";
}

assay::results<void> validate_contract(std::string_view name, std::string_view text) {
  const auto* c = assay::contracts::find(name);
  if (c == nullptr)
    return assay::errors(assay::make_error(assay::errc::unknown_contract, "unknown contract"));
  return c->validate(text, {});
}

}  // namespace assay_cli
