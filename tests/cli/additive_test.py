#!/usr/bin/env python3
"""Payloads evolve additively (SPEC §8): decisions shaped like the reference's own runtime
(decision "error", tool_call_id, mandate and G3 context, obligations, approval_* members, a
vendor's member) are bundled by `assay evidence bundle` without --unchecked-payloads, pass
`verify --contracts`, keep the bytes of their data, and verify with the reference (assay-ref, found
through $ASSAY_REF or the PATH; that check is reported skipped without it). The typed members are
still checked.

usage: additive_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import gzip
import io
import json
import os
import shutil
import subprocess
import tarfile

from clitest import check, event, expect, finish, jcs, run, tmpfile

decisions = [
    {"tool": "read_file", "decision": "error", "reason_code": "E_POLICY_EVAL", "tool_call_id": "tc_001",
     "reason": "policy evaluation failed: upstream timed out"},
    {"tool": "transfer_funds", "decision": "allow", "reason_code": "P_MANDATE_OK", "tool_call_id": "tc_002",
     "mandate_id": "mnd_7f3a", "principal": "alice@example.com", "auth_scheme": "jwt_bearer",
     "auth_issuer": "https://issuer.example/",
     "obligations": [{"type": "log", "params": {"level": "info"}}, {"type": "alert_on_use", "params": {"channel": "sec"}}],
     "approval_state": "not_required", "x_vendor": {"k": [1, 2]}},
    {"tool": "delete_repo", "decision": "deny", "reason_code": "P_DENY_LIST", "tool_call_id": "tc_003",
     "principal": "bob", "auth_scheme": "oauth2", "auth_issuer": "https://login.example/", "approval_state": "denied",
     "approval_id": "ap_19", "approval_decided_at": "2026-01-01T00:00:00Z", "delegated_from": "agent:planner",
     "delegation_depth": 1},
    {"tool": "send_email", "decision": "requires_approval", "reason_code": "P_ASK", "tool_call_id": "tc_004",
     "approval_state": "pending", "approval_timeout_ms": 30000, "lane": "mcp", "fail_closed": True, "score": 0.5},
]
events = [event(i, "assay.tool.decision", d) for i, d in enumerate(decisions)]
events.append(event(len(events), "assay.sandbox.degraded",
                    {"reason_code": "policy_conflict", "degradation_mode": "audit_fallback", "component": "landlock",
                     "detail": "landlock ABI 1", "fallback_reason": "kernel too old"}))
# As another producer writes them: members in their own order, white space.
events_path = tmpfile(b"".join(json.dumps(e).encode() + b"\n" for e in events))
bundle = tmpfile(b"")
expect("evidence bundle writes the runtime's decisions without --unchecked-payloads",
       ["evidence", "bundle", "--events", events_path, "--out", bundle], b"", 0, None, b"")
expect("evidence verify --contracts: valid", ["evidence", "verify", "--contracts", bundle], b"", 0, err=b"")

# The data of each event kept as written, in canonical bytes, on its line.
with open(bundle, "rb") as f:
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(f.read()))) as t:
        lines = t.extractfile("events.ndjson").read().split(b"\n")[:-1]
check("every event is in the bundle", len(lines) == len(events), str(len(lines)))
for i, (line, e) in enumerate(zip(lines, events)):
    check(f"event {i}: the canonical line", line == jcs(e), line[:200])
    check(f"event {i}: its data bytes", b',"data":' + jcs(e["data"]) + b',"datacontenttype":' in line, line[:200])

# The reference verifies the same bundle.
ref = os.environ.get("ASSAY_REF") or shutil.which("assay-ref")
if ref and os.path.exists(ref):
    p = subprocess.run([ref, "verify", bundle], capture_output=True)
    check("assay-ref verify: OK", p.returncode == 0 and p.stdout.startswith(b"OK"), p.stdout + p.stderr)
else:
    print("SKIP assay-ref verify: no assay-ref ($ASSAY_REF or the PATH)")

# The typed members are still checked, each violation with its pointer.
maybe = tmpfile(jcs(event(0, "assay.tool.decision", dict(decisions[0], decision="maybe"))) + b"\n")
expect("decision maybe refused", ["evidence", "bundle", "--events", maybe, "--out", tmpfile(b"")], b"", 1, b"",
       (f'assay evidence bundle: enum_mismatch: {maybe}: line 1: at /0/data/decision: "maybe" is not one of '
        f'"allow", "deny", "requires_approval", "error"\n').encode())
five = tmpfile(jcs(event(0, "assay.tool.decision", dict(decisions[1], tool_call_id=5))) + b"\n")
expect("tool_call_id 5 refused", ["evidence", "bundle", "--events", five, "--out", tmpfile(b"")], b"", 1, b"",
       (f"assay evidence bundle: type_mismatch: {five}: line 1: at /0/data/tool_call_id: expected a string, found a "
        f"number\n").encode())
unchecked = tmpfile(b"")
expect("--unchecked-payloads still writes it", ["evidence", "bundle", "--events", five, "--out", unchecked,
       "--unchecked-payloads"], b"", 0, None, b"")
expect("verify --contracts refuses it", ["evidence", "verify", "--contracts", unchecked], b"", 1, b"",
       b'ContractInvalidEvent: line 1 of events.ndjson: seq 0 ("assay.tool.decision"): /data/tool_call_id: expected '
       b'a string, found a number\n')

finish()
