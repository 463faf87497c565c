#!/usr/bin/env python3
"""`assay evidence export-otel` in flat memory (issue 42 item 18): the spans and the report's
dropped attributes wait in an unnamed spill file, not in memory, so the peak RSS of an export of
10N events stays within a fixed margin of that of N events — for `--out FILE` and `--out -` alike.
Each event is an assay.tool.call whose arguments hold a home-directory path, kept by `evidence
record --keep-sensitive`: the export generalizes it, so every event also adds a dropped attribute.
The only memory that may grow with the bundle is the bundle itself, which the pass maps: its size
difference is added to the margin. Peak memory is the ru_maxrss of the export, run from a fresh
interpreter.

usage: otel_memory_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from clitest import ASSAY, check, finish, run

SANITIZED = os.environ.get("ASSAY_SANITIZE", "none") not in ("", "none")
# Under the sanitizers the memory bound is not asserted (below) and a run is some 15 times slower:
# a tenth of the events checks the rest of what the export writes within the test's timeout.
N = 500 if SANITIZED else 5000
MARGIN_KIB = 4 * 1024
SPANS_PER_LINE = 512
work = tempfile.mkdtemp()


def bundle(n):
    """A bundle of one run of n tool calls, recorded by `evidence record`; its path."""
    events = os.path.join(work, f"events-{n}.ndjson")
    with open(events, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({"type": "assay.tool.call",
                                "data": {"tool": "read_file", "call_id": f"c{i}",
                                         "arguments": {"path": f"/home/alice/src/file_{i}.py", "mode": "r"}}}) + "\n")
    out = os.path.join(work, f"bundle-{n}.tar.gz")
    code, _, err = run(["evidence", "record", events, "--out", out, "--run-id", "r1", "--keep-sensitive"])
    if code != 0:
        raise RuntimeError(f"evidence record failed: {err!r}")
    return out


# Measures in a fresh interpreter: a child's ru_maxrss counts what its parent held when it forked
# (before the exec), so the child of this process, which holds the outputs it read, would not do.
MEASURE = ("import os,resource,subprocess,sys\n"
           "with open(sys.argv[1], 'wb') as o, open(sys.argv[2], 'wb') as e:\n"
           "    code = subprocess.run(sys.argv[3:], stdout=o, stderr=e).returncode\n"
           "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def measured(args, stdout_path):
    """(exit code, stderr, peak RSS in KiB) of `assay ARGS`, its stdout to `stdout_path`."""
    err = os.path.join(work, "stderr")
    out = subprocess.run([sys.executable, "-c", MEASURE, stdout_path, err, ASSAY] + args, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), open(err, "rb").read(), int(out[1])


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def export(b, n, to_stdout=False):
    """Exports bundle b of n events (to its own directory); checks what it wrote; the peak RSS."""
    d = os.path.join(work, f"out-{n}-{'stdout' if to_stdout else 'file'}")
    os.mkdir(d)
    spans, report, summary = os.path.join(d, "spans.jsonl"), os.path.join(d, "report.json"), os.path.join(work, "o")
    if to_stdout:
        spans = os.path.join(work, f"stdout-{n}")
    code, err, peak = measured(["evidence", "export-otel", b, "--out", "-" if to_stdout else spans,
                                "--report", report], spans if to_stdout else summary)
    name = f"{n} events{' to stdout' if to_stdout else ''}"
    check(f"export of {name} exits 0", code == 0, err)
    with open(report, "rb") as f:
        r = json.loads(f.read())
    line_count = 0
    with open(spans, "rb") as f:
        for line in f:
            line_count += 1
            if line_count == 1:
                first = json.loads(line)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    check(f"{name}: spans_written is every event and the root", r["spans_written"] == n + 1, r["spans_written"])
    check(f"{name}: lines of {SPANS_PER_LINE} spans", line_count == -(-(n + 1) // SPANS_PER_LINE), line_count)
    check(f"{name}: the root first", first[0]["name"] == "assay.run" and first[1]["name"] == "execute_tool read_file")
    dropped = r["mapping_loss"]["dropped_attributes"]
    check(f"{name}: a dropped attribute per event", r["mapping_loss"]["totals"]["dropped_attributes"] == n and
          len(dropped) == n and dropped[-1] == {"event_id": f"r1:{n - 1}", "member": "/data/arguments/path",
                                               "reason": "sensitive"}, dropped[-1:])
    check(f"{name}: nothing else in the output directory", sorted(os.listdir(d)) ==
          (["report.json"] if to_stdout else ["report.json", "spans.jsonl"]), os.listdir(d))
    return peak, digest(spans), digest(report)


small, big = bundle(N), bundle(10 * N)
grows_kib = (os.path.getsize(big) - os.path.getsize(small)) // 1024
peak_small, spans_small, report_small = export(small, N)
peak_big, _, _ = export(big, 10 * N)
peak_big_stdout, spans_big_stdout, _ = export(big, 10 * N, to_stdout=True)
_, spans_small_stdout, report_small_stdout = export(small, N, to_stdout=True)
print(f"peak RSS: {peak_small} KiB for {N} events, {peak_big} KiB for {10 * N} ({peak_big_stdout} KiB to stdout); "
      f"the bundle grows by {grows_kib} KiB")
bound = peak_small + MARGIN_KIB + grows_kib
if not SANITIZED:
    check(f"the peak for {10 * N} events is within {MARGIN_KIB} KiB (and the bundle's growth) of that for {N}",
          peak_big < bound, f"{peak_big} KiB >= {bound} KiB")
    check(f"the same to standard output", peak_big_stdout < bound, f"{peak_big_stdout} KiB >= {bound} KiB")
else:  # AddressSanitizer's quarantine keeps freed memory resident: the bound is the plain builds'
    print("memory bound not asserted under the sanitizers (checked by the plain builds)")
check("--out - writes the same lines and report as --out FILE",
      spans_small_stdout == spans_small and report_small_stdout == report_small)
shutil.rmtree(work)  # some 150 MB of bundles and spans
finish()
