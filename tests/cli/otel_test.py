#!/usr/bin/env python3
"""`assay evidence export-otel` (SPEC §16, §17): the spans file and the report, byte-identical
twice, the --max-spans guard (exit 1, no file), a bundle that fails verification refused with its
code, spans on standard output.

usage: otel_test.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1)
"""
import json
import os

from clitest import bundle_of, check, event, expect, finish, run, tmpfile

events = [
    event(0, "assay.profile.started", {"profile_name": "ci", "profile_version": "1", "total_runs_aggregated": 1}),
    event(1, "assay.tool.decision", {"tool": "read_file", "decision": "allow", "reason_code": "ok"}),
    event(2, "assay.tool.call", {"tool": "read_file", "arguments": {"path": "a"}, "x": None}),
    event(3, "vendor.thing", {"a": 1}),
]
b = bundle_of(events, "--unchecked-payloads")


def export(*extra, bundle=b):
    spans, report = tmpfile(b""), tmpfile(b"")
    code, out, err = run(["evidence", "export-otel", bundle, "--out", spans, "--report", report] + list(extra))
    with open(spans, "rb") as f, open(report, "rb") as g:
        return code, out, err, f.read(), g.read()


code, out, err, spans, report = export()
check("export exits 0", code == 0, err)
check("summary on stdout", out == b"exported 4 event(s) as 3 span(s) in 1 line(s) (semantic conventions 1.41.1)\n"
      b"mapping loss: 1 attribute(s) dropped, 1 event(s) without a mapping\n  unmapped vendor.thing: 1\n", out)
lines = spans.decode().splitlines()
check("one TracesData line", len(lines) == 1)
td = json.loads(lines[0])
got = td["resourceSpans"][0]["scopeSpans"][0]["spans"]
check("span names", [s["name"] for s in got] == ["assay.run", "execute_tool read_file", "execute_tool read_file"],
      [s["name"] for s in got])
check("children of the root", all(s["parentSpanId"] == got[0]["spanId"] for s in got[1:]))
check("resource is the producer", td["resourceSpans"][0]["resource"]["attributes"] ==
      [{"key": "service.name", "value": {"stringValue": "cli-test"}},
       {"key": "service.version", "value": {"stringValue": "1.0"}}], td["resourceSpans"][0]["resource"])
r = json.loads(report)
check("report", r["schema_version"] == "otel-export-report-v1" and r["events_read"] == 4 and r["spans_written"] == 3
      and r["mapping_loss"]["unmapped_events"] == {"vendor.thing": 1}
      and [(d["event_id"], d["member"]) for d in r["mapping_loss"]["dropped_attributes"]] ==
      [("run1:2", "/data/x")]
      and r["mapping_loss"]["totals"] == {"dropped_attributes": 1, "unmapped_events": 1}, r)
expect("the report is a valid otel-export-report-v1", ["validate", "otel-export-report-v1", tmpfile(report)])

# An inference event without an operation is not given one (SPEC §16, semantic conventions
# 1.41.1): a span with no gen_ai.* attribute, its members (a redacted model too) under assay.*,
# and the report says why.
m = bundle_of([event(0, "assay.model.invoked", {"model": {"alg": "sha256", "digest": "sha256:00", "size_bytes": 3},
                                                "provider": "openai"})], "--unchecked-payloads")
code, out, err, mspans, mreport = export(bundle=m)
check("export of a model invocation exits 0", code == 0, err)
mgot = json.loads(mspans.decode().splitlines()[0])["resourceSpans"][0]["scopeSpans"][0]["spans"]
check("no GenAI span by guess", [(s["name"], s["kind"]) for s in mgot] == [("assay.run", 1), ("assay.model.invoked", 1)],
      mgot)
mattrs = {a["key"]: a["value"] for a in mgot[1]["attributes"]}
check("its members under assay.model.*",
      {k: v for k, v in mattrs.items() if k.startswith("assay.model") or k.startswith("gen_ai.")} ==
      {"assay.model.commitment.alg": {"stringValue": "sha256"}, "assay.model.commitment.digest": {"stringValue": "sha256:00"},
       "assay.model.commitment.size_bytes": {"intValue": "3"}, "assay.model.provider": {"stringValue": "openai"}}, mattrs)
