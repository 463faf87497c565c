"""Events from any language: `assay evidence record` takes minimal lines ({type, data, subject?,
time?, traceparent?, tracestate?, pii?, secrets?}) and fills the envelope as the C++ recorder does.
Its bundle is compared byte for byte with what `evidence bundle` writes from the full events built
here, independently, from SPEC §4 (id, seq, times in UTC with the fewest exact fraction digits,
content hashes); SOURCE_DATE_EPOCH makes it reproducible; every problem of every line is reported
at once; `evidence bundle` names each missing envelope member; the docs' Python and shell
harnesses run as written; the reference verifies what record wrote.

Run as `record_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)`.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ASSAY, ROOT, bundle_members, check, finish, jcs, run, tmpfile  # noqa: E402

REF = os.environ.get("ASSAY_REF") or shutil.which("assay-ref")
work = tempfile.mkdtemp()


def path(name):
    return os.path.join(work, name)


minimal = [
    {"type": "assay.model.invoked", "data": {"model": "m-1", "provider": "p"}, "time": "2026-01-01T00:00:00Z"},
    {"type": "assay.tool.call", "data": {"tool": "search", "arguments": {"q": "caf\u00e9"}}, "subject": "tool:search",
     "time": "2026-01-01T01:00:01.250+01:00", "traceparent": "00-" + "ab" * 16 + "-" + "cd" * 8 + "-01"},
    {"type": "x.custom.step", "data": {"n": 1.5, "ok": True}, "time": "2026-01-01T00:00:02.000000001Z",
     "pii": True},
    {"type": "x.custom.note", "time": "2026-01-01T00:00:03.100Z", "secrets": True, "tracestate": "k=v"},
]
minimal_file = tmpfile(b"".join(json.dumps(e).encode() + b"\n" for e in minimal))


def utc(t):
    """RFC 3339 in UTC with the fewest fraction digits of 0, 3, 6, 9 that are exact (SPEC §4)."""
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)", t)
    import datetime
    y, mo, d, h, mi, s, frac, zone = m.groups()
    dt = datetime.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s))
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        dt -= sign * datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    frac = (frac or "").rstrip("0")
    digits = next(n for n in (0, 3, 6, 9) if len(frac) <= n)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + ("." + frac.ljust(digits, "0") if digits else "") + "Z"


def full_event(seq, e, run_id, source, producer, version, policy):
    data = e.get("data", {})
    ev = {"specversion": "1.0", "type": e["type"], "source": source, "id": f"{run_id}:{seq}", "time": utc(e["time"]),
          "datacontenttype": "application/json", "assayrunid": run_id, "assayseq": seq, "assayproducer": producer,
          "assayproducerversion": version, "assaygit": "unknown", "assaypii": e.get("pii", False),
          "assaysecrets": e.get("secrets", False), "assaypolicyid": policy, "data": data}
    hashed = {"data": data, "datacontenttype": "application/json", "specversion": "1.0", "type": e["type"]}
    for k in ("subject", "traceparent", "tracestate"):
        if k in e:
            ev[k] = e[k]
    if "subject" in e:
        hashed["subject"] = e["subject"]
    ev["assaycontenthash"] = "sha256:" + hashlib.sha256(jcs(hashed)).hexdigest()
    return ev


# --- record, and the same events written in full here --------------------------------------------------
rec = path("rec.tar.gz")
code, out, err = run(["evidence", "record", minimal_file, "--out", rec, "--run-id", "run-7", "--source",
                      "urn:example:harness", "--producer", "py-harness@2.1.0", "--policy-id", "policy:ci"])
check("evidence record: exit 0, one summary line", code == 0 and err == b"" and
      out == f"recorded 4 event(s) of run run-7 into {rec}\n".encode(), f"{code} {out!r} {err!r}")
full = [full_event(i, e, "run-7", "urn:example:harness", "py-harness", "2.1.0", "policy:ci")
        for i, e in enumerate(minimal)]
by_hand = path("by-hand.tar.gz")
code, out, err = run(["evidence", "bundle", "--events", tmpfile(b"".join(jcs(e) + b"\n" for e in full)),
                      "--out", by_hand])
check("evidence bundle of the full events built here", code == 0, err)
check("record's bundle is evidence bundle's of the events SPEC §4 gives, byte for byte",
      os.path.exists(rec) and open(rec, "rb").read() == open(by_hand, "rb").read(),
      bundle_members(rec)["events.ndjson"][:600] if os.path.exists(rec) else "")
lines = [json.loads(x) for x in bundle_members(rec)["events.ndjson"].splitlines()] if os.path.exists(rec) else []
check("times normalized to UTC with the fewest exact digits", [x.get("time") for x in lines] == [
    "2026-01-01T00:00:00Z", "2026-01-01T00:00:01.250Z", "2026-01-01T00:00:02.000000001Z",
    "2026-01-01T00:00:03.100Z"], [x.get("time") for x in lines])
code, out, err = run(["evidence", "verify", rec])
check("assay verifies it", code == 0, err)
if REF:
    r = subprocess.run([REF, "verify", rec], capture_output=True)
    check("assay-ref verifies it", r.returncode == 0, r.stdout + r.stderr)

# --- SOURCE_DATE_EPOCH: events without a time take it; two runs, the same bytes -----------------------
untimed = tmpfile(b'{"type":"x.a","data":{"i":1}}\n{"type":"x.b"}\n')
env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
a, b = path("a.tar.gz"), path("b.tar.gz")
run(["evidence", "record", untimed, "--out", a, "--run-id", "r"], env=env)
run(["evidence", "record", untimed, "--out", b, "--run-id", "r"], env=env)
check("SOURCE_DATE_EPOCH: every event at that time, two runs byte-identical",
      os.path.exists(a) and open(a, "rb").read() == open(b, "rb").read() and
      [json.loads(x)["time"] for x in bundle_members(a)["events.ndjson"].splitlines()] == ["2023-11-14T22:13:20Z"] * 2)
check("the default producer and source", os.path.exists(a) and json.loads(bundle_members(a)["events.ndjson"].split(b"\n")[0])[
    "source"] == "urn:assay:cli:record" and json.loads(bundle_members(a)["manifest.json"])["producer"]["name"] ==
    "assay-record")
code, out, err = run(["evidence", "record", untimed, "--out", "-", "--run-id", "r"], env=env)
check("--out -: the bundle on stdout, no summary", code == 0 and os.path.exists(a) and out == open(a, "rb").read())
code, out, err = run(["evidence", "record", "--out", path("stdin.tar.gz"), "--run-id", "r"],
                     stdin=b'{"type":"x.a","data":{"i":1}}\n{"type":"x.b"}\n', env=env)
check("events from standard input by default", code == 0 and open(path("stdin.tar.gz"), "rb").read() ==
      open(a, "rb").read())

# --- every problem of every line at once ---------------------------------------------------------------
bad = tmpfile(b'{"type":"","extra":1}\n{"data":{}}\n{"type":"assay.tool.decision","data":{"tool":"x"}}\n'
              b'{"type":"x.ok","time":"1969-12-31T23:59:59Z"}\n{"type":"x.ok","traceparent":"nope"}\n')
target = path("never.tar.gz")
code, out, err = run(["evidence", "record", bad, "--out", target, "--run-id", "r"])
name = bad
check("every problem of every line, each with its line and pointer, exit 1, nothing written", code == 1 and
      out == b"" and not os.path.exists(target) and err.decode() == "".join(
          f"assay evidence record: {name}: {m}\n" for m in [
              "line 1, column 9 (byte 8) at /type: string is shorter than the minimum length 1",
              "line 1, column 12 (byte 11) at /extra: unknown member \"extra\" (not allowed here)",
              "line 2, column 1 (byte 22) at /type: required member \"type\" is missing",
              "line 3: at /data/decision: required member \"decision\" is missing",
              "line 3: at /data/reason_code: required member \"reason_code\" is missing",
              "line 4: at /time: the time is before 1970, after 2262-04-11T23:47:16Z (the last an event time can hold here) "
              "or has more than 9 fraction digits",
              "line 5: at /traceparent: \"nope\" does not match the pattern ^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$",
          ]), err.decode())
code, out, err = run(["evidence", "record", tmpfile(b'{"type":"x.a"}\nnot json\n'), "--out", target])
check("a line that is not JSON: exit 2", code == 2 and b"line 2, column 1" in err and not os.path.exists(target), err)
code, out, err = run(["evidence", "record", tmpfile(b""), "--out", target])
check("no event: exit 1", code == 1 and err.endswith(b": no event: a bundle holds at least one\n"), err)
for args, message in [(["--producer", "harness"], "--producer harness: expected NAME@VERSION, e.g. my-harness@1.2.0"),
                      (["--producer", "@1.0"], "--producer @1.0: expected NAME@VERSION, e.g. my-harness@1.2.0"),
                      (["--run-id", "a:b"], "--run-id: "),
                      (["--source", "nouri"], "--source: ")]:
    code, out, err = run(["evidence", "record", untimed, "--out", target] + args)
    check(f"record {' '.join(args)}: a usage error", code == 2 and err.startswith(
        ("assay evidence record: " + message).encode()) and not os.path.exists(target), f"{code} {err!r}")
code, out, err = run(["evidence", "record", untimed, "--out", path("stamped.tar.gz"), "--pack", "cicd-starter"])
check("record --pack stamps x-assay", code == 0 and json.loads(bundle_members(path("stamped.tar.gz"))["manifest.json"])[
    "x-assay"]["packs_applied"][0]["name"] == "cicd-starter", err)

# --- evidence bundle: each missing envelope member named at once ---------------------------------------
code, out, err = run(["evidence", "bundle", "--events", "-", "--out", target],
                     stdin=b'{"specversion":"1.0","type":"x.y","data":{}}\n')
missing = ["source", "id", "time", "datacontenttype", "assayrunid", "assayseq", "assayproducer",
           "assayproducerversion", "assaygit", "assaypii", "assaysecrets"]
check("evidence bundle: every missing envelope member, each 'required member … is missing' (the content hash is "
      "the writer's to compute)", code == 1 and err.decode() == "".join(
          f"assay evidence bundle: missing_member: <stdin>: line 1: at /0/{m}: required member \"{m}\" is missing\n"
          for m in missing), err.decode())

# --- the docs' harnesses, as written -------------------------------------------------------------------
doc = open(os.path.join(ROOT, "docs", "evidence.md"), encoding="utf-8").read()
for lang, runner in [("python", [sys.executable, "-"]), ("sh", ["sh", "-s"])]:
    m = re.search(r"<!-- harness -->\n```" + lang + r"\n(.*?)```", doc, re.S)
    check(f"docs/evidence.md has a {lang} harness", m is not None)
    if not m:
        continue
    cwd = tempfile.mkdtemp()
    p = subprocess.run(runner, input=m.group(1).encode(), cwd=cwd, capture_output=True, timeout=60,
                       env=dict(os.environ, PATH=os.path.dirname(ASSAY) + os.pathsep + os.environ["PATH"]))
    out_bundle = os.path.join(cwd, "run.tar.gz")
    check(f"the docs' {lang} harness runs and writes a bundle", p.returncode == 0 and os.path.exists(out_bundle),
          p.stdout + p.stderr)
    if os.path.exists(out_bundle):
        code, out, err = run(["evidence", "verify", out_bundle])
        check(f"the {lang} harness's bundle verifies", code == 0, err)

finish()
