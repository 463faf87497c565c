"""The manual page assay(1) (examples/assay/manpage.py, built beside the binary, installed in
man1): groff reads it without a warning; it has the sections a manual page has; every command of
the tree, found here independently from the --help texts, has its subsection, with its usage line
and every option its --help lists; and the generator fails cleanly, writing nothing, when the
binary's help cannot be read.

Run as `manpage_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1) ASSAY.1`.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ASSAY, ROOT, check, finish, help_items, run  # noqa: E402

PAGE = os.path.abspath(sys.argv[5])
GENERATOR = os.path.join(ROOT, "examples", "assay", "manpage.py")
work = tempfile.mkdtemp()


def usage(args):
    code, out, err = run(list(args) + ["--help"], env=dict(os.environ, COLUMNS="200"))
    m = re.search(r"^Usage: (.*)$", out.decode(), re.M)
    return m.group(1).strip().replace(ASSAY, "assay", 1) if m else ""


groff = shutil.which("groff")
check("groff is there to read the page", groff is not None)
source = open(PAGE, encoding="utf-8").read()
check("the page starts with its title line", source.startswith('.TH ASSAY 1 '), source[:80])
if groff:
    r = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", PAGE], capture_output=True, timeout=60)
    check("groff -ww: no warning, no error", r.returncode == 0 and r.stderr == b"", r.stderr.decode()[:2000])
    r = subprocess.run([groff, "-man", "-Tutf8", "-P-cbou", PAGE], capture_output=True, timeout=60,
                       env=dict(os.environ, MANWIDTH="200"))
    text = r.stdout.decode()
    flat = re.sub(r"\s+", " ", text)  # lines filled by groff: compare words, not line breaks
    check("groff renders it", r.returncode == 0 and len(text) > 1000, r.stderr.decode()[:500])
    for heading in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "ENVIRONMENT",
                    "EXAMPLES", "SEE ALSO"):
        check(f"section {heading}", re.search(rf"^{heading}$", text, re.M) is not None)
    for code in ("0", "1", "2", "3"):
        check(f"exit status {code} explained", re.search(rf"^ +{code}\s+\S", text, re.M) is not None)

    # Every command, walked from the top as the help lists them, with its usage and options.
    commands, todo = [], [[]]
    while todo:
        path = todo.pop(0)
        for name in help_items(path, "Subcommands"):
            commands.append(path + [name])
            todo.append(path + [name])
    check("the tree has its verbs", ["evidence", "verify"] in commands and ["sim", "soak"] in commands,
          repr(commands[:10]))
    options_seen = 0
    for path in commands:
        title = "assay " + " ".join(path)
        check(f"{title}: a subsection", re.search(rf"^ +{re.escape(title)}$", text, re.M) is not None)
        if help_items(path, "Subcommands"):
            continue  # a group: its verbs have the detail
        u = usage(path)
        check(f"{title}: its usage line", u != "" and re.sub(r"\s+", " ", u) in flat, u)
        for opt in help_items(path, "Options") + help_items(path, "Positionals"):
            if opt.startswith("-h,"):
                continue
            options_seen += 1
            check(f"{title}: {opt}", opt in flat, opt)
    check("options were looked for", options_seen > 100, str(options_seen))

# The examples name real commands and options; no path of the machine that built the page.
check("the binary's path is not in the page", ASSAY not in source and os.path.dirname(ASSAY) not in source)
examples = source.replace("\\-", "-").split(".SH EXAMPLES\n", 1)[-1].split("\n.SH", 1)[0]
check("examples: there are some", examples.count("\nassay ") >= 4, examples)
for line in re.findall(r"^assay .*$", examples, re.M):
    words = shlex.split(line.split("<")[0])
    path = [w for w in words[1:3] if not w.startswith("-")]
    opts = [w for w in words if w.startswith("--")]
    known = help_items(path, "Options")
    check(f"example {line!r}: its options exist", all(any(o in k.split(",") or k.endswith(o) for k in known)
                                                      for o in opts), repr(known))

# The generator on a binary whose help fails: exit 1, a message, nothing written.
broken = os.path.join(work, "broken")
with open(broken, "w") as f:
    f.write("#!/bin/sh\necho 'no help here' >&2\nexit 4\n")
os.chmod(broken, 0o755)
out = os.path.join(work, "x.1")
r = subprocess.run([sys.executable, GENERATOR, broken, out], capture_output=True, timeout=60)
check("generator: a binary without help is an error, exit 1", r.returncode == 1 and
      b"manpage.py: assay --help: exit 4: no help here" in r.stderr, r.stderr)
check("generator: nothing written", not os.path.exists(out) and not os.path.exists(out + ".tmp"))
r = subprocess.run([sys.executable, GENERATOR, ASSAY, out], capture_output=True, timeout=120)
check("generator: the same page again, byte for byte", r.returncode == 0 and open(out).read() == source,
      r.stderr)
finish()
