"""Provenance in the bundle (SPEC §6 `x-assay`, §15 `mappings[]`): `evidence bundle --pack P…`
records the packs applied (name, version, digest as §10 computes it, kind, source_url) and one
mapping per rule with an `article_ref`, read here independently from the packs' YAML; the events
are untouched; the reference verifies the stamped bundle, and `attest --pack` puts the same
mappings in the predicate of an envelope the reference verifies too.

Run as `stamp_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)`; the reference is
found through $ASSAY_REF (or the PATH), its checks skipped without it unless ASSAY_REQUIRE_ORACLE=1.
"""
import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clitest import CONF, REQUIRE, bundle_members, check, event, finish, jcs, run, tmpfile  # noqa: E402

try:
    import yaml
except ImportError:
    yaml = None

REF = os.environ.get("ASSAY_REF") or shutil.which("assay-ref")
NEED_REF = os.environ.get("ASSAY_REQUIRE_ORACLE") == "1"
work = tempfile.mkdtemp()


def path(name):
    return os.path.join(work, name)


def write(name, text):
    with open(path(name), "w", encoding="utf-8") as f:
        f.write(text)
    return path(name)


events = [event(0, "assay.tool.call", {"tool": "search", "arguments": {"q": "x"}}),
          event(1, "assay.model.invoked", {"model": "m-1"})]
events_file = tmpfile(b"".join(jcs(e) + b"\n" for e in events))
# Out of seq order: the writer that sorts (not the stream) must stamp the same.
shuffled_file = tmpfile(b"".join(jcs(e) + b"\n" for e in reversed(events)))

# A pack of this test's own: two rules mapped to articles, one not, one with an empty article_ref.
own_pack = write("own.yaml", """name: own-controls
version: 2.0.0
kind: compliance
description: Controls of this test
author: assay tests
license: Apache-2.0
source_url: https://example.org/controls
disclaimer: Not legal advice.
requires:
  assay_min_version: ">=1.0.0"
rules:
  - id: OWN-001
    severity: error
    description: A tool call is recorded
    article_ref: "Art. 12(1)"
    check: {type: event_type_exists, pattern: "assay.tool.call"}
  - id: OWN-002
    severity: warning
    description: Something else
    check: {type: event_count, min: 1}
  - id: OWN-003
    severity: info
    description: A model is recorded
    article_ref: "Annex IV \\u00a72(b)"
    check: {type: event_type_exists, pattern: "assay.model.invoked"}
  - id: OWN-004
    severity: info
    description: An empty reference maps nothing
    article_ref: ""
    check: {type: event_count, min: 1}
""")
eu = os.path.join(CONF, "assay-upstream", "packs", "eu-ai-act-baseline.yaml")
packs = [own_pack, "cicd-starter"] + ([eu] if os.path.exists(eu) else [])
check("the reference's EU AI Act pack is there", os.path.exists(eu) or not REQUIRE, eu)


def digest_of(p):
    code, out, err = run(["pack", "check", p])
    # "ok   name@version kind digest" on the first line (SPEC §17)
    first = out.split(b"\n")[0].split()
    return first[3].decode() if code == 0 and len(first) > 3 else None


def expected_stamp(pack_paths):
    """x-assay as the packs' YAML says it should be, read here (PyYAML) and not by assay."""
    applied, mappings = [], []
    for p in pack_paths:
        if p == "cicd-starter":
            applied.append({"name": "cicd-starter", "version": "1.0.0+assay", "kind": "quality",
                            "digest": digest_of(p)})
            continue
        doc = yaml.safe_load(open(p, encoding="utf-8"))
        a = {"name": doc["name"], "version": doc["version"], "kind": doc["kind"], "digest": digest_of(p)}
        if doc.get("source_url"):
            a["source_url"] = doc["source_url"]
        applied.append(a)
        for r in doc["rules"]:
            if r.get("article_ref"):
                mappings.append({"rule": f"{doc['name']}@{doc['version']}:{r['id']}", "framework": doc["name"],
                                 "ref": r["article_ref"]})
    return {"packs_applied": applied, "mappings": mappings}


