"""Nothing lost, nothing leaked: packs lint refuses together are not stamped either (bundle, record,
attest); a pack folder's dangling or looping link is an error naming it, and pack check/show read a
folder of packs; sim drift refuses soaks of two decision policies as sim merge does; show says the
manifest's x-assay is claimed, not verified; attest --pack refuses packs the bundle's own stamp
contradicts; show takes --limits.

Run as `nothing_lost_test.py ASSAY SOURCE_ROOT CONFORMANCE_DIR REQUIRE`.
"""
import json
import os
import subprocess
import tempfile

from clitest import bundle_of, check, event, expect, finish, jcs, run, tmpfile

work = tempfile.mkdtemp()


def path(name):
    return os.path.join(work, name)


def write(name, text):
    with open(path(name), "w", encoding="utf-8") as f:
        f.write(text)
    return path(name)


PACK = """name: own-controls
version: 2.0.0
kind: compliance
description: Controls of this test
author: assay tests
license: Apache-2.0
disclaimer: Not legal advice.
requires:
  assay_min_version: ">=1.0.0"
rules:
  - id: OWN-003
    severity: info
    description: A model is recorded
    article_ref: "{ref}"
    check: {{type: event_type_exists, pattern: "assay.model.invoked"}}
"""
annex4 = write("annex4.yaml", PACK.format(ref="Annex IV"))
annex5 = write("annex5.yaml", PACK.format(ref="Annex V"))
events = [event(0, "assay.model.invoked", {"model": "m-1"})]
events_file = tmpfile(b"".join(jcs(e) + b"\n" for e in events))
minimal_file = tmpfile(b'{"type":"assay.model.invoked","data":{"model":"m-1"}}\n')

# --- 12: one name@version with two mappings of OWN-003: refused by lint, and by every stamp.
refused = (': rule "own-controls@2.0.0:OWN-003" is defined by two packs (' + annex4 + " and " + annex5 +
           "); a compliance pack's rule ids must be unique\n")
plain = bundle_of(events)
expect("lint refuses the pair (exit 3)", ["evidence", "lint", plain, "--pack", annex4, "--pack", annex5], rc=3,
       out=b"", err=("assay evidence lint" + refused).encode())
out = path("stamped.tar.gz")
expect("bundle --pack refuses the pair with lint's error (exit 3)",
       ["evidence", "bundle", "--events", events_file, "--out", out, "--pack", annex4, "--pack", annex5], rc=3,
       out=b"", err=("assay evidence bundle" + refused).encode())
check("bundle --pack wrote nothing for the pair", not os.path.exists(out))
expect("record --pack refuses the pair with lint's error (exit 3)",
       ["evidence", "record", minimal_file, "--out", out, "--pack", annex4 + "," + annex5], rc=3, out=b"",
       err=("assay evidence record" + refused).encode())
check("record --pack wrote nothing for the pair", not os.path.exists(out))
stamped = bundle_of(events, "--pack", annex4)

key = path("k.pem")
made = subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", key], capture_output=True)
check("openssl makes an Ed25519 key", made.returncode == 0, made.stderr)
envelope = path("e.json")
expect("attest --pack refuses the pair with lint's error (exit 3)",
       ["evidence", "attest", stamped, "--key", key, "--out", envelope, "--pack", annex4, "--pack", annex5], rc=3,
       out=b"", err=("assay evidence attest" + refused).encode())


def digest_of(p):
    code, o, _ = run(["pack", "check", p])
    return o.split(b"\n")[0].split()[3].decode() if code == 0 else None


d4, d5 = digest_of(annex4), digest_of(annex5)
check("the two packs have digests of their own", d4 is not None and d5 is not None and d4 != d5, f"{d4} {d5}")

# --- 15: attest --pack must agree with the bundle's own stamp.
expect("attest --pack contradicting the stamp is refused (exit 1)",
       ["evidence", "attest", stamped, "--key", key, "--out", envelope, "--pack", annex5], rc=1, out=b"",
       err=("assay evidence attest: the packs given contradict the bundle's own stamp (its manifest's x-assay): "
            f"packs: given only own-controls@2.0.0 ({d5}); stamped only own-controls@2.0.0 ({d4}); "
            "mappings: given only own-controls@2.0.0:OWN-003 -> own-controls Annex V; "
            "stamped only own-controls@2.0.0:OWN-003 -> own-controls Annex IV\n").encode())
