#!/usr/bin/env python3
"""`assay mcp wrap` between two programs nobody here wrote (SPEC §19): the official MCP TypeScript
SDK's client (@modelcontextprotocol/sdk) and the reference filesystem server
(@modelcontextprotocol/server-filesystem), both from npm. Through the gate, with an allow list
that has no `*`: initialize and tools/list pass, an allowed read returns the file, a read outside
the schema's pattern is E_ARG_SCHEMA with its violations, a denied write is E_TOOL_DENIED and the
file is not written, a tool outside the allow list is E_TOOL_NOT_ALLOWED. The session's bundle
verifies here and in the reference (assay-ref, when ASSAY_REF names it), its decisions carry the
P56a cluster and the P56b digest of the definitions the client saw (computed here from what the
client listed), and neither the bundle nor stderr holds an argument or a result.

usage: mcp_sdk_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1) TOOLS_DIR

The packages are looked for in $ASSAY_MCP_TOOLS, then TOOLS_DIR; when absent, npm installs them
into TOOLS_DIR. Without npm or node, or when the install fails: skipped (exit 77), or a failure
when REQUIRE is 1 (CI, where npm is reachable).
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.argv, TOOLS = sys.argv[:5], sys.argv[5]
from clitest import ASSAY, REQUIRE, check, finish, jcs, run  # noqa: E402

SKIP = 77
PACKAGES = ["@modelcontextprotocol/sdk@1.32.2", "@modelcontextprotocol/server-filesystem@2026.8.31"]
SERVER_JS = os.path.join("node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
SDK_JS = os.path.join("node_modules", "@modelcontextprotocol", "sdk", "dist", "esm", "client", "index.js")
HERE = os.path.dirname(os.path.abspath(__file__))


def unavailable(why):
    print(why)
    if REQUIRE:
        check("the MCP SDK and the filesystem server from npm", False, why)
        finish()
    sys.exit(SKIP)


def find_tools():
    for prefix in filter(None, [os.environ.get("ASSAY_MCP_TOOLS"), TOOLS]):
        if all(os.path.isfile(os.path.join(prefix, f)) for f in (SERVER_JS, SDK_JS)):
            return os.path.abspath(prefix)
    if shutil.which("npm") is None or shutil.which("node") is None:
        unavailable("npm or node absent: the MCP SDK test is skipped")
    os.makedirs(TOOLS, exist_ok=True)
    try:
        p = subprocess.run(["npm", "install", "--prefix", TOOLS, "--no-audit", "--no-fund", "--no-save"] + PACKAGES,
                           capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        unavailable("npm install timed out")
    if p.returncode != 0 or not os.path.isfile(os.path.join(TOOLS, SERVER_JS)):
        unavailable("npm install failed (no registry?): " + p.stderr.decode(errors="replace")[-400:])
    return os.path.abspath(TOOLS)


tools = find_tools()
work = tempfile.mkdtemp(prefix="assay-mcp-sdk-")
files = os.path.join(work, "files")
os.mkdir(files)
files = os.path.realpath(files)
text = "hello from the filesystem server\n"
with open(os.path.join(files, "a.txt"), "w") as f:
    f.write(text)
secret_write = "content-the-gate-never-lets-through-7f3a"
pattern_dir = re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", files)  # ECMA-262 metacharacters escaped
policy = os.path.join(work, "policy.yaml")
with open(policy, "w") as f:
    f.write(f"""version: "2.0"
name: sdk-session
tools:
  allow: [read_text_file, list_directory, write_file]
  deny: [write_file]
schemas:
  read_text_file:
    type: object
    properties:
      path: {{type: string, pattern: '^{pattern_dir}/.*'}}
      head: {{type: number}}
      tail: {{type: number}}
    required: [path]
    additionalProperties: false
