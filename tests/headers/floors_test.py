#!/usr/bin/env python3
"""check_headers.py floors finds each kind of breach, exactly: on a small tree of headers and a
floor table written here, one clean run, then one breach at a time."""

import os
import subprocess
import sys
import tempfile

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_headers.py")

TABLE = """# floors

| floor | holds | may include | outside dependencies |
|---|---|---|---|
| `error.hpp` | the error | nothing of assay | std only |
| `json/` | `reader.hpp`, `detail/lex.hpp` | `error.hpp` | std only |
| `lint/` | `engine.hpp` | `json/`, `error.hpp` | - |

Text after the table.
"""


def run(files, cli=None):
    with tempfile.TemporaryDirectory() as d:
        inc = os.path.join(d, "include")
        for name, text in files.items():
            path = os.path.join(inc, "assay", name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        doc = os.path.join(d, "architecture.md")
        with open(doc, "w") as f:
            f.write(TABLE)
        args = [sys.executable, CHECK, "floors", inc, doc]
        if cli is not None:
            src = os.path.join(d, "cli")
            os.makedirs(src)
            with open(os.path.join(src, "verb.cpp"), "w") as f:
                f.write(cli)
            args.append(src)
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout


CLEAN = {
    "error.hpp": "#pragma once\n",
    "json/reader.hpp": '#pragma once\n#include "assay/error.hpp"\n#include "assay/json/detail/lex.hpp"\n'
                       'namespace assay::json::detail {}\n',
    "json/detail/lex.hpp": '#pragma once\n#include "assay/error.hpp"\n',
    "lint/engine.hpp": '#pragma once\n#include "assay/json/reader.hpp"\nnamespace assay::lint { int x; }\n',
}

failures = 0


def expect(name, files, code, out, cli=None):
    global failures
    got_code, got_out = run(files, cli)
    if (got_code, got_out) != (code, out):
        failures += 1
        print("FAIL %s: expected %d %r, got %d %r" % (name, code, out, got_code, got_out))
    else:
        print("ok   " + name)


expect("clean", CLEAN, 0, "")
expect("upward include", dict(CLEAN, **{"json/reader.hpp": '#include "assay/lint/engine.hpp"\n'}), 1,
       "assay/json/reader.hpp includes assay/lint/engine.hpp: json/ may not include lint/\n")
expect("header not in its row", dict(CLEAN, **{"json/value.hpp": "#pragma once\n"}), 1,
       "assay/json/value.hpp: not named in the row of json/\n")
expect("floor without a row", dict(CLEAN, **{"otel/exporter.hpp": "#pragma once\n"}), 1,
       "assay/otel/exporter.hpp: its floor otel/ has no row in the floor table\n")
expect("another floor's detail", dict(CLEAN, **{"lint/engine.hpp": "int y = json::detail::z;\n"}), 1,
       "assay/lint/engine.hpp reaches json::detail::, private to json/\n")
expect("machinery not in its row", dict(CLEAN, **{"json/detail/number.hpp": "#pragma once\n"}), 1,
       "assay/json/detail/number.hpp: not named in the row of json/\n")
expect("another floor's detail/ header", dict(CLEAN, **{"lint/engine.hpp": '#include "assay/json/detail/lex.hpp"\n'}), 1,
       "assay/lint/engine.hpp includes assay/json/detail/lex.hpp, machinery of json/\n")
expect("the CLI including a detail/ header", CLEAN, 1, "verb.cpp:1: includes a floor's detail/ header\n",
       cli='#include "assay/json/detail/lex.hpp"\nint main() { return 0; }\n')
expect("the CLI reaching detail", CLEAN, 1, "verb.cpp:2: reaches a floor's detail::\n",
       cli="int main() {\n  return assay::lint::detail::f();\n}\n")
sys.exit(1 if failures else 0)
