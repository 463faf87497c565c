"""--limits on every verb that reads a bundle: the same reader limits, read the same way, refusing
the same bundle with the same code and message, and a file that is not limits a usage error
(exit 2) before anything is read or written.

Run as `limits_test.py ASSAY SOURCE_ROOT CONFORMANCE_DIR REQUIRE`.
"""
import json
import os
import subprocess

from clitest import bundle_of, check, event, expect, finish, run, tmpfile

bundle = bundle_of([event(i, "example.step", {"n": i}) for i in range(3)])
roomy = tmpfile(b'{"max_events":3}')
tight = tmpfile(b'{"max_events":2}')
wrong = tmpfile(b'{"max_evnets":2}')
refusal = b"LimitTotalEvents: events.ndjson has more than the limit of 2 events\n"
not_limits = 'line 1, column 2 (byte 1) at /max_evnets: unknown member "max_evnets" (not allowed here)\n'

key = tmpfile(b"")
made = subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", key], capture_output=True)
check("openssl makes an Ed25519 key", made.returncode == 0, made.stderr)
pub = tmpfile(b"")
made = subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-out", pub], capture_output=True)
check("openssl gives its public key", made.returncode == 0, made.stderr)
envelope = tmpfile(b"")
expect("attest with the defaults", ["evidence", "attest", bundle, "--key", key, "--out", envelope], rc=0)


def outputs():
    """Fresh output paths that do not exist yet."""
    a, b = tmpfile(b""), tmpfile(b"")
    os.unlink(a)
    os.unlink(b)
    return a, b


verbs = {
    "evidence verify": lambda: ["evidence", "verify", bundle],
    "evidence lint": lambda: ["evidence", "lint", bundle, "--fail-on", "none"],
    "evidence closure": lambda: ["evidence", "closure", bundle],
    "evidence export-otel": lambda: ["evidence", "export-otel", bundle, "--out", out, "--report", rep],
    "evidence attest": lambda: ["evidence", "attest", bundle, "--key", key, "--out", out],
    "evidence show": lambda: ["evidence", "show", bundle],
}
for name, args in verbs.items():
    out, rep = outputs()
    code, o, e = run(args() + ["--limits", roomy])
    check(f"{name} --limits: limits that admit the bundle", code == 0, e)
    out, rep = outputs()
    expect(f"{name} --limits: limits that refuse it", args() + ["--limits", tight], rc=1, out=b"", err=refusal)
    check(f"{name} --limits: nothing written when refused", not os.path.exists(out) and not os.path.exists(rep))
    expect(f"{name} --limits: not limits", args() + ["--limits", wrong], rc=2, out=b"",
           err=f"assay {name}: {wrong}: {not_limits}".encode())
    check(f"{name} --limits: nothing written for bad limits", not os.path.exists(out) and not os.path.exists(rep))

# diff: the limits hold for both bundles, each named in the refusal.
expect("evidence diff --limits: limits that admit both", ["evidence", "diff", bundle, bundle, "--limits", roomy],
       rc=0)
expect("evidence diff --limits: limits that refuse the baseline", ["evidence", "diff", bundle, bundle, "--limits", tight],
       rc=1, out=b"", err=b"LimitTotalEvents: baseline " + bundle.encode() +
       b": events.ndjson has more than the limit of 2 events\n")
expect("evidence diff --limits: not limits", ["evidence", "diff", bundle, bundle, "--limits", wrong], rc=2, out=b"",
       err=f"assay evidence diff: {wrong}: {not_limits}".encode())

# verify-attestation: the signature holds, the bundle under these limits does not verify.
va = ["evidence", "verify-attestation", bundle, "--envelope", envelope, "--pubkey", pub]
expect("evidence verify-attestation --limits: limits that admit the bundle", va + ["--limits", roomy], rc=0)
expect("evidence verify-attestation --limits: limits that refuse it", va + ["--limits", tight], rc=1, out=b"",
       err=b"BundleInvalid: LimitTotalEvents: events.ndjson has more than the limit of 2 events\n")
expect("evidence verify-attestation --limits: not limits", va + ["--limits", wrong], rc=2, out=b"",
       err=f"assay evidence verify-attestation: {wrong}: {not_limits}".encode())
# sim soak: every run's bundle held to --limits, the report recording them.
for name, limits, rc, max_events in (("admit", roomy, 0, 3), ("refuse", tight, 1, 2)):
    out, rep = outputs()
    code, o, e = run(["sim", "soak", "--iterations", "1", "--target", bundle, "--fail-on", "error", "--report", rep,
                      "--limits", limits])
    report = json.load(open(rep, encoding="utf-8")) if os.path.exists(rep) else {}
    check(f"sim soak --limits: limits that {name} the bundle (exit {rc})",
          code == rc and report.get("limits", {}).get("max_events") == max_events, f"rc={code} {e!r}")
    check(f"sim soak --limits: the run {'passes' if rc == 0 else 'fails'} under limits that {name} it",
          report.get("results", {}).get("passes") == (1 if rc == 0 else 0), report.get("results"))
out, rep = outputs()
expect("sim soak --limits: not limits", ["sim", "soak", "--iterations", "1", "--target", bundle, "--report", rep,
                                         "--limits", wrong], rc=2, out=b"",
       err=f"assay sim soak: {wrong}: {not_limits}".encode())
check("sim soak --limits: no report for bad limits", not os.path.exists(rep))

finish()