""")
bundle = os.path.join(work, "session.tar.gz")
plan = {
    "command": [ASSAY, "mcp", "wrap", "--policy", policy, "--bundle", bundle, "--label", "fs", "--",
                "node", os.path.join(tools, SERVER_JS), files],
    "calls": [
        {"name": "read_text_file", "arguments": {"path": os.path.join(files, "a.txt")}, "via": "callTool"},
        {"name": "read_text_file", "arguments": {"path": "/etc/hostname"}, "via": "request"},
        {"name": "write_file", "arguments": {"path": os.path.join(files, "new.txt"), "content": secret_write},
         "via": "request"},
        {"name": "move_file", "arguments": {"source": os.path.join(files, "a.txt"),
                                            "destination": os.path.join(files, "b.txt")}, "via": "request"},
        # Client.callTool checks structuredContent against the tool's outputSchema: the reference's
        # deny result ({status, error_code, tool, reason}) does not match write_file's {content}.
        {"name": "write_file", "arguments": {"path": os.path.join(files, "new.txt"), "content": secret_write},
         "via": "callTool"},
    ],
}
plan_file = os.path.join(work, "plan.json")
with open(plan_file, "w") as f:
    json.dump(plan, f)
p = subprocess.run(["node", os.path.join(HERE, "mcp_sdk_client.mjs"), tools, plan_file], capture_output=True,
                   timeout=120)
stderr = p.stderr.decode(errors="replace")
check("the SDK client's session ends", p.returncode == 0, stderr[-1500:])
session = json.loads(p.stdout) if p.returncode == 0 else {"calls": [], "tools": []}
print(json.dumps(session, indent=1)[:3000])

# initialize and tools/list passed the allow list without `*`
check("initialize passed: the server named itself", session.get("server", {}).get("name") == "secure-filesystem-server",
      repr(session.get("server")))
check("tools/list passed, unchanged", "read_text_file" in session["tools"] and "move_file" in session["tools"],
      repr(session["tools"]))
calls = session["calls"]
check("five calls answered", len(calls) == 5, repr(calls))


def deny(i):
    return calls[i]["result"] if i < len(calls) and "result" in calls[i] else {}


if len(calls) == 5:
    check("an allowed read returns the file", calls[0].get("result", {}).get("content") == [{"type": "text", "text": text}],
          repr(calls[0]))
    r = deny(1)
    sc = r.get("structuredContent", {})
    check("a read outside the pattern: E_ARG_SCHEMA, with its violation at /path",
          r.get("isError") is True and r.get("content") == [{"type": "text", "text": "Content blocked by policy"}] and
          list(sc) == ["status", "error_code", "tool", "violations"] and sc["status"] == "deny" and
          sc["error_code"] == "E_ARG_SCHEMA" and sc["tool"] == "read_text_file" and
          [v["path"] for v in sc["violations"]] == ["/path"], repr(r))
    check("a violation never holds the argument", "/etc/hostname" not in json.dumps(r), repr(r))
    check("a denied write: E_TOOL_DENIED, the reference's bytes",
          deny(2) == {"content": [{"type": "text", "text": "Content blocked by policy"}], "isError": True,
                      "structuredContent": {"status": "deny", "error_code": "E_TOOL_DENIED", "tool": "write_file",
                                            "reason": "Tool is explicitly denylisted by name"}}, repr(deny(2)))
    check("the denied write wrote nothing", not os.path.exists(os.path.join(files, "new.txt")))
    check("a tool outside the allow list: E_TOOL_NOT_ALLOWED, the contract's text",
          deny(3).get("structuredContent") == {"status": "deny", "error_code": "E_TOOL_NOT_ALLOWED", "tool": "move_file",
                                               "reason": "Tool is not in allowlist"}, repr(deny(3)))
    check("the file was not moved", os.path.exists(os.path.join(files, "a.txt")))
    check("Client.callTool refuses the deny result against write_file's outputSchema (-32602)",
          calls[4].get("error", {}).get("code") == -32602 and
          "does not match the tool's output schema" in calls[4]["error"]["message"], repr(calls[4]))

# The gate's stderr: one sanitized line per decision, then the summary.
lines = [l for l in stderr.splitlines() if re.match(r"^(allow|deny|would_deny) ", l)]
check("one stderr line per decision", lines == [
    "allow read_text_file",
    "deny read_text_file P_ARG_SCHEMA: JSON Schema validation failed",
    "deny write_file P_TOOL_DENIED: Tool is explicitly denylisted by name",
    "deny move_file P_TOOL_NOT_ALLOWED: Tool is not in the allowlist",
    "deny write_file P_TOOL_DENIED: Tool is explicitly denylisted by name",
], stderr[-1500:])
check("the summary line", "assay mcp wrap: 5 call(s) decided (1 allowed, 4 denied), 0 line(s) refused; client_eof: " +
      bundle in stderr, stderr[-800:])
for secret in (secret_write, "/etc/hostname", text.strip(), os.path.join(files, "a.txt")):
    check("stderr holds no argument or result: " + secret[:20], secret not in stderr)

# The bundle: verified here and by the reference.
code, out, err = run(["evidence", "verify", bundle])
check("the session's bundle verifies", code == 0, (out + err).decode(errors="replace"))
ref = os.environ.get("ASSAY_REF")
if ref:
    r = subprocess.run([ref, "verify", bundle], capture_output=True, timeout=60)
    check("assay-ref verifies the session's bundle", r.returncode == 0,
          (r.stdout + r.stderr).decode(errors="replace")[-600:])
elif os.environ.get("ASSAY_REQUIRE_ORACLE") == "1":
    check("assay-ref (ASSAY_REF) is given", False)
with tarfile.open(bundle, "r:gz") as t:
    raw = t.extractfile("events.ndjson").read()
events = [json.loads(l) for l in raw.splitlines()]
types = [e["type"] for e in events]
check("the events in order", types == [
    "assay.profile.started", "assay.mcp.tools_listed",
    "assay.tool.decision", "assay.tool.call",
    "assay.tool.decision", "assay.tool.decision", "assay.tool.decision", "assay.tool.decision",
    "assay.profile.finished"], repr(types))
for secret in (secret_write, "/etc/hostname", text.strip(), os.path.join(files, "a.txt")):
    check("the bundle holds no argument or result: " + secret[:20], secret.encode() not in raw)
check("the session ended at the client's end of input", events[-1]["data"].get("end_reason") == "client_eof",
      repr(events[-1]))
code, out, _ = run(["mcp", "check", policy])
digest = out.decode().split()[4] if code == 0 else ""
decisions = [e["data"] for e in events if e["type"] == "assay.tool.decision"]
check("every decision carries the P56a cluster with the policy's digest",
      all(d.get("policy_digest") == digest and d.get("policy_snapshot_digest") == digest and
          d.get("policy_snapshot_digest_alg") == "sha256" and d.get("policy_snapshot_canonicalization") == "jcs:mcp_policy"
          and d.get("policy_snapshot_schema") == "assay.mcp.policy.snapshot.v1" for d in decisions) and digest.startswith("sha256:"),
      repr(decisions[0]) + " " + digest)


def p56b(tool):
    """The P56b digest of a definition as the client listed it (docs/contracts.md, SPEC §19.4)."""
    proj = {"name": tool["name"], "server_id": "fs"}
    d = tool.get("description")
    if isinstance(d, str) and d.strip():
        proj["description"] = d.strip()
    s = tool.get("inputSchema")
    if isinstance(s, dict):
        proj["input_schema"] = s
    return "sha256:" + hashlib.sha256(jcs(proj)).hexdigest()


r = subprocess.run(["node", "-e", """
const { pathToFileURL } = require('url');
(async () => {
  const sdk = (p) => import(pathToFileURL(process.argv[1] + '/node_modules/@modelcontextprotocol/sdk/dist/esm/' + p).href);
  const { Client } = await sdk('client/index.js');
  const { StdioClientTransport } = await sdk('client/stdio.js');
  const c = new Client({ name: 'lister', version: '1' });
  await c.connect(new StdioClientTransport({ command: 'node', args: [process.argv[2], process.argv[3]], stderr: 'ignore' }));
  process.stdout.write(JSON.stringify((await c.listTools()).tools));
  await c.close();
})();""", tools, os.path.join(tools, SERVER_JS), files], capture_output=True, timeout=60)
listed = {t["name"]: t for t in json.loads(r.stdout)} if r.returncode == 0 else {}
check("the server's definitions, listed directly", "read_text_file" in listed, r.stderr.decode(errors="replace")[-400:])
for d in decisions:
    if d["tool"] in listed:
        check("P56b of " + d["tool"] + " is the digest of the definition the client saw",
              d.get("tool_definition_digest") == p56b(listed[d["tool"]]) and
              d.get("tool_definition_canonicalization") == "jcs:mcp_tool_definition.v1",
              repr(d) + " " + p56b(listed[d["tool"]]))
listed_event = [e["data"] for e in events if e["type"] == "assay.mcp.tools_listed"][0]
check("assay.mcp.tools_listed names each tool with its P56b digest",
      listed_event.get("server_id") == "fs" and
      {t["name"]: t["tool_definition_digest"] for t in listed_event["tools"]} == {n: p56b(t) for n, t in listed.items()},
      repr(listed_event)[:600])
shutil.rmtree(work, ignore_errors=True)
finish()