plain = path("plain.tar.gz")
stamped = path("stamped.tar.gz")
code, out, err = run(["evidence", "bundle", "--events", events_file, "--out", plain])
check("evidence bundle without --pack", code == 0, err)
args = []
for p in packs:
    args += ["--pack", p]
code, out, err = run(["evidence", "bundle", "--events", events_file, "--out", stamped] + args)
check("evidence bundle --pack …: exit 0", code == 0, err)
pm, sm = bundle_members(plain), bundle_members(stamped)
plain_manifest, manifest = json.loads(pm["manifest.json"]), json.loads(sm["manifest.json"])
check("without --pack the manifest has no x-assay", "x-assay" not in plain_manifest, plain_manifest)
check("stamping changes the manifest only: the same events, run root and bundle id",
      sm["events.ndjson"] == pm["events.ndjson"] and manifest["run_root"] == plain_manifest["run_root"]
      and {k: v for k, v in manifest.items() if k != "x-assay"} == plain_manifest)
check("the manifest is still canonical (JCS) bytes", sm["manifest.json"] == jcs(manifest))
if yaml is None:
    print("PyYAML absent: the x-assay contents not checked against the packs' YAML")
else:
    want = expected_stamp(packs)
    check("x-assay: the packs applied in order, with their digests, and one mapping per article_ref",
          manifest.get("x-assay") == want, json.dumps(manifest.get("x-assay"))[:600] + " != " + json.dumps(want)[:600])
    check("x-assay maps our own pack's two rules (not the empty reference) and the EU pack's four",
          [m["rule"] for m in want["mappings"]][:2] == ["own-controls@2.0.0:OWN-001", "own-controls@2.0.0:OWN-003"]
          and len(want["mappings"]) == (6 if os.path.exists(eu) else 2))
code, out, err = run(["validate", "manifest-v1", tmpfile(sm["manifest.json"])])
check("the stamped manifest is a valid manifest-v1", code == 0, err)
code, out, err = run(["evidence", "verify", stamped])
check("assay verifies the stamped bundle", code == 0, err)

code, out, err = run(["evidence", "show", stamped])
xa = manifest.get("x-assay", {})
want_lines = ("packs     " + str(len(xa.get("packs_applied", []))) + ": " + ", ".join(
    f"{a['name']}@{a['version']} {a['digest']}" for a in xa.get("packs_applied", [])) +
    " (claimed, not verified)\nmappings  " +
    str(len(xa.get("mappings", []))) + ": " + ", ".join(f"{m['framework']} {m['ref']}" for m in xa.get("mappings", [])) +
    " (claimed, not verified)\n").encode()
check("evidence show: the packs applied and the mappings, after the producer", code == 0 and
      want_lines in out and out.index(b"producer  ") < out.index(b"packs     ") < out.index(b"events    "), out)
code, out, err = run(["evidence", "show", plain])
check("evidence show of a bundle without x-assay: no packs or mappings line", code == 0 and b"packs " not in out
      and b"mappings " not in out, out)

again = path("again.tar.gz")
run(["evidence", "bundle", "--events", shuffled_file, "--out", again] + args)
check("events out of order (the writer that sorts): the same bundle, byte for byte", os.path.exists(again)
      and open(again, "rb").read() == open(stamped, "rb").read())
twice = path("twice.tar.gz")
# A compliance pack twice is refused as lint refuses it (one check: lint::check_packs_together).
code, out, err = run(["evidence", "bundle", "--events", events_file, "--out", twice, "--pack", f"{own_pack},{own_pack}"])
check("a compliance pack given twice is refused with lint's error (exit 3)", code == 3 and not os.path.exists(twice)
      and err == (f'assay evidence bundle: rule "own-controls@2.0.0:OWN-001" is defined by two packs ({own_pack} and '
                  f"{own_pack}); a compliance pack's rule ids must be unique\n").encode(), f"rc={code} {err!r}")
