#!/usr/bin/env python3
"""`assay mcp wrap` and `assay mcp check` (SPEC §19.3–19.5) against a test server that logs every
byte it receives (mcp_test_server.py): each refusal of §19.3 answered with its exact bytes and
never reaching the server; an escaped "tools\\u002fcall" decided like tools/call; drift of a
pinned tool's description; --dry-run; the exit status (the server's, 128 + its signal, 2 for a
refused policy with the server not started, 3 for a bundle that cannot be written, its journal
kept); SIGTERM forwarded and the bundle finished; SIGKILL leaving a journal that `evidence
recover` turns into a bundle with every acknowledged decision, verified here and by assay-ref.

usage: mcp_wrap_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import hashlib
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

from clitest import ASSAY, check, finish, jcs, run

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "mcp_test_server.py")
REF = os.environ.get("ASSAY_REF")
work = tempfile.mkdtemp(prefix="assay-mcp-wrap-")
counter = [0]


def path(name):
    return os.path.join(work, name)


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


POLICY = write("policy.yaml", """version: "1.2"
name: wrap-test
tools:
  allow: [echo, die, exit]
  deny: [forbidden]
schemas:
  echo:
    type: object
    properties: {text: {type: string, maxLength: 100}}
    required: [text]
""")


def call(i, name, args=None, method="tools/call"):
    params = {"name": name}
    if args is not None:
        params["arguments"] = args
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}, separators=(",", ":")).encode()


INIT = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},' \
       b'"clientInfo":{"name":"t","version":"1"}}}'
LIST = b'{"jsonrpc":"2.0","id":"l1","method":"tools/list"}'


def events_of(bundle):
    with tarfile.open(bundle, "r:gz") as t:
        return [json.loads(l) for l in t.extractfile("events.ndjson").read().splitlines()]


def verified(name, bundle):
    code, out, err = run(["evidence", "verify", bundle])
    check(name + ": verifies", code == 0, (out + err).decode(errors="replace"))
    if REF:
        r = subprocess.run([REF, "verify", bundle], capture_output=True, timeout=60)
        check(name + ": assay-ref verifies it", r.returncode == 0, (r.stdout + r.stderr).decode(errors="replace")[-500:])
    elif os.environ.get("ASSAY_REQUIRE_ORACLE") == "1":
        check("assay-ref (ASSAY_REF) is given", False)


def session(lines, wrap_args=(), server_args=(), policy=POLICY):
    """Runs one session with `lines` as the client's input: (exit code, answers by id, stdout lines, stderr, the
    server's log, the bundle path)."""
    counter[0] += 1
    n = counter[0]
    log, bundle = path(f"server{n}.log"), path(f"s{n}.tar.gz")
    open(log, "wb").close()
    args = [ASSAY, "mcp", "wrap", "--policy", policy, "--bundle", bundle] + list(wrap_args) + \
           ["--", sys.executable, SERVER, log] + list(server_args)
    p = subprocess.run(args, input=b"".join(l + b"\n" for l in lines), capture_output=True, timeout=60)
    out = [json.loads(l) for l in p.stdout.splitlines()]
    with open(log, "rb") as f:
        logged = f.read()
    return p.returncode, {json.dumps(o.get("id")): o for o in out}, out, p.stderr.decode(errors="replace"), logged, bundle


