#!/usr/bin/env python3
"""Counts test results from meson's testlog.json files and prints "N passed, N failed".

A doctest executable counts as many tests as its test cases (from its "[doctest] test cases:"
summary line), a script that prints its own "N passed, N failed" line counts those; any other
meson test counts as one. A test meson reports skipped (exit 77) with no such line counts as
neither: a check that did not run did not pass."""
import json
import os
import re
import sys

SUMMARY = re.compile(r"\[doctest\] test cases:\s*(\d+)\s*\|\s*(\d+) passed\s*\|\s*(\d+) failed")
PLAIN = re.compile(r"^()(\d+) passed, (\d+) failed", re.M)


def count(path):
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
                continue
            elif ok:
                passed += 1
            else:
                failed += 1
    return passed, failed


def main():
    total_p = total_f = 0
    for path in sys.argv[1:]:
        if not os.path.exists(path):
            continue
        p, f = count(path)
        total_p += p
        total_f += f
    print(f"{total_p} passed, {total_f} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
