"""Nothing lost, nothing leaked (SPEC §9, §17): what `assay evidence record` and `recover` keep
when their input or their disk fails, and the files they write.

- a named journal survives every failure of `record` (a torn last line, a refused line, a file-size
  limit reached, --max-bytes), holds every event taken, and recovers into a bundle that verifies
  here and in the reference; input that ends inside a line is a failure;
- `--profile` writes assay.profile.started first and assay.profile.finished only on a clean end;
- recovery stops at a hole of zero bytes (pages lost in a power loss), recovers the whole lines
  before it and reports the hole; it reads a journal given as a FIFO;
- values a payload's privacy classes call sensitive are generalized by default, kept with
  --keep-sensitive;
- bundles are created 0666 less the umask, an existing bundle keeps its mode, journals are 0600, a
  symlinked --out is written through and a FIFO --out in place;
- times after 2262-04-11T23:47:16Z are refused, not wrapped; a long --run-id is echoed cut;
- without --journal the run streams: peak memory stays flat while the input grows tenfold.

Run as `nothing_lost_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)`.
"""
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import ASSAY, check, finish, run  # noqa: E402

REF = os.environ.get("ASSAY_REF") or shutil.which("assay-ref")
if not REF or not os.path.exists(REF):
    if os.environ.get("ASSAY_REQUIRE_ORACLE") == "1":
        print("assay-ref required but absent")
        sys.exit(1)
    REF = None
work = tempfile.mkdtemp()
env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
PREFIX = "assay evidence record: "


def path(name):
    return os.path.join(work, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)
    return path(name)


def lines_of(n, start=0):
    return b"".join(json.dumps({"type": "x.step", "data": {"n": i}}).encode() + b"\n" for i in range(start, start + n))


def events_of(bundle):
    with tarfile.open(bundle, "r:gz") as t:
        return [json.loads(x) for x in t.extractfile("events.ndjson").read().splitlines()]


def verifies(bundle):
    ours = run(["evidence", "verify", bundle])[0] == 0
    ref = REF is None or subprocess.run([REF, "verify", bundle], capture_output=True).returncode == 0
    return ours and ref


def kept_line(journal, n):
    return (f"{PREFIX}the journal {journal} keeps the {n} event(s) recorded: assay evidence recover {journal} "
            "--out B.tar.gz\n")


def recovered(journal, n, name):
    out_bundle = path(name)
    code, out, err = run(["evidence", "recover", journal, "--out", out_bundle])
    return code == 0 and out.startswith(f"recovered {n} event(s) from {journal}".encode()) and \
        [e["data"]["n"] for e in events_of(out_bundle)] == list(range(n)) and verifies(out_bundle)


# --- 1. a named journal survives every failure ------------------------------------------------
j = path("torn.journal")
code, out, err = run(["evidence", "record", "--out", path("never.tar.gz"), "--journal", j, "--run-id", "r"],
                     stdin=lines_of(3) + b'{"type":"x.step","data":{"n":', env=env)
check("a torn last line: exit 2, no bundle, the journal kept and said so", code == 2 and
      not os.path.exists(path("never.tar.gz")) and err.decode() ==
      f"{PREFIX}<stdin>: the input ended inside line 4 (29 bytes without a newline): the producer stopped while "
      "writing it; every line must end with a newline\n" + kept_line(j, 3), (code, err))
check("... and it recovers the three whole lines, verified here and by the reference", recovered(j, 3, "torn.tar.gz"))

j = path("refused.journal")
code, out, err = run(["evidence", "record", "--out", path("never.tar.gz"), "--journal", j, "--run-id", "r"],
                     stdin=lines_of(2) + b'{"type":"assay.tool.decision","data":{"tool":"t","decision":"maybe",'
                     b'"reason_code":"x"}}\n' + lines_of(2, 2), env=env)
check("a refused line after good ones: exit 1, the journal keeps the four others", code == 1 and
      err.decode() == f"{PREFIX}<stdin>: line 3: at /data/decision: \"maybe\" is not one of \"allow\", \"deny\", "
      "\"requires_approval\", \"error\"\n" + kept_line(j, 4), (code, err))
check("... and they recover", recovered(j, 4, "refused.tar.gz"))

j = path("max.journal")
code, out, err = run(["evidence", "record", "--out", path("never.tar.gz"), "--journal", j, "--run-id", "r",
                      "--max-bytes", "100"], stdin=lines_of(8), env=env)
