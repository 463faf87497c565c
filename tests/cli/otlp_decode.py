#!/usr/bin/env python3
"""Every line `assay evidence export-otel` writes decodes with the OTLP protobuf definitions (SPEC
§16): npm `@opentelemetry/otlp-transformer` (its generated protobuf root) checks each TracesData,
turns it into an ExportTraceServiceRequest with the hex ids as bytes (as OTLP/JSON requires),
encodes it to protobuf and decodes it back unchanged (otlp_decode.js). Exported: a bundle with
every mapped event type and a traceparent, and every upstream ndjson stream.

usage: otlp_decode.py ASSAY_BINARY SOURCE_ROOT CONFORMANCE_DIR REQUIRE(0|1) TOOLS_DIR

The package is looked for in $ASSAY_OTLP_TOOLS, then TOOLS_DIR; when absent, npm installs it into
TOOLS_DIR. Exit 77 (skipped) when npm or node is absent or the install fails.
"""
import glob
import os
import shutil
import subprocess
import sys

sys.argv, TOOLS = sys.argv[:5], sys.argv[5]
from clitest import ASSAY, CONF, ROOT, REQUIRE, bundle_of, check, event, finish, run, tmpfile  # noqa: E402

SKIP = 77
PACKAGE = "@opentelemetry/otlp-transformer@0.52.1"  # the last release that ships the protobufjs root
ROOT_JS = os.path.join("node_modules", "@opentelemetry", "otlp-transformer", "build", "src", "generated", "root.js")


def find_root():
    for prefix in filter(None, [os.environ.get("ASSAY_OTLP_TOOLS"), TOOLS]):
        if os.path.isfile(os.path.join(prefix, ROOT_JS)):
            return os.path.join(os.path.abspath(prefix), ROOT_JS)
    if shutil.which("npm") is None or shutil.which("node") is None:
        print("npm or node absent: the OTLP protobuf decode is skipped")
        return None
    os.makedirs(TOOLS, exist_ok=True)
    try:
        p = subprocess.run(["npm", "install", "--prefix", TOOLS, "--no-audit", "--no-fund", "--no-save", PACKAGE],
                           capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        print("npm install timed out: skipped")
        return None
    if p.returncode != 0 or not os.path.isfile(os.path.join(TOOLS, ROOT_JS)):
        print("npm install failed (no registry?): skipped:", p.stderr.decode(errors="replace")[-400:])
        return None
    return os.path.join(os.path.abspath(TOOLS), ROOT_JS)


root_js = find_root()
if root_js is None:
    sys.exit(SKIP)

inputs = []
mapped = [
    event(0, "assay.profile.started", {"profile_name": "ci", "profile_version": "1", "total_runs_aggregated": 1}),
    event(1, "assay.tool.decision", {"tool": "read_file", "decision": "deny", "reason_code": "r"}),
    event(2, "assay.tool.call", {"tool": "read_file", "arguments": {"p": 1}, "result": [1.5, 2.5]}),
    event(3, "assay.model.invoked", {"model": "m", "provider": "p", "operation": "chat", "k": [True, False]}),
    event(4, "assay.profile.finished", {"files_count": 1, "network_count": 0, "processes_count": 0,
                                        "sandbox_degradation_count": 0}),
]
mapped[2]["traceparent"] = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
inputs.append(bundle_of(mapped, "--unchecked-payloads"))
for f in sorted(glob.glob(os.path.join(CONF, "assay-upstream", "ndjson", "*.ndjson"))):
    out = tmpfile(b"")
    code, _, e = run(["evidence", "bundle", "--events", f, "--out", out, "--unchecked-payloads"])
    check("bundle " + os.path.basename(f), code == 0, e[:300])
    inputs.append(out)
if len(inputs) == 1 and REQUIRE:
    check("upstream ndjson streams present", False)

files = []
for b in inputs:
    spans, report = tmpfile(b""), tmpfile(b"")
    code, _, e = run(["evidence", "export-otel", b, "--out", spans, "--report", report, "--include-sensitive",
                      "--spans-per-line", "3"])
    check("export " + b, code == 0, e[:300])
    files.append(spans)

p = subprocess.run(["node", os.path.join(os.path.dirname(os.path.abspath(__file__)), "otlp_decode.js"), root_js] + files,
                   capture_output=True, timeout=300)
print(p.stdout.decode(errors="replace")[-2000:])
check("every exported line decodes as OTLP protobuf", p.returncode == 0, p.stderr.decode(errors="replace")[-2000:])
check("every file decoded", p.stdout.count(b" spans\n") == len(files))
finish()
