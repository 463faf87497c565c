"""Reading pack files safely (SPEC §10, issue 29): a pack file is read up to 4 MiB (a larger one, or
/dev/zero, is a load error, read as a stream: never more than the cap in memory); an alias bomb is
refused in bounded memory; YAML line breaks and control characters are read as the reference
reads them. Peak memory is each child's own ru_maxrss (os.wait4)."""
import os
import subprocess
import threading

from clitest import ASSAY, check, expect, finish, run, tmpfile, bundle_of, event

MIB = 1 << 20
HEAD = (b"name: p\nversion: \"1.0.0\"\nkind: security\ndescription: d\nauthor: a\nlicense: l\n"
        b"requires:\n  assay_min_version: \">=1.0\"\nrules:\n")


def run_measured(args, timeout=20):
    """(exit code, stdout, stderr, peak RSS in KiB) of `assay ARGS`; None as the code when it was
    killed after `timeout` seconds."""
    out, err = tmpfile(b""), tmpfile(b"")
    with open(out, "wb") as o, open(err, "wb") as e:
        p = subprocess.Popen([ASSAY] + args, stdout=o, stderr=e)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    code = None if p.returncode < 0 else p.returncode
    return code, open(out, "rb").read(), open(err, "rb").read(), usage.ru_maxrss


# --- the alias bomb: an anchor on a 256 KiB string, 64 aliases of it anchored, 64 aliases of that.
bomb = bytearray(HEAD + b"  - id: R1\n    severity: error\n    description: r\n    notes:\n      s: &s "
                 + b"a" * (256 << 10) + b"\n      l: &l [")
alias_at = []
for i in range(64):
    bomb += b"" if i == 0 else b", "
    alias_at.append(len(bomb))
    bomb += b"*s"
bomb += b"]\n      m: [" + b", ".join([b"*l"] * 64) + b"]\n    check: {type: event_count, min: 1}\n"
check("the bomb is 257 KB", len(bomb) == 262914, str(len(bomb)))
bomb_path = tmpfile(bytes(bomb))
code, out, err, rss = run_measured(["pack", "check", bomb_path])
column = alias_at[30] - bytes(bomb).rfind(b"\n", 0, alias_at[30])
check("pack check refuses the alias bomb (exit 1, SPEC §17)", code == 1, f"rc={code} {err!r}")
check("pack check names the byte budget at the alias that passes it",
      out == (f"FAIL {bomb_path}\n  {bomb_path}:15:{column}: more than 8388608 bytes of scalar text (aliases "
              f"expanded) (at /rules/0/notes/l/30)\n").encode(), repr(out))
check("the alias bomb is refused under 256 MiB", rss < 256 * 1024, f"{rss} KiB")

# --- /dev/zero and a 5 MiB file: read no further than the cap.
code, out, err, rss = run_measured(["pack", "check", "/dev/zero"], timeout=10)
check("pack check /dev/zero ends, exit 1", code == 1, f"rc={code} {err!r}")
check("pack check /dev/zero names the 4 MiB limit",
      out == b"FAIL /dev/zero\n  pack file \"/dev/zero\" is larger than 4 MiB (4194304 bytes)\n", repr(out))
check("pack check /dev/zero stays under 256 MiB (about 18 MiB; some 100 under the sanitizers)", rss < 256 * 1024,
      f"{rss} KiB")

# A valid pack padded with a comment to exactly 4 MiB loads; one byte more does not.
rule = b"  - id: R1\n    severity: error\n    description: r\n    check: {type: event_count, min: 1}\n"
pad = 4 * MIB - len(HEAD) - len(rule) - 3
at_cap = HEAD + rule + b"# " + b"x" * pad + b"\n"
check("the padded pack is 4 MiB", len(at_cap) == 4 * MIB)
at_cap_path = tmpfile(at_cap)
code, out, _ = run(["pack", "check", at_cap_path])
check("a 4 MiB pack loads", code == 0 and out.startswith(b"ok   p@1.0.0 security sha256:"), f"rc={code} {out[:200]!r}")
over = tmpfile(at_cap[:-1] + b"x\n")
expect("a pack one byte over 4 MiB is refused", ["pack", "check", over], rc=1,
       out=f"FAIL {over}\n  pack file \"{over}\" is larger than 4 MiB (4194304 bytes)\n".encode())
five = tmpfile(HEAD + rule + b"#" + b"x" * (5 * MIB) + b"\n")
expect("a 5 MiB pack is refused", ["pack", "check", five], rc=1,
       out=f"FAIL {five}\n  pack file \"{five}\" is larger than 4 MiB (4194304 bytes)\n".encode())
# Where a pack is a load failure of a command (lint: exit 3, SPEC §17), the same error.
bundle = bundle_of([event(0, "assay.profile.started",
                          {"profile_name": "p", "profile_version": "1", "total_runs_aggregated": 0})])
expect("evidence lint --pack /dev/zero: exit 3", ["evidence", "lint", bundle, "--pack", "/dev/zero"], rc=3,
       err=b"assay evidence lint: pack file \"/dev/zero\" is larger than 4 MiB (4194304 bytes)\n")

# --- line breaks and control characters as the reference reads them.
def pack_with(brk):
    return HEAD + b"  - id: R1\n    severity: error" + brk + \
        b"    event_types: [nothing.here]\n    description: r\n    check: {type: event_count, min: 1}\n"


code, lf_out, _ = run(["pack", "check", tmpfile(pack_with(b"\n"))])
check("the LF pack loads", code == 0, repr(lf_out))
lf_digest = lf_out.split(b"\n")[0].split(b" ")[-1]
for brk in [b" #\r", b" #\r\n", b" #\xc2\x85", b" #\xe2\x80\xa8", b" #\xe2\x80\xa9"]:
    code, out, _ = run(["pack", "check", tmpfile(pack_with(brk))])
    check(f"a comment ended by {brk[2:]!r} ends before event_types: the same digest",
          code == 0 and out.split(b"\n")[0].split(b" ")[-1] == lf_digest, repr(out))
for byte, name in [(b"\x00", "0000"), (b"\x0b", "000B"), (b"\x0c", "000C")]:
    path = tmpfile(pack_with(b"\n").replace(b"description: r", b"description: r" + byte))
    expect(f"U+{name} in a pack is refused", ["pack", "check", path], rc=1,
           out=f"FAIL {path}\n  {path}:13:19: YAML: control characters are not allowed (U+{name})\n".encode())

for big in (bomb_path, at_cap_path, over, five):
    os.unlink(big)
finish()
