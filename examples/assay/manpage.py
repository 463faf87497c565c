#!/usr/bin/env python3
"""Writes the assay(1) manual page from the binary's own --help, so it is never out of step.

usage: manpage.py ASSAY_BINARY OUT.1

Every command is found by walking the "Subcommands:" lists of the --help texts, from `assay
--help` down; each command gets a subsection with its usage line, its description, and its
positionals and options as the binary prints them. Around them, the sections a manual page has:
exit status, environment, files, examples. Exits 1 when the binary's help cannot be read.
"""
import os
import re
import subprocess
import sys

SECTION = re.compile(r"^(Positionals|Options|Subcommands):\s*$")
ITEM = re.compile(r"^  (\S.*?)(?:\s{2,}(\S.*))?$")


def help_of(binary, path):
    p = subprocess.run([binary] + path + ["--help"], capture_output=True, timeout=60,
                       env=dict(os.environ, COLUMNS="200"))
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(['assay'] + path)} --help: exit {p.returncode}: {p.stderr.decode()[-300:]}")
    # CLI11 writes the program as it was invoked: the page names it `assay`
    return p.stdout.decode().replace("Usage: " + binary, "Usage: assay")


def parse(text):
    """(description lines, usage, {section: [(term, description)]}) of one --help text."""
    description, usage, sections, current = [], "", {}, None
    for line in text.splitlines():
        if line.startswith("Usage:"):
            usage = line[len("Usage:"):].strip()
            continue
        m = SECTION.match(line)
        if m:
            current = m.group(1)
            sections[current] = []
            continue
        if current is None:
            if line.strip():
                description.append(line.strip())
            continue
        if not line.strip():
            continue
        item = ITEM.match(line)
        if item and not line.startswith("    "):
            sections[current].append([item.group(1).strip(), (item.group(2) or "").strip()])
        elif sections[current]:  # a continuation of the item above
            last = sections[current][-1]
            last[1] = (last[1] + " " + line.strip()).strip()
    return description, usage, sections


def roff(text):
    """Text safe in a roff line: backslashes and leading dots or quotes escaped, dashes literal."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)  # groff's named Unicode
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def commands(binary):
    """[(path, parsed help)] of every command, depth first, in the order the help lists them."""
    out = []

    def walk(path):
        parsed = parse(help_of(binary, path))
        out.append((path, parsed))
        for name, _ in parsed[2].get("Subcommands", []):
            walk(path + [name.split()[0]])

    walk([])
    return out


def page(binary):
    cmds = commands(binary)
    top_description, _, top_sections = cmds[0][1]
    lines = [
        '.TH ASSAY 1 "" "assay" "User Commands"',
        ".SH NAME",
        "assay \\- " + roff(re.sub(r"^assay\W+", "", top_description[0]) if top_description
                             else "verifiable AI-agent evidence"),
        ".SH SYNOPSIS",
        ".B assay",
        ".I command",
        "[\\fIoptions\\fR] [\\fIarguments\\fR]",
        ".SH DESCRIPTION",
        roff("assay writes, verifies, lints and inspects evidence bundles of AI-agent runs, byte-compatible "
             "with the Rust assay tool; it runs soak (pass^k) campaigns, computes closure and findings, signs "
             "and verifies DSSE attestations and exports OpenTelemetry. Every command below prints its own "
             "help with --help. The guides are in the docs/ folder of the source tree (docs/cli.md first)."),
        ".SH COMMANDS",
    ]
    for path, (description, usage, sections) in cmds[1:]:
        if sections.get("Subcommands") and not sections.get("Positionals"):
            lines += [".SS " + roff("assay " + " ".join(path)), roff(" ".join(description))]
            continue
        lines += [".SS " + roff("assay " + " ".join(path))]
        if usage:
            lines += [".nf", roff(usage), ".fi"]
        if description:
            lines += [".PP", roff(" ".join(description))]
        for name in ("Positionals", "Options"):
            for term, text in sections.get(name, []):
                if term.startswith("-h,--help"):
                    continue
                lines += [".TP", ".B " + roff(term), roff(text) if text else ""]
    lines += [
        ".SH OPTIONS",
        "Each command takes the options listed under it above, and \\fB\\-h\\fR, \\fB\\-\\-help\\fR.",
        ".SH EXIT STATUS",
        ".TP", ".B 0", "Success, or the gate passed.",
        ".TP", ".B 1", "The input was processed and failed: a bundle that does not verify, findings at or above "
        "\\-\\-fail\\-on, a soak or closure gate that failed, an invalid document.",
        ".TP", ".B 2", "A usage error, or input that is not what it should be (not JSON, the wrong contract).",
        ".TP", ".B 3", "An I/O error, or a pack that does not load.",
        ".SH ENVIRONMENT",
        ".TP", ".B SOURCE_DATE_EPOCH",
        "When set, the time written into bundles and reports instead of the clock (reproducible builds).",
        ".TP", ".B COLUMNS", "The width \\fBevidence show\\fR sizes its table to.",
        ".TP", ".B NO_COLOR", "When set, no colour, even on a terminal (as \\fBTERM=dumb\\fR).",
        ".TP", ".B XDG_CONFIG_HOME, HOME",
        "Where \\fB\\-\\-pack NAME\\fR looks for packs of your own when NAME is neither a path nor a "
        "built-in pack: $XDG_CONFIG_HOME/assay/packs/, else ~/.config/assay/packs/.",
        ".TP", ".B TMPDIR", "Where \\fBsim soak\\fR keeps the bundles of runs in flight.",
        ".SH EXAMPLES",
        ".nf",
        "assay evidence record \\-\\-run\\-id r1 \\-\\-out run.tar.gz < steps.ndjson",
        "assay evidence verify run.tar.gz",
        "assay evidence lint run.tar.gz \\-\\-pack cicd\\-starter \\-\\-fail\\-on error",
        "assay evidence show run.tar.gz",
        "assay sim soak \\-\\-iterations 20 \\-\\-exec './agent \\-\\-seed {seed} \\-\\-out {out}' \\-\\-report soak.json",
        ".fi",
        ".SH SEE ALSO",
        "The guides under docs/ in the source tree: cli.md, evidence.md, packs.md, soak.md, "
        "attestation.md, otel.md, inspect.md, findings.md.",
    ]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        text = page(os.path.abspath(argv[1]))
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"manpage.py: {e}", file=sys.stderr)
        return 1
    tmp = argv[2] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
