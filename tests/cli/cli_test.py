#!/usr/bin/env python3
"""Tests of the reference CLI `assay` as outside scripts use it: exact stdout, stderr and exit
codes (SPEC §17), and `assay jcs` over every external RFC 8785 vector.

usage: cli_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading

ASSAY, ROOT, CONF, REQUIRE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
ASSAY = os.path.abspath(ASSAY)  # some checks run in another working directory
passed = failed = 0


def run(args, stdin=b"", timeout=120, **kw):
    """(exit code, stdout, stderr); exit code None when the command did not end in time. `stdin`: bytes, or an open
    file handed to the command as its standard input."""
    if hasattr(stdin, "fileno"):
        kw["stdin"], stdin = stdin, None
    try:
        p = subprocess.run([ASSAY] + args, input=stdin, capture_output=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as t:
        return None, t.stdout or b"", (t.stderr or b"") + b"(timed out)"
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def expect(name, args, stdin=b"", rc=0, out=None, err=None, err_contains=None, **kw):
    code, o, e = run(args, stdin, **kw)
    ok = code == rc
    if out is not None:
        ok = ok and o == out
    if err is not None:
        ok = ok and e == err
    if err_contains is not None:
        ok = ok and (err_contains if isinstance(err_contains, bytes) else err_contains.encode()) in e
    check(name, ok, f"rc={code} stdout={o[:300]!r} stderr={e[:300]!r}")


def tmpfile(data):
    f = tempfile.NamedTemporaryFile(delete=False)
    f.write(data)
    f.close()
    return f.name


# --- jcs -------------------------------------------------------------------------------------
expect("jcs stdin", ["jcs"], b'{"b":1e21,"a":[1.50,"\\u00e9\\n",-0]}\n', 0, '{"a":[1.5,"\u00e9\\n",0],"b":1e+21}'.encode())
expect("jcs file", ["jcs", tmpfile(b' { "z" : null , "a" : true } ')], b"", 0, b'{"a":true,"z":null}')
expect("jcs duplicate", ["jcs"], b'{"a":1,"a":2}', 2, b"",
       b'assay jcs: <stdin>: line 1, column 8 (byte 7) at /a: duplicate member name "a"\n')
expect("jcs not json", ["jcs"], b"[1,]", 2, b"", err_contains="trailing comma")
expect("jcs bom", ["jcs"], b"\xef\xbb\xbf{}", 2, b"", err_contains="byte-order mark")
expect("jcs missing file", ["jcs", "/nonexistent/x.json"], b"", 3, b"", err_contains="cannot open /nonexistent/x.json")
expect("jcs overflow", ["jcs"], b"[1e400]", 2, b"", err_contains="too large")

# --- digest ----------------------------------------------------------------------------------
expect("digest default sha256", ["digest"], b'{"b":2, "a":1}', 0,
       b"sha256:" + __import__("hashlib").sha256(b'{"a":1,"b":2}').hexdigest().encode() + b"\n")
expect("digest sha512", ["digest", "--alg", "sha512"], b'[1.0]', 0,
       b"sha512:" + __import__("hashlib").sha512(b'[1]').hexdigest().encode() + b"\n")
expect("digest blake2b", ["digest", "--alg", "blake2b-512"], b'"x"', 0,
       b"blake2b-512:" + __import__("hashlib").blake2b(b'"x"').hexdigest().encode() + b"\n")
expect("digest unknown alg", ["digest", "--alg", "md5"], b'{}', 2, b"", err_contains="md5")
expect("digest not json", ["digest"], b'{', 2, b"")

# --- schema ----------------------------------------------------------------------------------
# schema --list prints exactly the contract names of SPEC §17, one per line, in name order: every
# report and document, and each payload under its event type (SPEC §8, §10).
SPEC17 = ["soak-report-v1", "closure-v1", "evidence-event-v1", "manifest-v1",
          "assay.profile.started", "assay.profile.finished", "assay.tool.decision", "assay.sandbox.degraded",
          "assay.fs.access", "assay.env.filtered", "assay.tool.call", "assay.model.invoked", "assay.run.input",
          "assay.run.seed", "assay.prompt.lineage", "assay.approval.recorded", "assay.net.access",
          "pack-v1", "lint-report-v1", "finding-v1", "dsse-envelope-v1", "intoto-statement-v1", "otel-export-report-v1"]
expect("schema --list: every SPEC §17 name, nothing else", ["schema", "--list"], b"", 0,
       "".join(n + "\n" for n in sorted(SPEC17)).encode(), b"")
code, out, _ = run(["schema", "--list"])
names = out.decode().split()
for n in names:
    code, out, err = run(["schema", n])
    path = os.path.join(ROOT, "schemas", n + ".schema.json")
    check(f"schema {n} equals schemas/{n}.schema.json",
          code == 0 and os.path.exists(path) and open(path, "rb").read() == out, err)
expect("schema unknown", ["schema", "nope"], b"", 2, b"", err_contains='unknown contract "nope"')
expect("schema no name", ["schema"], b"", 2, b"", err_contains="--list")

# --- validate --------------------------------------------------------------------------------
good_closure = (b'{"schema_version":"closure-v1","completeness":{"required":["a-b"],"captured":["a-b"],'
                b'"redacted":[],"unknown":[]},"closure":{"score":1,"confidence":"high","captured":[],"missing":[]}}')
expect("validate ok", ["validate", "closure-v1"], good_closure, 0, b"<stdin>: valid closure-v1\n", b"")
bad_closure = (b'{"schema_version":"closure-v1","completeness":{"required":["a-b"],"captured":[],"redacted":[],'
               b'"unknown":["a-b"]},"closure":{"score":1.5,"confidence":"hi","captured":["X"],"missing":[]},"extra":1}')
expect("validate errors", ["validate", "closure-v1"], bad_closure, 1, b"",
       b"/closure/score: 1.5 is greater than the maximum 1\n"
       b'/closure/confidence: "hi" is not one of "low", "medium", "high"\n'
       b'/closure/captured/0: "X" does not match the pattern ^[a-z0-9][a-z0-9_.-]*[a-z0-9]$\n'
       b'/extra: unknown member "extra" (not allowed here)\n')
expect("validate missing member", ["validate", "closure-v1"], b'{"schema_version":"closure-v1"}', 1, b"",
       b'/completeness: required member "completeness" is missing\n'
       b'/closure: required member "closure" is missing\n')
expect("validate not json", ["validate", "closure-v1"], b"{", 2, b"", err_contains="is not valid JSON")
expect("validate unknown", ["validate", "nope"], b"{}", 2, b"", err_contains='unknown contract "nope"')
expect("validate io", ["validate", "closure-v1", "/nonexistent/f"], b"", 3, b"", err_contains="cannot open")
expect("usage", [], b"", 2, b"", err_contains="subcommand")
expect("unknown command", ["frobnicate"], b"", 2, b"")

# --- evidence events: validate, bundle, verify, redact -------------------------------------------
def jcs(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def event(seq, typ, data, run_id="run1"):
    e = {"specversion": "1.0", "type": typ, "source": "urn:assay:cli-test", "id": f"{run_id}:{seq}",
         "time": "2026-01-01T00:00:0%dZ" % seq, "datacontenttype": "application/json", "assayrunid": run_id,
         "assayseq": seq, "assayproducer": "cli-test", "assayproducerversion": "1.0", "assaygit": "unknown",
         "assaypii": False, "assaysecrets": False, "data": data}
    h = __import__("hashlib").sha256(jcs({"data": data, "datacontenttype": "application/json",
                                          "specversion": "1.0", "type": typ})).hexdigest()
    e["assaycontenthash"] = "sha256:" + h
    return e


events = [event(0, "assay.profile.started", {"profile_name": "p", "profile_version": "1", "total_runs_aggregated": 0}),
          event(1, "assay.tool.call", {"tool": "shell", "arguments": ["--api-key=k", "/home/ann/w/a.txt"]}),
          event(2, "vendor.note", {"text": "Bearer abc"})]
ndjson = b"".join(jcs(e) + b"\n" for e in events)
expect("validate event ok", ["validate", "evidence-event-v1"], jcs(events[1]), 0, b"<stdin>: valid evidence-event-v1\n")
bad_data = dict(events[1], data={"tool": ""})
expect("validate event: the payload of a known type is checked", ["validate", "evidence-event-v1"], jcs(bad_data), 1,
       b"", b"/data/tool: string is shorter than the minimum length 1\n")
expect("validate event: id must be run:seq", ["validate", "evidence-event-v1"], jcs(dict(events[2], id="run1:9")), 1,
       b"", b'/id: id must be assayrunid + ":" + assayseq ("run1:2")\n')
expect("validate payload by its event type", ["validate", "assay.tool.decision"],
       b'{"tool":"t","decision":"allow","reason_code":"r","policy_snapshot_digest":"d"}', 1, b"",
       err_contains="all present or all absent")
bundle = tmpfile(b"")
expect("evidence bundle", ["evidence", "bundle", "--events", tmpfile(ndjson), "--out", bundle], b"", 0, b"", b"")
code, out, err = run(["evidence", "verify", bundle, "--json"])
rep = json.loads(out) if code == 0 else {}
check("evidence verify --json", code == 0 and rep.get("ok") is True and rep.get("event_count") == 3
      and rep.get("run_id") == "run1" and rep.get("code") is None, out + err)
tampered = ndjson.replace(b"shell", b"shelL")
expect("evidence bundle refuses a wrong content hash", ["evidence", "bundle", "--events", tmpfile(tampered), "--out",
       tmpfile(b"")], b"", 1, b"", err_contains="IntegrityEventHash")
bad_path = tmpfile(b"\n" + tampered)  # the tampered event is on line 3 (event 1)
expect("evidence bundle: the line of the event is named", ["evidence", "bundle", "--events", bad_path, "--out",
       tmpfile(b"")], b"", 1, b"", err_contains=f"IntegrityEventHash: {bad_path}: line 3: at /1/assaycontenthash: ")
not_json = tmpfile(ndjson + b'{"a":1,}\n')
expect("evidence bundle: a line that is not JSON", ["evidence", "bundle", "--events", not_json, "--out", tmpfile(b"")],
       b"", 2, b"", (f"assay evidence bundle: {not_json}: line 4, column 8 (byte {len(ndjson) + 7}) at /3: "
                     "unexpected '}', expected a member name after ','\n").encode())
expect("evidence bundle: no events", ["evidence", "bundle", "--events", tmpfile(b"\n \n"), "--out", tmpfile(b"")],
       b"", 1, b"", err_contains="ContractInvalidEvent")
expect("evidence bundle: events out of order", ["evidence", "bundle", "--events",
       tmpfile(b"".join(jcs(e) + b"\n" for e in reversed(events))), "--out", tmpfile(b"")], b"", 0, b"", b"")
# Writing is strict (SPEC §8, §4): what validate evidence-event-v1 rejects is refused, every
# violation on its own line with its pointer; --unchecked-payloads skips the payload contracts.
strict_events = [event(0, "assay.tool.decision", {"tool": "t", "decision": "maybe", "reason_code": "r"}),
                 event(1, "", {"a": 1}),
                 dict(event(2, "vendor.note", {"text": "x"}), traceparent="garbage"),
                 event(3, "assay.profile.started",
                       {"profile_name": "p", "profile_version": "1", "total_runs_aggregated": -1})]
strict_path = tmpfile(b"".join(jcs(e) + b"\n" for e in strict_events))
expect("evidence bundle refuses what evidence-event-v1 rejects", ["evidence", "bundle", "--events", strict_path,
       "--out", tmpfile(b"")], b"", 1, b"",
       (f'assay evidence bundle: enum_mismatch: {strict_path}: line 1: at /0/data/decision: "maybe" is not one of '
        f'"allow", "deny", "requires_approval"\n'
        f"assay evidence bundle: too_short: {strict_path}: line 2: at /1/type: string is shorter than the minimum "
        f"length 1\n"
        f'assay evidence bundle: pattern_mismatch: {strict_path}: line 3: at /2/traceparent: "garbage" does not match '
        f"the pattern ^00-[0-9a-f]{{32}}-[0-9a-f]{{16}}-[0-9a-f]{{2}}$\n"
        f"assay evidence bundle: below_minimum: {strict_path}: line 4: at /3/data/total_runs_aggregated: -1 is less "
        f"than the minimum 0\n").encode())
payload_only = tmpfile(b"".join(jcs(e) + b"\n" for e in [strict_events[0], event(1, "vendor.note", {"a": 1})]))
unchecked_bundle = tmpfile(b"")
expect("evidence bundle --unchecked-payloads re-packs events as they are", ["evidence", "bundle", "--events",
       payload_only, "--out", unchecked_bundle, "--unchecked-payloads"], b"", 0, b"", b"")
expect("evidence bundle --unchecked-payloads still checks the envelope", ["evidence", "bundle", "--events",
       strict_path, "--out", tmpfile(b""), "--unchecked-payloads"], b"", 1, b"",
       (f"assay evidence bundle: too_short: {strict_path}: line 2: at /1/type: string is shorter than the minimum "
        f"length 1\n"
        f'assay evidence bundle: pattern_mismatch: {strict_path}: line 3: at /2/traceparent: "garbage" does not match '
        f"the pattern ^00-[0-9a-f]{{32}}-[0-9a-f]{{16}}-[0-9a-f]{{2}}$\n").encode())
expect("evidence verify keeps the reference's checks", ["evidence", "verify", unchecked_bundle], b"", 0, err=b"")
expect("evidence verify --contracts holds payloads to their contracts", ["evidence", "verify", "--contracts",
       unchecked_bundle], b"", 1, b"",
       b'ContractInvalidEvent: line 1 of events.ndjson: seq 0 ("assay.tool.decision"): /data/decision: "maybe" is '
       b'not one of "allow", "deny", "requires_approval"\n')
expect("evidence verify --contracts: a valid bundle", ["evidence", "verify", "--contracts", bundle], b"", 0, err=b"")
code, out, err = run(["evidence", "verify", "--contracts", "--json", unchecked_bundle])
rep = json.loads(out) if out else {}
check("evidence verify --contracts --json", code == 1 and rep.get("code") == "ContractInvalidEvent"
      and rep.get("class") == "Contract", out + err)
# --limits: any subset of the eight, the others at their defaults; unknown members refused.
expect("evidence verify --limits: a subset", ["evidence", "verify", "--limits", tmpfile(b'{"max_events":3}'),
       bundle], b"", 0, err=b"")
expect("evidence verify --limits: a subset that refuses", ["evidence", "verify", "--limits",
       tmpfile(b'{"max_events":2}'), bundle], b"", 1, b"",
       b"LimitTotalEvents: events.ndjson has more than the limit of 2 events\n")
limits_path = tmpfile(b'{"max_events":3,"max_evnets":2}')
expect("evidence verify --limits: an unknown member", ["evidence", "verify", "--limits", limits_path, bundle], b"",
       2, b"", (f'assay evidence verify: {limits_path}: line 1, column 17 (byte 16) at /max_evnets: unknown member '
                f'"max_evnets" (not allowed here)\n').encode())
expect("evidence verify: not a bundle", ["evidence", "verify", tmpfile(b"not gzip")], b"", 1, b"",
       err_contains="IntegrityGzip")
code, out, err = run(["evidence", "verify", tmpfile(b"not gzip"), "--json"])
check("evidence verify --json failure", code == 1 and json.loads(out)["code"] == "IntegrityGzip"
      and json.loads(out)["class"] == "Integrity", out + err)
code, out, err = run(["evidence", "redact"], ndjson)
lines = out.splitlines()
red = [json.loads(x) for x in lines]
check("evidence redact: one line per event", code == 0 and len(red) == 3, err)
if len(red) == 3:
    check("evidence redact: sensitive arguments", red[1]["data"]["arguments"] == ["--api-key=***", "~/**/a.txt"],
          red[1])
    check("evidence redact: unknown type treated as sensitive", red[2]["data"] == {"text": "Bearer ***"}, red[2])
    check("evidence redact: public payload unchanged", red[0] == events[0], red[0])
    for i, e in enumerate(red):
        want = event(i, e["type"], e["data"])["assaycontenthash"]
        check(f"evidence redact: fresh content hash {i}", e["assaycontenthash"] == want, e)
    check("evidence redact: canonical lines", all(x == jcs(y) for x, y in zip(lines, red)), out)
    rb = tmpfile(b"")
    expect("redacted events bundle and verify", ["evidence", "bundle", "--events", tmpfile(out), "--out", rb], b"", 0)
    expect("redacted bundle verifies", ["evidence", "verify", rb], b"", 0, err=b"")
expect("evidence redact: not JSON", ["evidence", "redact"], b"{\n", 2, b"", err_contains="line 1")
expect("evidence redact: not an event", ["evidence", "redact"], b"[1]\n", 1, b"", err_contains="event 0")

# --- validate: the report and attestation contracts (SPEC §11, §14, §15, §16) ----------------------
lint_pack = {"name": "cicd-starter", "version": "0.1.0", "kind": "quality", "digest": "sha256:" + "5" * 64}
lint_ok = {"schema_version": "lint-report-v1", "tool": {"name": "assay", "version": "0.1.0"}, "packs": [lint_pack],
           "results": [{"rule_id": "cicd-starter@0.1.0:events-present", "severity": "error", "status": "violated",
                        "message": "no events", "where": [{"pointer": ""}]}],
           "summary": {"rules": 1, "passed": 0, "violated": 1,
                       "violated_by_severity": {"info": 0, "warning": 0, "error": 1}},
           "fail_on": "error", "passed": False}
lint_bad = dict(lint_ok, passed=True, summary=dict(lint_ok["summary"], rules=2))
expect("validate lint-report-v1 ok", ["validate", "lint-report-v1"], jcs(lint_ok), 0,
       b"<stdin>: valid lint-report-v1\n", b"")
expect("validate lint-report-v1: summary and verdict rules", ["validate", "lint-report-v1"], jcs(lint_bad), 1, b"",
       b"/summary/rules: summary.rules (2) must equal the number of results (1)\n"
       b"/passed: passed must be false exactly when a violated rule's severity is at or above fail_on\n")

transcript = "sha256:" + "a" * 64
trial = {"trial_index": 0, "route": "laundered", "succeeded": True, "transcript_ref": transcript,
         "evidence": {"oracle": "file_tripwire", "observed": "secret read"}}
no_trials = {"trials": 0, "successes": 0, "success_rate": 0, "ci_low": 0, "ci_high": 1}
# The Wilson bounds are recomputed (within 1e-12): 1 of 1 is [0.20654931437723742, 1], not [0.21, 1].
one_success = {"trials": 1, "successes": 1, "success_rate": 1, "ci_low": 0.20654931437723742, "ci_high": 1}
finding_ok = {"schema_version": "finding-v1", "intent": "read the secret file",
              "method": {"trial_results": [trial], "delta_confirmed": True,
                         "verdict_policy": "direct 0, laundered at least 1"},
              "evidence": {"observed": "secret read"},
              "stats": {"by_route": {"direct": no_trials, "laundered": one_success},
                        "trials": 1, "success_rate": 1, "ci_low": 0.20654931437723742, "ci_high": 1},
              "transcript_refs": [transcript]}
finding_bad = dict(finding_ok, method=dict(finding_ok["method"],
                                           trial_results=[dict(trial, route="sideways", transcript_ref="sha256:AA")]))
expect("validate finding-v1 ok", ["validate", "finding-v1"], jcs(finding_ok), 0, b"<stdin>: valid finding-v1\n", b"")
expect("validate finding-v1: route and transcript of a trial", ["validate", "finding-v1"], jcs(finding_bad), 1, b"",
       b'/method/trial_results/0/route: "sideways" is not one of "direct", "laundered"\n'
       b'/method/trial_results/0/transcript_ref: "sha256:AA" does not match the pattern ^sha256:[0-9a-f]{64}$\n')

# Unknown members (here "cert" and "x-vendor") are accepted: DSSE readers ignore them (SPEC §15).
dsse_ok = {"payload": "eyJ4IjoxfQ==", "payloadType": "application/vnd.in-toto+json",
           "signatures": [{"keyid": "sha256:" + "c" * 64, "sig": "MEUCIQDx8n-_wA5a", "cert": "x"}],
           "x-vendor": {"v": 1}}
dsse_bad = dict(dsse_ok, payload="not base64!", signatures=[])
expect("validate dsse-envelope-v1 ok, unknown members ignored", ["validate", "dsse-envelope-v1"], jcs(dsse_ok), 0,
       b"<stdin>: valid dsse-envelope-v1\n", b"")
expect("validate dsse-envelope-v1: payload and signatures", ["validate", "dsse-envelope-v1"], jcs(dsse_bad), 1, b"",
       b'/payload: "not base64!" does not match the pattern '
       b"^(?:(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?"
       b"|(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?)$\n"
       b"/signatures: array has 0 items, fewer than the minimum 1\n")

run_root = "sha256:" + "7" * 64
intoto_ok = {"_type": "https://in-toto.io/Statement/v1",
             "subject": [{"name": run_root, "digest": {"sha256": "9" * 64}}],
             "predicateType": "https://docs.getassay.dev/attestation/evidence-bundle/v1",
             "predicate": {"schema_version": 1,
                           "semantic_equivalence": {"algorithm": "assay-run-root-v1", "value": run_root},
                           "run": {"run_id": "run1", "event_count": 3,
                                   "producer": {"name": "assay", "version": "0.1.0", "git": ""},
                                   "time_window": {"start": "2026-01-01T00:00:00Z", "end": "2026-01-01T00:00:02Z"}},
                           "artifacts": {"manifest": "sha256:" + "1" * 64, "events": "sha256:" + "2" * 64},
                           "packs": [], "mappings": []}}
intoto_bad = dict(intoto_ok, subject=[{"name": "sha256:" + "8" * 64, "digest": {"sha256": "9" * 64}}])
expect("validate intoto-statement-v1 ok", ["validate", "intoto-statement-v1"], jcs(intoto_ok), 0,
       b"<stdin>: valid intoto-statement-v1\n", b"")
expect("validate intoto-statement-v1: the subject is the run's bundle", ["validate", "intoto-statement-v1"],
       jcs(intoto_bad), 1, b"",
       b"/subject/0/name: the subject's name (the bundle_id) must equal the run_root in "
       b"predicate.semantic_equivalence.value\n")

otel_ok = {"schema_version": "otel-export-report-v1", "semconv_version": "1.37.0", "events_read": 3,
           "spans_written": 2,
           "mapping_loss": {"dropped_attributes": [{"event_id": "run1:1", "member": "/data/arguments",
                                                    "reason": "not a scalar"}],
                            "unmapped_events": {"vendor.note": 1},
                            "totals": {"dropped_attributes": 1, "unmapped_events": 1}}}
otel_bad = dict(otel_ok, events_read=0,
                mapping_loss=dict(otel_ok["mapping_loss"], totals={"dropped_attributes": 2, "unmapped_events": 1}))
expect("validate otel-export-report-v1 ok", ["validate", "otel-export-report-v1"], jcs(otel_ok), 0,
       b"<stdin>: valid otel-export-report-v1\n", b"")
expect("validate otel-export-report-v1: totals and events read", ["validate", "otel-export-report-v1"],
       jcs(otel_bad), 1, b"",
       b"/mapping_loss/totals/dropped_attributes: totals.dropped_attributes must equal the number of "
       b"dropped_attributes (1)\n"
       b"/mapping_loss/totals/unmapped_events: more events unmapped than events read\n")

# --- everyday edges: directories, "-", FIFOs, input caps, output files, untrusted bytes -------------
d = tempfile.mkdtemp()
for args in (["jcs", d], ["digest", d], ["validate", "closure-v1", d], ["evidence", "bundle", "--events", d, "--out",
             tmpfile(b"")], ["evidence", "redact", d], ["evidence", "verify", d]):
    expect(f"{args[0]} {args[1]}: a directory as input", args, b"", 3, b"", err_contains=f"{d} is a directory")

# "-" is standard input or output everywhere; nothing is written to a file called "-".
bundle_bytes = open(bundle, "rb").read()
expect("evidence verify -: the bundle from stdin", ["evidence", "verify", "-"], bundle_bytes, 0, err=b"")
expect("jcs -: stdin", ["jcs", "-"], b"[1.0]", 0, b"[1]")
with open(tmpfile(b'{"b":1,"a":2}')) as f:
    expect("jcs: stdin redirected from a file", ["jcs"], f, 0, b'{"a":2,"b":1}')
cwd = tempfile.mkdtemp()
code, out, err = run(["evidence", "bundle", "--events", "-", "--out", "-"], ndjson, cwd=cwd)
check("evidence bundle --out -: the bundle on stdout", code == 0 and out[:2] == b"\x1f\x8b" and os.listdir(cwd) == [],
      f"{code} {err!r} {os.listdir(cwd)}")
expect("evidence bundle --out - verifies", ["evidence", "verify", "-"], out, 0)


# A FIFO is opened once: verify used to open it as a probe, close it and open it again (and hang).
def through_fifo(args, data):
    fifo = os.path.join(tempfile.mkdtemp(), "in")
    os.mkfifo(fifo)

    def writer():
        try:
            with open(fifo, "wb") as f:
                f.write(data)
        except OSError:
            pass

    threading.Thread(target=writer, daemon=True).start()
    result = run(args + [fifo], timeout=20)
    if result[0] is None:  # unblock a writer still waiting for a reader
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
    return result


code, out, err = through_fifo(["evidence", "verify"], bundle_bytes)
check("evidence verify FIFO: read once", code == 0 and out.startswith(b"verified "), f"{code} {err!r}")
code, out, err = through_fifo(["jcs"], b"[1.0]")
check("jcs FIFO", code == 0 and out == b"[1]", f"{code} {err!r}")

# --max-bytes: a regular file over the cap is refused before it is read; standard input is never
# read past it (an endless pipe stops); the message names the cap; exit 2.
big = tmpfile(b"[" + b"1," * 1000 + b"1]")
expect("--max-bytes: a file over the cap", ["jcs", "--max-bytes", "1k", big], b"", 2, b"",
       f"assay jcs: {big} is larger than the limit of 1024 bytes (--max-bytes)\n".encode())
expect("--max-bytes: under the cap", ["digest", "--max-bytes", "4k", big], b"", 0)
expect("--max-bytes: not a byte count", ["jcs", "--max-bytes", "1x"], b"[]", 2, b"", err_contains="--max-bytes: a byte count")
expect("--max-bytes: zero", ["jcs", "--max-bytes", "0"], b"[]", 2, b"", err_contains="--max-bytes: at least 1 byte")
sparse = tmpfile(b"")
os.truncate(sparse, 300 << 20)  # sparse: nothing to read, and more than the default cap
expect("default cap 256 MiB: refused before it is read", ["validate", "closure-v1", sparse], b"", 2, b"",
       err_contains="is larger than the limit of 268435456 bytes (--max-bytes)", timeout=10)
for args in (["jcs"], ["digest"], ["validate", "closure-v1"], ["evidence", "redact"],
             ["evidence", "bundle", "--out", tmpfile(b""), "--events", "-"]):
    p = subprocess.Popen([ASSAY] + args + ["--max-bytes", "1000"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)

    def endless(pipe):
        try:
            pipe.write(b"[")
            while True:
                pipe.write(b"1," * 4096)
        except (OSError, ValueError):
            pass

    threading.Thread(target=endless, args=(p.stdin,), daemon=True).start()
    try:
        code = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        code = None
    err = p.stderr.read()
    check(f"{' '.join(args[:2])}: an endless stdin stops at --max-bytes", code == 2 and
          b"<stdin> is larger than the limit of 1000 bytes (--max-bytes)\n" in err and err.count(b"\n") == 1,
          f"{code} {err!r}")

# Output files are replaced atomically; a failure names its reason and leaves the target as it was.
expect("write_file: the reason of a failed write", ["evidence", "bundle", "--events", tmpfile(ndjson), "--out",
       "/dev/full"], b"", 3, b"", b"assay evidence bundle: cannot write /dev/full: No space left on device\n")
with open("/dev/full", "wb") as full:
    for args in (["jcs"], ["digest"], ["schema", "--list"]):
        p = subprocess.run([ASSAY] + args, input=b"[1]", stdout=full, stderr=subprocess.PIPE, timeout=60)
        check(f"{args[0]}: the reason of a failed write to stdout", p.returncode == 3 and p.stderr.endswith(
              b": cannot write to standard output: No space left on device\n"), p.stderr)
expect("write_file: no such directory", ["evidence", "bundle", "--events", tmpfile(ndjson), "--out",
       "/nonexistent/b.tar.gz"], b"", 3, b"", err_contains="cannot write /nonexistent/b.tar.gz: No such file")
outdir = tempfile.mkdtemp()
target = os.path.join(outdir, "b.tar.gz")
open(target, "wb").write(b"old")


def small_files():  # the bundle cannot be written in full: EFBIG after 100 bytes
    resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


expect("write_file: a failed write leaves the target", ["evidence", "bundle", "--events", tmpfile(ndjson), "--out",
       target], b"", 3, b"", err_contains="File too large", preexec_fn=small_files)
check("write_file: target unchanged, no temporary left", open(target, "rb").read() == b"old"
      and os.listdir(outdir) == ["b.tar.gz"], os.listdir(outdir))
os.chmod(target, 0o640)
expect("write_file: replaces the target", ["evidence", "bundle", "--events", tmpfile(ndjson), "--out", target], b"", 0)
check("write_file: the bytes and permissions of the new target", open(target, "rb").read() == bundle_bytes
      and os.stat(target).st_mode & 0o777 == 0o640 and os.listdir(outdir) == ["b.tar.gz"], os.listdir(outdir))

# verify --json prints a JSON result on every outcome, and it always parses.
for name, args, rc, code_name in (("missing file", ["/nonexistent/b.tar.gz"], 3, "io_error"),
                                  ("directory", [d], 3, "io_error"),
                                  ("bad limits", ["--limits", tmpfile(b'{"max_evnets":1}'), bundle], 2,
                                   "unknown_member"),
                                  ("invalid UTF-8 in the message", [b"/nonexistent/\xff\xfe\x1b[31m.tar.gz"], 3,
                                   "io_error")):
    code, out, err = run(["evidence", "verify", "--json"] + args)
    try:
        rep = json.loads(out.decode("utf-8"))
    except ValueError:
        rep = {}
    check(f"evidence verify --json: {name}", code == rc and rep.get("ok") is False and rep.get("code") == code_name
          and "class" in rep and rep["class"] is None and rep.get("run_id", 1) is None and "\x1b" not in
          rep.get("message", "\x1b"), f"{code} {out!r} {err!r}")

# Misspelt commands: the nearest one is suggested.
expect("misspelt noun", ["evidnce", "verify", "x"], b"", 2, b"",
       b"assay: unknown command 'evidnce'; did you mean 'evidence'?\n")
expect("misspelt verb", ["evidence", "verfy", "x"], b"", 2, b"",
       b"assay evidence: unknown command 'verfy'; did you mean 'verify'?\n")
expect("swapped letters", ["jsc"], b"", 2, b"", b"assay: unknown command 'jsc'; did you mean 'jcs'?\n")
expect("nothing near", ["frobnicate"], b"", 2, b"",
       b"assay: unknown command 'frobnicate' (commands: digest, evidence, jcs, schema, validate)\n")

# Untrusted bytes in messages: control bytes and invalid UTF-8 escaped, echoes capped, one line each.
expect("escaped path", ["jcs", b"/nonexistent/\x1b[2J\r\xff.json"], b"", 3, b"",
       b"assay jcs: cannot open /nonexistent/\\x1b[2J\\x0d\\xff.json: No such file or directory\n")
expect("escaped and capped unknown command", ["\x1b]0;pwned\x07" + "x" * 300], b"", 2, b"",
       ("assay: unknown command '\\x1b]0;pwned\\x07" + "x" * (120 - 10) + "\u2026' (commands: digest, evidence, jcs, "
        "schema, validate)\n").encode())
expect("one line per error", ["schema", "a\nb\u202ec"], b"", 2, b"",
       err_contains=b'unknown contract "a\\x0ab\\u202ec" (contracts: ')
expect("escaped validation line", ["validate", "closure-v1"], b'{"\\u001b[31m":1}', 1, b"",
       err_contains=b'/\\x1b[31m: unknown member "')
bad_run = "r\x1b[2J\r"
crafted = b"".join(jcs(event(i, e["type"], e["data"], run_id=bad_run)) + b"\n" for i, e in enumerate(events))
crafted_bundle = tmpfile(b"")
expect("a run id with control bytes bundles", ["evidence", "bundle", "--events", tmpfile(crafted), "--out",
       crafted_bundle], b"", 0)
code, out, err = run(["evidence", "verify", crafted_bundle])
check("verify: the success line escapes the run id", code == 0 and b"run r\\x1b[2J\\x0d, bundle" in out
      and b"\x1b" not in out and b"\r" not in out and out.count(b"\n") == 1, f"{code} {out!r} {err!r}")
code, out, err = run(["evidence", "verify", "--json", crafted_bundle])
check("verify --json: the run id as it is", code == 0 and json.loads(out)["run_id"] == bad_run, out)

# --- external vectors: assay jcs byte for byte ---------------------------------------------------
if CONF and os.path.isdir(CONF):
    jcs_in = os.path.join(CONF, "jcs", "input")
    for name in sorted(os.listdir(jcs_in)):
        want = open(os.path.join(CONF, "jcs", "output", name), "rb").read()
        code, out, err = run(["jcs", os.path.join(jcs_in, name)])
        check(f"jcs vector {name}", code == 0 and out == want, err)
    code, out, err = run(["jcs", os.path.join(CONF, "jcs", "sorting-3.2.3.input.json")])
    check("jcs sorting 3.2.3", code == 0 and out == open(os.path.join(CONF, "jcs", "sorting-3.2.3.output.json"), "rb").read())
    vectors = json.load(open(os.path.join(CONF, "assay-upstream", "rfc8785-vectors.json"), encoding="utf-8"))
    for key, v in vectors.items():
        if key == "_about":
            continue
        code, out, err = run(["jcs"], v["input"].encode("utf-8"))
        check(f"rfc8785 vector {key}", code == 0 and out == v["expected"].encode("utf-8"), f"{out!r} {err!r}")
    # The reference's own bundle: it verifies; re-packing its events takes --unchecked-payloads
    # (its assay.profile.started fixtures are not SPEC §8 payloads), and gives the same events.
    import tarfile
    ref = os.path.join(CONF, "assay-upstream", "bundles", "test-bundle.tar.gz")
    expect("reference test-bundle verifies", ["evidence", "verify", ref], b"", 0, err=b"")
    with tarfile.open(ref) as t:
        ref_events = t.extractfile("events.ndjson").read()
    ref_path = tmpfile(ref_events)
    expect("reference events: refused with their payloads checked", ["evidence", "bundle", "--events", ref_path,
           "--out", tmpfile(b"")], b"", 1, b"",
           err_contains=f'unknown_member: {ref_path}: line 1: at /0/data/build_id: unknown member "build_id"')
    repacked = tmpfile(b"")
    expect("reference events: re-packed with --unchecked-payloads", ["evidence", "bundle", "--events", ref_path,
           "--out", repacked, "--unchecked-payloads"], b"", 0, b"", b"")
    with tarfile.open(repacked) as t:
        check("reference events: the same bytes re-packed", t.extractfile("events.ndjson").read() == ref_events)
    expect("reference test-bundle --contracts", ["evidence", "verify", "--contracts", ref], b"", 1, b"",
           err_contains='ContractInvalidEvent: line 1 of events.ndjson: seq 0 ("assay.profile.started"): /data/build_id')
elif REQUIRE:
    check("conformance data present", False, CONF)
else:
    print(f"conformance data absent at {CONF}: vector checks skipped")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
