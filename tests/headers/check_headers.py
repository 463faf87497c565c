#!/usr/bin/env python3
"""Checks on the public headers under include/assay.

  check_headers.py alone INCLUDE_DIR -- CXX FLAGS...   every header compiles on its own
  check_headers.py umbrella INCLUDE_DIR                assay/assay.hpp includes every header
  check_headers.py lines INCLUDE_DIR [MAX]             no header is over MAX lines (900)

`alone` compiles `#include "assay/<header>"` with -fsyntax-only for each header, a few at a
time, and lists every header that fails with its first diagnostics.
"""

import concurrent.futures
import os
import re
import subprocess
import sys


def headers(include_dir):
    root = os.path.join(include_dir, "assay")
    found = []
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".hpp"):
                found.append(os.path.relpath(os.path.join(d, f), include_dir).replace(os.sep, "/"))
    return sorted(found)


def alone(include_dir, cmd):
    def compile_one(h):
        r = subprocess.run(cmd + ["-fsyntax-only", "-x", "c++", "-"], input='#include "%s"\n' % h, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return h, r.returncode, r.stdout

    jobs = int(os.environ.get("ASSAY_HEADER_JOBS", "0")) or min(4, os.cpu_count() or 1)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for h, rc, out in pool.map(compile_one, headers(include_dir)):
            if rc == 0:
                print("ok   " + h)
            else:
                failed += 1
                print("FAIL " + h)
                print("\n".join(out.splitlines()[:30]))
    return 1 if failed else 0


def umbrella(include_dir):
    with open(os.path.join(include_dir, "assay", "assay.hpp")) as f:
        included = set(re.findall(r'^#include "([^"]+)"', f.read(), re.M))
    missing = [h for h in headers(include_dir) if h != "assay/assay.hpp" and h not in included]
    for h in missing:
        print("assay/assay.hpp does not include " + h)
    return 1 if missing else 0


def lines(include_dir, limit):
    over = 0
    for h in headers(include_dir):
        with open(os.path.join(include_dir, h), "rb") as f:
            n = f.read().count(b"\n")
        if n > limit:
            over += 1
            print("%s: %d lines, over the limit of %d" % (h, n, limit))
    return 1 if over else 0


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    mode, include_dir = argv[1], argv[2]
    if mode == "alone" and "--" in argv:
        return alone(include_dir, argv[argv.index("--") + 1:])
    if mode == "umbrella":
        return umbrella(include_dir)
    if mode == "lines":
        return lines(include_dir, int(argv[3]) if len(argv) > 3 else 900)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
