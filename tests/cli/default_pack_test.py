"""The built-in default pack against the reference's own cicd-starter (SPEC §10): on every bundle the
reference wrote, on bundles of the reference's real event streams, on a bundle the recorder writes
and on bundles made to break each rule, `assay evidence lint` with no --pack and `assay-ref lint`
with the reference's cicd-starter.yaml report the same findings: rule ids (the short id of a pack
rule: the two packs' versions differ on purpose), messages and locations.

Run as `default_pack_test.py ASSAY SOURCE_ROOT CONFORMANCE_DIR REQUIRE RECORD_SESSION`; the
reference is found through ASSAY_REF (or the PATH). Without it, or without the conformance data,
the script reports itself skipped (exit 77), unless ASSAY_REQUIRE_ORACLE=1 (CI) makes that a
failure.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

from clitest import CONF, bundle_of, check, event, finish, run, tmpfile

RECORD_SESSION = sys.argv[5]
REF = os.environ.get("ASSAY_REF") or shutil.which("assay-ref")
PACK = os.path.join(CONF, "assay-upstream", "packs", "cicd-starter.yaml")
if not REF or not os.path.exists(REF) or not os.path.exists(PACK):
    if os.environ.get("ASSAY_REQUIRE_ORACLE") == "1":
        print("assay-ref or the conformance data required but absent")
        sys.exit(1)
    print("assay-ref or the conformance data absent: skipped")
    sys.exit(77)


def short(rule_id):
    """A pack rule's short id (after the last ':'); a built-in rule's id as it is."""
    return rule_id.rsplit(":", 1)[-1] if "@" in rule_id else rule_id


def ours(bundle):
    code, o, e = run(["evidence", "lint", bundle, "--format", "json", "--fail-on", "none"])
    if code != 0:
        return None, e
    report = json.loads(o)
    found = set()
    for r in report["results"]:
        for f in r.get("findings", []):
            loc = f.get("location")
            found.add((short(r["rule_id"]), f["message"], loc["seq"] if loc else None))
    return found, report["packs"]


def theirs(bundle):
    p = subprocess.run([REF, "lint", bundle, PACK], capture_output=True, timeout=120)
    if p.returncode not in (0, 1):
        return None, p.stderr
    found = set()
    for f in json.loads(p.stdout)["findings"]:
        loc = f.get("location")
        found.add((short(f["rule_id"]), f["message"], loc["seq"] if loc else None))
    return found, None


def same(name, bundle):
    a, packs = ours(bundle)
    b, err = theirs(bundle)
    check(f"{name}: both tools lint it", a is not None and b is not None, f"ours={packs!r} theirs={err!r}")
    if a is None or b is None:
        return set()
    check(f"{name}: the same findings", a == b, f"only ours={sorted(a - b)} only theirs={sorted(b - a)}")
    check(f"{name}: the default is the built-in", [(p["name"], p["source"]) for p in packs] == [("cicd-starter", "built-in")],
          repr(packs))
    return a


violated = set()
bundles = sorted(glob.glob(os.path.join(CONF, "assay-upstream", "bundles", "*.tar.gz")) +
                 glob.glob(os.path.join(CONF, "assay-upstream", "conformance-v*", "*.tar.gz")))
linted = 0
for b in bundles:
    # A bundle that fails verification is not linted by either tool (exit 1 here, 2 there).
    if run(["evidence", "verify", b])[0] != 0:
        continue
    violated |= {f[0] for f in same(os.path.basename(b), b)}
    linted += 1
check("the reference's bundles: those that verify were all linted", linted >= 15, str(linted))

# Its real event streams, bundled here as they are (their payloads are theirs, hence unchecked).
streams = sorted(glob.glob(os.path.join(CONF, "assay-upstream", "ndjson", "*.ndjson")))
check("the reference's 33 streams are there", len(streams) == 33, str(len(streams)))
for s in streams:
    out = tmpfile(b"")
    code, o, e = run(["evidence", "bundle", "--events", s, "--out", out, "--unchecked-payloads"])
    check(f"{os.path.basename(s)}: bundled", code == 0, repr(e))
    if code == 0:
        violated |= {f[0] for f in same(os.path.basename(s), out)}

# What the recorder writes.
recorded = tmpfile(b"")
p = subprocess.run([RECORD_SESSION, recorded], capture_output=True, timeout=120)
check("record_session wrote a bundle", p.returncode == 0, repr(p.stderr))
violated |= {f[0] for f in same("the recorder's bundle", recorded)}

# Bundles that pass every rule, and that break each in turn.
started = event(0, "assay.profile.started", {"profile_name": "p", "profile_version": "1", "total_runs_aggregated": 1})
build = event(1, "vendor.build", {"build_id": "b-1"})
finished = event(2, "assay.profile.finished", {"files_count": 0, "network_count": 0, "processes_count": 0,
                                               "sandbox_degradation_count": 0})
all_pass = same("every rule passes", bundle_of([started, build, finished]))
check("every rule passes: nothing reported", all_pass == set(), repr(all_pass))
only_start = same("no finish event", bundle_of([started, build]))
check("no finish event: CICD-002 only", {f[0] for f in only_start} == {"CICD-002"}, repr(only_start))
nobuild = event(0, "vendor.step", {"note": "x"})
no_build = same("no build identity", bundle_of([nobuild]))
check("no build identity: CICD-002 and CICD-004", {f[0] for f in no_build} == {"CICD-002", "CICD-004"}, repr(no_build))
violated |= {f[0] for f in no_build | only_start}
check("across all bundles, the rules seen violated", {"CICD-002", "CICD-004"} <= violated, repr(sorted(violated)))
finish()