check("nothing signed when the stamp is contradicted", not os.path.exists(envelope))
code, o, e = run(["evidence", "attest", stamped, "--key", key, "--out", envelope, "--pack", annex4])
check("attest --pack agreeing with the stamp signs (exit 0)", code == 0 and os.path.exists(envelope), e)
os.unlink(envelope)
code, o, e = run(["evidence", "attest", plain, "--key", key, "--out", envelope, "--pack", annex5])
check("attest --pack of a bundle without a stamp signs (nothing to contradict)", code == 0, e)

# --- 15: show says x-assay is claimed, not verified; editing it still verifies.
code, o, e = run(["evidence", "show", stamped], env=dict(os.environ, COLUMNS="200"))
lines = o.decode().split("\n")
check("show: the packs line says claimed, not verified",
      f"packs     1: own-controls@2.0.0 {d4} (claimed, not verified)" in lines, o)
check("show: the mappings line says claimed, not verified",
      "mappings  1: own-controls Annex IV (claimed, not verified)" in lines, o)
check("show: verified ok stands for the digests only", "verified  ok" in lines, o)
code, o, e = run(["evidence", "show", stamped, "--format", "json"])
doc = json.loads(o)
check("show --format json: claimed names the x-assay members",
      code == 0 and doc["verified"] is True and doc["claimed"] == ["/x-assay/packs_applied", "/x-assay/mappings"],
      o[-200:])
code, o, e = run(["evidence", "show", plain, "--format", "json"])
check("show --format json: no claimed member without x-assay", code == 0 and "claimed" not in json.loads(o), o[-200:])

# --- 13: a pack folder: a dangling link and a loop are errors naming them; check/show read folders.
folder = path("packs")
os.mkdir(folder)
with open(os.path.join(folder, "a.yaml"), "w", encoding="utf-8") as f:
    f.write(PACK.format(ref="Annex IV"))
builtin = run(["pack", "show", "cicd-starter"])[1]
with open(os.path.join(folder, "b.json"), "wb") as f:
    f.write(builtin)
a_file, b_file = os.path.join(folder, "a.yaml"), os.path.join(folder, "b.json")
expect("pack check DIR lists and checks each pack of the folder", ["pack", "check", folder], rc=0,
       out=(f"ok   own-controls@2.0.0 compliance {d4}\n  1 rule; source {a_file}; signals: none\n"
            f"ok   cicd-starter@1.0.0+assay quality {digest_of('cicd-starter')}\n"
            f"  4 rules; source {b_file}; signals: none\n").encode(), err=b"")
expect("pack show DIR of several packs says to name one (exit 1)", ["pack", "show", folder], rc=1, out=b"",
       err=(f'assay pack show: pack folder "{folder}" holds 2 packs (a.yaml, b.json): pack show prints one, '
            "so name its file; pack check lists them all\n").encode())
dangling = os.path.join(folder, "c.yaml")
os.symlink(os.path.join(folder, "nowhere.yaml"), dangling)
expect("lint --pack DIR: a dangling link is a pack load failure naming it (exit 3)",
       ["evidence", "lint", plain, "--pack", folder], rc=3, out=b"",
       err=f'assay evidence lint: pack folder "{folder}": "c.yaml" is a symbolic link to nothing (dangling)\n'
       .encode())
expect("pack check DIR: a dangling link fails the folder (exit 1)", ["pack", "check", folder], rc=1,
       out=f'FAIL {folder}\n  pack folder "{folder}": "c.yaml" is a symbolic link to nothing (dangling)\n'.encode())
os.unlink(dangling)
loop = os.path.join(folder, "l.yaml")
os.symlink("l.yaml", loop)
expect("lint --pack DIR: a link loop is a pack load failure naming it (exit 3)",
       ["evidence", "lint", plain, "--pack", folder], rc=3, out=b"",
       err=f'assay evidence lint: pack folder "{folder}": "l.yaml" is a symbolic link loop\n'.encode())
