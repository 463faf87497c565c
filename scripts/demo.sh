#!/usr/bin/env bash
# The demo: builds the assay CLI and the examples, then walks through what the library does.
# DEMO_BUILD_DIR=DIR runs it on the examples of an existing build (CI reuses its gcc build).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# The build directory scripts/test.sh uses (build-gcc, configured the same way), so that running
# both compiles the CLI once; only the programs the demo runs are built here.
dir=${DEMO_BUILD_DIR:-build-gcc}
if [ ! -f "$dir/build.ninja" ]; then
  CXX=g++ meson setup "$dir" -Drequire_conformance="${ASSAY_REQUIRE_CONFORMANCE:-false}" >"$dir.setup.txt" 2>&1 ||
    { cat "$dir.setup.txt"; exit 1; }
fi
echo "building the assay CLI and the examples in $dir (a few minutes the first time; progress below)"
built=$SECONDS
bash scripts/timed.sh "$dir/demo-build-cost.txt" \
  ninja -C "$dir" examples/assay examples/assay.1 examples/record_session examples/contracts_tour 2>&1 |
  awk '/^\[[0-9]+\/[0-9]+\]/ { print "  " $1 " " $NF; fflush() } /error|FAILED/ { print; fflush() }'
[ -x "$dir/examples/assay" ] || { echo "the build failed: run ninja -C $dir to see why"; exit 1; }
echo "built in $((SECONDS - built)) s; $(cat "$dir/demo-build-cost.txt" 2>/dev/null)"
assay="$dir/examples/assay"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say "A C++ agent runtime records a session as evidence and verifies the bundle it wrote"
"$dir/examples/record_session" "$work/session.tar.gz"
tar -tvzf "$work/session.tar.gz"

say "assay evidence verify: the same checks the Rust assay runs"
"$assay" evidence verify "$work/session.tar.gz"
"$assay" evidence verify --json "$work/session.tar.gz"

say "One byte of one event changed and re-packed with the original manifest: caught"
mkdir "$work/x" && tar -xzf "$work/session.tar.gz" -C "$work/x"
sed -i 's/"read_file"/"reaD_file"/' "$work/x/events.ndjson"
tar --format=gnu --owner=0 --group=0 -czf "$work/tampered.tar.gz" -C "$work/x" manifest.json events.ndjson
"$assay" evidence verify "$work/tampered.tar.gz" || echo "exit code $?"

say "assay evidence show: the session's summary and its events, verified first"
COLUMNS=100 "$assay" evidence show "$work/session.tar.gz"
"$assay" evidence show "$work/tampered.tar.gz" || echo "exit code $?"

say "assay evidence diff: the same agent, changed to reach a new host; --fail-on-new network gates on it"
mkdir "$work/y" && tar -xzf "$work/session.tar.gz" -C "$work/y"
tail -n 1 "$work/y/events.ndjson" | python3 -c '
import hashlib, json, sys
e = json.loads(sys.stdin.read())
e.update(type="assay.net.access", subject="exfil.example.net:443", data={"hits": 1})
e["assayseq"] += 1
e["id"] = "%s:%d" % (e["assayrunid"], e["assayseq"])
e["assaycontenthash"] = None
print(json.dumps(e))' >"$work/y/more.ndjson"
cat "$work/y/events.ndjson" "$work/y/more.ndjson" >"$work/y/all.ndjson"
"$assay" evidence bundle --events "$work/y/all.ndjson" --out "$work/changed.tar.gz"
"$assay" evidence diff "$work/session.tar.gz" "$work/changed.tar.gz" --fail-on-new network,processes \
  || echo "exit code $?"

say "assay pack check: the built-in packs load, each with its digest"
"$assay" pack check cicd-starter replay-readiness

say "assay evidence lint: the session against the default pack, verified and linted in one pass"
"$assay" evidence lint "$work/session.tar.gz" || echo "exit code $?"

say "assay evidence lint --explain: a rule of the default pack (the reference's cicd-starter rules) and its help, no bundle needed"
"$assay" evidence lint --explain CICD-004

