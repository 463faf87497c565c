#!/usr/bin/env python3
"""Tests of the reference CLI `assay` as outside scripts use it: exact stdout, stderr and exit
codes (SPEC §17), and `assay jcs` over every external RFC 8785 vector.

usage: cli_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import hashlib
import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading

from clitest import ASSAY, ROOT, CONF, REQUIRE, run, check, expect, tmpfile, jcs, event, bundle_of, finish, schema_check, usage_err


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
          "assay.mcp.tools_listed", "assay.mcp.refused",
          "pack-v1", "lint-report-v1", "finding-v1", "dsse-envelope-v1", "intoto-statement-v1", "otel-export-report-v1",
          "evidence-diff-v1", "soak-drift-v1"]
expect("schema --list: every SPEC §17 name, nothing else", ["schema", "--list"], b"", 0,
       "".join(n + "\n" for n in sorted(SPEC17)).encode(), b"")
code, out, _ = run(["schema", "--list"])
names = out.decode().split()
for n in names:
    code, out, err = run(["schema", n])
    path = os.path.join(ROOT, "schemas", n + ".schema.json")
    check(f"schema {n} equals schemas/{n}.schema.json",
          code == 0 and os.path.exists(path) and open(path, "rb").read() == out, err)
expect("schema unknown", ["schema", "nope"], b"", 2, b"", err_contains='unknown contract "nope" (contracts: ')
expect("schema: the nearest name suggested", ["schema", "soak-report"], b"", 2, b"",
       err_contains='unknown contract "soak-report"; did you mean "soak-report-v1"? (contracts: ')
expect("validate: the nearest name suggested", ["validate", "finding-v2"], b"{}", 2, b"",
       err_contains='unknown contract "finding-v2"; did you mean "finding-v1"? (contracts: ')
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
expect("evidence bundle", ["evidence", "bundle", "--events", tmpfile(ndjson), "--out", bundle], b"", 0, None, b"")
code, out, err = run(["evidence", "verify", bundle, "--json"])
rep = json.loads(out) if code == 0 else {}
check("evidence verify --json", code == 0 and rep.get("ok") is True and rep.get("event_count") == 3
      and rep.get("run_id") == "run1" and rep.get("code") is None, out + err)
with open(bundle, "rb") as f:
    bundle_sha = "sha256:" + hashlib.sha256(f.read()).hexdigest()
# What bundle says it wrote: its count, run and bundle_id (the run root); verify names the file's
# sha256 apart from it.
again = tmpfile(b"")
expect("evidence bundle: its summary line", ["evidence", "bundle", "--events", tmpfile(ndjson), "--out", again], b"", 0,
       f"bundled 3 event(s) of run run1 into {again} (bundle_id {rep.get('bundle_id')})\n".encode(), b"")
expect("evidence verify: bundle_id and the file's sha256, each named", ["evidence", "verify", bundle], b"", 0,
       (f"verified {bundle}: 3 events, run run1, bundle_id {rep.get('bundle_id')}, file {bundle_sha}, "
        f"{events[0]['time']} .. {events[2]['time']}\n").encode(), b"")
expect("evidence bundle to standard output: no summary line", ["evidence", "bundle", "--events", tmpfile(ndjson),
       "--out", "-"], b"", 0, None, b"")
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
sorted_out = tmpfile(b"")
expect("evidence bundle: events out of order, sorted; the same summary line", ["evidence", "bundle", "--events",
       tmpfile(b"".join(jcs(e) + b"\n" for e in reversed(events))), "--out", sorted_out], b"", 0,
       f"bundled 3 event(s) of run run1 into {sorted_out} (bundle_id {rep.get('bundle_id')})\n".encode(), b"")
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
        f'"allow", "deny", "requires_approval", "error"\n'
        f"assay evidence bundle: too_short: {strict_path}: line 2: at /1/type: string is shorter than the minimum "
        f"length 1\n"
        f'assay evidence bundle: pattern_mismatch: {strict_path}: line 3: at /2/traceparent: "garbage" does not match '
        f"the pattern ^00-[0-9a-f]{{32}}-[0-9a-f]{{16}}-[0-9a-f]{{2}}$\n"
        f"assay evidence bundle: below_minimum: {strict_path}: line 4: at /3/data/total_runs_aggregated: -1 is less "
        f"than the minimum 0\n").encode())
payload_only = tmpfile(b"".join(jcs(e) + b"\n" for e in [strict_events[0], event(1, "vendor.note", {"a": 1})]))
unchecked_bundle = tmpfile(b"")
expect("evidence bundle --unchecked-payloads re-packs events as they are", ["evidence", "bundle", "--events",
       payload_only, "--out", unchecked_bundle, "--unchecked-payloads"], b"", 0, None, b"")
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
       b'not one of "allow", "deny", "requires_approval", "error"\n')
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
lint_pack = {"name": "cicd-starter", "version": "0.1.0", "kind": "quality", "digest": "sha256:" + "5" * 64,
             "source": "built-in"}
lint_ok = {"schema_version": "lint-report-v1", "tool": {"name": "assay", "version": "0.1.0"},
           "bundle": {"bundle_id": "sha256:" + "e" * 64, "run_id": "run1", "event_count": 0}, "packs": [lint_pack],
           "results": [{"rule_id": "cicd-starter@0.1.0:events-present", "severity": "error", "outcome": "violated",
                        "findings": [{"severity": "error", "message": "Bundle contains 0 events (minimum: 1)",
                                      "fingerprint": "sha256:" + "f" * 64}]}],
           "summary": {"rules": 1, "passed": 0, "violated": 1, "skipped": 0,
                       "findings": {"total": 1, "error": 1, "warning": 0, "info": 0}, "dropped": 0,
                       "max_results": 500},
           "fail_on": "error", "verdict": "fail", "disclaimers": []}
lint_bad = dict(lint_ok, verdict="pass", summary=dict(lint_ok["summary"], rules=2))
expect("validate lint-report-v1 ok", ["validate", "lint-report-v1"], jcs(lint_ok), 0,
       b"<stdin>: valid lint-report-v1\n", b"")
expect("validate lint-report-v1: summary and verdict rules", ["validate", "lint-report-v1"], jcs(lint_bad), 1, b"",
       b"/summary/rules: summary.rules (2) must equal the number of results (1)\n"
       b"/verdict: verdict must be fail: a finding's severity is at or above fail_on\n")

transcript = "sha256:" + "a" * 64
trial = {"trial_index": 0, "route": "laundered", "succeeded": True, "transcript_ref": transcript,
         "evidence": {"oracle": "file_tripwire", "observed": "secret read"}}
no_trials = {"trials": 0, "successes": 0, "success_rate": 0, "ci_low": 0, "ci_high": 1}
# The Wilson bounds are recomputed (within 1e-12): 1 of 1 is [0.20654931437723742, 1], not [0.21, 1].
one_success = {"trials": 1, "successes": 1, "success_rate": 1, "ci_low": 0.20654931437723742, "ci_high": 1}
finding_ok = {"schema_version": "finding-v1", "intent": "read the secret file",
              "method": {"trial_results": [trial], "delta_confirmed": False,
                         "verdict_policy": "no direct trial, so no baseline and no delta"},
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
expect("--max-bytes: zero", ["jcs", "--max-bytes", "0"], b"[]", 2, b"",
       err_contains="--max-bytes: 0 is out of range [1, 1099511627776]")
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
# What users see cites no document they do not have: no SPEC or DESIGN in any help.
verbs = [[], ["jcs"], ["digest"], ["schema"], ["validate"], ["evidence"], ["sim"], ["finding"], ["pack"]] + [
    ["evidence", v] for v in ["bundle", "record", "recover", "verify", "lint", "closure", "attest", "verify-attestation",
                              "export-otel", "redact", "show", "diff"]] + [
    ["sim", v] for v in ["soak", "drift", "merge"]] + [["finding", "stats"], ["finding", "render"],
                                                          ["pack", "check"], ["pack", "show"]]
for v in verbs:
    code, out, err = run(v + ["--help"])
    check("--help of assay " + " ".join(v) + ": no SPEC or DESIGN cited", code == 0 and b"Usage:" in out
          and b"SPEC" not in out + err and b"DESIGN" not in out + err, (out + err)[:300])
expect("swapped letters", ["jsc"], b"", 2, b"", b"assay: unknown command 'jsc'; did you mean 'jcs'?\n")
expect("a verb's usage error points to that verb's help", ["evidence", "verify"], b"", 2, b"",
       b"assay: BUNDLE is required\nrun 'assay evidence verify --help' for usage\n")
expect("a top-level verb's usage error points to its help", ["digest", "--alg"], b"", 2, b"",
       err_contains=b"run 'assay digest --help' for usage\n")
expect("nothing near", ["frobnicate"], b"", 2, b"",
       b"assay: unknown command 'frobnicate' (commands: digest, evidence, finding, jcs, mcp, pack, schema, sim, validate)\n")

# Untrusted bytes in messages: control bytes and invalid UTF-8 escaped, echoes capped, one line each.
expect("escaped path", ["jcs", b"/nonexistent/\x1b[2J\r\xff.json"], b"", 3, b"",
       b"assay jcs: cannot open /nonexistent/\\x1b[2J\\x0d\\xff.json: No such file or directory\n")
expect("escaped and capped unknown command", ["\x1b]0;pwned\x07" + "x" * 300], b"", 2, b"",
       ("assay: unknown command '\\x1b]0;pwned\\x07" + "x" * (120 - 10) + "\u2026' (commands: digest, evidence, finding, jcs, mcp, pack, "
        "schema, sim, validate)\n").encode())
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

# --- evidence closure, lint --explain closure.score (SPEC §13, §17) -------------------------------
COMMIT = {"alg": "sha256", "digest": "sha256:" + "ab" * 32, "size_bytes": 5}
signal_events = [event(0, "assay.tool.call", {"tool": "search", "arguments": {"q": "x"}, "nondeterministic": True}),
                 event(1, "assay.model.invoked", {"model": "m-1"}),
                 event(2, "assay.run.input", {"input": COMMIT}),
                 dict(event(3, "assay.net.access", {"hits": 1}), subject="api.example.com:443")]
del signal_events[3]["assaycontenthash"]  # the subject is hashed too: bundle computes it
signal_bundle = tmpfile(b"")
expect("closure: the signal events bundle", ["evidence", "bundle", "--events",
       tmpfile(b"".join(jcs(e) + b"\n" for e in signal_events)), "--out", signal_bundle], b"", 0, None, b"")
closure_text = (b"completeness: 2 of 4 required signal(s) captured\n"
                b"  captured: model_identity, tool_io_bodies\n  redacted: run_inputs\n  unknown:  rng_seeds  (required, not found in the bundle)\n"
                b"closure: score 0.5, confidence medium\n"
                b"  captured: model_identity, tool_io_bodies\n  missing:  rng_seeds, run_inputs  (not captured: they count 0 in the score)\n"
                b"  uncontrolled dependencies: network:api.example.com:443, tool:search\n")
closure_report = tmpfile(b"")
expect("evidence closure --pack replay-readiness", ["evidence", "closure", signal_bundle, "--pack", "replay-readiness",
       "--report", closure_report], b"", 0, closure_text, b"")
crep = json.loads(open(closure_report, "rb").read() or b"{}")
check("closure report: completeness and closure", crep.get("completeness", {}).get("redacted") == ["run_inputs"]
      and crep["completeness"]["by_signal"]["run_inputs"]["commitment"] == COMMIT
      and crep["closure"]["score"] == 0.5 and crep["closure"]["uncontrolled_dependencies"] ==
      ["network:api.example.com:443", "tool:search"]
      and crep["bundle_digest"] == "sha256:" + __import__("hashlib").sha256(open(signal_bundle, "rb").read()).hexdigest()
      and [p["name"] for p in crep["pack_context"]] == ["replay-readiness"] and "generated_at" not in crep, crep)
again = tmpfile(b"")
run(["evidence", "closure", signal_bundle, "--pack", "replay-readiness", "--report", again])
check("closure report: byte-identical for the same bundle and packs",
      open(again, "rb").read() == open(closure_report, "rb").read())
expect("closure report validates as closure-v1", ["validate", "closure-v1", closure_report], b"", 0,
       f"{closure_report}: valid closure-v1\n".encode(), b"")
schema_check("closure report", "closure-v1", crep)
explain_score = (b"closure.score = 0.5 (weighted_ratio_v1: captured weight 0.5 of 1)\n"
                 b"  model_identity  weight 0.2  captured\n"
                 b"    looked for in: assay.model.invoked#/data/model, *#/data/gen_ai.request.model\n"
                 b"    found at events.ndjson line 2 (assay.model.invoked, /data/model)\n"
                 b"  rng_seeds  weight 0.2  unknown\n"
                 b"    looked for in: assay.run.seed#/data/seed\n"
                 b"    no event of a type where it is recorded\n"
                 b"  run_inputs  weight 0.3  redacted\n"
                 b"    looked for in: assay.run.input#/data/input\n"
                 b"    only a redaction commitment was found, first at events.ndjson line 3 (assay.run.input, /data/input)\n"
                 b"  tool_io_bodies  weight 0.3  captured\n"
                 b"    looked for in: assay.tool.call#/data/arguments, assay.tool.call#/data/result\n"
                 b"    found at events.ndjson line 1 (assay.tool.call, /data/arguments)\n"
                 b"confidence: medium\n"
                 b"uncontrolled dependencies:\n  network:api.example.com:443\n  tool:search\n")
expect("evidence closure --explain closure.score", ["evidence", "closure", signal_bundle, "--explain",
       "closure.score"], b"", 0, explain_score, b"")
expect("evidence lint --explain closure.score: the same explanation", ["evidence", "lint", signal_bundle,
       "--pack", "replay-readiness", "--explain", "closure.score"], b"", 0, explain_score, b"")
code, out, err = run(["evidence", "lint", signal_bundle, "--pack", "replay-readiness", "--explain", "REPLAY-002"])
check("evidence lint --explain RULE: the signals its pack requires, not captured", code == 0 and
      b"  signals its pack requires, not captured: rng_seeds (unknown), run_inputs (redacted)\n" in out,
      f"{code} {out!r} {err!r}")
expect("evidence closure --explain of a rule: a usage error", ["evidence", "closure", signal_bundle, "--explain",
       "REPLAY-001"], b"", 2, b"", usage_err("evidence closure", b"--explain REPLAY-001: expected closure.score "
                                     b"(a rule is explained by evidence lint --explain)"))
expect("evidence closure: a pack that is not there exits 3", ["evidence", "closure", signal_bundle, "--pack",
       "replay-readyness"], b"", 3, b"", err_contains=b'did you mean "replay-readiness"')
# The gate (SPEC §13): exit 1 when the score or the confidence is below it, the report written
# and the summary printed either way; a bound that is not one, exit 2 before anything is read.
expect("closure gate: met", ["evidence", "closure", signal_bundle, "--pack", "replay-readiness", "--min-score", "0.5",
       "--require-confidence", "medium"], b"", 0,
       closure_text + b"gate --min-score 0.5 --require-confidence medium: PASS\n", b"")
expect("closure gate: 1e-1 is a score", ["evidence", "closure", signal_bundle, "--pack", "replay-readiness",
       "--min-score", "1e-1"], b"", 0, closure_text + b"gate --min-score 0.1: PASS\n", b"")
gated_report = tmpfile(b"")
expect("closure gate: a score below --min-score exits 1", ["evidence", "closure", signal_bundle, "--pack",
       "replay-readiness", "--min-score", "0.75", "--report", gated_report], b"", 1,
       closure_text + b"gate --min-score 0.75: FAIL; score 0.5 is below 0.75\n", b"")
check("closure gate: the report is written when the gate fails",
      open(gated_report, "rb").read() == open(closure_report, "rb").read())
expect("closure gate: a confidence below --require-confidence exits 1", ["evidence", "closure", signal_bundle,
       "--pack", "replay-readiness", "--require-confidence", "high"], b"", 1,
       closure_text + b"gate --require-confidence high: FAIL; confidence medium is below high\n", b"")
expect("closure gate: both below, both said", ["evidence", "closure", signal_bundle, "--pack", "replay-readiness",
       "--require-confidence", "high", "--min-score", "0.9"], b"", 1,
       closure_text + b"gate --min-score 0.9 --require-confidence high: FAIL; score 0.5 is below 0.9; "
       b"confidence medium is below high\n", b"")
expect("closure gate: with --explain closure.score", ["evidence", "closure", signal_bundle, "--explain",
       "closure.score", "--min-score", "0.9"], b"", 1, explain_score + b"gate --min-score 0.9: FAIL; score 0.5 is "
       b"below 0.9\n", b"")
for bad in ["1.5", "-0.1", "nan", "inf", "", "0.5x", ".", "+0.5"]:
    expect("closure gate: --min-score " + repr(bad) + " is a usage error", ["evidence", "closure", signal_bundle,
           "--min-score", bad], b"", 2, b"", usage_err("evidence closure", b"--min-score " + bad.encode() +
                                         b": expected a number from 0 to 1"))
expect("closure gate: --require-confidence low is a usage error", ["evidence", "closure", signal_bundle,
       "--require-confidence", "low"], b"", 2, b"",
       usage_err("evidence closure", b"--require-confidence low: expected high or medium"))
expect("evidence closure: a bundle that does not verify", ["evidence", "closure", tmpfile(b"not a bundle")], b"", 1,
       b"", b"IntegrityGzip: the gzip stream is invalid: it does not start with the gzip magic bytes 1f 8b\n")

# --- sim soak (SPEC §12, §17) ------------------------------------------------------------------
soak_dir = tempfile.mkdtemp()
soak_report = os.path.join(soak_dir, "soak.json")
soak_env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")


def soak(args, **kw):
    return run(["sim", "soak", "--report", soak_report] + args, env=soak_env, **kw)


code, out, err = soak(["--iterations", "3", "--seed", "5", "--target", signal_bundle, "--suite", "nightly"])
check("sim soak --target: all pass, exit 0", code == 0 and err == b"" and out.startswith(
    b"soak: 3 of 3 run(s), seeds from 5, 1 job(s)\n  passed 3, failed 0, infra errors 0\n"
    b"  pass rate 1.0000, 95% interval (Wilson) [0.4385, 1.0000]\n  pass^3: PASS\n"), f"{code} {out!r} {err!r}")
srep = json.loads(open(soak_report, "rb").read() or b"{}")
check("sim soak: the report", srep.get("generated_at") == "2023-11-14T22:13:20Z" and srep["suite"] == "nightly"
      and srep["seed"] == 5 and srep["iterations"] == 3 and srep["time_budget_secs"] == 3600
      and srep["packs"] == [{"name": "cicd-starter", "version": "1.0.0+assay", "kind": "quality", "source": "built-in",
                             "digest": srep["packs"][0]["digest"]}]
      and srep["results"]["runs"] == 3 and srep["results"]["pass_all"] is True
      and srep["results"]["violations_by_rule"] == {"cicd-starter@1.0.0+assay:CICD-002": 3,
                                                 "cicd-starter@1.0.0+assay:CICD-004": 3}
      and [r["index"] for r in srep["runs"]] == [1, 2, 3], srep)
schema_check("sim soak: the report", "soak-report-v1", srep)
first_bytes = open(soak_report, "rb").read()
soak(["--iterations", "3", "--seed", "5", "--target", signal_bundle, "--suite", "nightly"])
strip = lambda b: json.dumps({**json.loads(b), "runs": [dict(r, duration_ms=0) for r in json.loads(b)["runs"]]})  # noqa
check("sim soak: two soaks of the same inputs, the same report but for durations",
      strip(open(soak_report, "rb").read()) == strip(first_bytes))
code, out, err = soak(["--iterations", "4", "--target", signal_bundle, "--fail-on", "warning"])
check("sim soak --fail-on warning: the cicd-starter warnings fail every run, exit 1", code == 1 and
      b"pass^4: FAIL (first run not passing: 1)\n" in out and b"violated rules (runs):\n  4  cicd-starter@1.0.0+assay:CICD-002\n"
      b"  4  cicd-starter@1.0.0+assay:CICD-004\n" in out, f"{code} {out!r} {err!r}")
good = signal_bundle.replace("'", "")
code, out, err = soak(["--iterations", "8", "--seed", "1", "--jobs", "4", "--exec",
                       f"if [ $(( {{seed}} % 4 )) -eq 0 ]; then echo 'no luck' >&2; exit 7; fi; cp '{good}' {{out}}"])
srep = json.loads(open(soak_report, "rb").read() or b"{}")
check("sim soak --exec: every fourth seed fails, infra errors by kind, exit 1", code == 1
      and srep["results"]["infra_errors_by_kind"] == {"subprocess_failed": 2}
      and srep["results"]["first_failure_at"] == 4 and srep["runs"][7]["infra_error_message"] ==
      "the command exited with status 7; last stderr line: no luck"
      and b"  first: run 4: subprocess_failed: the command exited with status 7; last stderr line: no luck\n" in out,
      f"{code} {out!r} {err!r}")
# Tolerance (SPEC §12): --min-pass-rate decides the exit code instead of pass^k, on the Wilson
# lower bound (computed here independently) or on the estimate, with --min-runs; the report is
# the same as without it.
flaky = ["--iterations", "8", "--seed", "1", "--exec",
         f"if [ $(( {{seed}} % 4 )) -eq 0 ]; then exit 7; fi; cp '{good}' {{out}}"]
Z95 = 1.959963984540054
wilson_low = ((0.75 + Z95 * Z95 / 16) - Z95 * math.sqrt(0.75 * 0.25 / 8 + Z95 * Z95 / 256)) / (1 + Z95 * Z95 / 8)
code, out, err = soak(flaky)
untolerant = json.loads(open(soak_report, "rb").read() or b"{}")
untolerant = dict(untolerant, runs=[dict(r, duration_ms=0) for r in untolerant.get("runs", [])])
check("sim soak: 6 of 8 passing without a gate, pass^8 fails, exit 1", code == 1 and b"gate" not in out, out)
for name, extra, want_code, want_tail in [
        ("the lower bound below P exits 1", ["--min-pass-rate", "0.5"], 1,
         "FAIL; lower bound {low} is below 0.5"),
        ("the lower bound at least P exits 0, though pass^8 fails", ["--min-pass-rate", "0.4"], 0,
         "PASS; lower bound {low} is at least 0.4"),
        ("--gate estimate judges the pass rate", ["--min-pass-rate", "0.75", "--gate", "estimate"], 0,
         "PASS; pass rate 0.75 is at least 0.75"),
        ("--gate estimate below P", ["--min-pass-rate", "0.8", "--gate", "estimate"], 1,
         "FAIL; pass rate 0.75 is below 0.8"),
        ("--min-runs above the runs executed exits 1", ["--min-pass-rate", "0.4", "--min-runs", "9"], 1,
         "FAIL; lower bound {low} is at least 0.4; 8 run(s), fewer than 9"),
        ]:
    code, out, err = soak(flaky + extra)
    rep = json.loads(open(soak_report, "rb").read() or b"{}")
    low = rep.get("results", {}).get("pass_rate_ci95", [None])[0]
    asked = " ".join(extra[:2]) + " --gate " + (extra[3] if "--gate" in extra else "lower-bound") + (
        " --min-runs " + extra[3] if "--min-runs" in extra else "")
    line = ("  gate " + asked + ": " + want_tail.format(low=repr(low)) +
            " (this gate decides the exit code, not pass^8)\n").encode()
    check("sim soak tolerance: " + name, code == want_code and err == b"" and out.endswith(line)
          and b"  pass^8: FAIL (first run not passing: 4)\n" in out and low is not None
          and abs(low - wilson_low) < 1e-12 and rep["results"]["pass_all"] is False,
          f"{code} {out!r} {err!r} {low!r} {wilson_low!r}")
    strip_time = dict(rep, runs=[dict(r, duration_ms=0) for r in rep.get("runs", [])])
    check("sim soak tolerance: the report is the one without the gate, " + name, strip_time == untolerant)
for name, extra, message in [
        ("--min-pass-rate 1.5", ["--min-pass-rate", "1.5"], b"--min-pass-rate 1.5: expected a number from 0 to 1"),
        ("--min-pass-rate nan", ["--min-pass-rate", "nan"], b"--min-pass-rate nan: expected a number from 0 to 1"),
        ("--gate median", ["--min-pass-rate", "0.5", "--gate", "median"],
         b"--gate median: expected lower-bound or estimate"),
        ("--gate alone", ["--gate", "estimate"], b"--gate needs --min-pass-rate"),
        ("--min-runs alone", ["--min-runs", "3"], b"--min-runs needs --min-pass-rate")]:
    code, out, err = soak(["--iterations", "1", "--target", signal_bundle] + extra)
    check(f"sim soak tolerance: usage error, {name}", code == 2 and out == b"" and
          err == usage_err("sim soak", message), f"{code} {out!r} {err!r}")
# --- sim drift (SPEC §12 "Drift") ----------------------------------------------------------------
# Reports written here from the soak report above (its packs, limits and policy), with results
# chosen so that a rule starts failing, one stops, and an infra error kind appears; the expected
# interval is Newcombe's method 10 computed here from the two Wilson intervals.
base_report = json.loads(open(soak_report, "rb").read())


def soak_doc(passes, failures, infra, violations, infra_kinds, suite):
    runs = passes + failures + infra
    d = dict(base_report, iterations=runs, suite=suite)
    d.pop("runs", None)
    d["results"] = {"runs": runs, "passes": passes, "failures": failures, "infra_errors": infra,
                    "pass_rate": passes / runs, "pass_all": passes == runs, "violations_by_rule": violations,
                    "infra_errors_by_kind": infra_kinds}
    path = os.path.join(soak_dir, suite + ".json")
    with open(path, "w") as f:
        json.dump(d, f)
    return path


def wilson(s, n):
    p, den, c = s / n, 1 + Z95 * Z95 / n, s / n + Z95 * Z95 / (2 * n)
    m = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n))
    return (0.0 if s == 0 else (c - m) / den, 1.0 if s == n else (c + m) / den)


def newcombe(s1, n1, s2, n2):
    (l1, u1), (l2, u2) = wilson(s1, n1), wilson(s2, n2)
    p1, p2 = s1 / n1, s2 / n2
    return (p1 - p2, p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


last_week = soak_doc(97, 3, 0, {"p@1:A": 3, "p@1:B": 10}, {}, "last-week")
today = soak_doc(91, 6, 3, {"p@1:A": 6, "p@1:C": 4}, {"time_budget_exceeded": 3}, "today")
broken = soak_doc(80, 20, 0, {"p@1:A": 20}, {}, "broken")
drift_report = os.path.join(soak_dir, "drift.json")


def drift(args):
    return run(["sim", "drift"] + args, env=soak_env)


code, out, err = drift([last_week, today, "--report", drift_report, "--fail-on", "regressed"])
d91 = newcombe(91, 100, 97, 100)
drep = json.loads(open(drift_report, "rb").read() or b"{}")
check("sim drift: 0.97 -> 0.91 is within the interval: unchanged, exit 0 even with --fail-on regressed",
      code == 0 and err == b"" and out == (
          b"drift: pass rate 0.97 -> 0.91 (baseline 97 of 100, candidate 91 of 100)\n"
          b"  difference -0.0600, 95% interval (Newcombe) [-0.1349, 0.0088]: unchanged\n"
          b"rules newly violated:\n  p@1:C  4.0% of runs\n"
          b"rules no longer violated:\n  p@1:B  10.0% of runs\n"
          b"infra errors (runs):\n  time_budget_exceeded  0 -> 3\n"), f"{code} {out!r} {err!r}")
check("sim drift: the report", drep.get("schema_version") == "soak-drift-v1" and drep["verdict"] == "unchanged"
      and drep["difference"]["method"] == "newcombe-hybrid-score"
      and drep["difference"]["estimate"] == 0.91 - 0.97
      and abs(drep["difference"]["ci95"][0] - d91[1]) < 1e-12 and abs(drep["difference"]["ci95"][1] - d91[2]) < 1e-12
      and drep["baseline"]["suite"] == "last-week" and drep["candidate"]["passes"] == 91
      and all(abs(a - b) < 1e-12 for a, b in zip(drep["candidate"]["pass_rate_ci95"], wilson(91, 100)))
      and drep["rules"] == {"p@1:A": {"baseline": 0.03, "candidate": 0.06}, "p@1:B": {"baseline": 0.1, "candidate": 0},
                            "p@1:C": {"baseline": 0, "candidate": 0.04}}
      and drep["new_rules"] == ["p@1:C"] and drep["resolved_rules"] == ["p@1:B"]
      and drep["infra_errors"] == {"baseline": {}, "candidate": {"time_budget_exceeded": 3}}
      and drep["packs_changed"] is False and drep["generated_at"] == "2023-11-14T22:13:20Z", drep)
expect("sim drift report validates as soak-drift-v1", ["validate", "soak-drift-v1", drift_report], b"", 0,
       f"{drift_report}: valid soak-drift-v1\n".encode(), b"")
schema_check("sim drift: the report", "soak-drift-v1", drep)
d80 = newcombe(80, 100, 97, 100)
code, out, err = drift([last_week, broken, "--fail-on", "regressed", "--report", drift_report])
drep = json.loads(open(drift_report, "rb").read() or b"{}")
check("sim drift: 0.97 -> 0.80 regressed, --fail-on regressed exits 1", code == 1 and err == b""
      and f"  difference -0.1700, 95% interval (Newcombe) [{d80[1]:.4f}, {d80[2]:.4f}]: regressed\n".encode() in out
      and drep["verdict"] == "regressed" and d80[2] < 0 and abs(drep["difference"]["ci95"][1] - d80[2]) < 1e-12,
      f"{code} {out!r} {err!r}")
code, out, err = drift([last_week, broken])
check("sim drift: a regression without --fail-on exits 0", code == 0 and b": regressed\n" in out, out)
code, out, err = drift([broken, last_week])
check("sim drift: the other way, improved", code == 0 and b": improved\n" in out, out)
other_packs = json.loads(open(today).read())
other_packs["packs"] = [dict(other_packs["packs"][0], digest="sha256:" + "0" * 64)]
other_path = os.path.join(soak_dir, "other-packs.json")
with open(other_path, "w") as f:
    json.dump(other_packs, f)
pk = base_report["packs"][0]
code, out, err = drift([last_week, other_path])
check("sim drift: packs that differ are a usage error naming them", code == 2 and out == b"" and err == (
    f"assay sim drift: the two soaks used different packs: in the baseline only: {pk['name']}@{pk['version']} "
    f"({pk['digest']}); in the candidate only: {pk['name']}@{pk['version']} (sha256:{'0' * 64}) "
    "(--allow-pack-change compares them anyway)\n").encode(), f"{code} {out!r} {err!r}")
code, out, err = drift([last_week, other_path, "--allow-pack-change", "--report", drift_report])
check("sim drift --allow-pack-change: compared, and said", code == 0
      and b"  the packs differ (compared with --allow-pack-change)\n" in out
      and json.loads(open(drift_report, "rb").read())["packs_changed"] is True, f"{code} {out!r} {err!r}")
code, out, err = drift([last_week, today, "--fail-on", "improved"])
check("sim drift: --fail-on improved is a usage error", code == 2 and err ==
      usage_err("sim drift", b"--fail-on improved: expected regressed"), err)
code, out, err = drift([last_week, os.path.join(soak_dir, "absent.json")])
check("sim drift: a report that is not there exits 3", code == 3 and out == b"", err)
code, out, err = drift([last_week, closure_report])
check("sim drift: a document that is not a soak report exits 1, its violations listed", code == 1 and
      err.startswith(f"assay sim drift: {closure_report}: not a valid soak-report-v1 (".encode()), err)

code, out, err = soak(["--iterations", "3", "--target", signal_bundle, "--ci", "jeffreys"])
check("sim soak --ci jeffreys", code == 0 and b"95% interval (Jeffreys) [0.4644, 0.9998]" in out, out)
for name, args, message in [
        ("no target", ["--iterations", "2"], b"give exactly one of --target, --target-dir and --exec"),
        ("two targets", ["--iterations", "2", "--target", signal_bundle, "--exec", "true"],
         b"give exactly one of --target, --target-dir and --exec"),
        ("--fail-on none", ["--iterations", "1", "--target", signal_bundle, "--fail-on", "none"],
         b"--fail-on none: expected info, warning, warn or error"),
        ("--ci", ["--iterations", "1", "--target", signal_bundle, "--ci", "bayes"],
         b"--ci bayes: expected wilson or jeffreys"),
        # (the numeric options' bounds: soak_stop_test.py)
        ]:
    code, out, err = soak(args)
    check(f"sim soak: usage error, {name}", code == 2 and out == b"" and err == usage_err("sim soak", message),
          f"{code} {out!r} {err!r}")
code, out, err = soak(["--iterations", "1", "--target", signal_bundle, "--pack", "replay-readyness"])
check("sim soak: a pack that does not load exits 3", code == 3 and b'did you mean "replay-readiness"' in err, err)
code, out, err = soak(["--iterations", "1", "--target-dir", os.path.join(soak_dir, "none")])
check("sim soak --target-dir that is not there exits 3", code == 3 and err.startswith(
    b"assay sim soak: --target-dir: cannot read the directory "), err)

# --- evidence attest, verify-attestation (SPEC §15, §17) ---------------------------------------
att_dir = tempfile.mkdtemp()
SEED1 = bytes(31) + b"\x01"
key_pem = os.path.join(att_dir, "k.pem")
pub_pem = os.path.join(att_dir, "k.pub.pem")
import base64  # noqa: E402
der = bytes.fromhex("302e020100300506032b657004220420") + SEED1
open(key_pem, "w").write("-----BEGIN PRIVATE KEY-----\n" + base64.b64encode(der).decode() + "\n-----END PRIVATE KEY-----\n")
open(pub_pem, "w").write("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEATLWr9q15+/WrvMr8wmnYXNJlHtS4hbWGnyQa7fCluik=\n"
                         "-----END PUBLIC KEY-----\n")
KEYID1 = "sha256:1300ab5783848215efd5623772c6750e429f26a6f9f0388b3cad7eb67976f774"
env_path = os.path.join(att_dir, "e.json")
code, out, err = run(["evidence", "attest", signal_bundle, "--key", key_pem, "--out", env_path])
check("evidence attest: exit 0, the bundle id and the keyid", code == 0 and err == b"" and out.startswith(b"attested sha256:")
      and f"with key {KEYID1}: {env_path}\n".encode() in out, f"{code} {out!r} {err!r}")
expect("verify-attestation: verified", ["evidence", "verify-attestation", signal_bundle, "--envelope", env_path,
       "--pubkey", pub_pem], b"", 0, f"verified: signed by {KEYID1}, about this bundle\n".encode(), b"")
code, out, err = run(["evidence", "verify-attestation", signal_bundle, "--envelope", env_path, "--pubkey", pub_pem,
                      "--json"])
check("verify-attestation --json", code == 0 and json.loads(out or b"{}") == {
    "ok": True, "signature_verified": True, "subject_matched": True, "keyid": KEYID1, "failure": None,
    "message": None}, out)
check("evidence attest: the envelope validates as dsse-envelope-v1",
      run(["validate", "dsse-envelope-v1", env_path])[0] == 0)
tampered_env = os.path.join(att_dir, "t.json")
e = json.load(open(env_path))
stmt = json.loads(base64.b64decode(e["payload"]))
stmt["predicate"]["run"]["event_count"] = 99
e["payload"] = base64.b64encode(json.dumps(stmt).encode()).decode()
json.dump(e, open(tampered_env, "w"))
code, out, err = run(["evidence", "verify-attestation", signal_bundle, "--envelope", tampered_env, "--pubkey", pub_pem,
                      "--json"])
rep = json.loads(out or b"{}")
check("verify-attestation: a payload changed after signing fails Signature, exit 1", code == 1 and
      rep.get("failure") == "Signature" and rep.get("signature_verified") is False and
      err == b"Signature: the Ed25519 signature over the PAE does not verify with the key\n", f"{code} {out!r} {err!r}")
code, out, err = run(["evidence", "verify-attestation", crafted_bundle, "--envelope", env_path, "--pubkey", pub_pem])
check("verify-attestation: another bundle fails SubjectDigest", code == 1 and err.startswith(b"SubjectDigest: "), err)
expect("evidence attest: a public key where the private key goes", ["evidence", "attest", signal_bundle, "--key",
       pub_pem, "--out", os.path.join(att_dir, "x.json")], b"", 2, b"",
       f'assay evidence attest: --key {pub_pem}: expected a PEM block "PRIVATE KEY", found "PUBLIC KEY"\n'.encode())
expect("evidence attest: a bundle that does not verify is not attested", ["evidence", "attest",
       tmpfile(b"not a bundle"), "--key", key_pem, "--out", os.path.join(att_dir, "y.json")], b"", 1, b"",
       b"IntegrityGzip: the gzip stream is invalid: it does not start with the gzip magic bytes 1f 8b\n")
check("evidence attest: nothing written for a refused bundle", not os.path.exists(os.path.join(att_dir, "y.json")))
code, out, err = run(["evidence", "attest", signal_bundle, "--key", key_pem, "--out", os.path.join(att_dir, "p.json"),
                      "--pack", "replay-readiness", "--closure", closure_report])
pred = json.loads(base64.b64decode(json.load(open(os.path.join(att_dir, "p.json")))["payload"]))["predicate"] \
    if code == 0 else {}
check("evidence attest --pack --closure: the predicate names them", code == 0 and
      [p["name"] for p in pred.get("packs", [])] == ["replay-readiness"] and pred.get("closure_report_digest") ==
      "sha256:" + __import__("hashlib").sha256(open(closure_report, "rb").read().rstrip(b"\n")).hexdigest()
      and set(pred.get("artifacts", {})) == {"manifest", "events"}, pred)

# --- evidence lint and pack check|show on the reference fixtures (SPEC §10, §11, §17) ------------
UPSTREAM = os.path.join(CONF, "assay-upstream") if CONF else ""
REF_BUNDLE = os.path.join(UPSTREAM, "bundles", "test-bundle.tar.gz")
REF_PACKS = os.path.join(UPSTREAM, "packs")
if os.path.isfile(REF_BUNDLE) and os.path.isdir(REF_PACKS):
    sha256 = lambda s: __import__("hashlib").sha256(s.encode()).hexdigest()  # noqa: E731
    # Run in a directory holding copies of the packs, so that paths (and the messages naming them)
    # are the same on every machine; no pack in the config directory.
    work = tempfile.mkdtemp()
    for name in ("eu-ai-act-baseline", "soc2-baseline"):
        open(os.path.join(work, name + ".yaml"), "wb").write(open(os.path.join(REF_PACKS, name + ".yaml"), "rb").read())
    open(os.path.join(work, "b.tar.gz"), "wb").write(open(REF_BUNDLE, "rb").read())
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"), SOURCE_DATE_EPOCH="1700000000")
    EU, SOC2 = "eu-ai-act-baseline.yaml", "soc2-baseline.yaml"
    EU_DIGEST = "sha256:97f10c43ae49e52261ee997ddcc7cc9a3c4a1f5c27d1403629fd27d24f1feb99"
    SOC2_DIGEST = "sha256:e3de126dcb064f5aa0eb3ba768fdd9f96a831362ba9c0f0bb8a33539194a3d9e"
    EU_RULE = "eu-ai-act-baseline@1.0.0:EU12-004"
    EU12_004_HELP = ("  help:\n    EU AI Act Article 12(2)(a) - Risk Identification\n    " + "-" * 48 + "\n\n"
                     "    \u2502 Logging capabilities shall provide, at a minimum:\n"
                     "    \u2502 (a) recording of events relevant for identifying situations that may\n"
                     "    \u2502     result in the AI system presenting a risk\n\n"
                     "    This check verifies that events contain fields that enable identification\n"
                     "    of risk situations, such as policy decisions, denials, or configuration\n    changes.\n\n"
                     "    What this checks:\n"
                     "    \u2022 At least one event contains one of: `policy_decision`, `denied`, `policy_hash`,\n"
                     "      `config_hash`, `violation` (in event data)\n\n"
                     "    Reference: Article 12(2)(a) <https://eur-lex.europa.eu/eli/reg/2024/1689/oj#d1e3029-1-1>\n\n"
                     "    Disclaimer: This is a technical check only. Passing does not constitute\n"
                     "    legal compliance with Article 12 requirements.\n")
    EU_MSG = ("No event contains any of the required fields: /data/policy_decision, /data/denied, /data/policy_hash, "
              "/data/config_hash, /data/violation, /data/risk_level, /data/anomaly_detected")
    SOC2_RULE = "soc2-baseline@1.0.0:invariant.decision_record"
    SOC2_MSG = "No event found matching type pattern 'assay.tool.decision'"

    def lint(args, **kw):
        return run(["evidence", "lint", "b.tar.gz"] + args, cwd=work, env=env, **kw)

    def expect_lint(name, args, rc, out=None, err=b""):
        code, o, e = lint(args)
        check(name, code == rc and (out is None or o == out) and (err is None or e == err),
              f"rc={code} stdout={o[:400]!r} stderr={e[:400]!r}")

    # Exit codes (SPEC §17): the EU AI Act pack finds a warning, the SOC 2 pack an error.
    eu_text = (f"warning {EU_RULE}: {EU_MSG}  [--explain {EU_RULE}]\n"
               "10 rules: 9 passed, 1 violated, 0 skipped; 1 finding(s); fail-on error: pass\n").encode()
    expect_lint("lint eu-ai-act-baseline --fail-on error: pass, exit 0", ["--pack", EU, "--fail-on", "error"], 0,
                eu_text)
    expect_lint("lint eu-ai-act-baseline: error is the default threshold", ["--pack", EU], 0, eu_text)
    expect_lint("lint eu-ai-act-baseline --fail-on warning: exit 1", ["--pack", EU, "--fail-on", "warning"], 1,
                eu_text.replace(b"fail-on error: pass", b"fail-on warning: FAIL"))
    expect_lint("lint eu-ai-act-baseline --fail-on warn (= warning): exit 1", ["--pack", EU, "--fail-on", "warn"], 1,
                eu_text.replace(b"fail-on error: pass", b"fail-on warning: FAIL"))
    expect_lint("lint eu-ai-act-baseline --fail-on info: exit 1", ["--pack", EU, "--fail-on", "info"], 1)
    soc2_text = (f"error {SOC2_RULE}: {SOC2_MSG}  [--explain {SOC2_RULE}]\n"
                 "9 rules: 8 passed, 1 violated, 0 skipped; 1 finding(s); fail-on error: FAIL\n").encode()
    expect_lint("lint soc2-baseline --fail-on error: exit 1", ["--pack", SOC2, "--fail-on", "error"], 1, soc2_text)
    expect_lint("lint soc2-baseline --fail-on warning: exit 1", ["--pack", SOC2, "--fail-on", "warning"], 1,
                soc2_text.replace(b"fail-on error", b"fail-on warning"))
    expect_lint("lint soc2-baseline --fail-on none: exit 0", ["--pack", SOC2, "--fail-on", "none"], 0,
                soc2_text.replace(b"fail-on error: FAIL", b"fail-on none: pass"))
    both_text = (f"warning {EU_RULE}: {EU_MSG}  [--explain {EU_RULE}]\n"
                 f"error {SOC2_RULE}: {SOC2_MSG}  [--explain {SOC2_RULE}]\n"
                 "13 rules: 11 passed, 2 violated, 0 skipped; 2 finding(s); fail-on error: FAIL\n").encode()
    expect_lint("lint --pack a,b: both packs, findings in rule order", ["--pack", f"{EU},{SOC2}"], 1, both_text)
    expect_lint("lint --max-results 1: the error kept, the warning dropped", ["--pack", EU, "--pack", SOC2,
                "--max-results", "1", "--fail-on", "info"], 1,
                (f"error {SOC2_RULE}: {SOC2_MSG}  [--explain {SOC2_RULE}]\n"
                 "1 finding(s) not shown: past --max-results 1 (the highest severities are shown)\n"
                 "13 rules: 11 passed, 2 violated, 0 skipped; 2 finding(s); fail-on info: FAIL\n").encode())
    # Usage errors exit 2; a pack that does not load exits 3 (as the reference's lint does).
    expect_lint("lint --fail-on warnings: a usage error", ["--pack", EU, "--fail-on", "warnings"], 2, b"",
                usage_err("evidence lint", b"--fail-on warnings: expected none, info, warning, warn or error"))
    expect_lint("lint --format yaml: a usage error", ["--pack", EU, "--format", "yaml"], 2, b"",
                usage_err("evidence lint", b"--format yaml: expected text, json or sarif"))
    expect_lint("lint --explain of no rule run: a usage error", ["--pack", EU, "--explain", "EU12-999"], 2, b"",
                usage_err("evidence lint", b"--explain EU12-999: no rule of that id in the packs"))
    expect_lint("lint: a pack that is not there exits 3", ["--pack", "nope.yaml"], 3, b"",
                b'assay evidence lint: pack "nope.yaml" not found: no such file or built-in pack; '
                b"built-in packs: cicd-starter, replay-readiness\n")
    broken = os.path.join(work, "broken.yaml")
    open(broken, "wb").write(open(os.path.join(work, EU), "rb").read().replace(b"kind: compliance", b"kind: fun"))
    code, o, e = lint(["--pack", EU, "--pack", "broken.yaml"])
    check("lint: a pack that does not load exits 3, naming the pack and the member", code == 3 and o == b""
          and e.startswith(b"assay evidence lint: ") and b"broken.yaml" in e and b"kind" in e and b"fun" in e
          and e.count(b"\n") >= 1, f"{code} {o!r} {e!r}")
    # --explain: the rule, its pack and check, what it found.
    expect_lint("lint --explain EU12-004", ["--pack", EU, "--explain", "EU12-004"], 0,
                (f"{EU_RULE} (warning)\n  Events include fields enabling risk situation identification\n"
                 f"  pack: eu-ai-act-baseline@1.0.0 ({EU})\n"
                 '  check: {"any_of":null,"in_data":false,"paths_any_of":["/data/policy_decision","/data/denied",'
                 '"/data/policy_hash","/data/config_hash","/data/violation","/data/risk_level","/data/anomaly_detected"],'
                 '"type":"event_field_present"}\n'
                 "  looks at: every event\n  article: 12(2)(a)\n  outcome: violated\n"
                 f"  finding: {EU_MSG}\n" + EU12_004_HELP).encode())
    # Without a bundle: the rule and its help alone (SPEC §10, "Explain").
    expect_lint_nobundle = lambda name, args, rc, out, err=b"": expect(name, ["evidence", "lint"] + args, b"", rc, out,
                                                                      err, cwd=work, env=env)
    expect_lint_nobundle("lint --explain EU12-004, no bundle", ["--pack", EU, "--explain", "EU12-004"], 0,
                         (f"{EU_RULE} (warning)\n  Events include fields enabling risk situation identification\n"
                          f"  pack: eu-ai-act-baseline@1.0.0 ({EU})\n"
                          '  check: {"any_of":null,"in_data":false,"paths_any_of":["/data/policy_decision","/data/denied",'
                          '"/data/policy_hash","/data/config_hash","/data/violation","/data/risk_level","/data/anomaly_detected"],'
                          '"type":"event_field_present"}\n'
                          "  looks at: every event\n  article: 12(2)(a)\n" + EU12_004_HELP).encode())
    expect_lint_nobundle("lint --explain of a built-in rule, no bundle", ["--explain", "ASSAY-W002"], 0,
                         b"ASSAY-W002 (warning)\n  Event flagged as containing PII but subject is non-empty\n"
                         b"  built-in rule: checked on every event of every bundle\n")
    expect_lint_nobundle("lint --explain of the default pack's rule by its canonical id, no bundle",
                         ["--explain", "cicd-starter@1.0.0+assay:CICD-002"], 0,
                         "cicd-starter@1.0.0+assay:CICD-002 (warning)\n"
                         "  The run's start and end are recorded (assay.profile.started and assay.profile.finished).\n"
                         "  pack: cicd-starter@1.0.0+assay (built-in)\n"
                         '  check: {"finish_pattern":"assay.profile.finished","start_pattern":"assay.profile.started",'
                         '"type":"event_pairs"}\n'
                         "  looks at: every event\n  help:\n    CICD-002: both ends of the run\n"
                         "    ------------------------------\n\n"
                         "    A run whose start or end is missing may have been cut short, and its evidence with it.\n\n"
                         "    To fix:\n"
                         "    \u2022 Record an `assay.profile.started` event first and an `assay.profile.finished` event last.\n"
                         "    \u2022 Lint again: `assay evidence lint bundle.tar.gz`\n".encode())
    expect_lint_nobundle("lint --explain of no rule, no bundle: a usage error", ["--explain", "NOPE-1"], 2, b"",
                         usage_err("evidence lint", b"--explain NOPE-1: no rule of that id in the packs"))
    expect_lint_nobundle("lint with neither a bundle nor --explain: a usage error", [], 2, b"",
                         usage_err("evidence lint", b"BUNDLE is required (only --explain <rule> works without one)"))
    expect_lint_nobundle("lint --explain closure.score needs a bundle", ["--explain", "closure.score"], 2, b"",
                         usage_err("evidence lint", b"--explain closure.score needs a BUNDLE"))
    # A pack's own text cannot forge a line of the explanation or drive the terminal.
    hostile = {"name": "hostile", "version": "1", "kind": "quality", "description": "d", "author": "a", "license": "l",
               "requires": {"assay_min_version": "5.0.0"},
               "rules": [{"id": "H-1", "severity": "info", "description": "ok\nerror FAKE@1:X: forged",
                          "help_markdown": "# T\u202e\n- a\u001b[31m\r\nok",
                          "check": {"type": "event_count", "min": 1}}]}
    hostile_path = os.path.join(work, "hostile.json")
    with open(hostile_path, "w", encoding="utf-8") as f:
        json.dump(hostile, f)
    expect_lint_nobundle("lint --explain of a hostile pack's rule: its text escaped, its lines its own",
                         ["--pack", hostile_path, "--explain", "H-1"], 0,
                         (f"hostile@1:H-1 (info)\n  ok\\x0aerror FAKE@1:X: forged\n  pack: hostile@1 ({hostile_path})\n"
                          '  check: {"min":1,"type":"event_count"}\n  looks at: every event\n'
                          "  help:\n    T\\u202e\n    =======\n    \u2022 a\\x1b[31m\n    ok\n").encode())

    # --format json: a lint-report-v1, valid, with the fixture's exact outcome; --report writes the
    # same bytes.
    report_path = os.path.join(work, "lint.json")
    code, o, e = lint(["--pack", EU, "--pack", SOC2, "--format", "json", "--report", report_path])
    rep = json.loads(o) if code == 1 and o else {}
    check("lint --format json: exit 1, the report on stdout", code == 1 and e == b"" and rep != {}, f"{code} {e!r}")
    check("lint --report: the same bytes as --format json", os.path.isfile(report_path)
          and open(report_path, "rb").read() == o)
    expect("lint --format json validates as lint-report-v1", ["validate", "lint-report-v1"], o, 0,
           b"<stdin>: valid lint-report-v1\n", b"")
    schema_check("lint --format json", "lint-report-v1", rep)
    if rep:
        check("lint report: header", rep["schema_version"] == "lint-report-v1"
              and rep["generated_at"] == "2023-11-14T22:13:20Z" and rep["tool"] == {"name": "assay", "version": "0.1.0"}
              and rep["bundle"] == {"bundle_id": "sha256:7a47bb25f2bd8e4ca031033d6c151812188f3b2bb8fa629ed100ea2fa53b7e41",
                                    "run_id": "ci-test-run-001", "event_count": 5}, rep)
        check("lint report: packs with digest and source",
              [(p["name"], p["version"], p["kind"], p["digest"], p["source"]) for p in rep["packs"]] ==
              [("eu-ai-act-baseline", "1.0.0", "compliance", EU_DIGEST, EU),
               ("soc2-baseline", "1.0.0", "compliance", SOC2_DIGEST, SOC2)], rep["packs"])
        check("lint report: every rule, built-in rules first, then each pack's in file order",
              [(r["rule_id"], r["outcome"]) for r in rep["results"]] ==
              [(b, "pass") for b in ("ASSAY-W001", "ASSAY-W002", "ASSAY-I001", "ASSAY-W003", "ASSAY-W004", "ASSAY-W005")]
              + [(f"eu-ai-act-baseline@1.0.0:EU12-00{i}", "violated" if i == 4 else "pass") for i in (1, 2, 3, 4)]
              + [(f"soc2-baseline@1.0.0:invariant.{r}", "violated" if r == "decision_record" else "pass")
                 for r in ("accountability", "change_lifecycle", "decision_record")],
              [r["rule_id"] for r in rep["results"]])
        violated = {r["rule_id"]: r["findings"] for r in rep["results"] if r["outcome"] == "violated"}
        check("lint report: the two violated rules and their findings", violated == {
            EU_RULE: [{"severity": "warning", "message": EU_MSG,
                       "fingerprint": "sha256:" + sha256(f"{EU_RULE}:global:{EU_DIGEST}")}],
            SOC2_RULE: [{"severity": "error", "message": SOC2_MSG,
                         "fingerprint": "sha256:" + sha256(f"{SOC2_RULE}:global:{SOC2_DIGEST}")}]}, violated)
        check("lint report: summary, threshold, verdict", rep["summary"] == {
            "rules": 13, "passed": 11, "violated": 2, "skipped": 0,
            "findings": {"total": 2, "error": 1, "warning": 1, "info": 0}, "dropped": 0, "max_results": 500}
            and rep["fail_on"] == "error" and rep["verdict"] == "fail", rep["summary"])
        check("lint report: a disclaimer per compliance pack",
              [d["pack"] for d in rep["disclaimers"]] == ["eu-ai-act-baseline", "soc2-baseline"]
              and rep["disclaimers"][1]["text"].startswith("This pack verifies evidence presence"), rep["disclaimers"])

    # SARIF 2.1.0: --sarif S writes it (atomically), --format sarif prints the same bytes.
    sarif_path = os.path.join(work, "lint.sarif")
    code, o, e = lint(["--pack", EU, "--pack", SOC2, "--sarif", sarif_path])
    check("lint --sarif: exit 1, the text on stdout", code == 1 and o == both_text and e == b"", f"{code} {o!r} {e!r}")
    sarif_bytes = open(sarif_path, "rb").read() if os.path.isfile(sarif_path) else b""
    code, o, e = lint(["--pack", EU, "--pack", SOC2, "--format", "sarif"])
    check("lint --format sarif: the bytes --sarif wrote", code == 1 and o == sarif_bytes and e == b"", f"{code} {e!r}")
    try:
        log = json.loads(sarif_bytes)
    except ValueError:
        log = {}
    check("sarif: 2.1.0, one run", log.get("version") == "2.1.0" and len(log.get("runs", [])) == 1
          and log.get("$schema", "").endswith("sarif-schema-2.1.0.json"), sarif_bytes[:200])
    if log.get("runs"):
        srun = log["runs"][0]
        check("sarif: automationDetails.id", srun["automationDetails"]["id"] ==
              "assay-evidence/lint/ci-test-run-001/0.1.0", srun.get("automationDetails"))
        rule_ids = [r["id"] for r in srun["tool"]["driver"]["rules"]]
        check("sarif: the built-in rules and every pack rule with a finding", rule_ids ==
              ["ASSAY-W001", "ASSAY-W002", "ASSAY-I001", "ASSAY-W003", "ASSAY-W004", "ASSAY-W005", EU_RULE, SOC2_RULE],
              rule_ids)
        by_id = {r["id"]: r for r in srun["tool"]["driver"]["rules"]}
        check("sarif: helpUri from the pack's source_url",
              by_id.get(EU_RULE, {}).get("helpUri") == "https://eur-lex.europa.eu/eli/reg/2024/1689/oj", by_id.get(EU_RULE))
        check("sarif: assayPacks", srun["tool"]["driver"]["properties"]["assayPacks"] == [
            {"name": "eu-ai-act-baseline", "version": "1.0.0", "digest": EU_DIGEST},
            {"name": "soc2-baseline", "version": "1.0.0", "digest": SOC2_DIGEST}])
        got = sorted((r["ruleId"], r["level"], r["message"]["text"],
                      r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                      r["locations"][0]["physicalLocation"]["region"]["startLine"],
                      r["partialFingerprints"]["assayLintFingerprint/v1"],
                      r["partialFingerprints"]["primaryLocationLineHash"]) for r in srun["results"])
        want = sorted((rid, level, msg, "b.tar.gz", 1, "sha256:" + sha256(f"{rid}:global:{dig}"),
                       sha256(f"{rid}:b.tar.gz:1:{dig}"))
                      for rid, level, msg, dig in ((EU_RULE, "warning", EU_MSG, EU_DIGEST),
                                                   (SOC2_RULE, "error", SOC2_MSG, SOC2_DIGEST)))
        check("sarif: results with level, location, fingerprints (SPEC §11)", got == want, got)
    # The artifact of a global finding is a URI: an absolute bundle path is a file: URI, escaped.
    spaced = os.path.join(work, "a b%.tar.gz")
    open(spaced, "wb").write(open(REF_BUNDLE, "rb").read())
    code, o, e = run(["evidence", "lint", spaced, "--pack", SOC2, "--format", "sarif"], cwd=work, env=env)
    try:
        res = json.loads(o)["runs"][0]["results"][0]
    except (ValueError, KeyError, IndexError):
        res = {}
    check("sarif: an absolute bundle path as a file: URI", code == 1 and res.get("locations", [{}])[0].get(
          "physicalLocation", {}).get("artifactLocation", {}).get("uri") == "file://" + work + "/a%20b%25.tar.gz"
          and res["partialFingerprints"]["primaryLocationLineHash"] == sha256(f"{SOC2_RULE}:{spaced}:1:{SOC2_DIGEST}"),
          f"{code} {res} {e!r}")
    # Atomic: a failed write leaves the target as it was, and no temporary beside it.
    sdir = tempfile.mkdtemp()
    starget = os.path.join(sdir, "lint.sarif")
    open(starget, "wb").write(b"old")
    code, o, e = lint(["--pack", EU, "--pack", SOC2, "--sarif", starget], preexec_fn=small_files)
    check("lint --sarif: a failed write exits 3 and leaves the target", code == 3 and b"File too large" in e
          and open(starget, "rb").read() == b"old" and os.listdir(sdir) == ["lint.sarif"], f"{code} {e!r}")
    os.chmod(starget, 0o640)
    code, o, e = lint(["--pack", EU, "--pack", SOC2, "--sarif", starget])
    check("lint --sarif: replaces the target, keeps its permissions", code == 1 and open(starget, "rb").read() ==
          sarif_bytes and os.stat(starget).st_mode & 0o777 == 0o640 and os.listdir(sdir) == ["lint.sarif"],
          f"{code} {e!r} {os.listdir(sdir)}")
    code, o, e = lint(["--pack", EU, "--sarif", "/nonexistent/lint.sarif"])
    check("lint --sarif: no such directory exits 3", code == 3 and o == b"" and
          e.startswith(b"assay evidence lint: cannot write /nonexistent/lint.sarif: No such file"), f"{code} {e!r}")

    # pack check: one line per pack (name@version kind digest) and what it holds; exit 1 when one fails.
    def pack(args, **kw):
        return run(["pack"] + args, cwd=work, env=env, **kw)

    code, o, e = pack(["check", EU, SOC2, "cicd-starter"])
    lines = o.decode().splitlines()
    check("pack check: two reference packs and a built-in one", code == 0 and e == b"" and len(lines) == 6
          and lines[:4] == [f"ok   eu-ai-act-baseline@1.0.0 compliance {EU_DIGEST}",
                            f"  4 rules; source {EU}; signals: none",
                            f"ok   soc2-baseline@1.0.0 compliance {SOC2_DIGEST}",
                            f"  3 rules; source {SOC2}; signals: none"]
          and lines[4:] == ["ok   cicd-starter@1.0.0+assay quality "
                            "sha256:3d42ff5434ced5d0aa1f9639daeb7a7e74313783d45143e2c72c6515dbace4cc",
                            "  4 rules; source built-in; signals: none"], o + e)
    code, o, e = pack(["check", f"{EU},nope"])
    check("pack check: a pack that does not load fails the check (exit 1), every problem named",
          code == 1 and e == b"" and o == (f"ok   eu-ai-act-baseline@1.0.0 compliance {EU_DIGEST}\n"
                                           f"  4 rules; source {EU}; signals: none\n"
                                           "FAIL nope\n"
                                           '  pack "nope" not found: no such file, built-in pack or pack in '
                                           f"{os.path.join(work, 'config', 'assay', 'packs')}; built-in packs: "
                                           "cicd-starter, replay-readiness\n").encode(), o + e)
    code, o, e = pack(["check", "broken.yaml"])
    check("pack check: a pack with a bad member", code == 1 and o.startswith(b"FAIL broken.yaml\n  ") and b"fun" in o,
          o + e)
    expect("pack check: no pack is a usage error", ["pack", "check"], b"", 2, b"", cwd=work, env=env)
    # pack show: the resolved pack as canonical JSON; its digest is the pack's digest.
    code, o, e = pack(["show", SOC2])
    shown = json.loads(o) if code == 0 else {}
    check("pack show: canonical JSON of the resolved pack", code == 0 and e == b"" and o.endswith(b"\n")
          and o[:-1] == jcs(shown) and shown.get("name") == "soc2-baseline" and shown.get("kind") == "compliance"
          and [r["id"] for r in shown.get("rules", [])] == ["invariant.accountability", "invariant.change_lifecycle",
                                                             "invariant.decision_record"], o[:300] + e)
    expect("pack show: its digest is the pack's", ["digest"], o, 0, (SOC2_DIGEST + "\n").encode())
    code, o, e = pack(["show", "nope"])
    check("pack show: a pack that does not load", code == 1 and o == b"" and e.startswith(
          b'assay pack show: pack "nope" not found'), f"{code} {o!r} {e!r}")
elif REQUIRE:
    check("reference bundle and packs present", False, UPSTREAM)
else:
    print(f"reference fixtures absent under {CONF}: evidence lint and pack checks skipped")

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
    # (its assay.profile.started fixtures lack the members SPEC §8 requires; their other members,
    # build_id and the rest, are additive), and gives the same events.
    import tarfile
    ref = os.path.join(CONF, "assay-upstream", "bundles", "test-bundle.tar.gz")
    expect("reference test-bundle verifies", ["evidence", "verify", ref], b"", 0, err=b"")
    with tarfile.open(ref) as t:
        ref_events = t.extractfile("events.ndjson").read()
    ref_path = tmpfile(ref_events)
    expect("reference events: refused with their payloads checked", ["evidence", "bundle", "--events", ref_path,
           "--out", tmpfile(b"")], b"", 1, b"",
           err_contains=f'missing_member: {ref_path}: line 1: at /0/data/profile_name: required member '
                        f'"profile_name" is missing')
    repacked = tmpfile(b"")
    expect("reference events: re-packed with --unchecked-payloads", ["evidence", "bundle", "--events", ref_path,
           "--out", repacked, "--unchecked-payloads"], b"", 0, None, b"")
    with tarfile.open(repacked) as t:
        check("reference events: the same bytes re-packed", t.extractfile("events.ndjson").read() == ref_events)
    expect("reference test-bundle --contracts", ["evidence", "verify", "--contracts", ref], b"", 1, b"",
           err_contains='ContractInvalidEvent: line 1 of events.ndjson: seq 0 ("assay.profile.started"): '
                        '/data/profile_name')
elif REQUIRE:
    check("conformance data present", False, CONF)
else:
    print(f"conformance data absent at {CONF}: vector checks skipped")

finish()
