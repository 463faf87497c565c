#!/usr/bin/env python3
"""Evidence bundle benchmark (issue: bundles). Ratios against baselines measured in the same run.

  verify  `assay evidence verify B`      vs  `gzip -dc B | sha256sum`   (inflate + one hash pass)
  write   `assay evidence bundle ...`    vs  `gzip -9` of the same events bytes
  memory  peak RSS (the least of --repeat runs) of verify, of `evidence show` (table and JSON) and
          of `evidence export-otel`, on a bundle and on one 50x larger

With --pigz, only the two rows of bench/speed_table.sh, against pigz (runs alternate, least
wall time of --repeat runs each; peak RSS of each side):
  verify  `assay evidence verify B`      vs  `pigz -dc B > /dev/null`   (zlib inflate alone)
  bundle  `assay evidence bundle ...`    vs  `pigz -9 -p2` of B's own tar, decompressed
and one machine-readable line per row: ROW name assay_s baseline_s ratio assay_rss_kib base_rss_kib

usage: bench/bundle_bench.py [ASSAY_BINARY] [--events N] [--repeat K] [--pigz]
"""
import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time


def make_events(path, n, seed=11):
    rnd = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(n):
            # An assay.tool.call: the writer holds it to its contract (SPEC §8), as it would any
            # known payload; its free-form arguments carry the bulk.
            data = {
                "tool": rnd.choice(["read_file", "write_file", "shell_exec", "http_get"]),
                "call_id": "call-%d" % i,
                "arguments": {"path": "/workspace/src/module_%d/file_%d.py" % (i % 97, i), "mode": "r",
                              "bytes": rnd.randint(0, 10**7), "ratio": rnd.random(),
                              "decision": rnd.choice(["allow", "deny"]),
                              "reason_code": "P_%06d" % rnd.randint(0, 999999),
                              "policy_digest": "sha256:" + hashlib.sha256(str(i).encode()).hexdigest(),
                              "note": "event %d: " % i + "x" * rnd.randint(20, 200),
                              "tags": ["a", "b", "\u00e9"]},
            }
            ev = {"specversion": "1.0", "type": "assay.tool.call", "source": "urn:assay:bench",
                  "id": "run-bench:%d" % i, "time": "2026-01-01T00:00:%02d.%03dZ" % (i % 60, 1 + i % 999),
                  "datacontenttype": "application/json", "assayrunid": "run-bench", "assayseq": i,
                  "assayproducer": "bench", "assayproducerversion": "1.0.0", "assaygit": "unknown",
                  "assaypii": False, "assaysecrets": False, "data": data}
            out.write(json.dumps(ev) + "\n")


def timed(cmd, repeat, shell=False):
    """Best wall time of `repeat` runs, and the peak RSS (KiB) of the children."""
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, shell=shell, check=True, stdout=subprocess.DEVNULL)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def timed_pair(a, b, repeat):
    """Least wall times of shell commands a and b, run alternately `repeat` times each."""
    best = [None, None]
    for r in range(repeat):
        for k in ((0, 1) if r % 2 == 0 else (1, 0)):
            t0 = time.perf_counter()
            subprocess.run((a, b)[k], shell=True, check=True, stdout=subprocess.DEVNULL)
            dt = time.perf_counter() - t0
            best[k] = dt if best[k] is None else min(best[k], dt)
    return best


def pigz_rows(a, d, ev, b):
    """The verify and bundle rows of bench/speed_table.sh, against pigz."""
    tar = os.path.join(d, "bundle.tar")
    subprocess.run(f"pigz -dc {b} > {tar}", shell=True, check=True)
    out = os.path.join(d, "again.tar.gz")
    rows = [("verify", f"{a.assay} evidence verify {b}", f"pigz -dc {b}",
             [a.assay, "evidence", "verify", b], ["pigz", "-dc", b]),
            ("bundle", f"{a.assay} evidence bundle --events {ev} --out {out}", f"pigz -9 -p2 -c {tar}",
             [a.assay, "evidence", "bundle", "--events", ev, "--out", out], ["pigz", "-9", "-p2", "-c", tar])]
    print(f"events: {a.events}, bundle {os.path.getsize(b) / 1e6:.1f} MB, tar {os.path.getsize(tar) / 1e6:.1f} MB")
    for name, cmd, base, cmd_argv, base_argv in rows:
        t, t_base = timed_pair(cmd, base, a.repeat)
        rss, rss_base = peak_rss_kib(cmd_argv, 1), peak_rss_kib(base_argv, 1)
        print(f"{name:7s} assay {t * 1000:7.0f} ms  {base.split(' ' + d)[0]:12s} {t_base * 1000:7.0f} ms  "
              f"ratio {t / t_base:5.2f}x  peak RSS {rss / 1024:.1f} MiB (pigz {rss_base / 1024:.1f} MiB)")
        print(f"ROW {name} {t:.4f} {t_base:.4f} {t / t_base:.3f} {rss} {rss_base}")


