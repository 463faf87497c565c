"""Bounds and stops (SPEC §10, §12, §17): numeric options range-checked before anything runs, in
every verb; the time budget ending a lint in progress; a signal to `sim soak` killing every run's
process group and leaving no scratch directory and no report; the built-in default pack whatever
the working directory holds.

Run as `soak_stop_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)`.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ASSAY, bundle_of, check, event, finish, run, tmpfile  # noqa: E402



def usage(cmd):
    """The line after a usage error: the help of the verb it is about (`assay evidence lint --help`)."""
    verb = " ".join(cmd[:2] if cmd[0] in ("evidence", "sim", "finding", "pack") else cmd[:1])
    return f"run 'assay {verb} --help' for usage\n".encode()

env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")

small = bundle_of([event(0, "assay.tool.call", {"tool": "search", "arguments": {"q": "x"}}),
                   event(1, "assay.model.invoked", {"model": "m-1"})])
work = tempfile.mkdtemp()
report = os.path.join(work, "r.json")
otel_out = os.path.join(work, "spans.jsonl")


def out_of_range(cmd, option, text, low, high):
    return f"assay: {option}: {text} is out of range [{low}, {high}]\n".encode() + usage(cmd)


# --- numeric options: one check, one message, every verb (SPEC §17) ------------------------------
SOAK = ["sim", "soak", "--target", small, "--report", report]
LINT = ["evidence", "lint", small]
OTEL = ["evidence", "export-otel", small, "--out", otel_out, "--report", report]
# (command, option, low, high, the other options a run at a bound needs)
bounded = [
    (SOAK, "--iterations", 1, 1000000, ["--time-budget", "1"]),
    (SOAK + ["--iterations", "1"], "--seed", 0, 9007199254740992, []),
    (SOAK + ["--iterations", "1"], "--time-budget", 1, 31536000, []),
    (SOAK + ["--iterations", "1"], "--max-failures", 1, 1000000, []),
    (SOAK + ["--iterations", "1"], "--jobs", 1, 256, []),
    (LINT, "--max-results", 0, 1000000, []),
    (OTEL, "--max-spans", 1, 1000000, []),
    (OTEL, "--spans-per-line", 1, 1000000, []),
]
for cmd, option, low, high, extra in bounded:
    name = f"{cmd[0]} {cmd[1]} {option}"
    for text in [str(low - 1), str(high + 1), "-1", "18446744073709551615", "18446744073709551616",
                 "9223372036854775808", "-9223372036854775809"]:
        if text == str(low - 1) and low == 0:
            continue  # -1 is in the list
        if os.path.exists(report):
            os.remove(report)
        code, out, err = run(cmd + extra + [option, text], env=env)
        check(f"{name} {text}: a usage error naming the option and its bounds, nothing run",
              code == 2 and out == b"" and err == out_of_range(cmd, option, text, low, high) and not os.path.exists(report),
              f"{code} {out!r} {err!r}")
    code, out, err = run(cmd + extra + [option, "1x"], env=env)
    check(f"{name} 1x: not an integer", code == 2 and out == b"" and
          err == f"assay: {option}: 1x is not an integer in [{low}, {high}]\n".encode() + usage(cmd), f"{code} {err!r}")

# Just within: each bound is taken, and says what it says in the report.
for text in ["1", "1000000"]:
    code, out, err = run(SOAK + ["--time-budget", "1", "--iterations", text], env=env)
    rep = json.loads(open(report, "rb").read())
    check(f"sim soak --iterations {text}: taken", code == (0 if text == "1" else 1) and err == b"" and
          rep["iterations"] == int(text) and rep["time_budget_secs"] == 1, f"{code} {err!r}")
for option, text, field in [("--seed", "0", "seed"), ("--seed", "9007199254740992", "seed"),
                            ("--time-budget", "1", "time_budget_secs"), ("--time-budget", "31536000", "time_budget_secs"),
                            ("--max-failures", "1", None), ("--max-failures", "1000000", None),
                            ("--jobs", "1", None), ("--jobs", "256", None)]:
    code, out, err = run(SOAK + ["--iterations", "1", option, text], env=env)
    rep = json.loads(open(report, "rb").read())
    value = rep[field] if field else rep["decision_policy"]["max_failures"] if option == "--max-failures" else None
    check(f"sim soak {option} {text}: taken", code == 0 and err == b"" and rep["results"]["pass_all"] is True and
          (value == int(text) if option != "--jobs" else f", {text} job(s)\n".encode() in out.splitlines(True)[0]),
          f"{code} {out!r} {err!r} {value}")
run(SOAK + ["--iterations", "1", "--seed", "9007199254740992"], env=env)
check("sim soak --seed 2^53: the report's seed is exact", b'"seed":9007199254740992,' in open(report, "rb").read())
check("a leading zero is decimal, not octal", run(SOAK + ["--iterations", "1", "--seed", "010"], env=env)[0] == 0 and
      json.loads(open(report, "rb").read())["seed"] == 10)

base = run(LINT + ["--format", "json"])
for text in ["1000000", "500"]:
    code, out, err = run(LINT + ["--format", "json", "--max-results", text])
    check(f"evidence lint --max-results {text}: taken", (code, err) == (base[0], b"") and
          json.loads(out)["summary"]["max_results"] == int(text), f"{code} {err!r}")
code, out, err = run(LINT + ["--format", "json", "--max-results", "0"])
lrep = json.loads(out or b"{}")
shown = sum(len(r["findings"]) for r in json.loads(base[1])["results"])
check("evidence lint --max-results 0: no finding shown, every one counted as dropped", (code, err) == (base[0], b"")
      and shown == 2 and lrep["summary"]["max_results"] == 0 and lrep["summary"]["dropped"] == shown and
      all(r["findings"] == [] for r in lrep["results"]), f"{code} {err!r}")
for option, text in [("--max-spans", "1000000"), ("--spans-per-line", "1"), ("--spans-per-line", "1000000")]:
    code, out, err = run(OTEL + [option, text])
    check(f"evidence export-otel {option} {text}: taken", code == 0 and err == b"" and
          json.loads(open(report, "rb").read())["spans_written"] == 3, f"{code} {err!r}")
code, out, err = run(OTEL + ["--max-spans", "1"])
check("evidence export-otel --max-spans 1: taken, and a bundle of three spans refused by it", code == 1 and
      err == b"assay evidence export-otel: line 1 of events.ndjson: the export would hold more than 1 spans (the "
             b"limit max_spans, --max-spans): nothing was written\n", f"{code} {err!r}")

# --max-bytes takes a suffix; its bounds are bytes.
for text in ["0", "1025g", "1099511627777", "-1", "-5k"]:
    code, out, err = run(["jcs", "--max-bytes", text], b"[]")
    check(f"jcs --max-bytes {text}: out of range", code == 2 and out == b"" and
          err == out_of_range(["jcs"], "--max-bytes", text, 1, 1099511627776), f"{code} {err!r}")
for text in ["1", "1024g", "1099511627776"]:
    code, out, err = run(["jcs", "--max-bytes", text], b"7")
    check(f"jcs --max-bytes {text}: taken", (code, out, err) == (0, b"7", b""), f"{code} {out!r} {err!r}")

# --- the default pack is the built-in one, whatever the working directory holds (SPEC §10) ------
clean = tempfile.mkdtemp()
planted = tempfile.mkdtemp()
empty_pack = {"name": "cicd-starter", "version": "0.0.1", "kind": "quality", "description": "planted",
              "author": "a", "license": "l", "requires": {"assay_min_version": "0.1.0"}, "rules": []}
os.mkdir(os.path.join(planted, "cicd-starter"))
for path in ["cicd-starter/pack.yaml", "cicd-starter.yaml", "cicd-starter.json", "cicd-starter"]:
    if not os.path.isdir(os.path.join(planted, path)):
        with open(os.path.join(planted, path), "w") as f:
            json.dump(empty_pack, f)  # JSON is YAML: read with or without the YAML reader


def in_dir(cwd, args):
    return run(args, cwd=cwd, env=env)


want = in_dir(clean, LINT + ["--format", "json"])
got = in_dir(planted, LINT + ["--format", "json"])
lrep = json.loads(got[1] or b"{}")
check("evidence lint without --pack: the built-in default, not ./cicd-starter/pack.yaml", got == want and
      [(p["name"], p["version"], p["source"]) for p in lrep["packs"]] == [("cicd-starter", "1.0.0+assay", "built-in")]
      and len(lrep["results"]) > 0, f"{got[0]} {got[2]!r} {lrep.get('packs')}")
got = in_dir(planted, LINT + ["--format", "json", "--pack", "cicd-starter"])
check("evidence lint --pack cicd-starter: a path of that name still wins when named",
      got[0] == 0 and [(p["version"], p["source"]) for p in json.loads(got[1])["packs"]] ==
      [("0.0.1", "cicd-starter/pack.yaml")], f"{got[0]} {got[1][:400]!r} {got[2]!r}")
for cwd in [clean, planted]:
    code, out, err = in_dir(cwd, ["sim", "soak", "--iterations", "2", "--target", small, "--report", report])
    srep = json.loads(open(report, "rb").read())
    if cwd == clean:
        want_soak = (code, out, err, srep["packs"], srep["results"])
check("sim soak without --pack: the built-in default, the same outcomes as in a clean directory",
      (code, out, err, srep["packs"], srep["results"]) == want_soak and
      [(p["name"], p["version"], p["source"]) for p in srep["packs"]] == [("cicd-starter", "1.0.0+assay", "built-in")],
      f"{code} {err!r} {srep['packs']}")
closure_reports = []
for cwd in [clean, planted]:
    code, out, err = in_dir(cwd, ["evidence", "closure", small, "--report", report])
    closure_reports.append((code, out, err, open(report, "rb").read()))
crep = json.loads(closure_reports[1][3])
check("evidence closure without --pack: the built-in default, the same report as in a clean directory",
      closure_reports[0] == closure_reports[1] and [p["name"] for p in crep["pack_context"]] == ["cicd-starter"]
      and crep["pack_context"][0].get("version") == "1.0.0+assay", f"{closure_reports[1][:3]} {crep.get('pack_context')}")

# --- the time budget ends a lint in progress (SPEC §12) -----------------------------------------
# A bundle of many events and a pack of many rules that are never satisfied: lint visits every
# rule at every event, eight pointers each. Unbounded, one run takes far longer than the test waits
# (checked: a plain lint of it is still going after 8 s; about 30 s of CPU at -O3); with
# --time-budget 1 the run ends as time_budget_exceeded soon after the budget, without reading the
# bundle again. What a soak costs besides its runs (seconds under the sanitizers) is measured and allowed
# for: the budget bounds the runs, not the soak's fixed costs.
big = bundle_of([dict(event(i, "x.step", {"i": i}), time="2026-01-01T00:00:00Z") for i in range(50000)])
rules = [{"id": f"R-{i}", "severity": "error", "description": "never there",
          "check": {"type": "json_path_exists", "paths": [f"/data/absent{i}/{k}" for k in range(8)]}}
         for i in range(4000)]
slow_pack = os.path.join(work, "slow.json")
with open(slow_pack, "w") as f:
    json.dump(dict(empty_pack, name="slow", version="1.0.0", rules=rules), f)
code, out, err = run(["pack", "check", slow_pack])
check("pack check of the slow pack: it loads", code == 0, f"{code} {err!r}")
# What a soak with this pack costs besides its runs (loading the pack, its digest, the report),
# measured on a bundle of one event; under the sanitizers it is seconds.
tiny = bundle_of([dict(event(0, "x.step", {"i": 0}), time="2026-01-01T00:00:00Z")])
t0 = time.monotonic()
code, out, err = run(["sim", "soak", "--iterations", "1", "--pack", slow_pack, "--report", report, "--target", tiny],
                     env=env, timeout=600)
load = time.monotonic() - t0
check("sim soak of one event with the slow pack: it fails its rules", code == 1, f"{code} {err!r}")
code, out, err = run(["evidence", "lint", big, "--pack", slow_pack, "--max-results", "1"], timeout=8 + load)
check("evidence lint of the slow pack: still going after 8 s", code is None, f"{code} {err!r}")
big_dir = os.path.join(work, "bundles")
os.mkdir(big_dir)
shutil.copy(big, os.path.join(big_dir, "a.tar.gz"))
for how in [["--target", big], ["--target-dir", big_dir], ["--exec", f"cp '{big}' {{out}}"]]:
    if os.path.exists(report):
        os.remove(report)
    t0 = time.monotonic()
    code, out, err = run(["sim", "soak", "--iterations", "3", "--time-budget", "1", "--pack", slow_pack,
                          "--report", report] + how, env=env, timeout=600)
    took = time.monotonic() - t0
    srep = json.loads(open(report, "rb").read() or b"{}")
    res = srep.get("results", {})
    check(f"sim soak {how[0]} --time-budget 1: the lint in progress ends, time_budget_exceeded, within 1 s + 3 s "
          "(and the pack's loading)", code == 1 and took < load + 4 and srep["time_budget_secs"] == 1 and srep["iterations"] == 3 and
          res["runs"] == 1 and res["passes"] == 0 and res["failures"] == 0 and res["infra_errors"] == 1 and
          res["pass_all"] is False and res["pass_rate"] == 0 and res["first_failure_at"] == 1 and
          res["infra_errors_by_kind"] == {"time_budget_exceeded": 1} and res["violations_by_rule"] == {} and
          [{k: v for k, v in r.items() if k != "duration_ms"} for r in srep["runs"]] ==
          [{"index": 1, "status": "infra_error", "infra_error_kind": "time_budget_exceeded",
            "infra_error_message": "the time budget ended while the bundle was being verified and linted"}] and
          b"  stopped early: the time budget of 1 s was spent\n" in out,
          f"{code} {took:.2f} s {out!r} {err!r}")


# --- a signal stops the soak: run groups killed, scratch removed, no report (SPEC §12) -----------
def state(pid):
    """'gone', or the process state letter ('Z' for a zombie: dead, waiting for its parent)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return "gone"