check("--max-bytes reached: the journal keeps what was taken before it", code == 2 and
      err.decode().endswith(kept_line(j, 2)) and recovered(j, 2, "max.tar.gz"), (code, err))

# A file-size limit (RLIMIT_FSIZE, as a full disk): the append that needs the space fails, the
# reading stops at once, the journal holds every event before it.
j = path("full.journal")
many = b"".join(json.dumps({"type": "x.step", "data": {"n": i, "pad": "p" * 300}}).encode() + b"\n"
                for i in range(6000))


def small_disk():
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))


p = subprocess.run([ASSAY, "evidence", "record", "--out", path("never.tar.gz"), "--journal", j, "--run-id", "r"],
                   input=many, capture_output=True, env=env, preexec_fn=small_disk)
held = open(j, "rb").read().count(b"\n")
check("a full disk: exit 3, one error, the journal kept with every event it took",
      p.returncode == 3 and held > 1000 and p.stderr.decode() ==
      f"{PREFIX}cannot write the journal {j}: File too large\n" + kept_line(j, held), (p.returncode, p.stderr[:300]))
code, out, err = run(["evidence", "recover", j, "--out", path("full.tar.gz")])
check("... and they all recover", code == 0 and len(events_of(path("full.tar.gz"))) == held and
      verifies(path("full.tar.gz")), err)

# --- 4. --profile ---------------------------------------------------------------------------------
prof = lines_of(1) + b'{"type":"x.net.connect","data":{},"subject":"example.org:443"}\n' + \
    b'{"type":"x.fs.read","data":{}}\n{"type":"assay.sandbox.degraded","data":{"reason_code":"backend_unavailable",' \
    b'"degradation_mode":"audit_fallback","component":"landlock"}}\n'
code, out, err = run(["evidence", "record", "--out", path("profile.tar.gz"), "--run-id", "p", "--profile", "ci@2.1"],
                     stdin=prof, env=env)
ev = events_of(path("profile.tar.gz")) if code == 0 else []
check("--profile: started first, finished last with the counts by capability",
      [e["type"] for e in ev] == ["assay.profile.started", "x.step", "x.net.connect", "x.fs.read",
                                   "assay.sandbox.degraded", "assay.profile.finished"] and
      ev[0]["data"] == {"profile_name": "ci", "profile_version": "2.1", "total_runs_aggregated": 1} and
      ev[-1]["data"] == {"files_count": 1, "network_count": 1, "processes_count": 0,
                         "sandbox_degradation_count": 1} and
      ev[0]["subject"] == ev[-1]["subject"] == "urn:assay:phase:profile" and verifies(path("profile.tar.gz")),
      (code, err, ev[:1]))
j = path("profile.journal")
code, out, err = run(["evidence", "record", "--out", path("never.tar.gz"), "--journal", j, "--profile", "ci"],
                     stdin=prof + b'{"type":"x', env=env)
code2, out2, err2 = run(["evidence", "recover", j, "--out", path("profile-cut.tar.gz")])
ev = events_of(path("profile-cut.tar.gz")) if code2 == 0 else []
check("--profile and input that ends inside a line: a failure, the journal has started and no finished",
      code == 2 and [e["type"] for e in ev] == ["assay.profile.started", "x.step", "x.net.connect", "x.fs.read",
                                                "assay.sandbox.degraded"], (code, err, code2, err2))
code, out, err = run(["evidence", "record", "--out", path("never.tar.gz"), "--profile", "@1"], stdin=prof)
check("--profile is checked", code == 2 and b"--profile @1: expected NAME or NAME@VERSION" in err, err)

# --- 3, 5. recovery: a zero hole, a FIFO ---------------------------------------------------------
code, out, err = run(["evidence", "record", "--out", path("twelve.tar.gz"), "--run-id", "h"], stdin=lines_of(12),
                     env=env)
with tarfile.open(path("twelve.tar.gz"), "r:gz") as t:
    whole = t.extractfile("events.ndjson").read()  # a journal holds exactly these bytes
cut = sum(len(x) + 1 for x in whole.split(b"\n")[:5])
holed = write("holed.journal", whole[:cut] + b"\0" * 40 + whole[cut + 40:])
code, out, err = run(["evidence", "recover", holed, "--out", path("holed.tar.gz")])
after = len(whole) - cut - 40
check("a hole of zero bytes: the five lines before it recovered, the hole and what follows reported",
      code == 0 and len(events_of(path("holed.tar.gz"))) == 5 and verifies(path("holed.tar.gz")) and
      err.decode() == f"assay evidence recover: a hole of 40 zero bytes at byte {cut} (pages that never reached "
      f"the disk): the {after} bytes after it are not recovered\n", (code, err))
