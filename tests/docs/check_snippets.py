#!/usr/bin/env python3
"""Compiles every C++ snippet of the README and docs/ (SPEC-independent: the docs' own promise).

  check_snippets.py SOURCE_ROOT [--no-yaml] -- COMPILER FLAGS...

Each ```cpp block becomes part of one translation unit per page: its #include lines at the top,
its declarations (struct, class, namespace, template, using, enum, static_assert, a function
definition) at namespace scope in a namespace of its own, its statements in a function there.
A block may be preceded by HTML comments that the page does not show:

  <!-- snippet-context: C++ text -->   code the block assumes (a variable it names, a type);
                                        it is placed like the block's own lines
  <!-- snippet: fragment -->           the block is not whole C++ (a member function, a
                                        placeholder "..."); it is listed, not compiled

Each page is compiled with -fsyntax-only and the flags given (warnings as errors, but for unused
names: snippets show a result without using it). Prints one line per page and the fragments
left out; exits 1 when a page does not compile, with the compiler's first diagnostics. With
--no-yaml (no libyaml in the build) a block that includes pack_yaml.hpp is left out too.

The README's snippets are also built into a program that runs each block in turn, linked with
the libraries given after `--libs`: it must exit 0 and print nothing (a snippet prints only when
something it shows went wrong).
"""

import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

DECL = re.compile(r"^(struct|class|namespace|template|using|enum|static_assert|typedef|union)\b"
                  r"|^[A-Za-z_][\w:<>, ]*[\s*&]+[A-Za-z_]\w*\s*\([^;]*\)\s*(const\s*)?\{?\s*$")


def blocks(path):
    """(line number, kind, code, context) for each ```cpp block of a page."""
    out = []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```cpp":
            start = i
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            code = lines[i + 1:j]
            context, kind = [], "code"
            k = start - 1
            while k >= 0 and lines[k].strip().startswith("<!--") and lines[k].strip().endswith("-->"):
                c = lines[k].strip()[4:-3].strip()
                if c == "snippet: fragment":
                    kind = "fragment"
                elif c.startswith("snippet-context:"):
                    context.insert(0, c[len("snippet-context:"):].strip())
                k -= 1
            out.append((start + 1, kind, code, context))
            i = j + 1
        else:
            i += 1
    return out


def split(code):
    """(includes, declarations, statements) of a snippet's lines."""
    includes, decls, stmts = [], [], []
    depth, into = 0, None
    for line in code:
        s = line.strip()
        if depth == 0:
            if s.startswith("#include"):
                includes.append(s)
                continue
            into = decls if DECL.match(s) else stmts
        (into if into is not None else stmts).append(line.replace("int main(", "int snippet_main("))
        depth += line.count("{") - line.count("}")
        if depth < 0:
            depth = 0
    return includes, decls, stmts


def unit(page, yaml):
    includes, body = [], []
    fragments = []
    for n, (line, kind, code, context) in enumerate(blocks(page)):
        if kind == "fragment":
            fragments.append((line, "a fragment"))
            continue
        if not yaml and any("pack_yaml.hpp" in c for c in context + code):
            fragments.append((line, "needs libyaml, which this build has not"))
            continue
        inc, decls, stmts = split(context + code)
        for i in inc:
            if i not in includes:
                includes.append(i)
        body.append(f"// {os.path.basename(page)}:{line}")
        body.append(f"namespace snippet_{n} {{")
        body.extend(decls)
        body.append("[[maybe_unused]] void run() {")
        body.extend(stmts)
        body.append("}")
        body.append(f"}}  // namespace snippet_{n}")
    if not body:
        return None, fragments
    runs = [f"  snippet_{n}::run();" for n in range(len(blocks(page)))
            if f"namespace snippet_{n} {{" in body]
    body.append("int main() {")
    body.extend(runs)
    body.append("  return 0;")
    body.append("}")
    prelude = ["#include <cstdio>", "#include <iostream>", "#include <map>", "#include <string>",
               "#include <string_view>", "#include <vector>"]
    return "\n".join(prelude + includes + body) + "\n", fragments


def main(argv):
    root = argv[1]
    yaml = "--no-yaml" not in argv[:argv.index("--")]
    rest = argv[argv.index("--") + 1:]
    compiler = rest[:rest.index("--libs")] if "--libs" in rest else rest
    libs = rest[rest.index("--libs") + 1:] if "--libs" in rest else []
    pages = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    work = tempfile.mkdtemp(prefix="assay-snippets-")
    jobs = []
    for page in pages:
        text, fragments = unit(page, yaml)
        rel = os.path.relpath(page, root)
        for line, why in fragments:
            print(f"{rel}:{line}: {why}, not compiled")
        if text is None:
            continue
        src = os.path.join(work, rel.replace("/", "_") + ".cpp")
        open(src, "w", encoding="utf-8").write(text)
        jobs.append((rel, src))

    def compile_one(job):
        rel, src = job
        flags = ["-fsyntax-only", "-Werror", "-Wno-unused-variable", "-Wno-unused-but-set-variable",
                 "-Wno-unused-function", "-Wno-unused-parameter", "-Wno-unused-local-typedefs"]
        r = subprocess.run(compiler + flags + [src], capture_output=True, text=True)
        return rel, src, r

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for rel, src, r in pool.map(compile_one, jobs):
            if r.returncode == 0:
                print(f"{rel}: its snippets compile")
            else:
                failed += 1
                print(f"{rel}: does not compile (as {src}):")
                print("\n".join(r.stderr.splitlines()[:25]))
    # The README's snippets, run.
    readme = next((src for rel, src in jobs if rel == "README.md"), None)
    if readme is not None:
        exe = os.path.join(work, "readme")
        r = subprocess.run(compiler + ["-O1", "-Wno-unused-variable", "-Wno-unused-but-set-variable", readme, "-o", exe]
                           + libs, capture_output=True, text=True)
        if r.returncode != 0:
            failed += 1
            print("README.md: its snippets do not link into a program:")
            print("\n".join(r.stderr.splitlines()[:25]))
        else:
            p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
            if p.returncode != 0 or p.stdout or p.stderr:
                failed += 1
                print(f"README.md: its snippets, run, exit {p.returncode} and print:\n{p.stdout}{p.stderr}")
            else:
                print("README.md: its snippets run (exit 0, nothing printed)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
