#!/usr/bin/env python3
"""Checks on the public headers under include/assay.

  check_headers.py alone INCLUDE_DIR -- CXX FLAGS...   every header compiles on its own
  check_headers.py umbrella INCLUDE_DIR                assay/assay.hpp includes every public header
                                                       (none under a floor's detail/)
  check_headers.py lines INCLUDE_DIR [MAX]             no header is over MAX lines (900)
  check_headers.py separate INCLUDE_DIR                every `template <class = void>` is named
                                                       in its header's ASSAY_EXTERN_TEMPLATE block
  check_headers.py floors INCLUDE_DIR DOC [DIR...]     the floor table of DOC (architecture.md) is
                                                       complete and kept: each header is named in its
                                                       floor's row and includes only the floors that
                                                       row lists; no header reaches another floor's
                                                       detail:: or detail/ headers, and no source under
                                                       DIR any

`alone` compiles `#include "assay/<header>"` with -fsyntax-only for each header, a few at a
time, and lists every header that fails with its first diagnostics. assay/instantiate.hpp, the
one unit of a program built with separate compilation, is compiled as such (with
ASSAY_SEPARATE_COMPILATION defined): that checks each extern-template block against the
templates it names.
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
        defines = ["-DASSAY_SEPARATE_COMPILATION"] if h == INSTANTIATE else []
        r = subprocess.run(cmd + defines + ["-fsyntax-only", "-x", "c++", "-"], input='#include "%s"\n' % h, text=True,
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


INSTANTIATE = "assay/instantiate.hpp"  # compiled with ASSAY_SEPARATE_COMPILATION, never in the umbrella


def is_detail(header):
    """A floor's machinery: `assay/<floor>/detail/...`, reached only from its own floor."""
    return "/detail/" in header


def umbrella(include_dir):
    with open(os.path.join(include_dir, "assay", "assay.hpp")) as f:
        included = set(re.findall(r'^#include "([^"]+)"', f.read(), re.M))
    public = [h for h in headers(include_dir) if h not in ("assay/assay.hpp", INSTANTIATE) and not is_detail(h)]
    missing = [h for h in public if h not in included]
    for h in missing:
        print("assay/assay.hpp does not include " + h)
    machinery = sorted(h for h in included if is_detail(h))
    for h in machinery:
        print("assay/assay.hpp includes %s, a floor's machinery (its floor's headers include it)" % h)
    return 1 if missing or machinery else 0


def lines(include_dir, limit):
    over = 0
    for h in headers(include_dir):
        with open(os.path.join(include_dir, h), "rb") as f:
            n = f.read().count(b"\n")
        if n > limit:
            over += 1
            print("%s: %d lines, over the limit of %d" % (h, n, limit))
    return 1 if over else 0


def separate(include_dir):
    """Each lazy entry point (a template on an unused parameter) is named in its header's block."""
    missing = 0
    for h in headers(include_dir):
        with open(os.path.join(include_dir, h)) as f:
            text = f.read()
        names = re.findall(r"^ *template <class(?: \w+)? = void>[^\n]*\n(?:[^\n(]*?)\b(\w+)(?: \{|\()", text, re.M)
        block = text[text.find("#ifdef ASSAY_EXTERN_TEMPLATE"):] if "#ifdef ASSAY_EXTERN_TEMPLATE" in text else ""
        for name in names:
            if not re.search(r"\b%s<void>" % re.escape(name), block):
                missing += 1
                print("%s: %s is a template on an unused parameter but not in its ASSAY_EXTERN_TEMPLATE block" % (h, name))
        if names and '#include "assay/separate.hpp"' not in text:
            missing += 1
            print("%s: has an ASSAY_EXTERN_TEMPLATE block but does not include assay/separate.hpp" % h)
    return 1 if missing else 0


