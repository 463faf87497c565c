"""What the CLI test scripts share: running `assay`, counting checks, temporary files, and events
and bundles built the way outside tools build them.

Each script is run as `SCRIPT ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)` and ends with
finish(), which prints "N passed, N failed" and exits 1 when a check failed.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

ASSAY, ROOT, CONF, REQUIRE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
ASSAY = os.path.abspath(ASSAY)  # some checks run in another working directory
_counts = {"passed": 0, "failed": 0}


def run(args, stdin=b"", timeout=120, **kw):
    """(exit code, stdout, stderr); exit code None when the command did not end in time. `stdin`: bytes, or an open
    file handed to the command as its standard input."""
    if hasattr(stdin, "fileno"):
        kw["stdin"], stdin = stdin, None
    try:
        p = subprocess.run([ASSAY] + args, input=stdin, capture_output=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as t:
        return None, t.stdout or b"", (t.stderr or b"") + b"(timed out)"
    return p.returncode, p.stdout, p.stderr


def help_items(args, section):
    """The first words of the items the --help of `assay args…` lists under `section` (Subcommands,
    Options or Positionals), as printed: `-h,--help`, `--out`, `verify`."""
    code, out, err = run(list(args) + ["--help"], env=dict(os.environ, COLUMNS="200"))
    names, inside = [], False
    for line in out.decode().split("\n"):
        if line.endswith(":") and not line.startswith(" "):
            inside = line == section + ":"
            continue
        m = re.match(r"^  (\S+)", line)
        if inside and m:
            names.append(m.group(1))
    return names


def usage_err(command, message):
    """What a usage error of `assay COMMAND` prints: its message, then where that command's help is."""
    c = command.encode() if isinstance(command, str) else command
    m = message.encode() if isinstance(message, str) else message
    return b"assay " + c + b": " + m + b"\nrun 'assay " + c + b" --help' for usage\n"


def check(name, cond, detail=""):
    if cond:
        _counts["passed"] += 1
    else:
        _counts["failed"] += 1
        print(f"FAIL {name} {detail}")


def expect(name, args, stdin=b"", rc=0, out=None, err=None, err_contains=None, **kw):
    code, o, e = run(args, stdin, **kw)
    ok = code == rc
    if out is not None:
        ok = ok and o == out
    if err is not None:
        ok = ok and e == err
    if err_contains is not None:
        ok = ok and (err_contains if isinstance(err_contains, bytes) else err_contains.encode()) in e
    check(name, ok, f"rc={code} stdout={o[:300]!r} stderr={e[:300]!r}")


def schema_check(name, contract, doc):
    """`doc` is valid against schemas/<contract>.schema.json (Python jsonschema, when present)."""
    try:
        import jsonschema
    except ImportError:
        print(f"python jsonschema absent: {name}: the schema check skipped")
        return
    schema = json.load(open(os.path.join(ROOT, "schemas", contract + ".schema.json"), encoding="utf-8"))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    check(f"{name}: valid against schemas/{contract}.schema.json", errors == [], errors[:3])


def bundle_members(bundle):
    """The members of a bundle (.tar.gz) by name: their bytes."""
    with tarfile.open(bundle, "r:gz") as t:
        return {m.name: t.extractfile(m).read() for m in t.getmembers()}


def tmpfile(data):
    f = tempfile.NamedTemporaryFile(delete=False)
    f.write(data)
    f.close()
    return f.name


def jcs(v):
    """Canonical bytes of v, for the values these tests use (no floats)."""
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def event(seq, typ, data, run_id="run1", subject=None):
    """An evidence event with its content hash, as a producer writes it (with `subject` when given)."""
    e = {"specversion": "1.0", "type": typ, "source": "urn:assay:cli-test", "id": f"{run_id}:{seq}",
         "time": "2026-01-01T00:00:0%dZ" % seq, "datacontenttype": "application/json", "assayrunid": run_id,
         "assayseq": seq, "assayproducer": "cli-test", "assayproducerversion": "1.0", "assaygit": "unknown",
         "assaypii": False, "assaysecrets": False, "data": data}
    hashed = {"data": data, "datacontenttype": "application/json", "specversion": "1.0", "type": typ}
    if subject is not None:
        e["subject"] = hashed["subject"] = subject
    h = hashlib.sha256(jcs(hashed)).hexdigest()
    e["assaycontenthash"] = "sha256:" + h
    return e


def bundle_of(events, *flags):
    """A bundle written by `assay evidence bundle` from `events`; its path."""
    out = tmpfile(b"")
    code, o, e = run(["evidence", "bundle", "--events", tmpfile(b"".join(jcs(x) + b"\n" for x in events)),
                      "--out", out] + list(flags))
    if code != 0:
        raise RuntimeError(f"evidence bundle failed: {e!r}")
    return out


def finish():
    print(f"{_counts['passed']} passed, {_counts['failed']} failed")
    sys.exit(1 if _counts["failed"] else 0)
