#!/usr/bin/env python3
"""The YAML of the README and docs/ parses, and what docs/soak.md shows the engines doing holds.

  check_yaml.py SOURCE_ROOT ASSAY

Every ```yaml block of the README and docs/*.md is parsed (PyYAML, safe_load_all). In
docs/soak.md: the GitHub Actions workflow has a matrix job whose step runs `assay sim soak
--shard ${{ matrix.shard }}/N` over shards 0 … N-1 and a merge job that needs it and runs
`assay sim merge`; the Kubernetes Job is Indexed, takes its shard from JOB_COMPLETION_INDEX and has
as many completions as shards; every `assay sim soak|merge|drift` command in the page's yaml and
sh blocks uses only options its `--help` lists. Prints one line per page; exits 1 on a failure,
77 (skipped) when PyYAML is absent.
"""
import glob
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("PyYAML is absent (Debian: python3-yaml): skipped")
    sys.exit(77)

root, assay = sys.argv[1], sys.argv[2]
failures = []


def fail(page, what):
    failures.append(f"{page}: {what}")


def blocks(path, lang):
    out, lines = [], open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```" + lang:
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            out.append((i + 1, "\n".join(lines[i + 1:j])))
            i = j
        i += 1
    return out


_help = {}


def options_of(verb):
    if verb not in _help:
        text = subprocess.run([assay, "sim", verb, "--help"], capture_output=True, text=True).stdout
        _help[verb] = set(re.findall(r"(--[a-z][a-z0-9-]*)", text))
    return _help[verb]


def check_commands(page, line, text):
    """Each `assay sim VERB …` command (backslash continuations joined, single-quoted text left out) uses options
    VERB has."""
    joined = re.sub(r"'[^'\n]*'", "''", re.sub(r"\\\n\s*", " ", text))  # the agent's own command quoted away
    for m in re.finditer(r"assay sim (soak|merge|drift)\b([^\n\"]*)", joined):
        for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", m.group(2)):
            if opt not in options_of(m.group(1)):
                fail(page, f"line {line}: assay sim {m.group(1)} has no option {opt}")


def steps_run(job):
    return "\n".join(s.get("run", "") for s in job.get("steps", []) if isinstance(s, dict))


pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
for page in pages:
    name = os.path.relpath(page, root)
    docs = []
    for line, text in blocks(page, "yaml"):
        try:
            docs.append((line, [d for d in yaml.safe_load_all(text) if d is not None]))
        except yaml.YAMLError as e:
            fail(name, f"the yaml block at line {line} does not parse: {e}")
    if name != os.path.join("docs", "soak.md"):
        print(f"{name}: {len(docs)} yaml block(s) parsed")
        continue

    workflow = [d for _, ds in docs for d in ds if isinstance(d, dict) and "jobs" in d]
    jobs_seen = False
    for w in workflow:
        jobs = w["jobs"]
        for jname, job in jobs.items():
            shards = job.get("strategy", {}).get("matrix", {}).get("shard")
            if not shards:
                continue
            run = steps_run(job)
            m = re.search(r"--shard \$\{\{ matrix\.shard \}\}/(\d+)", run)
            if not m or "assay sim soak" not in run:
                fail(name, f"job {jname}: no `assay sim soak --shard ${{{{ matrix.shard }}}}/N` step")
                continue
            if shards != list(range(int(m.group(1)))):
                fail(name, f"job {jname}: matrix {shards} is not the shards 0 … {int(m.group(1)) - 1}")
            merges = [j for j in jobs.values() if jname in ([j.get("needs")] if isinstance(j.get("needs"), str)
                                                             else j.get("needs", []))
                      and "assay sim merge" in steps_run(j)]
            if not merges:
                fail(name, f"no job needs {jname} and runs assay sim merge")
            jobs_seen = True
    if not jobs_seen:
        fail(name, "no GitHub Actions workflow with a shard matrix and a merge job")

    k8s = [d for _, ds in docs for d in ds if isinstance(d, dict) and d.get("kind") == "Job"]
    if not k8s:
        fail(name, "no Kubernetes Job")
    for job in k8s:
        spec = job.get("spec", {})
        container = spec.get("template", {}).get("spec", {}).get("containers", [{}])[0]
        args = container.get("args", [])
        if spec.get("completionMode") != "Indexed":
            fail(name, "the Kubernetes Job is not completionMode: Indexed")
        try:
            count = int(args[args.index("--shard-count") + 1])
            env = args[args.index("--shard-index-env") + 1]
        except (ValueError, IndexError):
            fail(name, "the Kubernetes Job's args have no --shard-index-env VAR --shard-count N")
            continue
        if env != "JOB_COMPLETION_INDEX" or spec.get("completions") != count:
            fail(name, f"the Kubernetes Job: {spec.get('completions')} completions, --shard-count {count}, {env}")
        if container.get("command") != ["assay", "sim", "soak"]:
            fail(name, "the Kubernetes Job's command is not assay sim soak")
        for opt in (a for a in args if a.startswith("--")):
            if opt not in options_of("soak"):
                fail(name, f"the Kubernetes Job: assay sim soak has no option {opt}")
    for lang in ("yaml", "sh"):
        for line, text in blocks(page, lang):
            check_commands(name, line, text)
    print(f"{name}: {len(docs)} yaml block(s) parsed; the workflow, the Indexed Job and the commands checked")

for f in failures:
    print("FAIL " + f)
sys.exit(1 if failures else 0)
