"""Bash completion (examples/assay/completion.bash, installed as share/bash-completion/completions/
assay): at every level of the command tree, an empty word completes to exactly the subcommands the
level's --help lists (read here independently), a prefix narrows them, `--` lists the verb's long
options, a value after an option with listed values (`--format TEXT:{table,json}`) completes to
those values, and after an option that takes a file, or at a verb's positionals, file names.

Run as `completion_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)`.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ASSAY, ROOT, check, finish, help_items, run  # noqa: E402

SCRIPT = os.path.join(ROOT, "examples", "assay", "completion.bash")
BASH = shutil.which("bash")
work = tempfile.mkdtemp()
os.makedirs(os.path.join(work, "packs"))
for name in ("a.tar.gz", "a.json", "b.yaml"):
    open(os.path.join(work, name), "w").close()


def complete(*words):
    """COMPREPLY for the command line ASSAY words… with the cursor on the last word, sorted."""
    line = " ".join("'" + w.replace("'", "'\\''") + "'" for w in (ASSAY,) + words)
    program = (f"source '{SCRIPT}'; COMP_WORDS=({line}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); "
               "COMPREPLY=(); _assay; printf '%s\\n' \"${COMPREPLY[@]}\"")
    r = subprocess.run([BASH, "--norc", "-c", program], cwd=work, capture_output=True, timeout=60)
    check(f"complete {' '.join(words)!r} runs", r.returncode == 0, r.stderr.decode())
    return sorted(w for w in r.stdout.decode().split("\n") if w)


def listed(args, section):
    """The names the --help of `assay args…` lists under `section`, long forms, sorted."""
    return sorted(name.split(",")[-1] for name in help_items(args, section))


# Every group, and every verb of every group: the subcommands of each level.
groups = listed([], "Subcommands")
check("the top level lists its groups", "evidence" in groups and "sim" in groups, repr(groups))
check("'' at the top completes to every group", complete("") == groups, repr(complete("")))
verbs_seen = 0
for g in groups:
    subs = listed([g], "Subcommands")
    if subs:
        check(f"'{g} ' completes to its verbs", complete(g, "") == subs, f"{complete(g, '')} != {subs}")
    for v in subs or [None]:
        path = [g] + ([v] if v else [])
        options = listed(path, "Options")
        check(f"'{' '.join(path)} --' completes to its options",
              complete(*path, "--") == sorted(o for o in options if o.startswith("--")),
              f"{complete(*path, '--')} != {options}")
        verbs_seen += 1
check("every verb was looked at", verbs_seen >= 20, str(verbs_seen))

# Prefixes narrow.
check("'ev' completes to evidence", complete("ev") == ["evidence"], repr(complete("ev")))
check("'evidence ver' completes to verify and verify-attestation",
      complete("evidence", "ver") == ["verify", "verify-attestation"], repr(complete("evidence", "ver")))
check("'evidence lint --fa' completes to --fail-on", complete("evidence", "lint", "--fa") == ["--fail-on"],
      repr(complete("evidence", "lint", "--fa")))
# Listed values, then files.
check("'evidence show --format ' completes to table and json",
      complete("evidence", "show", "--format", "") == ["json", "table"],
      repr(complete("evidence", "show", "--format", "")))
check("'evidence show --format j' completes to json", complete("evidence", "show", "--format", "j") == ["json"],
      repr(complete("evidence", "show", "--format", "j")))
check("'evidence lint --pack ' completes to files", complete("evidence", "lint", "--pack", "") ==
      ["a.json", "a.tar.gz", "b.yaml", "packs"], repr(complete("evidence", "lint", "--pack", "")))
check("'evidence verify a' completes to the files that begin so (the bundle)",
      complete("evidence", "verify", "a") == ["a.json", "a.tar.gz"], repr(complete("evidence", "verify", "a")))
check("a flag takes no value: 'evidence show --no-verify ' completes to files",
      complete("evidence", "show", "--no-verify", "") == ["a.json", "a.tar.gz", "b.yaml", "packs"],
      repr(complete("evidence", "show", "--no-verify", "")))

# Installed where bash-completion looks for it.
with open(os.path.join(ROOT, "examples", "meson.build")) as f:
    meson = f.read()
check("meson installs it as share/bash-completion/completions/assay",
      "completion.bash" in meson and "bash-completion" in meson and "rename : 'assay'" in meson)

shutil.rmtree(work)
finish()