mid = cut + 10
holed = write("holed-mid.journal", whole[:mid] + b"\0" * 30 + whole[mid + 30:])
code, out, err = run(["evidence", "recover", holed, "--out", path("holed-mid.tar.gz")])
check("a hole inside a line: the line it cut counted, the lines before it recovered",
      code == 0 and len(events_of(path("holed-mid.tar.gz"))) == 5 and
      b"a hole of 30 zero bytes at byte %d (pages that never reached the disk), after 10 bytes of a line it cut "
      b"short" % mid in err, (code, err))
tail = write("tail.journal", whole + b"\0" * 8192)
code, out, err = run(["evidence", "recover", tail, "--out", path("tail.tar.gz")])
check("zero bytes to the end are the reserved space: all twelve, nothing said", code == 0 and err == b"" and
      len(events_of(path("tail.tar.gz"))) == 12, err)

fifo = path("journal.fifo")
os.mkfifo(fifo)


def feed():
    with open(fifo, "wb") as f:
        f.write(whole + b"\0" * 100)


t = threading.Thread(target=feed)
t.start()
code, out, err = run(["evidence", "recover", fifo, "--out", path("fifo.tar.gz")])
t.join()
check("a journal read from a FIFO: every line recovered", code == 0 and len(events_of(path("fifo.tar.gz"))) == 12 and
      open(path("fifo.tar.gz"), "rb").read() == open(path("tail.tar.gz"), "rb").read(), (code, err))

# --- 7. redacted by default ------------------------------------------------------------------
secret = b'{"type":"assay.tool.decision","data":{"tool":"t","decision":"deny","reason_code":"E","reason":' \
    b'"read /home/alice/notes.txt with token=abc123","note":"C:\\\\Users\\\\bob\\\\key.pem"}}\n'
code, out, err = run(["evidence", "record", "--out", path("red.tar.gz"), "--run-id", "r"], stdin=secret, env=env)
data = events_of(path("red.tar.gz"))[0]["data"] if code == 0 else {}
check("a sensitive reason and an additive member are generalized by default",
      data == {"tool": "t", "decision": "deny", "reason_code": "E", "reason": "read ~/**/notes.txt with token=***",
               "note": "~/**/key.pem"} and verifies(path("red.tar.gz")), (code, err, data))
code, out, err = run(["evidence", "record", "--out", path("kept.tar.gz"), "--run-id", "r", "--keep-sensitive"],
                     stdin=secret, env=env)
data = events_of(path("kept.tar.gz"))[0]["data"] if code == 0 else {}
check("--keep-sensitive keeps them as written", data.get("reason") == "read /home/alice/notes.txt with token=abc123"
      and data.get("note") == "C:\\Users\\bob\\key.pem", (code, err, data))

# --- 9. files -----------------------------------------------------------------------------------
old = os.umask(0o027)
try:
    code, out, err = run(["evidence", "record", "--out", path("mode.tar.gz"), "--journal", path("mode.journal"),
                          "--sync", "never"], stdin=lines_of(1))
    check("a new bundle: 0666 less the umask (0640 under 027)", code == 0 and
          stat.S_IMODE(os.stat(path("mode.tar.gz")).st_mode) == 0o640, oct(os.stat(path("mode.tar.gz")).st_mode))
finally:
    os.umask(old)
os.chmod(path("mode.tar.gz"), 0o600)
code, out, err = run(["evidence", "record", "--out", path("mode.tar.gz")], stdin=lines_of(2))
check("an existing 0600 bundle stays 0600 when replaced", code == 0 and
      stat.S_IMODE(os.stat(path("mode.tar.gz")).st_mode) == 0o600 and len(events_of(path("mode.tar.gz"))) == 2)