expect("bundle --pack DIR: a link loop is refused as lint refuses it (exit 3)",
       ["evidence", "bundle", "--events", events_file, "--out", out, "--pack", folder], rc=3, out=b"",
       err=f'assay evidence bundle: pack folder "{folder}": "l.yaml" is a symbolic link loop\n'.encode())
os.unlink(loop)
os.unlink(b_file)
expect("pack show DIR of one pack shows it", ["pack", "show", folder], rc=0, out=run(["pack", "show", a_file])[1],
       err=b"")

# --- 14: sim drift refuses soaks of two decision policies, as sim merge does (exit 2).
reports = {}
for level in ("error", "warning"):
    reports[level] = path(f"soak-{level}.json")
    code, o, e = run(["sim", "soak", "--iterations", "2", "--target", plain, "--fail-on", level, "--report",
                      reports[level]])
    check(f"a soak with --fail-on {level} writes its report", code in (0, 1) and os.path.exists(reports[level]), e)
policy_error = ('the two soaks used different decision policies: the baseline '
                '{"pass_on_severity_at_or_above":"error","stop_on_first_failure":false}, the candidate '
                '{"pass_on_severity_at_or_above":"warning","stop_on_first_failure":false}')
expect("sim drift refuses two decision policies (exit 2)", ["sim", "drift", reports["error"], reports["warning"]],
       rc=2, out=b"", err=f"assay sim drift: {policy_error}\n".encode())
expect("sim drift refuses them with --allow-pack-change too",
       ["sim", "drift", reports["error"], reports["warning"], "--allow-pack-change"], rc=2, out=b"",
       err=f"assay sim drift: {policy_error}\n".encode())
code, o, e = run(["sim", "drift", reports["error"], reports["error"]])
check("sim drift of one policy compares them", code == 0 and o.startswith(b"drift: pass rate "), e)
expect("sim soak --baseline of another policy is refused before the runs (exit 2)",
       ["sim", "soak", "--iterations", "1", "--target", plain, "--fail-on", "warning", "--report", path("x.json"),
        "--baseline", reports["error"]], rc=2, out=b"",
       err=(f"assay sim soak: --baseline {reports['error']}: " + policy_error + "\nrun 'assay sim soak --help' for usage\n").encode())
check("no report written when the baseline's policy differs", not os.path.exists(path("x.json")))

# --- 19: show takes --limits: refused past them with the limit's code, shown with room.
many = bundle_of([event(i, "example.step", {"n": i}) for i in range(3)])
tight = tmpfile(b'{"max_events":2}')
roomy = tmpfile(b'{"max_events":3}')
expect("show --limits: a bundle past them is refused with the limit's code (exit 1)",
       ["evidence", "show", many, "--limits", tight], rc=1, out=b"",
       err=b"LimitTotalEvents: events.ndjson has more than the limit of 2 events\n")
code, o, e = run(["evidence", "show", many, "--limits", roomy, "--format", "json"])
check("show --limits: limits with room show it", code == 0 and len(json.loads(o)["events"]) == 3, e)

# A bundle past the default limits (100,000 events): refused by show without --limits, shown with
# limits that make room.
big_events = tmpfile(b"".join(b'{"type":"example.step","data":{"n":%d}}\n' % i for i in range(100001)))
room = tmpfile(b'{"max_events":100001}')
big = path("big.tar.gz")
code, o, e = run(["evidence", "record", big_events, "--out", big, "--limits", room])
check("record writes 100,001 events under limits with room", code == 0, e)
expect("show without --limits refuses a bundle past the defaults (exit 1)", ["evidence", "show", big], rc=1,
       out=b"", err=b"LimitTotalEvents: events.ndjson has more than the limit of 100000 events\n")
code, o, e = run(["evidence", "show", big, "--limits", room, "--format", "json"])
check("show --limits with room shows all 100,001 events", code == 0 and len(json.loads(o)["events"]) == 100001, e)
finish()