say "assay evidence closure: which signals the session captured, and how replayable it is"
"$assay" evidence closure "$work/session.tar.gz" --pack replay-readiness --report "$work/closure.json"
"$assay" evidence closure "$work/session.tar.gz" --explain closure.score

say "assay evidence closure as a release gate: exit 1 when the score or the confidence is too low"
"$assay" evidence closure "$work/session.tar.gz" --pack replay-readiness --min-score 0.9 --require-confidence high \
  || echo "exit code $?"

say "assay evidence export-otel: the session as OpenTelemetry spans (OTLP/JSON) and what the mapping lost"
"$assay" evidence export-otel "$work/session.tar.gz" --out "$work/spans.jsonl" --report "$work/otel.json"
head -c 400 "$work/spans.jsonl"; echo " ..."

say "assay evidence attest: sign the session with an Ed25519 key (OpenSSL made it), then verify offline"
openssl genpkey -algorithm ed25519 -out "$work/signing.pem" 2>/dev/null
openssl pkey -in "$work/signing.pem" -pubout -out "$work/signing.pub.pem"
"$assay" evidence attest "$work/session.tar.gz" --key "$work/signing.pem" --out "$work/session.dsse.json"
"$assay" evidence verify-attestation "$work/session.tar.gz" --envelope "$work/session.dsse.json" \
  --pubkey "$work/signing.pub.pem"
"$assay" evidence verify-attestation "$work/tampered.tar.gz" --envelope "$work/session.dsse.json" \
  --pubkey "$work/signing.pub.pem" || echo "exit code $?"

say "assay evidence record: a harness in any language writes {type, data} lines; assay fills in the envelope"
printf '%s\n' '{"type":"assay.model.invoked","data":{"model":"example-model-1","provider":"example"}}' \
  '{"type":"assay.tool.call","data":{"tool":"search","arguments":{"q":"weather"}},"subject":"tool:search"}' |
  "$assay" evidence record --out "$work/harness.tar.gz" --run-id harness-run-1 --producer sh-harness@1.0.0
"$assay" evidence verify "$work/harness.tar.gz"

say "Safe by default: what a payload's privacy classes call sensitive is generalized before it is hashed"
printf '%s\n' '{"type":"assay.tool.decision","data":{"tool":"read_file","decision":"deny","reason_code":"E_PATH","reason":"outside the sandbox: /home/alice/.aws/credentials (token=abc123)"}}' |
  "$assay" evidence record --out "$work/private.tar.gz" --run-id private-run-1 --profile demo@1.0
tar -xzOf "$work/private.tar.gz" events.ndjson | grep -o '"reason":"[^"]*"'
echo "(--keep-sensitive keeps such values as written; --profile wrote assay.profile.started and .finished around the run)"

say "A harness killed mid-run (SIGKILL): the journal it was recording into is recovered into a bundle"
mkfifo "$work/harness.fifo"
"$assay" evidence record "$work/harness.fifo" --out "$work/crashed.tar.gz" --journal "$work/crashed.journal" \
  --run-id crashed-run-1 &
recorder=$!
exec 3>"$work/harness.fifo"
for i in 1 2 3; do
  printf '{"type":"assay.tool.call","data":{"tool":"step_%s","arguments":{}},"subject":"tool:step_%s"}\n' "$i" "$i" >&3
done
for _ in $(seq 400); do  # until the three events are in the journal (at most 20 s)
  [ "$(wc -l <"$work/crashed.journal" 2>/dev/null || echo 0)" -ge 3 ] && break
  sleep 0.05
done
kill -KILL "$recorder"
wait "$recorder" 2>/dev/null || echo "the recorder was killed (exit code $?): no bundle, but a journal of $(wc -l <"$work/crashed.journal") events"
exec 3>&-
"$assay" evidence recover "$work/crashed.journal" --out "$work/crashed.tar.gz"
"$assay" evidence verify "$work/crashed.tar.gz"
"$assay" evidence lint "$work/crashed.tar.gz" --fail-on none | grep CICD-002

