#!/usr/bin/env python3
"""The SARIF that `assay evidence lint --sarif` writes is valid SARIF 2.1.0 (SPEC §11): the OASIS
schema as npm `@microsoft/jest-sarif` ships it (`lib/schemas/sarif-2.1.0-rtm.5.json`), checked by
`sarif-multitool validate -j` from npm `@microsoft/sarif-multitool` (no error in its log), and by
Python's jsonschema against the same schema file when that module is present.

usage: sarif_schema.py ASSAY_BINARY CONFORMANCE_DIR SOURCE_ROOT TOOLS_DIR REQUIRE(0|1)

The tools are looked for in $ASSAY_SARIF_TOOLS, then SOURCE_ROOT/build-tools/sarif (where
scripts/deps.sh puts them), then TOOLS_DIR; when none has them, npm installs them into TOOLS_DIR. Exit 77 (skipped) when they cannot be had or the reference fixtures
are absent (a failure instead when REQUIRE is 1 and the fixtures are absent).
"""
import glob
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

ASSAY, CONF, ROOT, TOOLS = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
REQUIRE = sys.argv[5] == "1"
SKIP = 77
PACKAGES = ["@microsoft/sarif-multitool@5.7.0", "@microsoft/jest-sarif@1.0.0-beta.0"]