for sig, name in [(signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM"), (signal.SIGHUP, "SIGHUP")]:
    d = tempfile.mkdtemp()
    scratch_parent = os.path.join(d, "tmp")
    os.mkdir(scratch_parent)
    pids = os.path.join(d, "pids")
    rep_path = os.path.join(d, "out", "soak.json")
    os.mkdir(os.path.dirname(rep_path))
    # Each run: its shell, and a child left in the background, both written down; then it waits.
    cmd = f"echo $$ >> '{pids}'; sleep 60 & echo $! >> '{pids}'; wait"
    p = subprocess.Popen([ASSAY, "sim", "soak", "--iterations", "4", "--jobs", "2", "--exec", cmd, "--report", rep_path],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(env, TMPDIR=scratch_parent))
    deadline = time.monotonic() + 20
    listed = []
    while time.monotonic() < deadline and len(listed) < 4:
        time.sleep(0.05)
        listed = open(pids).read().split() if os.path.exists(pids) else []
    scratch_seen = os.listdir(scratch_parent)
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    time.sleep(0.2)  # SIGKILL is delivered, the processes end
    states = {pid: state(int(pid)) for pid in listed}
    check(f"sim soak, {name}: exit {128 + sig}, one line on stderr, nothing on stdout",
          p.returncode == 128 + sig and out == b"" and
          err == f"assay sim soak: interrupted by {name}: runs in flight ended, no report written\n".encode(),
          f"{p.returncode} {out!r} {err!r}")
    check(f"sim soak, {name}: two runs were in flight, each a shell and its background child", len(listed) == 4 and
          len(scratch_seen) == 1 and scratch_seen[0].startswith("assay-soak."), f"{listed} {scratch_seen}")
    check(f"sim soak, {name}: no process of the runs' groups is left running",
          all(s in ("gone", "Z") for s in states.values()), states)
    check(f"sim soak, {name}: the scratch directory is removed", os.listdir(scratch_parent) == [],
          os.listdir(scratch_parent))
    check(f"sim soak, {name}: no report, not even a temporary one", os.listdir(os.path.dirname(rep_path)) == [],
          os.listdir(os.path.dirname(rep_path)))
    shutil.rmtree(d, ignore_errors=True)

# A signal while a run's bundle is being linted (no command): the lint ends at its next event.
rep_path = os.path.join(work, "never.json")
p = subprocess.Popen([ASSAY, "sim", "soak", "--iterations", "2", "--target", big, "--pack", slow_pack, "--report",
                      rep_path], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
time.sleep(load + 1)  # the pack loaded, the first run's lint under way (it would take far longer)
t0 = time.monotonic()
p.send_signal(signal.SIGTERM)
try:
    out, err = p.communicate(timeout=20)
except subprocess.TimeoutExpired:
    p.kill()
    out, err = p.communicate()
check("sim soak --target, SIGTERM during a lint: exit 143 within 2 s, no report", p.returncode == 143 and
      time.monotonic() - t0 < 2 and out == b"" and not os.path.exists(rep_path) and
      err == b"assay sim soak: interrupted by SIGTERM: runs in flight ended, no report written\n",
      f"{p.returncode} {time.monotonic() - t0:.2f} {out!r} {err!r}")

finish()