say "Provenance: the session bundled with the packs it was produced under (x-assay), which the reference ignores"
eu_pack=../shared/conformance/assay-upstream/packs/eu-ai-act-baseline.yaml
[ -f "$eu_pack" ] || eu_pack=""
tar -xzOf "$work/session.tar.gz" events.ndjson >"$work/session.ndjson"
"$assay" evidence bundle --events "$work/session.ndjson" --out "$work/stamped.tar.gz" \
  --pack cicd-starter ${eu_pack:+--pack "$eu_pack"}
"$assay" evidence show "$work/stamped.tar.gz" | sed -n '4,6p'

say "assay mcp check: a gate policy for a small MCP server of notes (examples/mcp/notes_server.py)"
mkdir -p "$work/notes"
echo "buy milk" >"$work/notes/todo"
cat >"$work/notes-policy.yaml" <<'EOF'
version: "2.0"
name: notes
tools:
  allow: [read_note, list_notes]
  deny: [delete_note]
schemas:
  read_note:
    type: object
    properties: {name: {type: string, pattern: "^[a-z]+$"}}
    required: [name]
EOF
"$assay" mcp check "$work/notes-policy.yaml"

say "assay mcp wrap: the server behind the gate; a delete and a read outside the directory are deliberate, and never reach it"
{ # a client that waits a moment for each answer, as a real one does
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}'; sleep 0.3
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  printf '%s\n' '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'; sleep 0.3
  printf '%s\n' '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_note","arguments":{"name":"todo"}}}'; sleep 0.3
  printf '%s\n' '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"delete_note","arguments":{"name":"todo"}}}'; sleep 0.3
  printf '%s\n' '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_note","arguments":{"name":"../notes-policy.yaml"}}}'
} | "$assay" mcp wrap --policy "$work/notes-policy.yaml" --bundle "$work/mcp.tar.gz" --label notes \
  -- python3 examples/mcp/notes_server.py "$work/notes" 2>"$work/mcp.stderr" >"$work/mcp.out"
echo "answers to the client (ids 3, 4, 5):"
grep -E '"id": ?(3|4|5)[,}]' "$work/mcp.out"
echo "the gate's decisions (standard error):"
cat "$work/mcp.stderr"
[ -f "$work/notes/todo" ] && echo "the note still exists: the delete never reached the server"
"$assay" evidence verify "$work/mcp.tar.gz"
"$assay" evidence show "$work/mcp.tar.gz" | sed -n "8,\$p"
echo "the deny as recorded (assay.tool.decision, the P56a cluster and P56b digest):"
tar -xzOf "$work/mcp.tar.gz" events.ndjson >"$work/mcp.ndjson"
grep -m1 '"tool:delete_note"' "$work/mcp.ndjson"

say "assay sim soak: pass^8 of an 'agent' that crashes on every fourth seed, four runs at a time"
"$assay" sim soak --iterations 8 --seed 1 --jobs 4 --report "$work/soak.json" \
  --exec "if [ \$(( {seed} % 4 )) -eq 0 ]; then echo 'agent crashed on seed {seed}' >&2; exit 3; fi; cp '$work/session.tar.gz' {out}" \
  || echo "exit code $?"

say "The same soak with a tolerance gate: at least 40% on the Wilson interval's lower bound, instead of pass^8"
"$assay" sim soak --iterations 8 --seed 1 --jobs 4 --report "$work/soak-tolerant.json" --min-pass-rate 0.4 \
  --exec "if [ \$(( {seed} % 4 )) -eq 0 ]; then exit 3; fi; cp '$work/session.tar.gz' {out}"

say "assay sim drift: a later soak where the agent crashes on every second seed, against the first"
"$assay" sim soak --iterations 8 --seed 1 --jobs 4 --report "$work/soak-later.json" \
  --exec "if [ \$(( {seed} % 2 )) -eq 0 ]; then exit 3; fi; cp '$work/session.tar.gz' {out}" >/dev/null || true
"$assay" sim drift "$work/soak.json" "$work/soak-later.json" --report "$work/drift.json" --fail-on regressed \
  || echo "exit code $?"

