// contracts_tour — a C++ program that uses the contracts as plain structs:
// build a soak report, catch a constraint violation before it leaves the process, write the
// canonical bytes, read them back strictly, and prove at compile time that a struct of the
// program's own matches the normative contract.
#include "assay/contracts/payloads.hpp"
#include "assay/contracts/soak_report.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/conform.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace contracts = assay::contracts;

// A team's own report type, written without assay's wrapper types. conforms_to proves, at
// compile time, that it has exactly the contract's JSON members and types.
struct my_limits {
  std::int64_t max_bundle_bytes, max_decode_bytes, max_manifest_bytes, max_events_bytes, max_events, max_line_bytes,
      max_path_len, max_json_depth;
};
struct my_pack {
  std::string name, version;
  std::optional<std::string> kind, digest, source;
};
struct my_policy {
  std::string pass_on_severity_at_or_above;
  std::optional<bool> stop_on_first_failure;
  std::optional<std::int64_t> max_failures;
};
struct my_results {
  std::int64_t runs, passes, failures, infra_errors;
  double pass_rate;
  bool pass_all;
  std::optional<assay::nullable<std::int64_t>> first_failure_at;
  std::optional<std::map<std::string, std::int64_t>> violations_by_rule, infra_errors_by_kind;
  std::optional<std::array<double, 2>> pass_rate_ci95;
};
struct my_run {
  std::int64_t index;
  std::string status;
  std::int64_t duration_ms;
  std::optional<std::vector<std::string>> violated_rules;
  std::optional<std::string> infra_error_kind, infra_error_message;
};
struct my_soak_report {
  std::string schema_version, mode;
  std::optional<std::string> generated_at, assay_version, suite;
  std::int64_t iterations;
  std::uint64_t seed;
  std::int64_t time_budget_secs;
  my_limits limits;
  std::vector<my_pack> packs;
  std::optional<my_policy> decision_policy;
  my_results results;
  std::optional<std::vector<my_run>> runs;
};
static_assert(assay::conforms_to<my_soak_report, contracts::soak_report>,
              "my_soak_report must have exactly the members of soak-report-v1");

// An MCP server's own record of a tool decision: plain strings where the contract has an enum
// and constants; it may stand for assay.tool.decision because its JSON shape is the same. The
// contract keeps additive members (docs/contracts.md), so the struct keeps them too (extra_members<>).
struct my_tool_decision {
  std::string tool, decision, reason_code;
  std::optional<std::string> args_schema_hash, policy_digest, policy_snapshot_digest, policy_snapshot_digest_alg,
      policy_snapshot_canonicalization, policy_snapshot_schema, tool_definition_digest, tool_definition_digest_alg,
      tool_definition_canonicalization, tool_definition_schema, tool_definition_source, delegated_from;
  std::optional<int> delegation_depth;
  std::optional<std::string> tool_call_id, mandate_id, principal, auth_scheme, auth_issuer, reason;
  assay::extra_members<> extra;
};
static_assert(assay::conforms_to<my_tool_decision, contracts::tool_decision>,
              "my_tool_decision must have exactly the members of assay.tool.decision");

int main() {
  contracts::soak_report r;
  r.iterations = 3;
  r.seed = 42;
  r.time_budget_secs = 60;
  r.limits = {104857600, 1073741824, 10485760, 524288000, 100000, 1048576, 256, 64};
  r.packs.push_back(
      {.name = "cicd-starter", .version = "1.0.0", .kind = "quality", .digest = {}, .source = "built-in"});
  r.decision_policy = contracts::soak::decision_policy{
      .pass_on_severity_at_or_above = "error", .stop_on_first_failure = {}, .max_failures = {}};
  r.results.runs = 3;
  r.results.passes = 2;
  r.results.failures = 1;
  r.results.infra_errors = 0;
  r.results.pass_rate = 2.0 / 3.0;
  r.results.pass_all = false;
  r.results.first_failure_at = assay::nullable<assay::bounded<std::int64_t, 1>>(2);

  // A bug in the producer: a run index of 0. The type says minimum 1, so encoding refuses it.
  r.runs = std::vector<contracts::soak::run_result>{{.index = 0, .status = "pass", .duration_ms = 12}};
  if (auto bad = assay::encode(r); !bad) {
    std::printf("refused before writing:\n");
    for (const auto& e : bad.error())
      std::printf("  %s\n", e.format_pointer_line().c_str());
  }

  (*r.runs)[0].index = 1;
  r.runs->push_back(
      {.index = 2, .status = "fail", .duration_ms = 15, .violated_rules = {{"cicd-starter@1.0.0:events-present"}}});
  r.runs->push_back({.index = 3, .status = "pass", .duration_ms = 11});
  auto bytes = assay::encode(r);
  if (!bytes) {
    std::fprintf(stderr, "%s\n", bytes.error().format().c_str());
    return 1;
  }
  std::printf("canonical soak-report-v1 (%zu bytes):\n%s\n", bytes->size(), bytes->c_str());

  // Read it back strictly, as a consumer would.
  auto back = assay::decode<contracts::soak_report>(*bytes);
  if (!back) {
    std::fprintf(stderr, "%s\n", back.error().format().c_str());
    return 1;
  }
  std::printf("read back: %lld runs, pass_rate %.4f, first failure at run %lld\n",
              static_cast<long long>(back->results.runs.value()), back->results.pass_rate.value(),
              static_cast<long long>((*back->results.first_failure_at)->value()));
  return assay::encode(*back).value() == *bytes ? 0 : 1;
}
