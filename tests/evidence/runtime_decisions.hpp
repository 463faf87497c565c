// assay.tool.decision payloads shaped like the reference's own runtime decisions (its MCP
// decision path, SPEC §8): decision "error", tool_call_id, mandate and G3 authorization context,
// delegation, obligations (an array of objects), approval_* members and a vendor's own member.
// Each is the canonical (JCS) text of its `data`: the bytes a bundle must keep.
#pragma once

#include <array>
#include <string_view>

namespace assay_test::runtime {

inline constexpr std::array<std::string_view, 4> decisions = {
    R"({"decision":"error","reason":"policy evaluation failed: upstream timed out","reason_code":"E_POLICY_EVAL",)"
    R"("tool":"read_file","tool_call_id":"tc_001"})",
    R"({"approval_state":"not_required","auth_issuer":"https://issuer.example/","auth_scheme":"jwt_bearer",)"
    R"("decision":"allow","mandate_id":"mnd_7f3a","obligations":[{"params":{"level":"info"},"type":"log"},)"
    R"({"params":{"channel":"sec"},"type":"alert_on_use"}],"principal":"alice@example.com",)"
    R"("reason_code":"P_MANDATE_OK","tool":"transfer_funds","tool_call_id":"tc_002","x_vendor":{"k":[1,2]}})",
    R"({"approval_decided_at":"2026-01-01T00:00:00Z","approval_id":"ap_19","approval_state":"denied",)"
    R"("auth_issuer":"https://login.example/","auth_scheme":"oauth2","decision":"deny",)"
    R"("delegated_from":"agent:planner","delegation_depth":1,"principal":"bob","reason_code":"P_DENY_LIST",)"
    R"("tool":"delete_repo","tool_call_id":"tc_003"})",
    R"({"approval_state":"pending","approval_timeout_ms":30000,"decision":"requires_approval","fail_closed":true,)"
    R"("lane":"mcp","reason_code":"P_ASK","score":0.5,"tool":"send_email","tool_call_id":"tc_004"})",
};

}  // namespace assay_test::runtime