say "The first soak spread over three 'machines' (shards, here three processes at once), then merged"
for shard in 0 1 2; do
  "$assay" sim soak --iterations 8 --seed 1 --jobs 2 --shard "$shard/3" --report "$work/shard-$shard.json" \
    --exec "if [ \$(( {seed} % 4 )) -eq 0 ]; then echo 'agent crashed on seed {seed}' >&2; exit 3; fi; cp '$work/session.tar.gz' {out}" \
    >"$work/shard-$shard.txt" &
done
wait
head -n 1 "$work/shard-1.txt"
"$assay" sim merge "$work/shard-2.json" "$work/shard-0.json" "$work/shard-1.json" --report "$work/soak-merged.json" \
  >/dev/null || true
timeless='s/"duration_ms":[0-9]+/"duration_ms":0/g; s/"generated_at":"[^"]*"/"generated_at":""/'
if [ "$(sed -E "$timeless" "$work/soak-merged.json")" = "$(sed -E "$timeless" "$work/soak.json")" ]; then
  echo "merged report = the one-machine soak.json, byte for byte but for durations and generated_at"
else
  echo "merged report differs from the one-machine soak.json"; exit 1
fi
"$assay" sim merge "$work/shard-0.json" "$work/shard-2.json" --report "$work/soak-merged.json" || echo "exit code $?"

if [ -d ../shared/conformance/assay-upstream ]; then
  up=../shared/conformance/assay-upstream
  say "The Rust reference's own bundle against its EU AI Act pack: one warning, so --fail-on warning fails"
  "$assay" evidence lint "$up/bundles/test-bundle.tar.gz" --pack "$up/packs/eu-ai-act-baseline.yaml" \
    --fail-on warning || echo "exit code $?"
  "$assay" evidence lint "$up/bundles/test-bundle.tar.gz" --pack "$up/packs/eu-ai-act-baseline.yaml" \
    --format sarif --sarif "$work/lint.sarif" --fail-on none >/dev/null
  echo "SARIF for code scanning: $(wc -c <"$work/lint.sarif") bytes, $(grep -c '"ruleId"' "$work/lint.sarif") result(s)"
else
  say "Left out: the Rust reference's bundle against its EU AI Act pack, and its SARIF"
  echo "(they read ../shared/conformance/assay-upstream beside the checkout, which is absent here)"
fi

say "RFC 8785 canonical form of a messy document (assay jcs)"
doc='{ "tool": "read_file", "args": {"path": "/tmp/x", "mode": "r"}, "score": 1.50, "big": 1e21, "note": "caf\u00e9" }'
echo "$doc"
echo "$doc" | "$assay" jcs; echo

say "Its digest (assay digest), streaming the canonical bytes into the hash"
if "$assay" --help | grep -q digest; then
  echo "$doc" | "$assay" digest
  echo "$doc" | "$assay" digest --alg blake2b-512
fi

say "Strict input: a duplicate member is refused with its position and pointer (exit 2)"
echo '{"runs": 3, "results": {"runs": 1, "runs": 2}}' | "$assay" jcs || echo "exit code $?"

say "Contracts (assay schema --list) and the generated JSON Schema of one"
"$assay" schema --list
"$assay" schema closure-v1 >"$work/closure.schema.json"   # (not piped into head: pipefail would see SIGPIPE)
head -n 12 "$work/closure.schema.json"; echo "  ..."

say "A C++ program using the soak report contract as a plain struct"
"$dir/examples/contracts_tour"

say "Validating a report with mistakes: every violation, with its JSON Pointer (exit 1)"
cat <<'JSON' | "$assay" validate soak-report-v1 || echo "exit code $?"
{"schema_version":"soak-report-v1","mode":"soak","iterations":0,"seed":1,"time_budget_secs":60,
 "limits":{"max_bundle_bytes":1,"max_decode_bytes":1,"max_manifest_bytes":1,"max_events_bytes":1,
           "max_events":1,"max_line_bytes":1,"max_path_len":1,"max_json_depth":64},
 "packs":[],
 "results":{"runs":2,"passes":1,"failures":0,"infra_errors":0,"pass_rate":0.5,"pass_all":"yes"}}
JSON
echo
echo "demo finished"
