#!/usr/bin/env python3
"""The README, docs/ and what a user reads of the sources stand on their own: no citation of a
document a user of the checkout does not have (the project's specification, its design records,
material outside the repository), and every link to a file of the checkout leads somewhere.

  check_standalone.py SOURCE_ROOT

Scans README.md and docs/*.md (docs/reference.md too: its text comes from the contract types'
descriptions) and prints each line that cites such a document, or links to a file that does not
exist or to a heading its page does not have, as `file:line: text`; then the same citations in
the public headers (include/), the CLI's sources (its help texts and comments, examples/), the
build files and scripts, and each `docs/NAME.md` those name that does not exist. Exits 1 when
there is one. The normative documents a user has are the JSON Schemas under schemas/.
"""

import os
import re
import sys

CITATION = re.compile(r"\bSPEC\b|ADR-|DESIGN\.md|spec/schemas|shared material|seeds/")
DOC_NAMED = re.compile(r"\bdocs/([A-Za-z0-9_-]+\.md)")
SOURCE_DIRS = ["include", "examples", "scripts", "cmake", "schemas"]
SOURCE_FILES = ["meson.build", "meson_options.txt", "CMakeLists.txt"]
SOURCE_EXT = (".hpp", ".cpp", ".h", ".sh", ".bash", ".py", ".cmake", ".in", ".json", ".txt", ".build")
LINK = re.compile(r"\]\(([^()\s]+)\)")


def anchors(path):
    """The anchors a Markdown page's headings get (GitHub's rule), fenced code left out."""
    out, seen, fenced = set(), {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            slug = re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken(page, target):
    """Why a link of `page` to `target` leads nowhere, or None."""
    if re.match(r"[a-z]+:", target):
        return None
    path, _, anchor = target.partition("#")
    file = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    if not os.path.exists(file):
        return f"no file {path}"
    if anchor and file.endswith(".md") and anchor not in anchors(file):
        return f"no heading #{anchor} in {os.path.basename(file)}"
    return None


def pages(root):
    docs = os.path.join(root, "docs")
    return [os.path.join(root, "README.md")] + sorted(
        os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[1]
    hits = 0
    for page in pages(root):
        rel = os.path.relpath(page, root)
        fenced = False
        with open(page, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if CITATION.search(line):
                    hits += 1
                    print(f"{rel}:{n}: {line.rstrip()}")
                if line.startswith("```"):
                    fenced = not fenced
                if fenced:
                    continue
                for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                    why = broken(page, target)
                    if why:
                        hits += 1
                        print(f"{rel}:{n}: {why}: {line.rstrip()}")
    sources = []
    for d in SOURCE_DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            sources += [os.path.join(dirpath, f) for f in files if f.endswith(SOURCE_EXT) or f == "meson.build"]
    sources += [os.path.join(root, f) for f in SOURCE_FILES if os.path.exists(os.path.join(root, f))]
    for path in sorted(sources):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                if CITATION.search(line):
                    hits += 1
                    print(f"{rel}:{n}: {line.rstrip()}")
                for name in DOC_NAMED.findall(line):
                    if not os.path.exists(os.path.join(root, "docs", name)):
                        hits += 1
                        print(f"{rel}:{n}: no file docs/{name}: {line.rstrip()}")
    if hits:
        print(f"{hits} problem(s): say in words what a document outside the repository says, or link "
              f"to the page of docs/ or the schema under schemas/ that does; link to files and "
              f"headings that exist", file=sys.stderr)
        return 1
    print(f"{len(pages(root))} page(s) and {len(sources)} source file(s): no citation of a document outside the "
          f"repository, no broken link")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