check("the report says why", json.loads(mreport)["mapping_loss"]["dropped_attributes"] ==
      [{"event_id": "run1:0", "member": "/data/operation",
        "reason": "absent: a GenAI inference span requires gen_ai.operation.name (semantic conventions 1.41.1), and it "
                  "is not guessed: the span has no gen_ai.* attribute, its members are under assay.*"}], mreport)

again = export()
check("two exports byte-identical", again[3] == spans and again[4] == report)

# The guard: more spans than allowed is refused, and no file is left behind.
target = tmpfile(b"")
os.unlink(target)
rep = tmpfile(b"")
os.unlink(rep)
expect("--max-spans refuses", ["evidence", "export-otel", b, "--out", target, "--report", rep, "--max-spans", "2"],
       rc=1, err=b"assay evidence export-otel: line 3 of events.ndjson: the export would hold more than 2 spans (the limit max_spans, "
                 b"--max-spans): nothing was written\n")
check("no spans file after the refusal", not os.path.exists(target))
check("no report after the refusal", not os.path.exists(rep))
expect("--max-spans 3 is enough", ["evidence", "export-otel", b, "--out", target, "--report", rep, "--max-spans", "3"])

# Standard output.
code, out, err = run(["evidence", "export-otel", b, "--out", "-", "--report", tmpfile(b"")])
check("--out - writes the lines to stdout", code == 0 and out == spans, err)

# A bundle that does not verify: refused with its code, as verify says it.
os.unlink(target)
with open(b, "rb") as f:
    data = bytearray(f.read())
bad = tmpfile(bytes(data[: len(data) // 2]))
vcode, _, verr = run(["evidence", "verify", bad])
expect("an invalid bundle is refused with its code", ["evidence", "export-otel", bad, "--out", target, "--report", rep],
       rc=vcode, err=verr)
check("no spans file for an invalid bundle", not os.path.exists(target))
expect("--out is required", ["evidence", "export-otel", b, "--report", rep], rc=2)

# Data nested 60,000 deep, admitted by raised reader limits, is walked without recursion: its one
# leaf becomes one attribute whose key names every level (the other verbs read it too).
depth = 60000
deep = '{"a":' * depth + '"v"' + "}" * depth
deep_data = '{"decision":"allow","deep":' + deep + ',"reason_code":"ok","tool":"t"}'
hashed = ('{"data":' + deep_data + ',"datacontenttype":"application/json","specversion":"1.0",'
          '"type":"assay.tool.decision"}')
deep_event = ('{"assaycontenthash":"sha256:' + __import__("hashlib").sha256(hashed.encode()).hexdigest() + '",'
              '"assaygit":"unknown","assaypii":false,"assayproducer":"cli-test","assayproducerversion":"1.0",'
              '"assayrunid":"run1","assaysecrets":false,"assayseq":0,"data":' + deep_data + ','
              '"datacontenttype":"application/json","id":"run1:0","source":"urn:assay:cli-test",'
              '"specversion":"1.0","time":"2026-01-01T00:00:00Z","type":"assay.tool.decision"}\n')
deep_limits = tmpfile(b'{"max_json_depth":70000}')
deep_bundle = tmpfile(b"")
code, out, err = run(["evidence", "bundle", "--events", tmpfile(deep_event.encode()), "--out", deep_bundle,
                      "--unchecked-payloads", "--limits", deep_limits])
check("a bundle of data nested 60,000 deep", code == 0, err)
deep_spans, deep_report = tmpfile(b""), tmpfile(b"")
code, out, err = run(["evidence", "export-otel", deep_bundle, "--out", deep_spans, "--report", deep_report,
                      "--limits", deep_limits])
check("export-otel of data nested 60,000 deep exits 0", code == 0, err)
if code == 0:
    with open(deep_spans, "rb") as f:
        deep_got = json.loads(f.read().decode().splitlines()[0])["resourceSpans"][0]["scopeSpans"][0]["spans"]
    deep_key = "assay.decision.deep" + ".a" * depth
    deep_attrs = [a for a in deep_got[1]["attributes"] if a["key"].startswith("assay.decision.deep")]
    check("the leaf 60,000 deep is one attribute", deep_attrs == [{"key": deep_key, "value": {"stringValue": "v"}}],
          [a["key"][:40] for a in deep_attrs])
finish()