def sequential(lines, wrap_args=(), server_args=(), policy=POLICY):
    """As a real client talks: each line sent once the last was answered. (exit code, answers by id, stderr,
    bundle)."""
    counter[0] += 1
    n = counter[0]
    log, bundle = path(f"seq{n}.log"), path(f"seq{n}.tar.gz")
    open(log, "wb").close()
    p = subprocess.Popen([ASSAY, "mcp", "wrap", "--policy", policy, "--bundle", bundle] + list(wrap_args) +
                         ["--", sys.executable, SERVER, log] + list(server_args),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers = {}
    for line in lines:
        p.stdin.write(line + b"\n")
        p.stdin.flush()
        got = p.stdout.readline()
        if not got:
            break
        o = json.loads(got)
        answers[json.dumps(o.get("id"))] = o
    try:
        p.stdin.close()
    except BrokenPipeError:
        pass
    rc = p.wait(timeout=60)
    return rc, answers, p.stderr.read().decode(errors="replace"), bundle


# --- framing: every refusal answered, none reaching the server ---------------------------------
refusals = [
    (b'[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}]', -32600, None,
     "Invalid Request: a JSON array: MCP has no batches"),
    (b'{"id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}', -32600, 2,
     'Invalid Request: not JSON-RPC 2.0 ("jsonrpc" must be "2.0")'),
    (b'{"jsonrpc":"1.0","id":3,"method":"tools/call","params":{"name":"echo"}}', -32600, 3,
     'Invalid Request: not JSON-RPC 2.0 ("jsonrpc" must be "2.0")'),
    (b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","name":"forbidden"}}', -32700, None,
     "Parse error: not one JSON value: duplicate_member at byte 70"),
    (b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ech\xff"}}', -32700, None,
     "Parse error: not one JSON value: invalid_utf8 at byte 67"),
    (b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"\\ud800"}}', -32700, None,
     "Parse error: not one JSON value: lone_surrogate at byte 64"),
    (b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":7}}', -32602, 7,
     "Invalid params: params.name must be a non-empty string (the tool)"),
    (b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo"}} {}', -32700, None,
     "Parse error: not one JSON value: trailing_content at byte 72"),
    (b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"' + b"y" * 5000 +
     b'"}}}', -32700, None, "Parse error: the line is longer than 1024 bytes"),
    (b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo"}}', -32600, None,
     "Invalid Request: a tools/call needs an id"),
]
escaped = b'{"jsonrpc":"2.0","id":10,"method":"tools\\u002fcall","params":{"name":"forbidden","arguments":{}}}'
good = call(11, "echo", {"text": "hi"})
code, by_id, out, err, logged, bundle = session([INIT, LIST] + [r[0] for r in refusals] + [escaped, good],
                                                ["--max-line-bytes", "1024"])
check("framing session exits 0 (the server's status)", code == 0, err[-800:])
check("only initialize, tools/list and the valid call reached the server, byte for byte",
      logged == INIT + b"\n" + LIST + b"\n" + good + b"\n", repr(logged[:600]))
answers = [o for o in out if "error" in o]
expected = [{"jsonrpc": "2.0", "id": i, "error": {"code": c, "message": m}} for _, c, i, m in refusals]
check("each refusal answered with its code, id and message, in order", answers == expected,
      json.dumps(answers, indent=0)[:2000])
check("the escaped tools\\u002fcall is decided: denied with the reference's bytes",
      by_id.get("10") == {"jsonrpc": "2.0", "id": 10, "result": {
          "content": [{"type": "text", "text": "Content blocked by policy"}], "isError": True,
          "structuredContent": {"status": "deny", "error_code": "E_TOOL_DENIED", "tool": "forbidden",
                                "reason": "Tool is explicitly denylisted by name"}}}, repr(by_id.get("10")))
check("the valid call is answered by the server", by_id.get("11", {}).get("result") == {
    "content": [{"type": "text", "text": "hi"}]}, repr(by_id.get("11")))
ev = events_of(bundle)
refused = [e["data"] for e in ev if e["type"] == "assay.mcp.refused"]
check("one assay.mcp.refused per refusal: code, the line's sha256 and size, never the line",
      [(r["code"], r["line_sha256"], r["line_bytes"]) for r in refused] ==
      [(c, hashlib.sha256(l).hexdigest(), len(l)) for l, c, _, _ in refusals], json.dumps(refused)[:1500])
check("the refusals' reasons are the answers' texts",
      [r["reason"] for r in refused] == [m.split(": ", 1)[1] for _, _, _, m in refusals], repr([r["reason"] for r in refused]))
raw = json.dumps(ev)
check("no refused line's text is in the bundle", "ech\\u00ff" not in raw and "y" * 100 not in raw)
check("stderr names each refusal's code, never its line",
      err.count("refused -32700") == 5 and err.count("refused -32600") == 4 and "yyyy" not in err, err[-1500:])
verified("framing session", bundle)

# --- drift: a pinned tool whose description changed ----------------------------------------------
schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
pin = {"server_id": "srv", "tool_name": "echo", "schema_hash": hashlib.sha256(jcs(schema)).hexdigest(),
       "meta_hash": hashlib.sha256(b"Echo the text back").hexdigest()}
pinned = write("pinned.yaml", f"""version: "2.0"
name: pinned
tools:
  allow: [echo]
tool_pins:
  echo: {json.dumps(pin)}
""")
code, by_id, err, bundle = sequential([INIT, LIST, call(1, "echo", {"text": "a"})], ["--label", "srv"],
                                      policy=pinned)
check("the pinned definition as listed: allowed", by_id.get("1", {}).get("result", {}).get("content") ==
      [{"type": "text", "text": "a"}], repr(by_id.get("1")) + err[-500:])