quality_pack = write("own-quality.yaml", open(own_pack, encoding="utf-8").read().replace("kind: compliance",
                                                                                          "kind: quality"))
run(["evidence", "bundle", "--events", events_file, "--out", twice, "--pack", f"{quality_pack},{quality_pack}"])
tm = json.loads(bundle_members(twice)["manifest.json"]) if os.path.exists(twice) else {}
check("a quality pack given twice is applied and mapped once", len(tm.get("x-assay", {}).get("packs_applied", [])) == 1
      and len(tm["x-assay"]["mappings"]) == 2, tm)
nomap = path("nomap.tar.gz")
run(["evidence", "bundle", "--events", events_file, "--out", nomap, "--pack", "cicd-starter"])
nm = json.loads(bundle_members(nomap)["manifest.json"]) if os.path.exists(nomap) else {}
check("packs without article_refs: packs_applied alone (mappings is left out, not [])",
      list(nm.get("x-assay", {}).keys()) == ["packs_applied"], nm)
missing = path("missing.tar.gz")
code, out, err = run(["evidence", "bundle", "--events", events_file, "--out", missing, "--pack",
                      path("absent.yaml")])
check("a pack that does not load: exit 3, nothing written", code == 3 and not os.path.exists(missing)
      and err.startswith(b"assay evidence bundle: ") and b"absent.yaml" in err, f"{code} {err!r}")

# --- attest --pack: the same mappings in the predicate ------------------------------------------------
key, pub = path("k.pem"), path("k.pub.pem")
subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", key], check=True, capture_output=True)
subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-out", pub], check=True, capture_output=True)
envelope = path("env.json")
code, out, err = run(["evidence", "attest", stamped, "--key", key, "--out", envelope] + args)
check("evidence attest --pack: exit 0", code == 0, err)
statement = json.loads(base64.b64decode(json.load(open(envelope))["payload"])) if code == 0 else {}
pred = statement.get("predicate", {})
check("the predicate's mappings[] are the manifest's x-assay.mappings",
      pred.get("mappings") == manifest.get("x-assay", {}).get("mappings"), pred)
check("the predicate's packs[]: name, version and digest of each pack applied",
      pred.get("packs") == [{k: a[k] for k in ("name", "version", "digest")}
                            for a in manifest.get("x-assay", {}).get("packs_applied", [])], pred)
code, out, err = run(["evidence", "verify-attestation", stamped, "--envelope", envelope, "--pubkey", pub])
check("assay verifies the envelope", code == 0, err)

if REF:
    r = subprocess.run([REF, "verify", stamped], capture_output=True)
    check("assay-ref verify: the stamped bundle verifies (the reference ignores x-assay)", r.returncode == 0 and
          f"bundle_id: {manifest['bundle_id']}".encode() in r.stdout, r.stdout + r.stderr)
    r = subprocess.run([REF, "verify-attestation", stamped, envelope, pub], capture_output=True)
    check("assay-ref verify-attestation: the envelope with mappings[] verifies", r.returncode == 0, r.stdout + r.stderr)
    for p in [own_pack] + ([eu] if os.path.exists(eu) else []):
        r = subprocess.run([REF, "pack-digest", p], capture_output=True)
        name = yaml.safe_load(open(p))["name"] if yaml else None
        ours = [a["digest"] for a in manifest.get("x-assay", {}).get("packs_applied", []) if a["name"] == name]
        check(f"packs_applied digest of {os.path.basename(p)} is assay-ref pack-digest's", r.returncode == 0
              and ours and r.stdout.split()[-1].decode() == ours[0], r.stdout + r.stderr)
else:
    check("assay-ref is there (ASSAY_REQUIRE_ORACLE=1)", not NEED_REF)
    print("SKIP the reference's checks: no assay-ref ($ASSAY_REF or the PATH)")

finish()
