// The library's contract registry, compiled once for the verbs that name contracts.
#include "contracts.hpp"

#include "assay/contracts/registry.hpp"
#include "assay/json/canonical.hpp"

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
