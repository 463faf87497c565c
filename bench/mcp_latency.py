#!/usr/bin/env python3
"""The latency `assay mcp wrap` adds to a tools/call round trip, and its memory over a long session.

  latency  one client sends a tools/call, waits for its response, sends the next; the same server
           (bench/mcp_echo_server.py) is called directly and through `assay mcp wrap --sync 64`
           (the journal forced to disk every 64 events; --sync to change it), the two alternating in one run, --repeat
           times. Per mode: the median and p99 of the round trips; added = wrapped - direct, at
           the median and at p99. Reported: min and median over the repeats.
  memory   (--million N) N calls through one gate, its resident set read from /proc at 1%, 10%,
           25%, 50%, 75% and 100% of the calls, and its peak (VmHWM) at the end; the session rolls
           over into numbered bundles past 100,000 events.

The journal and bundles go to --dir (default: a temporary directory; name a disk-backed one to
measure its syncs; the file system is printed). Every call is allowed by a policy with an allow
list and an argument schema (a pattern), so the decision does its whole work.

usage: bench/mcp_latency.py ASSAY_BINARY [--calls N] [--repeat K] [--million N] [--dir DIR] [--sync S]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = [sys.executable, os.path.join(HERE, "mcp_echo_server.py")]

POLICY = """version: "2.0"
name: bench
tools:
  allow: [echo]
schemas:
  echo:
    type: object
    properties:
      text: {type: string, pattern: "^[a-z ]+$", maxLength: 200}
    required: [text]
    additionalProperties: false
"""

CALL = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello bench"}}}\n'


class Session:
    """One MCP session over a child's stdin/stdout."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, bufsize=0)
        self.w = self.p.stdin
        self.r = self.p.stdout
        self.next_id = 1
        self.request('{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
                     '"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n')
        self.w.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.request('{"jsonrpc":"2.0","id":%d,"method":"tools/list"}\n')

    def request(self, template):
        i = self.next_id
        self.next_id += 1
        self.w.write((template % i).encode())
        line = self.r.readline()
        if not line:
            raise SystemExit("the session ended early (exit %s)" % self.p.poll())
        return line

    def calls(self, n):
        """n round trips; each one's seconds."""
        out = []
        clock = time.perf_counter
        for _ in range(n):
            t = clock()
            line = self.request(CALL)
            out.append(clock() - t)
            if b'"isError":true' in line or b'"error"' in line:
                raise SystemExit("a call was not answered with its result: %r" % line[:200])
        return out

    def close(self):
        self.w.close()
        rc = self.p.wait(timeout=300)
        if rc != 0:
            raise SystemExit("the session exited with status %d" % rc)


def quantile(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def rss_kib(pid, key="VmRSS"):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def fs_type(path):
    try:
        out = subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True).stdout.strip()
        return out or "unknown"
    except OSError:
        return "unknown"


SYNC = "64"


def wrap_argv(binary, d, tag):
    return [binary, "mcp", "wrap", "--policy", os.path.join(d, "policy.yaml"), "--sync", SYNC,
            "--bundle", os.path.join(d, tag + ".tar.gz"), "--label", "bench", "--"] + SERVER


def latency(binary, d, calls, repeat):
    rows = {"direct": [], "wrapped": []}
    for k in range(repeat):
        for mode in ("direct", "wrapped"):
            s = Session(SERVER if mode == "direct" else wrap_argv(binary, d, "lat%d" % k))
            s.calls(min(200, calls))  # warm-up: caches, the first journal pages
            xs = s.calls(calls)
            s.close()
            rows[mode].append((statistics.median(xs), quantile(xs, 0.99)))
    print("latency: %d calls per session, %d repeats, --sync %s, journal on %s (%s)" % (calls, repeat, SYNC, d, fs_type(d)))
    print("%-22s %12s %12s %12s %12s" % ("", "median min", "median med", "p99 min", "p99 med"))
    added = [(w[0] - r[0], w[1] - r[1]) for r, w in zip(rows["direct"], rows["wrapped"])]
    for name, xs in (("direct", rows["direct"]), ("wrapped", rows["wrapped"]), ("added by the gate", added)):
        med = [x[0] * 1e6 for x in xs]
        p99 = [x[1] * 1e6 for x in xs]
        print("%-22s %10.1f µs %10.1f µs %10.1f µs %10.1f µs" %
              (name, min(med), statistics.median(med), min(p99), statistics.median(p99)))
    print("ROW mcp_added_us median_min=%.1f median_med=%.1f p99_min=%.1f p99_med=%.1f" %
          (min(a[0] for a in added) * 1e6, statistics.median(a[0] for a in added) * 1e6,
           min(a[1] for a in added) * 1e6, statistics.median(a[1] for a in added) * 1e6))


def memory(binary, d, n):
    s = Session(wrap_argv(binary, d, "million"))
    marks = sorted({max(1, int(n * f)) for f in (0.01, 0.10, 0.25, 0.50, 0.75, 1.0)})
    done = 0
    samples = []
    start = time.monotonic()
    for m in marks:
        s.calls(m - done)
        done = m
        samples.append((done, rss_kib(s.p.pid)))
    peak = rss_kib(s.p.pid, "VmHWM")
    s.close()
    took = time.monotonic() - start
    parts = sorted(f for f in os.listdir(d) if f.startswith("million") and f.endswith(".tar.gz"))
    print("memory: %d calls through one gate in %.1f s, %d bundle(s)" % (n, took, len(parts)))
    for calls, kib in samples:
        print("  after %9d calls: resident %7.1f MiB" % (calls, kib / 1024))
    print("  peak (VmHWM): %.1f MiB; growth from the first sample to the last: %.1f MiB" %
          (peak / 1024, (samples[-1][1] - samples[0][1]) / 1024))
    print("ROW mcp_memory calls=%d first_kib=%d last_kib=%d peak_kib=%d" % (n, samples[0][1], samples[-1][1], peak))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--million", type=int, default=0, metavar="N")
    ap.add_argument("--dir")
    ap.add_argument("--sync", default="64", help="the wrap's --sync (default 64)")
    a = ap.parse_args()
    global SYNC
    SYNC = a.sync
    d = tempfile.mkdtemp(prefix="assay-mcp-bench.", dir=a.dir)
    try:
        with open(os.path.join(d, "policy.yaml"), "w") as f:
            f.write(POLICY)
        print("load average %s" % " ".join("%.2f" % x for x in os.getloadavg()))
        latency(a.binary, d, a.calls, a.repeat)
        if a.million:
            memory(a.binary, d, a.million)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