def floor_of(header):
    """`assay/json/reader.hpp` -> `json/`; `assay/error.hpp` -> `error.hpp`."""
    parts = header.split("/")
    return parts[1] + "/" if len(parts) > 2 else parts[1]


def floor_table(doc):
    """The rows of the table whose header is `| floor | holds | may include | ... |`: for each
    floor entry of the first column, (the row's entries, the names its second column holds, the
    floors its third column lists, whether that column says "every floor")."""
    rows = {}
    in_table = False
    with open(doc) as f:
        for line in f:
            if line.startswith("| floor | holds | may include |"):
                in_table = True
                continue
            if not in_table:
                continue
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3 or set(cells[0]) <= set("-"):
                continue
            entries = re.findall(r"`([^`]+)`", cells[0])
            holds = set(re.findall(r"`((?:detail/)?[\w.]+\.hpp)`", cells[1]))
            allowed = set(re.findall(r"`([\w.]+(?:/|\.hpp))`", cells[2]))
            row = (entries, holds, allowed | set(entries), cells[2] == "every floor")
            for e in entries:
                rows[e] = row
    return rows


NAMESPACE_FLOOR = {"json": "json/", "stats": "stats/", "reflect": "reflect/", "hash": "hash/",
                   "contracts": "contracts/", "evidence": "evidence/", "lint": "lint/", "closure": "closure/",
                   "soak": "soak/", "attest": "attest/", "inspect": "inspect/", "otel": "otel/",
                   "findings": "findings/"}


def floors(include_dir, doc, others):
    rows = floor_table(doc)
    bad = 0

    def fail(msg):
        nonlocal bad
        bad += 1
        print(msg)

    if not rows:
        fail("%s: no floor table (a line starting `| floor | holds | may include |`)" % doc)
        return 1
    for h in headers(include_dir):
        fl = floor_of(h)
        if fl not in rows:
            fail("%s: its floor %s has no row in the floor table" % (h, fl))
            continue
        entries, holds, allowed, everything = rows[fl]
        name = "/".join(h.split("/")[2:]) if fl.endswith("/") else h.split("/")[-1]
        if fl.endswith("/") and name not in holds:
            fail("%s: not named in the row of %s" % (h, fl))
        with open(os.path.join(include_dir, h)) as f:
            text = f.read()
        for inc in re.findall(r'^\s*#\s*include\s*[<"](assay/[^">]+)[">]', text, re.M):
            to = floor_of(inc)
            if not everything and to not in allowed:
                fail("%s includes %s: %s may not include %s" % (h, inc, fl, to))
            elif is_detail(inc) and to != fl:
                fail("%s includes %s, machinery of %s" % (h, inc, to))
        for ns in re.findall(r"\b(\w+)::detail::", text):
            if ns in NAMESPACE_FLOOR and NAMESPACE_FLOOR[ns] != fl:
                fail("%s reaches %s::detail::, private to %s" % (h, ns, NAMESPACE_FLOOR[ns]))
    for d in others:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith((".hpp", ".cpp")):
                    path = os.path.join(root, f)
                    with open(path) as src:
                        for n, line in enumerate(src, 1):
                            if re.search(r"\bdetail::", line):
                                fail("%s:%d: reaches a floor's detail::" % (os.path.relpath(path, d), n))
                            elif re.search(r'#\s*include\s*[<"]assay/[^">]*/detail/', line):
                                fail("%s:%d: includes a floor's detail/ header" % (os.path.relpath(path, d), n))
    return 1 if bad else 0


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    mode, include_dir = argv[1], argv[2]
    if mode == "alone" and "--" in argv:
        return alone(include_dir, argv[argv.index("--") + 1:])
    if mode == "umbrella":
        return umbrella(include_dir)
    if mode == "separate":
        return separate(include_dir)
    if mode == "floors" and len(argv) > 3:
        return floors(include_dir, argv[3], argv[4:])
    if mode == "lines":
        return lines(include_dir, int(argv[3]) if len(argv) > 3 else 900)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
