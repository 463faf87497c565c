#!/usr/bin/env python3
"""What a hostile bundle cannot do to a terminal, and outputs written all or none (SPEC §17).

- A tool name or subject holding LF, ESC, a direction override (U+202E), an isolate (U+2066), a
  mark (U+200F), a C1 control or a line separator: lint's text, show's table and diff's human
  output each print exactly the expected escaped line, and no line more than for a benign bundle.
  Invalid UTF-8 (an archive member's name, shown by show --no-verify) is escaped as \\xHH.
- export-otel --out + --report and lint --report + --sarif: when one target cannot be written (a
  directory, a missing directory), neither is created or changed (exit 3), in either order; when
  both can, both are written and no temporary is left.

usage: hostile_output_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import gzip
import io
import os
import tarfile
import tempfile

from clitest import run, check, tmpfile, event, bundle_of, finish

HOSTILE = [  # (raw text, as the sanitizer shows it)
    ("\nerror FAKE@1:X: forged line", "\\x0aerror FAKE@1:X: forged line"),
    ("\x1b[2J\x1b[31mred", "\\x1b[2J\\x1b[31mred"),
    ("abc\u202edcba", "abc\\u202edcba"),
    ("x\u2066y\u2069z", "x\\u2066y\\u2069z"),
    ("p\u200fq\u200er", "p\\u200fq\\u200er"),
    ("c1\u0085sep\u2028end", "c1\\u0085sep\\u2028end"),
    ("\r\ttab", "\\x0d\\x09tab"),
]
ENV = dict(os.environ, COLUMNS="1000", NO_COLOR="1")


def observation(seq, tool, run_id="run1"):
    """A denied-call observation with no deny record: ASSAY-W004 names its tool."""
    return event(seq, "assay.proxy.observed",
                 {"schema": "assay.denied_call_observation.v0",
                  "caller_visible_error": {"code": -32042, "origin": "assay-proxy"},
                  "call": {"tool_name": tool, "target_digest": "sha256:aa"}}, run_id)


def events_with(text, run_id="run1"):
    return [observation(0, "fs" + text, run_id),
            event(1, "assay.net.access", {"hits": 1}, run_id, subject="host" + text + ":443")]


def lines(b):
    return b.decode("utf-8", "replace").split("\n")


benign = bundle_of(events_with(".write"))
base = bundle_of([event(0, "assay.profile.started", {"profile_name": "p", "profile_version": "1",
                                                     "total_runs_aggregated": 0}, "base")])
code, benign_lint, e = run(["evidence", "lint", benign], env=ENV)
check("lint: the benign bundle has a W004 finding", code == 0 and b"ASSAY-W004" in benign_lint, f"{code} {e!r}")
code, benign_show, e = run(["evidence", "show", benign], env=ENV)
check("show: the benign bundle", code == 0, e)
code, benign_diff, e = run(["evidence", "diff", base, benign], env=ENV)
check("diff: the benign bundle", code == 0, e)

for raw, shown in HOSTILE:
    b = bundle_of(events_with(raw))
    # lint: the one W004 line, escaped; as many lines as for the benign bundle.
    code, o, e = run(["evidence", "lint", b], env=ENV)
    want = (f"warning ASSAY-W004 at events.ndjson:1 (seq 0, assay.proxy.observed): Denied-call observation for "
            f"'fs{shown}' is not backed by a digest-bound assay.enforcement_decision.v0 deny record  "
            f"[--explain ASSAY-W004]")
    got = [l for l in lines(o) if "W004" in l]
    check(f"lint text {shown!r}: the escaped line", code == 0 and got == [want], f"{code} {got!r} {e!r}")
    check(f"lint text {shown!r}: no extra line", len(lines(o)) == len(lines(benign_lint)) and
          not any(l.startswith("error FAKE") for l in lines(o)), repr(o))
    check(f"lint text {shown!r}: nothing raw", all(c not in o.decode("utf-8", "replace") for c in "\x1b\r\t\u202e\u2066\u200f\u0085\u2028"),
          repr(o))
    # lint --explain: the finding's message on its one line.
    code, o, e = run(["evidence", "lint", b, "--explain", "ASSAY-W004"], env=ENV)
    got = [l for l in lines(o) if l.startswith("  finding:")]
    check(f"lint --explain {shown!r}", code == 0 and got == [
        f"  finding: Denied-call observation for 'fs{shown}' is not backed by a digest-bound "
        f"assay.enforcement_decision.v0 deny record (events.ndjson:1)"], f"{code} {o!r} {e!r}")
    # show: the row of the event with the subject.
    code, o, e = run(["evidence", "show", b], env=ENV)
    got = [l for l in lines(o) if "assay.net.access" in l]
    check(f"show {shown!r}: the escaped row", code == 0 and
          got == [f"  1  2026-01-01T00:00:01Z  assay.net.access      host{shown}:443"], f"{code} {got!r} {e!r}")
    check(f"show {shown!r}: no extra line", len(lines(o)) == len(lines(benign_show)), repr(o))
    # diff: the added network subject and the new tool, escaped, each on its line.
    code, o, e = run(["evidence", "diff", base, b], env=ENV)
    check(f"diff {shown!r}: the escaped lines", code == 0 and f"  + host{shown}:443" in lines(o) and
          len(lines(o)) == len(lines(benign_diff)), f"{code} {o!r} {e!r}")

# Invalid UTF-8: an archive member's name, seen by show --no-verify.
with tarfile.open(benign, "r:gz") as t:
    members = [(m, t.extractfile(m).read()) for m in t.getmembers()]
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT, encoding="utf-8",
                  errors="surrogateescape") as t:
    for m, data in members:
        t.addfile(m, io.BytesIO(data))
    extra = tarfile.TarInfo(b"x\xff\x1b[31m.txt".decode("utf-8", "surrogateescape"))
    extra.size = 1
    t.addfile(extra, io.BytesIO(b"x"))
odd = tmpfile(gzip.compress(buf.getvalue()))
code, o, e = run(["evidence", "show", "--no-verify", odd], env=ENV)
got = [l for l in lines(o) if l.startswith("unreadable")]
check("show --no-verify: an invalid UTF-8 member name escaped", code == 0 and
      got == ["unreadable archive member x\\xff\\x1b[31m.txt: not read (not a member of a bundle)"],
      f"{code} {o!r} {e!r}")

# --- all or nothing -----------------------------------------------------------------------------
work = tempfile.mkdtemp()
a_dir = os.path.join(work, "a-directory")
os.mkdir(a_dir)
missing = os.path.join(work, "no-such-dir", "x.json")


def attempt(name, args, targets, bad):
    """Runs args with every target in `targets` absent, then present with old bytes: exit 3 naming
    `bad`, and each target as it was; nothing else left in the directory."""
    for old in (None, b"old bytes\n"):
        for x in os.listdir(work):
            if x != "a-directory":
                os.remove(os.path.join(work, x))
        for t in targets:
            if old is not None:
                open(t, "wb").write(old)
        code, o, e = run(args, env=ENV)
        check(f"{name} ({'over old files' if old else 'no files before'}): exit 3 naming {os.path.basename(bad)}",
              code == 3 and e.startswith(b"assay ") and bad.encode() in e and e.count(b"\n") == 1, f"{code} {e!r}")
        for t in targets:
            now = open(t, "rb").read() if os.path.exists(t) else None
            check(f"{name}: {os.path.basename(t)} unchanged", now == old, repr(now))
        left = sorted(os.listdir(work))
        check(f"{name}: no temporary left", left == sorted(["a-directory"] + ([os.path.basename(t) for t in targets]
                                                                              if old else [])), repr(left))


spans, report = os.path.join(work, "s.jsonl"), os.path.join(work, "r.json")
attempt("export-otel --out s.jsonl --report DIR", ["evidence", "export-otel", benign, "--out", spans, "--report", a_dir],
        [spans], a_dir)
attempt("export-otel --out DIR --report r.json", ["evidence", "export-otel", benign, "--out", a_dir, "--report", report],
        [report], a_dir)
attempt("export-otel --out s.jsonl --report MISSING",
        ["evidence", "export-otel", benign, "--out", spans, "--report", missing], [spans], missing)
sarif = os.path.join(work, "s.sarif")
attempt("lint --report r.json --sarif DIR", ["evidence", "lint", benign, "--report", report, "--sarif", a_dir],
        [report], a_dir)
attempt("lint --report DIR --sarif s.sarif", ["evidence", "lint", benign, "--report", a_dir, "--sarif", sarif],
        [sarif], a_dir)
attempt("lint --report r.json --sarif MISSING", ["evidence", "lint", benign, "--report", report, "--sarif", missing],
        [report], missing)

# Both writable: both written, whole, and nothing else.
for x in os.listdir(work):
    if x != "a-directory":
        os.remove(os.path.join(work, x))
code, o, e = run(["evidence", "export-otel", benign, "--out", spans, "--report", report], env=ENV)
check("export-otel: both written", code == 0 and open(spans, "rb").read().count(b"\n") >= 1 and
      open(report, "rb").read().startswith(b'{"') and sorted(os.listdir(work)) == ["a-directory", "r.json", "s.jsonl"],
      f"{code} {e!r} {os.listdir(work)!r}")
os.remove(spans)
code, o, e = run(["evidence", "lint", benign, "--report", report, "--sarif", sarif], env=ENV)
check("lint: both written", code == 0 and b'"schema_version"' in open(report, "rb").read() and
      b'"version":"2.1.0"' in open(sarif, "rb").read() and
      sorted(os.listdir(work)) == ["a-directory", "r.json", "s.sarif"], f"{code} {e!r} {os.listdir(work)!r}")

finish()