def peak_rss_kib(cmd, repeat=1):
    """The least peak RSS of `repeat` runs of cmd, each measured in a fresh child process."""
    code = ("import resource,subprocess,sys;subprocess.run(sys.argv[1:],check=True,stdout=subprocess.DEVNULL);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    return min(int(subprocess.run([sys.executable, "-c", code] + cmd, check=True, capture_output=True,
                                  text=True).stdout.strip()) for _ in range(repeat))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("assay", nargs="?", default="build/examples/assay")
    ap.add_argument("--events", type=int, default=90000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pigz", action="store_true", help="only the rows against pigz (bench/speed_table.sh)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        ev = os.path.join(d, "events.ndjson")
        b = os.path.join(d, "bundle.tar.gz")
        make_events(ev, a.events)
        subprocess.run([a.assay, "evidence", "bundle", "--events", ev, "--out", b], check=True)
        if a.pigz:
            pigz_rows(a, d, ev, b)
            return
        canon = os.path.join(d, "events.canon")
        subprocess.run(f"tar -xzOf {b} events.ndjson > {canon}", shell=True, check=True)
        mb = os.path.getsize(canon) / 1e6

        t_verify = timed([a.assay, "evidence", "verify", b], a.repeat)
        t_floor = timed(f"gzip -dc {b} | sha256sum", a.repeat, shell=True)
        t_write = timed([a.assay, "evidence", "bundle", "--events", ev, "--out", b], a.repeat)
        t_gzip = timed(f"gzip -9 -c {canon}", a.repeat, shell=True)

        small_ev = os.path.join(d, "small.ndjson")
        small_b = os.path.join(d, "small.tar.gz")
        make_events(small_ev, max(1, a.events // 50))
        subprocess.run([a.assay, "evidence", "bundle", "--events", small_ev, "--out", small_b], check=True)
        rss_small = peak_rss_kib([a.assay, "evidence", "verify", small_b], a.repeat)
        rss_big = peak_rss_kib([a.assay, "evidence", "verify", b], a.repeat)
        otel = [a.assay, "evidence", "export-otel", "--out", os.path.join(d, "spans.jsonl"), "--report",
                os.path.join(d, "otel.json")]
        rss_otel = (peak_rss_kib(otel + [small_b], a.repeat), peak_rss_kib(otel + [b], a.repeat))
        t_otel = timed(otel + [b], a.repeat)
        show = [a.assay, "evidence", "show", "--format"]
        show_rss = {fmt: (peak_rss_kib(show + [fmt, small_b], a.repeat), peak_rss_kib(show + [fmt, b], a.repeat))
                    for fmt in ("table", "json")}

        print(f"events: {a.events}, events.ndjson {mb:.1f} MB, bundle {os.path.getsize(b) / 1e6:.1f} MB")
        print(f"verify   {t_verify * 1000:8.0f} ms  ({a.events / t_verify:,.0f} events/s, {mb / t_verify:.0f} MB/s)")
        print(f"floor    {t_floor * 1000:8.0f} ms  gzip -dc | sha256sum")
        print(f"ratio    {t_verify / t_floor:8.2f}x  (goal <= 1.25x)")
        print(f"write    {t_write * 1000:8.0f} ms  ({a.events / t_write:,.0f} events/s, {mb / t_write:.0f} MB/s)")
        print(f"gzip -9  {t_gzip * 1000:8.0f} ms")
        print(f"ratio    {t_write / t_gzip:8.2f}x  (goal <= 1.2x)")
        print(f"peak RSS verify: {rss_small / 1024:.1f} MiB ({a.events // 50} events), "
              f"{rss_big / 1024:.1f} MiB ({a.events} events)")
        print(f"export-otel {t_otel * 1000:5.0f} ms; peak RSS {rss_otel[0] / 1024:.1f} MiB ({a.events // 50} events), "
              f"{rss_otel[1] / 1024:.1f} MiB ({a.events} events)")
        for fmt, (small, big) in show_rss.items():
            print(f"peak RSS show --format {fmt}: {small / 1024:.1f} MiB ({a.events // 50} events), "
                  f"{big / 1024:.1f} MiB ({a.events} events)")


if __name__ == "__main__":
    main()