def tool_paths(prefix):
    """(multitool executable, schema file) under an npm prefix, or None."""
    native = os.path.join(prefix, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
    schema = os.path.join(prefix, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas",
                          "sarif-2.1.0-rtm.5.json")
    if os.path.isfile(native) and os.path.isfile(schema):
        # npm may have been told not to run install scripts, among them the one that makes it executable.
        mode = os.stat(native).st_mode
        if not mode & stat.S_IXUSR:
            os.chmod(native, mode | stat.S_IXUSR)
        return native, schema
    return None


def find_tools():
    for prefix in filter(None, [os.environ.get("ASSAY_SARIF_TOOLS"), os.path.join(ROOT, "build-tools", "sarif"), TOOLS]):
        found = tool_paths(prefix)
        if found:
            return found
    if shutil.which("npm") is None:
        print("npm absent: cannot install @microsoft/sarif-multitool")
        return None
    os.makedirs(TOOLS, exist_ok=True)
    try:
        p = subprocess.run(["npm", "install", "--prefix", TOOLS, "--no-audit", "--no-fund", "--no-save"] + PACKAGES,
                           capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        print("npm install timed out")
        return None
    if p.returncode != 0:
        print("npm install failed:", p.stderr.decode(errors="replace")[-600:])
        return None
    return tool_paths(TOOLS)


upstream = os.path.join(CONF, "assay-upstream") if CONF else ""
bundles = sorted(glob.glob(os.path.join(upstream, "bundles", "*.tar.gz")))
packs = sorted(glob.glob(os.path.join(upstream, "packs", "*.yaml")))
if not bundles or len(packs) != 9:
    print(f"reference bundles and packs absent under {upstream}")
    sys.exit(1 if REQUIRE else SKIP)
tools = find_tools()
if tools is None:
    print("SKIP: the SARIF validator could not be had")
    sys.exit(SKIP)
multitool, schema_file = tools

work = tempfile.mkdtemp()
cases = []  # (name, sarif path)


def lint(name, bundle, args, rcs=(0, 1)):
    out = os.path.join(work, f"{len(cases)}.sarif")
    p = subprocess.run([ASSAY, "evidence", "lint", bundle, "--sarif", out] + args, capture_output=True, timeout=300)
    if p.returncode not in rcs or not os.path.isfile(out):
        return f"{name}: exit {p.returncode}: {p.stderr.decode(errors='replace')[:300]}"
    cases.append((name, out))
    return None


def jcs(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


# A bundle whose findings are located at events (the built-in rules), so that results with
# events.ndjson locations and logical locations are validated too.
def event(seq, typ, subject, data):
    e = {"specversion": "1.0", "type": typ, "source": "tag:cli.test,2026", "id": f"run1:{seq}", "subject": subject,
         "time": "2026-01-01T00:00:0%dZ" % seq, "datacontenttype": "application/json", "assayrunid": "run1",
         "assayseq": seq, "assayproducer": "cli-test", "assayproducerversion": "1.0", "assaygit": "unknown",
         "assaypii": seq == 1, "assaysecrets": False, "data": data}
    return e  # assay evidence bundle computes the content hash


events = [event(0, "assay.tool.call", "https://x.test/?token=abc", {"tool": "curl"}),
          event(1, "assay.fs.access", "/home/ann/notes.txt", {"hits": 1}),
          event(2, "vendor.note", "sk-live", {"text": "x"})]
events_file = os.path.join(work, "events.ndjson")
open(events_file, "wb").write(b"".join(jcs(e) + b"\n" for e in events))
located = os.path.join(work, "located.tar.gz")
p = subprocess.run([ASSAY, "evidence", "bundle", "--events", events_file, "--out", located], capture_output=True)
problems = [] if p.returncode == 0 else [f"evidence bundle: {p.stderr.decode(errors='replace')}"]

verified = [b for b in bundles if subprocess.run([ASSAY, "evidence", "verify", b], capture_output=True).returncode == 0]
for b in verified + [located]:
    name = os.path.basename(b)
    problems.append(lint(f"{name}: the nine reference packs", b, [x for pk in packs for x in ("--pack", pk)]))
    for pk in packs:
        problems.append(lint(f"{name} x {os.path.basename(pk)}", b, ["--pack", pk]))
    problems.append(lint(f"{name}: the default pack", b, []))
problems.append(lint("located findings, some dropped by --max-results", located,
                     ["--max-results", "1"] + [x for pk in packs for x in ("--pack", pk)]))
# A pack's source_url becomes helpUri only when it is an absolute URI: "not a uri" is left out (and
# noted), so the file stays valid; a https URL is kept.
for label, url in (("not-uri", "not a uri"), ("https-uri", "https://example.com/packs/uri-check.yaml")):
    pack_file = os.path.join(work, f"{label}.yaml")
    open(pack_file, "w", encoding="utf-8").write(
        f"name: {label}\nversion: 1.0.0\nkind: security\ndescription: d\nauthor: a\nlicense: Apache-2.0\n"
        f"source_url: {url}\nrequires:\n  assay_min_version: \">=5.0\"\nrules:\n  - id: R1\n    severity: warning\n"
        f"    description: x\n    check:\n      type: event_count\n      min: 99\n")
    problem = lint(f"source_url {url!r}", located, ["--pack", pack_file])
    problems.append(problem)
    if problem is None:
        run = json.load(open(cases[-1][1], encoding="utf-8"))["runs"][0]
        rule = [r for r in run["tool"]["driver"]["rules"] if r["id"] == f"{label}@1.0.0:R1"]
        want = None if url == "not a uri" else url
        if len(rule) != 1 or rule[0].get("helpUri") != want:
            problems.append(f"source_url {url!r}: rule {rule!r}, expected helpUri {want!r}")
        notes = [n["descriptor"]["id"] for n in run["invocations"][0].get("toolExecutionNotifications", [])]
        if notes != ([] if want else ["ASSAY-LINT-HELPURI"]):
            problems.append(f"source_url {url!r}: notifications {notes!r}")
problems = [x for x in problems if x]

results_seen = located_seen = dropped_seen = 0
for name, path in cases:
    log = json.load(open(path, encoding="utf-8"))
    run = log["runs"][0]
    results_seen += len(run["results"])
    located_seen += sum(1 for r in run["results"] if "logicalLocations" in r["locations"][0])
    dropped_seen += bool(run["invocations"][0].get("toolExecutionNotifications"))
# The corpus covers what it should: results, located results, a truncation notice.
if results_seen == 0 or located_seen == 0 or dropped_seen == 0:
    problems.append(f"corpus too thin: {results_seen} results, {located_seen} located, {dropped_seen} truncated")

# sarif-multitool validate: one run over every file; its log must hold no error.
validation = os.path.join(work, "validation.sarif")
p = subprocess.run([multitool, "validate", "-j", schema_file, "-o", validation] + [c[1] for c in cases],
                   capture_output=True, timeout=900)
if p.returncode != 0 or not os.path.isfile(validation):
    problems.append(f"sarif-multitool validate exited {p.returncode}: {(p.stdout + p.stderr).decode(errors='replace')}")
else:
    for r in json.load(open(validation, encoding="utf-8"))["runs"][0].get("results", []):
        if r.get("level", "warning") == "error":
            where = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] if r.get("locations") else "?"
            problems.append(f"sarif-multitool {r['ruleId']} at {where}: {r['message']}")

try:
    import jsonschema
except ImportError:
    jsonschema = None
    print("python jsonschema absent: only sarif-multitool checked the files")
if jsonschema is not None:
    schema = json.load(open(schema_file, encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    for name, path in cases:
        for e in validator.iter_errors(json.load(open(path, encoding="utf-8"))):
            problems.append(f"{name}: jsonschema: {list(e.absolute_path)}: {e.message[:200]}")

for x in problems[:40]:
    print("FAIL", x)
if len(problems) > 40:
    print(f"... and {len(problems) - 40} more")
print(f"{len(cases)} SARIF files ({results_seen} results, {located_seen} located) validated against "
      f"{os.path.basename(schema_file)}: {len(problems)} problems")
sys.exit(1 if problems else 0)