code, by_id, _, err, logged, bundle = session([INIT, LIST, call(1, "echo", {"text": "a"})], ["--label", "srv"],
                                              ["Echo the text back, and run anything"], policy=pinned)
check("a changed description: E_TOOL_DRIFT with the contract's text",
      by_id.get("1", {}).get("result", {}).get("structuredContent") == {
          "status": "deny", "error_code": "E_TOOL_DRIFT", "tool": "echo",
          "reason": "Tool metadata or schema has changed without policy update (SOTA Moat)"}, repr(by_id.get("1")))
check("the drifted call never reached the server", call(1, "echo", {"text": "a"}) not in logged)
d = [e["data"] for e in events_of(bundle) if e["type"] == "assay.tool.decision"]
check("the drift decision: deny_with_alert, P_TOOL_DRIFT",
      len(d) == 1 and d[0]["typed_decision"] == "deny_with_alert" and d[0]["reason_code"] == "P_TOOL_DRIFT", repr(d))
code, by_id, _, err, logged, bundle = session([INIT, call(1, "echo", {"text": "a"})], ["--label", "srv"], policy=pinned)
check("a pinned tool the session never listed is drift too",
      by_id.get("1", {}).get("result", {}).get("structuredContent", {}).get("error_code") == "E_TOOL_DRIFT")

# --- --dry-run: nothing blocked, the deny recorded as the reference records it ---------------------
code, by_id, _, err, logged, bundle = session([INIT, call(1, "forbidden", {})], ["--dry-run"])
check("--dry-run forwards the deny", call(1, "forbidden", {}) in logged)
check("--dry-run prints would_deny", "would_deny forbidden P_TOOL_DENIED: Tool is explicitly denylisted by name" in err,
      err[-500:])
d = [e["data"] for e in events_of(bundle) if e["type"] == "assay.tool.decision"]
check("--dry-run records decision allow with the deny's reason code and typed_decision deny",
      len(d) == 1 and d[0]["decision"] == "allow" and d[0]["reason_code"] == "P_TOOL_DENIED" and
      d[0]["typed_decision"] == "deny", repr(d))

# --- names on stderr go through the sanitizer -------------------------------------------------------
code, by_id, _, err, logged, bundle = session([INIT, call(1, "evil\x1b[31m\u202e", {})])
check("a hostile tool name is printed escaped", "\x1b" not in err and "\u202e" not in err and
      "deny evil" in err, repr(err[-300:]))

# --- exit status ------------------------------------------------------------------------------------
code, _, _, err, _, bundle = session([INIT], server_args=["desc", "5"])
check("the server's exit status is the gate's", code == 5, err[-300:])
check("...and the session ended at the client's end of input",
      events_of(bundle)[-1]["data"].get("end_reason") == "client_eof")
code, _, err, bundle = sequential([INIT, LIST, call(1, "die", {"text": "x"})])
check("a server killed by SIGTERM: 128 + 15", code == 143, err[-300:])
ev = events_of(bundle)
check("...the session ended with the server, the call unanswered",
      ev[-1]["data"].get("end_reason") == "server_exit" and
      [e["data"].get("unanswered") for e in ev if e["type"] == "assay.tool.call"] == [True], json.dumps(ev[-2:]))
verified("a session whose server died", bundle)
marker = path("started-marker")
bad = write("bad.yaml", "version: \"2.0\"\nname: bad\ntools:\n  allow: [echo]\n  alow: [x]\n")
p = subprocess.run([ASSAY, "mcp", "wrap", "--policy", bad, "--bundle", path("never.tar.gz"), "--", "sh", "-c",
                    "touch " + marker], capture_output=True, timeout=30)
check("a refused policy: exit 2, its problem at FILE:LINE:COL", p.returncode == 2 and
      (bad + ":5:3: unknown key \"alow\"").encode() in p.stderr, p.stderr.decode(errors="replace"))
check("...and the server is not started, no journal left", not os.path.exists(marker) and
      not os.path.exists(path("never.journal")))
uncompiled = write("uncompiled.yaml", "version: \"2.0\"\nname: u\ntools:\n  allow: [echo]\nschemas:\n  echo:\n"
                                      "    type: object\n    minimumm: 1\n")
p = subprocess.run([ASSAY, "mcp", "wrap", "--policy", uncompiled, "--bundle", path("never.tar.gz"), "--", "sh", "-c",
                    "touch " + marker], capture_output=True, timeout=30)
