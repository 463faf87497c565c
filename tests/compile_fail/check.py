#!/usr/bin/env python3
"""Compile-fail test driver.

  check.py --list DIR            print the *.cpp files of DIR, one per line, sorted
  check.py ok FILE -- CXX ARGS   FILE must compile with CXX ARGS
  check.py fail FILE -- CXX ARGS FILE must fail to compile with CXX ARGS -DASSAY_COMPILE_FAIL,
                                 and the compiler's output must contain one of the substrings
                                 given in the file as `// expect-error: <substring>` lines
                                 (several lines are alternatives, e.g. one per compiler)

A file may also give `// expect-first-error: <substring>` lines: then the first line of the
compiler's output that reports an error must contain one of them (what a person reads first).

Each compile-fail file guards its bad line(s) with `#ifdef ASSAY_COMPILE_FAIL`, so the file
itself shows that everything else in it is fine, and the expected message shows that the
failure is the intended one, not some unrelated error.
"""
import os
import re
import subprocess
import sys

EXPECT = re.compile(r"^\s*//\s*expect-error:\s*(.+?)\s*$", re.MULTILINE)
EXPECT_FIRST = re.compile(r"^\s*//\s*expect-first-error:\s*(.+?)\s*$", re.MULTILINE)
ERROR_LINE = re.compile(r"\berror:")


def run(cmd):
    env = dict(os.environ, LC_ALL="C", LANG="C")  # plain ASCII quotes in diagnostics
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


def main(argv):
    if len(argv) == 3 and argv[1] == "--list":
        for name in sorted(os.listdir(argv[2])):
            if name.endswith(".cpp"):
                print(name)
        return 0
    if len(argv) < 5 or argv[1] not in ("ok", "fail") or argv[3] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    mode, source, compiler = argv[1], argv[2], argv[4:]
    with open(source, encoding="utf-8") as f:
        text = f.read()
    if "#ifdef ASSAY_COMPILE_FAIL" not in text:
        print(f"{source}: no '#ifdef ASSAY_COMPILE_FAIL' section", file=sys.stderr)
        return 1
    expected = EXPECT.findall(text)
    if mode == "ok":
        cmd = compiler + [source]
        code, out = run(cmd)
        if code != 0:
            print("$ " + " ".join(cmd))
            print(out)
            print(f"FAIL: {source} must compile without ASSAY_COMPILE_FAIL, but it does not")
            return 1
        print(f"ok: {source} compiles without ASSAY_COMPILE_FAIL")
        return 0
    if not expected:
        print(f"FAIL: {source} has no '// expect-error: <substring>' line naming the expected diagnostic")
        return 1
    cmd = compiler + ["-DASSAY_COMPILE_FAIL", source]
    code, out = run(cmd)
    if code == 0:
        print("$ " + " ".join(cmd))
        print(out)
        print(f"FAIL: {source} compiles with ASSAY_COMPILE_FAIL, but must not")
        return 1
    if not any(e in out for e in expected):
        print("$ " + " ".join(cmd))
        print(out)
        print(f"FAIL: {source} fails to compile, but not with the expected diagnostic; expected one of:")
        for e in expected:
            print(f"  {e}")
        return 1
    first_expected = EXPECT_FIRST.findall(text)
    if first_expected:
        first = next((line for line in out.splitlines() if ERROR_LINE.search(line)), "")
        if not any(e in first for e in first_expected):
            print("$ " + " ".join(cmd))
            print(out)
            print(f"FAIL: {source}: the first error line is not the expected one:\n  {first}\nexpected one of:")
            for e in first_expected:
                print(f"  {e}")
            return 1
    print(f"ok: {source} fails to compile with ASSAY_COMPILE_FAIL, as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
