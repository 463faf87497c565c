"""Packs whose globs were built to make lint slow or large (issue 29, SPEC §10 "Reading packs
safely", §11 Globs): `assay evidence lint` stays within 256 MiB and well under a millisecond per
event per rule, and a glob past the automaton bound is a load error naming the rule."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ASSAY, bundle_of, check, event, expect, finish, tmpfile  # noqa: E402


def pack(rules):
    return json.dumps({"name": "globs", "version": "1.0.0", "kind": "security", "description": "d", "author": "a",
                       "license": "l", "requires": {"assay_min_version": ">=5.0"}, "rules": rules}).encode()


def exists_rule(rid, pattern):
    return {"id": rid, "severity": "error", "description": "d",
            "check": {"type": "event_type_exists", "pattern": pattern}}


def measured(args):
    """(exit code, stdout, stderr, peak RSS in KiB, seconds) of `assay ARGS`, run by a python child
    that reports its own child's ru_maxrss (so other processes of this test do not count)."""
    probe = ("import resource, subprocess, sys, time\n"
             "t = time.monotonic()\n"
             "p = subprocess.run(sys.argv[1:], capture_output=True)\n"
             "t = time.monotonic() - t\n"
             "sys.stderr.buffer.write(p.stderr)\n"
             "sys.stdout.buffer.write(b'%d %d %.6f\\n' % (p.returncode, "
             "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, t) + p.stdout)\n")
    p = subprocess.run([sys.executable, "-c", probe, ASSAY] + args, capture_output=True, timeout=300)
    head, _, out = p.stdout.partition(b"\n")
    code, rss, secs = head.split()
    return int(code), out, p.stderr, int(rss), float(secs)


def outcomes(report):
    """The pack rules' outcomes and finding messages (the built-in rules left out)."""
    return {r["rule_id"]: (r["outcome"], [f["message"] for f in r["findings"]]) for r in report["results"]
            if r["rule_id"].startswith("globs@")}


def typed(seq, typ):
    """An event of type `typ` (its time fixed: clitest's event() spells one for seq < 10 only)."""
    e = event(seq, typ, {})
    e["time"] = "2026-01-01T00:00:00Z"
    return e


# --- issue 29, item 2: a 75,000-character class before 12 `{a,b}` groups ------------------------
# (a glob expanded into its 4,096 alternatives, each with its own copy of the class, took 3.6 GB;
# compiled, the class is one state)
klass = "[" + "".join(chr(0x61 + i % 26) for i in range(74990)) + "0123456789]"
wide = klass + "{a,b}" * 12
wide_pack = tmpfile(pack([exists_rule("WIDE-1", wide), exists_rule("WIDE-2", wide + "z"),
                          {"id": "WIDE-3", "severity": "error", "description": "d",
                           "check": {"type": "event_pairs", "start_pattern": wide, "finish_pattern": "7*x"}}]))
check("item 2 pack is about 225 KB", 220_000 < os.path.getsize(wide_pack) < 240_000, os.path.getsize(wide_pack))
wide_bundle = bundle_of([typed(0, "q" + "ab" * 6), typed(1, "7" + "ba" * 6 + "x")])
code, out, err, rss, secs = measured(["evidence", "lint", wide_bundle, "--pack", wide_pack, "--format", "json"])
check("item 2: lint exits 1 (one rule violated)", code == 1, f"rc={code} err={err[:300]!r}")
got = outcomes(json.loads(out)) if code == 1 else {}
check("item 2: outcomes", got == {
    "globs@1.0.0:WIDE-1": ("pass", []),
    "globs@1.0.0:WIDE-2": ("violated", ["No event found matching type pattern '" + wide + "z'"]),
    "globs@1.0.0:WIDE-3": ("pass", []),
}, {k: (v[0], [m[:60] for m in v[1]]) for k, v in got.items()})
check("item 2: peak memory under 256 MiB", rss < 256 * 1024, f"{rss} KiB")
print(f"item 2: peak RSS {rss} KiB, {secs:.3f} s")

# --- issue 29, item 3: 12 `{a,a}` groups, a run, 720 a's and a b, on 50 types of 1,000 bytes --
# (4,096 alternatives each scanned with backtracking took about 4 s an event; the automaton takes
# a pass over the type)
slow = "{a,a}" * 12 + "*" + "a" * 720 + "b"
slow_pack = tmpfile(pack([exists_rule("SLOW-1", slow), exists_rule("SLOW-2", slow[:-1] + "c")]))
# 50 different types (so no type's answer is reused), the one that matches last
types = ["a" * (1000 - len(str(i)) - 1) + "-" + str(i) for i in range(49)] + ["a" * 999 + "b"]
slow_bundle = bundle_of([typed(i, t) for i, t in enumerate(types)])
code, out, err, rss, secs = measured(["evidence", "lint", slow_bundle, "--pack", slow_pack, "--format", "json"])
check("item 3: lint exits 1", code == 1, f"rc={code} err={err[:300]!r}")
got = outcomes(json.loads(out)) if code == 1 else {}
check("item 3: outcomes", got == {
    "globs@1.0.0:SLOW-1": ("pass", []),
    "globs@1.0.0:SLOW-2": ("violated", ["No event found matching type pattern '" + slow[:-1] + "c'"]),
}, got)
check("item 3: 50 events × 2 rules in under 5 s", secs < 5, f"{secs:.3f} s")
print(f"item 3: 50 events of 1,000-byte types, 2 rules: {secs:.3f} s, peak RSS {rss} KiB")

# --- a glob past the bound: a load error (exit 3) naming the rule and the member -------------
big = tmpfile(pack([exists_rule("OK", "a*"),
                    {"id": "BIG", "severity": "error", "description": "d",
                     "check": {"type": "event_pairs", "start_pattern": "a*", "finish_pattern": "x" * 2000}}]))
expect("a glob past the bound does not load", ["evidence", "lint", slow_bundle, "--pack", big], rc=3,
       err_contains=b'rule "BIG": the glob in check.finish_pattern compiles to more than 1024 automaton states')

# --- a malformed glob stays a run-time violation (SPEC §11) ----------------------------------
bad = tmpfile(pack([exists_rule("BAD", "{a,{b}}")]))
r = subprocess.run([ASSAY, "evidence", "lint", slow_bundle, "--pack", bad, "--format", "json"], capture_output=True)
check("malformed glob: violated, Invalid pattern",
      r.returncode == 1 and outcomes(json.loads(r.stdout)) == {
          "globs@1.0.0:BAD": ("violated", ["Invalid pattern: {a,{b}}"])}, r.stdout[:300])

finish()