check("a schema that does not compile: exit 2, placed at its schema", p.returncode == 2 and
      (uncompiled + ":6:3: the schema of \"echo\" does not compile: the keyword \"minimumm\" is not implemented").encode() in p.stderr,
      p.stderr.decode(errors="replace"))
os.mkdir(path("a-directory.tar.gz"))
p = subprocess.run([ASSAY, "mcp", "wrap", "--policy", POLICY, "--bundle", path("a-directory.tar.gz"),
                    "--journal", path("kept.journal"), "--", sys.executable, SERVER, path("x.log"), "d", "4"],
                   input=INIT + b"\n" + call(1, "echo", {"text": "k"}) + b"\n", capture_output=True, timeout=60)
err = p.stderr.decode(errors="replace")
check("a bundle that cannot be written: exit 3, the server's status printed",
      p.returncode == 3 and "the server exited with status 4" in err, err[-600:])
check("...its journal kept, and recovered", os.path.exists(path("kept.journal")))
code, _, e = run(["evidence", "recover", path("kept.journal"), "--out", path("kept.tar.gz")])
check("...recover packs it", code == 0, e.decode(errors="replace"))
if code == 0:
    verified("the kept journal's bundle", path("kept.tar.gz"))

# --- signals -----------------------------------------------------------------------------------------
def live(extra=(), server_args=()):
    counter[0] += 1
    n = counter[0]
    log, bundle, journal = path(f"live{n}.log"), path(f"live{n}.tar.gz"), path(f"live{n}.journal")
    open(log, "wb").close()
    p = subprocess.Popen([ASSAY, "mcp", "wrap", "--policy", POLICY, "--bundle", bundle, "--sync", "event", "--quiet"]
                         + list(extra) + ["--", sys.executable, SERVER, log] + list(server_args),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p, bundle, journal


def ask(p, line):
    p.stdin.write(line + b"\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


p, bundle, journal = live()
ask(p, INIT)
check("a live session answers", ask(p, call(1, "echo", {"text": "one"}))["result"]["content"][0]["text"] == "one")
p.send_signal(signal.SIGTERM)
try:
    rc = p.wait(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    rc = None
check("SIGTERM forwarded: the server's end by it is the gate's status", rc == 143, repr(rc))
ev = events_of(bundle) if os.path.exists(bundle) else []
check("...and the bundle finished, end_reason signal", ev and ev[-1]["data"].get("end_reason") == "signal", repr(ev[-1:]))
check("...its journal removed", not os.path.exists(journal))

p, bundle, journal = live()
ask(p, INIT)
acknowledged = 0
for i in range(1, 6):
    r = ask(p, call(i, "echo" if i % 2 else "forbidden", {"text": str(i)}))
    acknowledged += 1
p.send_signal(signal.SIGKILL)
p.wait(timeout=30)
check("a gate killed by SIGKILL leaves its journal and no bundle", os.path.exists(journal) and
      not os.path.exists(bundle))
code, _, e = run(["evidence", "recover", journal, "--out", bundle])
check("recover turns the journal into a bundle", code == 0, e.decode(errors="replace"))
if code == 0:
    verified("the killed gate's recovered bundle", bundle)
    d = [x["data"] for x in events_of(bundle) if x["type"] == "assay.tool.decision"]
    check("every acknowledged decision is in it", [x["decision"] for x in d] ==
          ["allow", "deny", "allow", "deny", "allow"], repr(d))

# --- mcp check -------------------------------------------------------------------------------------
code, o, e = run(["mcp", "check", POLICY])
lines = o.decode().splitlines()
check("mcp check: exit 0, name, version, digest", code == 0 and lines[0].startswith("ok wrap-test version 1.2 sha256:")
      and len(lines[0].split()[4]) == 71, o.decode() + e.decode())
check("mcp check: what it enforces", lines[1:5] == [
    "  allow: echo, die, exit", "  deny: forbidden", "  schemas: echo; a tool without one: warn", "  pins: none"],
      o.decode())
code, o, e = run(["mcp", "check", bad])
check("mcp check of a bad policy: exit 1, FILE:LINE:COL", code == 1 and e.decode().startswith(bad + ":5:3: "),
      e.decode())
code, o, e = run(["mcp", "check", uncompiled])
check("mcp check of a schema that does not compile: exit 1", code == 1 and (uncompiled + ":6:3: ") in e.decode(),
      e.decode())
code, o, e = run(["mcp", "check", path("missing.yaml")])
check("mcp check of a missing file: exit 3", code == 3, e.decode())
finish()
