#!/usr/bin/env python3
"""`assay evidence show` and `assay evidence diff` (SPEC §18) as scripts and CI pipelines use them:
exact outputs for crafted bundle pairs, the --fail-on-new gate's exit codes, a bundle that fails
verification (refused, its code named), --no-verify on it, and the JSON against the generated
schemas/evidence-diff-v1.schema.json.

usage: inspect_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import hashlib
import json
import os
import subprocess

from clitest import ROOT, run, check, expect, tmpfile, jcs, event, bundle_of, finish

ARROW = "\u2192"


def ev(seq, typ, data, subject=None, run_id="run-a"):
    return event(seq, typ, data, run_id, subject)


def runs(run_id, changed=False):
    """The events of a run; `changed`: the shell denied, a new host reached, a file no longer read, curl called."""
    e = [ev(0, "assay.profile.started", {"profile_name": "p", "profile_version": "1", "total_runs_aggregated": 0},
            run_id=run_id),
         ev(1, "assay.tool.decision", {"tool": "shell", "decision": "deny" if changed else "allow", "reason_code": "r"},
            run_id=run_id),
         ev(2, "assay.net.access", {"hits": 1}, "api.example.com:443", run_id)]
    if changed:
        e += [ev(3, "assay.net.access", {"hits": 2}, "evil.example.net:443", run_id),
              ev(4, "assay.tool.call", {"tool": "curl"}, run_id=run_id)]
    else:
        e += [ev(3, "assay.fs.access", {"hits": 1}, "/etc/hosts", run_id)]
    return e


def file_sha(bundle):
    with open(bundle, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def root_of(bundle):
    code, out, err = run(["evidence", "verify", bundle, "--json"])
    return json.loads(out)["bundle_id"]


base = bundle_of(runs("run-a"))
cand = bundle_of(runs("run-b", changed=True))
ra, rb = root_of(base), root_of(cand)
env = dict(os.environ, COLUMNS="100")

# --- show -------------------------------------------------------------------------------------
expect("show: summary and table", ["evidence", "show", base], rc=0, err=b"", env=env, out=(
    f"bundle_id {ra}\nfile      sha256:{file_sha(base)}\nrun       run-a\nproducer  cli-test 1.0\n"
    "events    4, 2026-01-01T00:00:00Z .. 2026-01-01T00:00:03Z\nverified  ok\n\n"
    "SEQ  TIME                  TYPE                   SUBJECT\n"
    "  0  2026-01-01T00:00:00Z  assay.profile.started\n"
    "  1  2026-01-01T00:00:01Z  assay.tool.decision\n"
    "  2  2026-01-01T00:00:02Z  assay.net.access       api.example.com:443\n"
    "  3  2026-01-01T00:00:03Z  assay.fs.access        /etc/hosts\n").encode())
code, out, err = run(["evidence", "show", base], env=dict(os.environ, COLUMNS="40"))
check("show: every line within a 40-column terminal", code == 0 and
      all(len(l) <= 40 for l in out.decode().splitlines()[8:]), out)
code, out, err = run(["evidence", "show", "--format", "json", base])
doc = json.loads(out) if code == 0 else {}
with open(base, "rb") as f:
    import tarfile
    with tarfile.open(fileobj=f) as t:
        lines = t.extractfile("events.ndjson").read().decode().splitlines()
        manifest = json.loads(t.extractfile("manifest.json").read())
check("show --format json: manifest, events as in the bundle, verified",
      code == 0 and list(doc) == ["manifest", "events", "verified"] and doc["manifest"] == manifest
      and doc["events"] == [json.loads(l) for l in lines] and doc["verified"] is True, out + err)
stdin_out = run(["evidence", "show", "-"], open(base, "rb"), env=env)
check("show: a bundle on standard input", stdin_out[0] == 0 and stdin_out[1].startswith(f"bundle_id {ra}\nfile      sha256:{file_sha(base)}\n".encode()))

# A bundle whose second event was edited after it was hashed.
with open(base, "rb") as f, tarfile.open(fileobj=f) as t:
    events_bytes = t.extractfile("events.ndjson").read()
    manifest_bytes = t.extractfile("manifest.json").read()
tampered_events = events_bytes.replace(b'"shell"', b'"shelL"')
m = json.loads(manifest_bytes)
m["files"]["events.ndjson"]["bytes"] = len(tampered_events)
m["files"]["events.ndjson"]["sha256"] = "sha256:" + __import__("hashlib").sha256(tampered_events).hexdigest()
import io
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.USTAR_FORMAT) as t:
    for name, data in (("manifest.json", jcs(m)), ("events.ndjson", tampered_events)):
        info = tarfile.TarInfo(name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
bad = tmpfile(buf.getvalue())
expect("show: a bundle that fails is not shown", ["evidence", "show", bad], rc=1, out=b"",
       err_contains="IntegrityEventHash: ")
code, out, err = run(["evidence", "show", "--no-verify", bad], env=env)
check("show --no-verify: shown, and the first line says it is not verified", code == 0 and out.startswith(
    b"not verified (--no-verify): nothing below has been checked\n") and b"verified  no\n" in out
    and b"  1  2026-01-01T00:00:01Z  assay.tool.decision\n" in out, out + err)
code, out, err = run(["evidence", "show", "--no-verify", "--format", "json", bad])
check("show --no-verify --format json: verified false", code == 0 and json.loads(out)["verified"] is False, out + err)
expect("show: not a bundle at all", ["evidence", "show", "--no-verify", tmpfile(b"hello")], rc=1, out=b"",
       err_contains="IntegrityGzip: ")
expect("show: no such file", ["evidence", "show", "/nonexistent/b.tar.gz"], rc=3, out=b"", err_contains="cannot open")
expect("show: an unknown format", ["evidence", "show", "--format", "yaml", base], rc=2, out=b"")

# --- diff -------------------------------------------------------------------------------------
human = (f"baseline   run-a  4 events  2026-01-01T00:00:00Z .. 2026-01-01T00:00:03Z  bundle_id {ra}\n"
         f"candidate  run-b  5 events  2026-01-01T00:00:00Z .. 2026-01-01T00:00:04Z  bundle_id {rb}\n"
         f"events: 4 {ARROW} 5 (+1)\n"
         "network: 1 added, 0 removed\n  + evil.example.net:443\n"
         "filesystem: 0 added, 1 removed\n  - /etc/hosts\n"
         "processes: no change\n"
         f"tools: 1 added, 0 removed, 1 decision changed\n  + curl\n  ~ shell: allow {ARROW} deny\n"
         "event types: 3 changed\n"
         f"  assay.fs.access: 1 {ARROW} 0 (-1)\n  assay.net.access: 1 {ARROW} 2 (+1)\n"
         f"  assay.tool.call: 0 {ARROW} 1 (+1)\n").encode()
expect("diff: human", ["evidence", "diff", base, cand], rc=0, out=human, err=b"")
same = (f"baseline   run-a  4 events  2026-01-01T00:00:00Z .. 2026-01-01T00:00:03Z  bundle_id {ra}\n"
        f"candidate  run-a  4 events  2026-01-01T00:00:00Z .. 2026-01-01T00:00:03Z  bundle_id {ra}\n"
        f"events: 4 {ARROW} 4 (0)\nnetwork: no change\nfilesystem: no change\nprocesses: no change\n"
        "tools: no change\nevent types: no change\n").encode()
expect("diff: a bundle against itself", ["evidence", "diff", base, base, "--fail-on-new",
       "network,filesystem,processes,tools"], rc=0, out=same, err=b"")
expect("diff --fail-on-new network: the new host fails the gate", ["evidence", "diff", base, cand, "--fail-on-new",
       "network"], rc=1, out=human, err=b"assay evidence diff: the candidate adds to network (--fail-on-new)\n")
expect("diff --fail-on-new tools,network: both named, in the order given", ["evidence", "diff", base, cand,
       "--fail-on-new", "tools", "--fail-on-new", "network"], rc=1,
       err=b"assay evidence diff: the candidate adds to tools, network (--fail-on-new)\n")
expect("diff --fail-on-new filesystem,processes: a removed file is no addition", ["evidence", "diff", base, cand,
       "--fail-on-new", "filesystem,processes"], rc=0, out=human, err=b"")
expect("diff --fail-on-new: the reverse direction adds the file", ["evidence", "diff", cand, base, "--fail-on-new",
       "filesystem"], rc=1, err=b"assay evidence diff: the candidate adds to filesystem (--fail-on-new)\n")
expect("diff --fail-on-new: an unknown category", ["evidence", "diff", base, cand, "--fail-on-new", "net"], rc=2,
       out=b"", err_contains="--fail-on-new net: expected network, filesystem, processes or tools")
code, out, err = run(["evidence", "diff", base, bad])
check("diff: a candidate that fails verification is refused, its code and role named",
      code == 1 and out == b"" and err.startswith(f"IntegrityEventHash: candidate {bad}: ".encode()), out + err)
code, out, err = run(["evidence", "diff", bad, base])
check("diff: a baseline that fails verification", code == 1 and err.startswith(
    f"IntegrityEventHash: baseline {bad}: ".encode()), err)
report = tmpfile(b"")
code, out, err = run(["evidence", "diff", base, cand, "--format", "json", "--report", report])
rep = json.loads(out) if code == 0 else {}
check("diff --format json and --report: the same evidence-diff-v1", code == 0 and open(report, "rb").read() == out
      and rep["schema_version"] == "evidence-diff-v1" and rep["summary"] == {
          "added_in": ["network", "tools"], "changed": True, "event_count_delta": 1}
      and rep["tools"]["decisions_changed"] == [{"baseline": ["allow"], "candidate": ["deny"], "tool": "shell"}],
      out + err)
try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema is None:
    print("python3-jsonschema absent: the diff report is not validated against its schema")
else:
    schema = json.load(open(os.path.join(ROOT, "schemas", "evidence-diff-v1.schema.json"), encoding="utf-8"))
    for name, r in (("changed", rep), ("identical", json.loads(run(["evidence", "diff", base, base, "--format",
                                                                     "json"])[1]))):
        try:
            jsonschema.Draft202012Validator(schema).validate(r)
            check(f"diff report ({name}) valid against schemas/evidence-diff-v1.schema.json", True)
        except jsonschema.ValidationError as e:
            check(f"diff report ({name}) valid against schemas/evidence-diff-v1.schema.json", False, str(e))
    expect("validate evidence-diff-v1", ["validate", "evidence-diff-v1", report], rc=0)
finish()
