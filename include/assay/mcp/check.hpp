// assay/mcp/check.hpp — a policy checked as `assay mcp check` checks it (docs/mcp.md): loaded
// (mcp/policy.hpp) and every tool's argument schema compiled (mcp/schema.hpp), each problem
// placed in the policy file, FILE:LINE:COL.
//
//   auto c = assay::mcp::check_policy(text, "policy.yaml");
//   if (!c) for (const auto& e : c.error()) puts(e.format().c_str());   // policy.yaml:12:7: ...
//   else assay::mcp::gate g(c->policy, log, c->schemas);
#pragma once

#include "assay/error.hpp"
#include "assay/json/pointer.hpp"
#include "assay/lint/pack_yaml.hpp"
#include "assay/mcp/gate.hpp"
#include "assay/mcp/policy.hpp"
#include "assay/mcp/schema_options.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

namespace assay::mcp {

struct checked_policy {
  loaded_policy policy;
  argument_schemas schemas;
};

// Every schema that does not compile is an error at its place in the file (the keyword's node in
// /schemas/<tool>, or the nearest node there is: the constraints a v1 policy's schema came from).
inline results<checked_policy> check_policy(std::string_view text, std::string_view source,
                                            const policy_options& opt = {}, const schema_options& so = {}) {
  auto p = load_policy(text, source, opt);
  if (!p)
    return p.error();
  argument_schemas schemas(*p, so);
  const auto failures = schemas.failures();
  if (failures.empty())
    return checked_policy{std::move(*p), std::move(schemas)};
  auto tree = lint::read_yaml_pack(text, opt.yaml);  // it loaded: it reads
  errors errs;
  for (auto [tool, e] : failures) {
    e.message = "the schema of " + lint::quoted_text(tool) + " does not compile: " + e.message;
    e.pointer = "/schemas/" + json::escape_pointer_token(tool) + e.pointer;
    errs.items.push_back(tree ? detail::placed(*tree, source, std::move(e)) : std::move(e));
  }
  std::stable_sort(errs.items.begin(), errs.items.end(),
                   [](const error& a, const error& b) { return a.offset < b.offset; });
  return errs;
}

}  // namespace assay::mcp
