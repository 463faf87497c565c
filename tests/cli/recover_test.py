"""A run that never finished: `assay evidence record --journal` killed with SIGKILL while a harness
feeds it events one at a time, then `assay evidence recover` — the recovered bundle holds every event
the harness saw written to the journal, verifies here and in the reference (assay-ref), and the
reference's cicd-starter pack flags the missing end of the run; the journal cut at every byte of its
last two lines recovers the whole lines before the cut; a journal changed after it was written is
refused with its line and the verifier's code; a finished record with --journal writes the bundle it
writes without one, byte for byte, and removes the journal.

Run as `recover_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)`.
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
from clitest import ASSAY, CONF, check, expect, finish, run, usage_err  # noqa: E402

REF = os.environ.get("ASSAY_REF") or shutil.which("assay-ref")
if not REF or not os.path.exists(REF):
    if os.environ.get("ASSAY_REQUIRE_ORACLE") == "1":
        print("assay-ref required but absent")
        sys.exit(1)
    REF = None
work = tempfile.mkdtemp()


def path(name):
    return os.path.join(work, name)


def lines_of(n, start=0):
    return [json.dumps({"type": "x.step", "data": {"n": i}}).encode() + b"\n" for i in range(start, start + n)]


def ours_verify(bundle):
    code, out, err = run(["evidence", "verify", bundle, "--json"])
    return json.loads(out) if code == 0 else {"error": err.decode(errors="replace")}


def ref_verify(bundle):
    p = subprocess.run([REF, "verify", bundle], capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace")


def journal_lines(journal):
    with open(journal, "rb") as f:
        return f.read().count(b"\n")


# --- a harness killed mid-run -----------------------------------------------------------------
env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
for trial, (policy, fed) in enumerate([("event", 5), ("3", 7), ("50ms", 4), ("never", 9)]):
    journal, bundle = path(f"kill{trial}.journal"), path(f"kill{trial}.tar.gz")
    p = subprocess.Popen([ASSAY, "evidence", "record", "-", "--out", bundle, "--journal", journal, "--sync", policy,
                          "--run-id", f"killed-{trial}"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    for i, line in enumerate(lines_of(fed)):
        p.stdin.write(line)
        p.stdin.flush()
        # The harness waits for its event to be in the journal before it goes on, as a runtime's
        # own append() would have returned.
        deadline = time.time() + 30
        while (not os.path.exists(journal) or journal_lines(journal) < i + 1) and time.time() < deadline:
            time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait()
    p.stdin.close()
    check(f"{policy}: killed, the record left no bundle", p.returncode == -signal.SIGKILL and
          not os.path.exists(bundle), p.returncode)
    check(f"{policy}: the journal holds every event fed", journal_lines(journal) == fed, journal_lines(journal))
    recovered = path(f"recovered{trial}.tar.gz")
    code, out, err = run(["evidence", "recover", journal, "--out", recovered])
    v = ours_verify(recovered)
    check(f"{policy}: recovered, and it verifies here with every event", code == 0 and v.get("ok") is True and
          v.get("event_count") == fed and v.get("run_id") == f"killed-{trial}", (code, out, err, v))
    check(f"{policy}: recover says what it did", out == (f"recovered {fed} event(s) from {journal} into {recovered} "
                                                         f"(bundle_id {v.get('bundle_id')})\n").encode() and err == b"",
          (out, err))
    check(f"{policy}: the journal is left as it was", journal_lines(journal) == fed)
    if REF:
        rc, text = ref_verify(recovered)
        check(f"{policy}: the reference verifies the recovered bundle", rc == 0 and f"event_count: {fed}" in text,
              (rc, text))
        pack = os.path.join(CONF, "assay-upstream", "packs", "cicd-starter.yaml")
        if os.path.exists(pack):
            lp = subprocess.run([REF, "lint", recovered, pack], capture_output=True)
            ids = [f["rule_id"] for f in json.loads(lp.stdout).get("findings", [])]
            check(f"{policy}: the reference's cicd-starter flags a run without its end", lp.returncode in (0, 1) and
                  "cicd-starter@1.0.0:CICD-002" in ids, (lp.returncode, ids))

# --- the journal cut at every byte of its last two lines ---------------------------------------
journal = path("kill0.journal")
left = open(journal, "rb").read()
whole = left.rstrip(b"\0")  # a killed recorder leaves the space it reserved after its lines as zero bytes
check("the killed recorder's journal: its lines, then zero bytes to a page's end",
      len(left) % 4096 == 0 and len(left) > len(whole) and whole.endswith(b"\n") and b"\0" not in whole,
      (len(left), len(whole)))
starts = [0] + [i + 1 for i, b in enumerate(whole) if b == ord("\n")][:-1]
check("five lines to cut", len(starts) == 5, starts)
ref_checked = 0
for cut in range(starts[3], len(whole) + 1):
    cut_journal, cut_bundle = path("cut.journal"), path("cut.tar.gz")
    with open(cut_journal, "wb") as f:
        f.write(whole[:cut])
    kept = whole[:cut].count(b"\n")
    torn = cut - (starts[kept] if kept < 5 else len(whole))
    code, out, err = run(["evidence", "recover", cut_journal, "--out", cut_bundle])
    expected_err = b"" if torn == 0 else (f"assay evidence recover: the last line was cut short ({torn} bytes without "
                                          f"a newline) and was dropped: the run stopped while writing it\n").encode()
    check(f"cut at {cut}: {kept} whole event(s) recovered, {torn} torn byte(s) named",
          code == 0 and out.startswith(f"recovered {kept} event(s) from ".encode()) and err == expected_err,
          (code, out, err))
    sampled = cut % 37 == 0 or torn == 0 or cut == len(whole)  # each side verifies a sample (both processes)
    if sampled:
        v = ours_verify(cut_bundle)
        check(f"cut at {cut}: the bundle verifies here with {kept} event(s)", v.get("event_count") == kept, v)
    if REF and sampled:
        rc, text = ref_verify(cut_bundle)
        ref_checked += 1
        check(f"cut at {cut}: the reference verifies {kept} event(s)", rc == 0 and f"event_count: {kept}" in text,
              (rc, text))
check("the reference checked cuts", REF is None or ref_checked >= 5, ref_checked)

# --- journals that were changed are refused, naming the line -----------------------------------
lines = whole.splitlines(keepends=True)


def refused(name, data, rc, err):
    bad = path("bad.journal")
    with open(bad, "wb") as f:
        f.write(data)
    expect(name, ["evidence", "recover", bad, "--out", path("bad.tar.gz")], b"", rc, b"", err.replace("{J}", bad).encode())
    check(name + ": no bundle written", not os.path.exists(path("bad.tar.gz")))


refused("a line dropped", b"".join(lines[:2] + lines[3:]), 1,
        "assay evidence recover: ContractSequenceGap: {J}: line 3: sequence gap: seq 3 follows 1 (at /assayseq)\n")
edited = lines[1].replace(b'"n":1', b'"n":7')
code, out, err = run(["evidence", "recover", "-", "--out", path("x.tar.gz")])
check("recover takes files, not standard input", code == 2 and b"JOURNAL and --out name files" in err, err)
bad = path("bad.journal")
with open(bad, "wb") as f:
    f.write(b"".join([lines[0], edited] + lines[2:]))
code, out, err = run(["evidence", "recover", bad, "--out", path("bad.tar.gz")])
check("an edited payload: IntegrityEventHash on line 2, exit 1", code == 1 and err.startswith(
    f"assay evidence recover: IntegrityEventHash: {bad}: line 2: assaycontenthash does not match the content "
    "(expected sha256:".encode()), err)
refused("a space added", b"".join([lines[0].replace(b"{", b"{ ", 1)] + lines[1:]), 1,
        "assay evidence recover: ContractInvalidJson: {J}: line 1: the line is not the event's canonical form (the "
        "journal was changed after it was written)\n")
refused("a journal with no whole line", lines[0][:-1], 1,
        "assay evidence recover: ContractInvalidJson: {J}: the journal holds no complete event\n")
expect("a journal that is not there", ["evidence", "recover", path("absent.journal"), "--out", path("a.tar.gz")], b"",
       3, b"", f"assay evidence recover: cannot open the journal {path('absent.journal')}: No such file or "
               "directory\n".encode())

# --- record with a journal, finished ---------------------------------------------------------
events = path("events.ndjson")
with open(events, "wb") as f:
    f.write(b"".join(lines_of(6)))
plain, journaled, j = path("plain.tar.gz"), path("journaled.tar.gz"), path("finished.journal")
expect("record without a journal", ["evidence", "record", events, "--out", plain, "--run-id", "same"], env=env,
       out=f"recorded 6 event(s) of run same into {plain}\n".encode())
expect("record with a journal", ["evidence", "record", events, "--out", journaled, "--run-id", "same", "--journal", j,
                                 "--sync", "2"], env=env, out=f"recorded 6 event(s) of run same into {journaled}\n".encode())
check("the same bundle, byte for byte, with or without a journal",
      open(plain, "rb").read() == open(journaled, "rb").read())
check("the journal is removed once the bundle is written", not os.path.exists(j))
with open(j, "wb") as f:
    f.write(b"an earlier run\n")
expect("a journal already there is refused, not overwritten", ["evidence", "record", events, "--out",
                                                                path("o.tar.gz"), "--journal", j], b"", 3, b"",
       f"assay evidence record: --journal: a journal already exists at {j}: an unfinished run's? Recover it (assay "
       f"evidence recover {j} --out B.tar.gz) or remove it\n".encode())
check("... and left as it was", open(j, "rb").read() == b"an earlier run\n")
os.remove(j)
bad_events = path("bad.ndjson")
with open(bad_events, "wb") as f:
    f.write(lines_of(1)[0] + b'{"type":""}\n')
code, out, err = run(["evidence", "record", bad_events, "--out", path("r.tar.gz"), "--journal", j])
check("a refused record writes no bundle and keeps its journal with the events taken, and says so",
      code == 1 and not os.path.exists(path("r.tar.gz")) and err.decode().endswith(
          f"assay evidence record: the journal {j} keeps the 1 event(s) recorded: assay evidence recover {j} "
          "--out B.tar.gz\n"), (code, err))
code, out, err = run(["evidence", "recover", j, "--out", path("refused-recovered.tar.gz")])
check("... which recovers the event taken", code == 0 and b"recovered 1 event(s)" in out, (code, err))
os.remove(j)
expect("--sync needs --journal", ["evidence", "record", events, "--out", path("s.tar.gz"), "--sync", "5"], b"", 2, b"",
       usage_err("evidence record", "--sync applies to a journal: give --journal J"))
expect("--sync is checked", ["evidence", "record", events, "--out", path("s.tar.gz"), "--journal", j, "--sync",
                             "often"], b"", 2, b"",
       usage_err("evidence record", "--sync often: expected event, N (every N events), Tms (every T milliseconds) "
                                    "or never"))
code, out, err = run(["evidence", "record", events, "--out", "-", "--run-id", "same", "--journal", j], env=env)
check("--journal with --out -: the bundle on standard output, the journal removed",
      code == 0 and out == open(plain, "rb").read() and not os.path.exists(j), (code, err))
expect("--journal and --out the same file", ["evidence", "record", events, "--out", j, "--journal", j], b"", 2, b"",
       usage_err("evidence record", "--journal and --out name the same file: the bundle would replace the journal"))
check("no journal left by the usage errors", not os.path.exists(j))
same = path("same.journal")
shutil.copy(five_lines := path("kill0.journal"), same)
os.link(same, path("same-link.tar.gz"))
expect("recover refuses to write the bundle over its journal", ["evidence", "recover", same, "--out", same], b"", 1,
       b"", f"assay evidence recover: the bundle {same} would replace the journal {same}: write it to another "
            "file\n".encode())
expect("... also through another name of the same file", ["evidence", "recover", same, "--out",
                                                           path("same-link.tar.gz")], b"", 1, b"",
       f"assay evidence recover: the bundle {path('same-link.tar.gz')} would replace the journal {same}: write it to "
       "another file\n".encode())
check("... and the journal is as it was", open(same, "rb").read() == open(five_lines, "rb").read())

# --- limits: a run longer than the verifier's defaults is packed with larger ones --------------
small, large, not_limits = path("small.json"), path("large.json"), path("not.json")
with open(small, "w") as f:
    f.write('{"max_events": 3}')
with open(large, "w") as f:
    f.write('{"max_events": 10}')
with open(not_limits, "w") as f:
    f.write('{"max_events": "many"}')
five = path("kill0.journal")
expect("recover --limits: a journal past the limit is refused at the line that passes it",
       ["evidence", "recover", five, "--out", path("l.tar.gz"), "--limits", small], b"", 1, b"",
       f"assay evidence recover: LimitTotalEvents: {five}: line 4: more than the limit of 3 events\n".encode())
code, out, err = run(["evidence", "recover", five, "--out", path("l.tar.gz"), "--limits", large])
check("recover --limits: within larger limits it is recovered", code == 0 and b"recovered 5 event(s)" in out, err)
code, out, err = run(["evidence", "recover", five, "--out", path("l.tar.gz"), "--limits", not_limits])
check("recover --limits: a file that holds no limits is a usage error", code == 2 and
      err.startswith(f"assay evidence recover: {not_limits}: ".encode()), err)
code, out, err = run(["evidence", "record", events, "--out", path("r.tar.gz"), "--journal", j, "--limits", small])
check("record --limits: a run past the limit keeps its journal, and says why", code == 1 and os.path.exists(j) and
      not os.path.exists(path("r.tar.gz")) and
      err == f"assay evidence record: {j}: line 4: more than the limit of 3 events\nassay evidence record: the journal "
             f"{j} keeps the 6 event(s) recorded: assay evidence recover {j} --out B.tar.gz\n".encode(), (code, err))
code, out, err = run(["evidence", "recover", j, "--out", path("r.tar.gz"), "--limits", large])
check("... and that journal is recovered with larger limits", code == 0 and b"recovered 6 event(s)" in out, err)
os.remove(j)
expect("record --limits in memory", ["evidence", "record", events, "--out", path("m.tar.gz"), "--limits", small],
       b"", 1, b"", b"assay evidence record: more than the limit of 3 events\n")
bundle_events = path("bundle-events.ndjson")
with open(bundle_events, "wb") as f:
    f.write(whole)
expect("bundle --limits", ["evidence", "bundle", "--events", bundle_events, "--out", path("b.tar.gz"), "--limits",
                           small], b"", 1, b"", err_contains=b"LimitTotalEvents")
code, out, err = run(["evidence", "bundle", "--events", bundle_events, "--out", path("b.tar.gz"), "--limits", large])
check("bundle --limits within them", code == 0, err)
shutil.rmtree(work)
finish()