jpath = path("open.journal")
proc = subprocess.Popen([ASSAY, "evidence", "record", "--out", path("open.tar.gz"), "--journal", jpath],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
proc.stdin.write(lines_of(1))
proc.stdin.flush()
for _ in range(500):
    if os.path.exists(jpath) and os.path.getsize(jpath) > 0:
        break
    threading.Event().wait(0.01)
journal_mode = stat.S_IMODE(os.stat(jpath).st_mode)
proc.communicate()
check("a journal is created 0600 (it holds the raw events)", journal_mode == 0o600, oct(journal_mode))
os.makedirs(path("real"))
write("real/target.tar.gz", b"old")
os.symlink(path("real/target.tar.gz"), path("link.tar.gz"))
code, out, err = run(["evidence", "record", "--out", path("link.tar.gz"), "--journal", path("link.journal")],
                     stdin=lines_of(1))
check("a symlinked --out is written through: the link kept, its target replaced", code == 0 and
      os.path.islink(path("link.tar.gz")) and len(events_of(path("real/target.tar.gz"))) == 1, err)
out_fifo = path("out.fifo")
os.mkfifo(out_fifo)
got = []


def drain():
    with open(out_fifo, "rb") as f:
        got.append(f.read())


t = threading.Thread(target=drain)
t.start()
code, out, err = run(["evidence", "recover", path("tail.journal"), "--out", out_fifo])
t.join()
check("a FIFO --out is written in place: its reader gets the bundle", code == 0 and got and
      got[0] == open(path("tail.tar.gz"), "rb").read() and stat.S_ISFIFO(os.stat(out_fifo).st_mode), (code, err))
check("no temporary left beside the outputs", not [n for n in os.listdir(work) if ".tmp-" in n or
                                                   n.startswith(".assay-record")], os.listdir(work))

# --- 10, 16. wrong without a word ---------------------------------------------------------------
code, out, err = run(["evidence", "record", "--out", path("never.tar.gz")],
                     stdin=b'{"type":"x.a","data":{},"time":"2262-04-11T23:47:17Z"}\n')
check("a time after 2262-04-11T23:47:16Z is refused with its pointer", code == 1 and
      b"line 1: at /time: the time is before 1970, after 2262-04-11T23:47:16Z" in err and
      not os.path.exists(path("never.tar.gz")), err)
code, out, err = run(["evidence", "record", "--out", path("last.tar.gz"), "--run-id", "r"],
                     stdin=b'{"type":"x.a","data":{},"time":"2262-04-11T23:47:15.5Z"}\n')
check("... and the second before it is recorded as written", code == 0 and
      events_of(path("last.tar.gz"))[0]["time"] == "2262-04-11T23:47:15.500Z", err)
code, out, err = run(["evidence", "record", "--out", path("never.tar.gz")], stdin=lines_of(1),
                     env=dict(os.environ, SOURCE_DATE_EPOCH="253402300799"))
check("SOURCE_DATE_EPOCH past the clock's range is a usage error", code == 2 and err.startswith(
    b"assay evidence record: SOURCE_DATE_EPOCH 253402300799 is after 2262-04-11T23:47:16Z") and
    not os.path.exists(path("never.tar.gz")), err)
long_id = "a" * 5000
code, out, err = run(["evidence", "record", "--out", path("long.tar.gz"), "--run-id", long_id], stdin=lines_of(1))
check("a 5,000-byte --run-id is echoed cut at 120", code == 0 and len(out) < 300 and
      out.startswith(b"recorded 1 event(s) of run " + b"a" * 100) and
      events_of(path("long.tar.gz"))[0]["assayrunid"] == long_id, out[:200])


# --- 17. memory stays flat without --journal ------------------------------------------------------
def peak_kib(n):
    src = path(f"flat{n}.ndjson")
    with open(src, "wb") as f:
        for i in range(n):
            f.write(b'{"type":"x.step","data":{"n":%d,"pad":"%s"}}\n' % (i, b"q" * 100))
    rss = path(f"flat{n}.rss")
    code = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", rss, ASSAY, "evidence", "record", src, "--out",
                            path(f"flat{n}.tar.gz")])
    text = open(rss).read().split()
    os.remove(src)
    return code, int(text[-1]) if text and text[-1].isdigit() else -1


if os.path.exists("/usr/bin/time"):
    c1, small_peak = peak_kib(9000)
    c2, large_peak = peak_kib(90000)
    if os.environ.get("ASSAY_SANITIZE", "none") not in ("", "none"):
        # AddressSanitizer's quarantine keeps freed memory resident: the bound is the plain builds'.
        check("record without --journal: both runs finish (memory bound checked by the plain builds)",
              c1 == 0 and c2 == 0, (small_peak, large_peak))
    else:
        check("record without --journal: peak memory flat while the run grows tenfold (under 8 MiB more)",
              c1 == 0 and c2 == 0 and small_peak > 0 and large_peak - small_peak < 8192, (small_peak, large_peak))
else:
    print("skip: memory (no /usr/bin/time)")

shutil.rmtree(work)
finish()
