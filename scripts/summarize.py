#!/usr/bin/env python3
"""Counts test results from meson's testlog.json files.

usage: summarize.py [--two] TESTLOG.json...

Prints one line per skipped test with its reason (the last line the test printed), then
"N passed, N failed, N skipped"; with --two, the last line is "N passed, N failed" and the skipped
count is on the line before it (for callers that read the last line alone).

A doctest executable counts as many tests as its test cases (from its "[doctest] test cases:"
summary line), a script that prints its own "N passed, N failed" line counts those; any other
meson test counts as one. A test meson reports skipped (exit 77) with no such line is counted as
skipped, never as passed: a check that did not run did not pass."""
import json
import os
import re
import sys

SUMMARY = re.compile(r"\[doctest\] test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed")
PLAIN = re.compile(r"^()(\d+) passed, (\d+) failed", re.M)


def skip_reason(t):
    """The last non-empty line a skipped test printed (stdout, then stderr), or a plain word."""
    for stream in (t.get("stdout") or "", t.get("stderr") or ""):
        lines = [ln.strip() for ln in stream.splitlines() if ln.strip()]
        if lines:  # the word "skipped" is already on the line printed
            return re.sub(r"(^SKIP:?\s*|:\s*skipped$)", "", lines[-1], flags=re.I) or lines[-1]
    return "no reason given"


def count(path, skipped):
    passed = failed = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            ok = t.get("result") in ("OK", "EXPECTEDFAIL", "SKIP")
            m = SUMMARY.search(t.get("stdout") or "") or PLAIN.search(t.get("stdout") or "")
            if m:
                p, fl = int(m.group(2)), int(m.group(3))
                if not ok and fl == 0:
                    fl = 1  # the executable failed outside its test cases (crash, sanitizer)
                passed += p
                failed += fl
            elif t.get("result") == "SKIP":
                skipped.append((t.get("name", "?"), skip_reason(t)))
            elif ok:
                passed += 1
            else:
                failed += 1
    return passed, failed


def main(argv):
    two = "--two" in argv
    paths = [a for a in argv if a != "--two"]
    total_p = total_f = 0
    skipped = []
    for path in paths:
        if not os.path.exists(path):
            continue
        p, f = count(path, skipped)
        total_p += p
        total_f += f
    for name, reason in skipped:
        print(f"skipped: {name}: {reason}")
    if two:
        print(f"{len(skipped)} skipped")
        print(f"{total_p} passed, {total_f} failed")
    else:
        print(f"{total_p} passed, {total_f} failed, {len(skipped)} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
