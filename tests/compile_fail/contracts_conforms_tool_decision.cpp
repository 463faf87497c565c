// Must not compile with ASSAY_COMPILE_FAIL: a consumer's tool decision that lacks the P56b
// member tool_definition_source does not conform to assay.tool.decision.
// With assert_conforms, the first error line names the member the struct lacks.
// expect-error: does_not_conform
// clang-format off
// expect-first-error: does_not_conform<assay::diagnostics::at<assay::diagnostics::path<24>{"/tool_definition_source"}>, assay::diagnostics::member_missing_from_your_struct>
// expect-first-error: does_not_conform<assay::diagnostics::at<'/', 't', 'o', 'o', 'l', '_', 'd', 'e', 'f', 'i', 'n', 'i', 't', 'i', 'o', 'n', '_', 's', 'o', 'u', 'r', 'c', 'e'>, assay::diagnostics::member_missing_from_your_struct>
// clang-format on
#include "assay/contracts/payloads.hpp"
#include "assay/reflect/conform.hpp"

#include <optional>
#include <string>

struct my_tool_decision {
  std::string tool, decision, reason_code;
  std::optional<std::string> args_schema_hash, policy_digest, policy_snapshot_digest, policy_snapshot_digest_alg,
      policy_snapshot_canonicalization, policy_snapshot_schema, tool_definition_digest, tool_definition_digest_alg,
      tool_definition_canonicalization, tool_definition_schema, delegated_from;
#ifdef ASSAY_COMPILE_FAIL
  std::optional<std::string> tool_definition_origin;  // misnamed: the contract says _source
#else
  std::optional<std::string> tool_definition_source;
#endif
  std::optional<int> delegation_depth;
  std::optional<std::string> tool_call_id, mandate_id, principal, auth_scheme, auth_issuer, reason;
  assay::extra_members<> extra;  // the contract keeps additive members: so must a struct that stands for it
};
static_assert(assay::assert_conforms<my_tool_decision, assay::contracts::tool_decision>);

int main() {}
