"""A soak past one machine (SPEC §12 "Past one machine"), and a soak compared with its baseline
("Drift"): `sim soak --shard I/N` run as three shards through GNU parallel, `sim merge` equal to
the one-machine soak byte for byte but for durations and generated_at; every check merge makes,
each error naming its shard; `--shard-index-env`; the usage errors; `sim soak --baseline`.

Run as `shard_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)`.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ASSAY, bundle_of, check, event, finish, run, schema_check, usage_err  # noqa: E402

env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
work = tempfile.mkdtemp()

# Run i's outcome follows its seed: seed % 5 == 0 exits 7 (an infra error), seed % 3 == 0 writes a
# bundle that violates a warning rule (a failure at --fail-on warning), any other seed a passing one.
passing = bundle_of([event(0, "assay.profile.started", {"profile_name": "p", "profile_version": "1",
                                                        "total_runs_aggregated": 1, "build_id": "b1"}),
                     event(1, "assay.profile.finished", {"files_count": 0, "network_count": 0, "processes_count": 0,
                                                         "sandbox_degradation_count": 0, "build_id": "b1"})])
failing = bundle_of([event(0, "assay.tool.call", {"tool": "search", "arguments": {"q": "x"}}),
                     event(1, "assay.model.invoked", {"model": "m-1"})])
EXEC = (f"if [ $(( {{seed}} % 5 )) -eq 0 ]; then echo 'agent crashed' >&2; exit 7; fi; "
        f"if [ $(( {{seed}} % 3 )) -eq 0 ]; then cp '{failing}' {{out}}; else cp '{passing}' {{out}}; fi")


def soak_args(seed="3", suite="nightly"):
    return ["sim", "soak", "--iterations", "14", "--seed", seed, "--fail-on", "warning", "--exec", EXEC, "--suite",
            suite]


SOAK = soak_args()
Z95 = 1.959963984540054


def wilson_low(s, n):
    p, den, c = s / n, 1 + Z95 * Z95 / n, s / n + Z95 * Z95 / (2 * n)
    return (c - Z95 * (p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) ** 0.5) / den


def path(name):
    return os.path.join(work, name)


def sh(args, **kw):
    return run(args, env=kw.pop("env", env), **kw)


def read(p):
    with open(p, "rb") as f:
        return f.read()


def no_durations(b):
    return re.sub(rb'"duration_ms":[0-9]+', b'"duration_ms":0', b)


# --- one machine ------------------------------------------------------------------------------------
code, out, err = sh(SOAK + ["--jobs", "2", "--report", path("one.json")])
one = json.loads(read(path("one.json")) or b"{}")
# Seeds 3…16: 5, 10, 15 crash (runs 3, 8, 13); 3, 6, 9, 12 fail (runs 1, 4, 7, 10); 7 runs pass.
check("one machine: 7 passes, 4 failures, 3 infra errors, exit 1", code == 1 and one["results"]["passes"] == 7
      and one["results"]["failures"] == 4 and one["results"]["infra_errors"] == 3
      and one["results"]["first_failure_at"] == 1, f"{code} {out!r} {err!r}")

# --- three shards through GNU parallel -----------------------------------------------------------------
parallel = shutil.which("parallel")
check("GNU parallel is installed (scripts/deps.sh installs Debian's)", parallel is not None)
if parallel:
    p = subprocess.run([parallel, "--will-cite", "--quote", "--jobs", "3", "--halt", "never", ASSAY] + SOAK +
                       ["--shard", "{}/3", "--report", path("shard-{}.json"), ":::", "0", "1", "2"],
                       capture_output=True, env=dict(env, HOME=work), timeout=300)
    check("three shards through GNU parallel: each exits 0 (the verdict is the merge's)", p.returncode == 0,
          f"{p.returncode} {p.stdout[-400:]!r} {p.stderr[-400:]!r}")
    shards = [path(f"shard-{i}.json") for i in range(3)]
    for i, s in enumerate(shards):
        d = json.loads(read(s) or b"{}") if os.path.exists(s) else {}
        idx = [r["index"] for r in d.get("runs", [])]
        check(f"shard {i}/3: its global indices, its suite", idx == list(range(i + 1, 15, 3))
              and d.get("suite") == f"nightly; shard {i}/3" and d["iterations"] == 14 and d["seed"] == 3
              and d["results"]["pass_all"] is False and d["results"]["runs"] == len(idx), d)
        schema_check(f"shard {i}/3", "soak-report-v1", d)
        code, out, err = sh(["validate", "soak-report-v1", s])
        check(f"shard {i}/3 is a valid soak-report-v1", code == 0, err)
    # In another order than their numbers: the merge sorts them.
    code, out, err = sh(["sim", "merge", shards[2], shards[0], shards[1], "--report", path("merged.json")])
    merged = read(path("merged.json"))
    check("sim merge: the one-machine report, byte for byte but for durations (generated_at: SOURCE_DATE_EPOCH)",
          no_durations(merged) == no_durations(read(path("one.json"))), merged[:300])
    check("sim merge: the soak's verdict and summary, exit 1 (pass^14 fails)", code == 1 and err == b"" and out == (
        b"merge: 14 of 14 run(s) from 3 shard(s), seeds from 3\n"
        b"  passed 7, failed 4, infra errors 3\n"
        b"  pass rate 0.5000, 95% interval (Wilson) [0.2680, 0.7320]\n"
        b"  pass^14: FAIL (first run not passing: 1)\n"
        b"violated rules (runs):\n"
        b"  4  cicd-starter@1.0.0+assay:CICD-002\n"
        b"  4  cicd-starter@1.0.0+assay:CICD-004\n"
        b"infra errors (runs):\n"
        b"  3  subprocess_failed\n"
        b"  first: run 3: subprocess_failed: the command exited with status 7; last stderr line: agent crashed\n"),
        f"{code} {out!r} {err!r}")
    schema_check("merged report", "soak-report-v1", json.loads(merged or b"{}"))
    code, out, err = sh(["sim", "merge"] + shards + ["--report", path("gated.json"), "--min-pass-rate", "0.25"])
    low = json.loads(read(path("gated.json")) or b"{}")["results"]["pass_rate_ci95"][0]
    check("sim merge --min-pass-rate: the tolerance gate on the whole soak, exit 0", code == 0 and out.endswith(
        f"  gate --min-pass-rate 0.25 --gate lower-bound: PASS; lower bound {low!r} is at least 0.25 "
        "(this gate decides the exit code, not pass^14)\n".encode()) and abs(low - wilson_low(7, 14)) < 1e-12,
        f"{code} {out!r} {low!r}")

    # A shard's summary: its own runs; pass^k left to the merge.
    code, out, err = sh(SOAK + ["--shard", "1/3", "--report", path("s1.json")])
    check("sim soak --shard 1/3: its summary, exit 0 though runs failed", code == 0 and out.startswith(
        b"soak, shard 1/3: 5 of its 5 run(s) (runs 2, 5, 8, 11, \xe2\x80\xa6 of 14), seeds from 3 by index, 1 job(s)\n"
        b"  passed 4, failed 0, infra errors 1\n") and
        b"  pass^14: decided by sim merge over the 3 shards (this is shard 1/3)\n" in out, f"{code} {out!r}")

    # --shard-index-env: I from the environment (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX).
    code, out, err = sh(SOAK + ["--shard-index-env", "JOB_COMPLETION_INDEX", "--shard-count", "3", "--report",
                                path("k1.json")], env=dict(env, JOB_COMPLETION_INDEX="1"))
    check("--shard-index-env JOB_COMPLETION_INDEX=1 is --shard 1/3", code == 0 and
          no_durations(read(path("k1.json"))) == no_durations(read(shards[1])), f"{code} {err!r}")

    # Jeffreys: the method is read back from the shards' intervals.
    for i in range(3):
        sh(SOAK + ["--ci", "jeffreys", "--shard", f"{i}/3", "--report", path(f"j{i}.json")])
    sh(SOAK + ["--ci", "jeffreys", "--report", path("jone.json")])
    code, out, err = sh(["sim", "merge", path("j0.json"), path("j1.json"), path("j2.json"), "--report",
                         path("jm.json")])
    check("sim merge of --ci jeffreys shards: the one-machine --ci jeffreys report", code == 1 and
          b"95% interval (Jeffreys)" in out and
          no_durations(read(path("jm.json"))) == no_durations(read(path("jone.json"))), f"{code} {out!r} {err!r}")

    # --- what merge refuses, each naming the shard (exit 2, no report written) -------------------------
    def edited(src, name, change):
        d = json.loads(read(src))
        change(d)
        p = path(name)
        with open(p, "w") as f:
            json.dump(d, f)
        return p

    s0, s1, s2 = shards
    sh(soak_args(seed="4") + ["--shard", "1/3", "--report", path("seed4.json")])
    sh(SOAK + ["--shard", "1/4", "--report", path("of4.json")])
    sh(soak_args(suite="weekly") + ["--shard", "1/3", "--report", path("weekly.json")])
    gap = edited(s1, "gap.json", lambda d: d["runs"].pop(1))
    wrong = edited(s1, "wrong.json", lambda d: d["runs"][1].update(index=4))
    past = edited(s1, "past.json", lambda d: d["runs"].append(dict(d["runs"][0], index=17)))
    norun = edited(s1, "noruns.json", lambda d: d.pop("runs"))
    tampered = edited(s1, "tampered.json", lambda d: d["runs"][0].update(status="fail"))
    other_pack = edited(s1, "otherpack.json", lambda d: d["packs"][0].update(digest="sha256:" + "0" * 64))

    def merge_error(name, files, message):
        target = path("refused.json")
        if os.path.exists(target):
            os.remove(target)
        code, out, err = sh(["sim", "merge"] + files + ["--report", target])
        check("sim merge refuses: " + name, code == 2 and out == b"" and err == b"assay sim merge: " +
              message.encode() + b"\n" and not os.path.exists(target), f"{code} {out!r} {err!r}")

    merge_error("a missing shard", [s0, s2], "shard 1/3 is missing: runs 2, 5, 8, 11, \u2026 are in no shard report")
    merge_error("a shard twice", [s0, s1, s1, s2], f"{s1} and {s1} are both shard 1/3")
    merge_error("a shard of another seed", [s0, path("seed4.json"), s2],
                f"{path('seed4.json')} and {s0} are not shards of one soak: they differ in seed")
    merge_error("a shard of another count", [s0, path("of4.json"), s2],
                f"{path('of4.json')} and {s0} are not shards of one soak: they differ in shard count")
    merge_error("a shard of another suite", [s0, path("weekly.json"), s2],
                f"{path('weekly.json')} and {s0} are not shards of one soak: they differ in suite")
    merge_error("a shard of other packs", [s0, other_pack, s2],
                f"{other_pack} and {s0} are not shards of one soak: they differ in packs")
    merge_error("a gap in a shard", [s0, gap, s2], f"run 5 is missing from {gap} (shard 1/3), which holds run 8")
    merge_error("another shard's run", [s0, wrong, s2], f"{wrong} (shard 1/3) holds run 4, which is shard 0/3's")
    merge_error("a run past the iterations", [s0, past, s2], f"{past} (shard 1/3) holds run 17, past the soak's 14 "
                "iteration(s)")
    merge_error("a shard without runs[]", [s0, norun, s2], f"{norun} has no runs[]: a shard is merged from its runs")
    merge_error("results that its runs do not give", [s0, tampered, s2],
                f"{tampered} (shard 1/3): its results do not agree with its runs[] (results.passes)")
    merge_error("intervals of two methods", [s0, path("j1.json"), s2],
                f"the shards' intervals are of different methods ({s0} Wilson, {path('j1.json')} Jeffreys): run "
                "every shard with the same --ci")
    merge_error("a report that is not a shard's", [path("one.json")],
                f"{path('one.json')} is not a shard report: its suite records no shard (a soak run with --shard I/N)")

    # A shard that stopped early holds a prefix of its runs: the merge is stopped early, pass^k fails.
    sh(SOAK + ["--shard", "0/3", "--stop-on-first-failure", "--report", path("early0.json")])
    for i in (1, 2):
        sh(SOAK + ["--shard", f"{i}/3", "--stop-on-first-failure", "--report", path(f"early{i}.json")])
    code, out, err = sh(["sim", "merge", path("early0.json"), path("early1.json"), path("early2.json"), "--report",
                         path("early.json")])
    em = json.loads(read(path("early.json")) or b"{}")
    check("sim merge: shards that stopped early, pass^14 fails, the summary names them", code == 1 and
          [r["index"] for r in em["runs"]] == [1, 2, 3, 5, 8] and em["results"]["pass_all"] is False and
          b"  stopped early: shard 0/3 ran 1 of its 5 run(s); shard 1/3 ran 3 of its 5 run(s); shard 2/3 ran 1 of "
          b"its 4 run(s)\n" in out, f"{code} {out!r} {err!r}")

# --- the options of --shard: usage errors (exit 2), before anything runs ----------------------------
for name, extra, message in [
        ("no slash", ["--shard", "1"], "--shard 1: expected I/N, e.g. 0/3"),
        ("a leading zero", ["--shard", "01/3"], "--shard 01/3: expected I/N, e.g. 0/3"),
        ("a negative index", ["--shard", "-1/3"], "--shard -1/3: expected I/N, e.g. 0/3"),
        ("I = N", ["--shard", "3/3"], "shard 3/3: the index must be below the count (shards are numbered from 0)"),
        ("N = 0", ["--shard", "0/0"], "shard 0/0: the count must be from 1 to 1000000"),
        ("more shards than runs", ["--shard", "0/15"],
         "shard 0/15: a soak of 14 iteration(s) cannot give every shard a run"),
        ("both forms", ["--shard", "0/3", "--shard-index-env", "X", "--shard-count", "3"],
         "give --shard I/N, or --shard-index-env VAR with --shard-count N, not both"),
        ("--shard-index-env alone", ["--shard-index-env", "X"], "--shard-index-env needs --shard-count"),
        ("--shard-count alone", ["--shard-count", "3"], "--shard-count needs --shard-index-env"),
        ("the variable unset", ["--shard-index-env", "ASSAY_TEST_UNSET", "--shard-count", "3"],
         "--shard-index-env ASSAY_TEST_UNSET: the variable is not set"),
        ("a tolerance gate on a shard", ["--shard", "0/3", "--min-pass-rate", "0.5"],
         "--min-pass-rate judges the whole soak: give it to sim merge, not to a shard"),
        ("a baseline on a shard", ["--shard", "0/3", "--baseline", path("one.json")],
         "--baseline compares the whole soak: give the merged report to sim drift, not a shard"),
        ("--drift-report without --baseline", ["--drift-report", path("d.json")], "--drift-report needs --baseline"),
        ]:
    code, out, err = sh(SOAK + extra + ["--report", path("usage.json")])
    check("sim soak usage error: " + name, code == 2 and out == b"" and err == usage_err("sim soak", message),
          f"{code} {out!r} {err!r}")
code, out, err = sh(SOAK + ["--shard-index-env", "IDX", "--shard-count", "3", "--report", path("usage.json")],
                    env=dict(env, IDX="one"))
check("--shard-index-env with a value that is not an index", code == 2 and err ==
      usage_err("sim soak", "--shard-index-env IDX: its value one is not a shard index (0, 1, 2, ...)"), err)

# --- sim soak --baseline: the soak, then the drift from the baseline ---------------------------------
better = ["sim", "soak", "--iterations", "14", "--seed", "3", "--fail-on", "warning", "--suite", "nightly",
          "--exec", f"cp '{passing}' {{out}}"]
code, out, err = sh(better + ["--baseline", path("one.json"), "--drift-report", path("drift.json"), "--report",
                              path("better.json")])
code2, out2, err2 = sh(["sim", "drift", path("one.json"), path("better.json"), "--report", path("drift2.json")])
check("sim soak --baseline: its drift report is sim drift's of the two reports", code == 0 and code2 == 0 and
      read(path("drift.json")) == read(path("drift2.json")), f"{code} {err!r} {err2!r}")
schema_check("sim soak --drift-report", "soak-drift-v1", json.loads(read(path("drift.json")) or b"{}"))
schema_check("sim soak --baseline: its report", "soak-report-v1", json.loads(read(path("better.json")) or b"{}"))
check("sim soak --baseline: the soak's summary, then the drift's", out.startswith(
    b"soak: 14 of 14 run(s), seeds from 3, 1 job(s)\n") and out.endswith(out2) and
    b"  pass^14: PASS\n" in out, f"{out!r} {out2!r}")
marker = path("ran")
code, out, err = sh(["sim", "soak", "--iterations", "2", "--pack", "cicd-starter,replay-readiness", "--exec",
                     f"touch '{marker}'; cp '{passing}' {{out}}", "--baseline", path("one.json"), "--report",
                     path("never.json")])
check("sim soak --baseline of other packs: a usage error before any run", code == 2 and out == b"" and
      err.startswith(f"assay sim soak: --baseline {path('one.json')}: the two soaks used different packs: "
                     "in the candidate only: replay-readiness@".encode()) and
      err.endswith(b" (--allow-pack-change compares them anyway)\nrun 'assay sim soak --help' for usage\n") and not os.path.exists(marker) and
      not os.path.exists(path("never.json")), f"{code} {err!r}")

finish()
