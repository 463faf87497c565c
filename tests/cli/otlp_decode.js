// Decodes OTLP/JSON TracesData lines with the OTLP protobuf definitions (npm
// @opentelemetry/otlp-transformer's generated root): each line is checked by verify(), turned into
// an ExportTraceServiceRequest (ids as hex, as OTLP/JSON requires, become bytes), encoded to
// protobuf, decoded again and compared: ids, kinds, times and attribute values survive.
// usage: node otlp_decode.js TRANSFORMER_ROOT_JS FILE...   prints "<file>: N lines, N spans" each
"use strict";
const fs = require("fs");
const root = require(process.argv[2]);
const { TracesData } = root.opentelemetry.proto.trace.v1;
const { ExportTraceServiceRequest } = root.opentelemetry.proto.collector.trace.v1;

function fail(msg) {
  console.error("FAIL " + msg);
  process.exitCode = 1;
}
const hexId = (s, n) => typeof s === "string" && s.length === n && /^[0-9a-f]+$/.test(s) && /[^0]/.test(s);
const toBytes = (hex) => Buffer.from(hex, "hex");

function withBytes(span, where) {
  const out = Object.assign({}, span);
  if (!hexId(span.traceId, 32)) fail(`${where}: traceId ${span.traceId}`);
  if (!hexId(span.spanId, 16)) fail(`${where}: spanId ${span.spanId}`);
  out.traceId = toBytes(span.traceId);
  out.spanId = toBytes(span.spanId);
  if (span.parentSpanId !== undefined) {
    if (!hexId(span.parentSpanId, 16)) fail(`${where}: parentSpanId ${span.parentSpanId}`);
    out.parentSpanId = toBytes(span.parentSpanId);
  }
  out.links = (span.links || []).map((l) => Object.assign({}, l, { traceId: toBytes(l.traceId), spanId: toBytes(l.spanId) }));
  for (const k of ["startTimeUnixNano", "endTimeUnixNano"])
    if (!/^[0-9]+$/.test(span[k])) fail(`${where}: ${k} is not a decimal string`);
  return out;
}

for (const file of process.argv.slice(3)) {
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0);
  let spans = 0;
  lines.forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const td = JSON.parse(line);
    for (const rs of td.resourceSpans)
      for (const ss of rs.scopeSpans) ss.spans = ss.spans.map((s) => withBytes(s, where));
    const err = TracesData.verify(TracesData.fromObject(td));
    if (err) fail(`${where}: ${err}`);
    const req = ExportTraceServiceRequest.fromObject({ resourceSpans: td.resourceSpans });
    const back = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(ExportTraceServiceRequest.encode(req).finish()), {
      longs: String,
      bytes: String,
      defaults: false,
    });
    const orig = JSON.parse(line);
    orig.resourceSpans.forEach((rs, r) =>
      rs.scopeSpans.forEach((ss, s) =>
        ss.spans.forEach((sp, k) => {
          const got = back.resourceSpans[r].scopeSpans[s].spans[k];
          const hex = (b64) => Buffer.from(b64, "base64").toString("hex");
          ++spans;
          if (hex(got.traceId) !== sp.traceId || hex(got.spanId) !== sp.spanId) fail(`${where}: ids changed`);
          if ((sp.parentSpanId || "") !== (got.parentSpanId ? hex(got.parentSpanId) : "")) fail(`${where}: parent changed`);
          if (got.kind !== sp.kind || got.name !== sp.name) fail(`${where}: kind or name changed`);
          if (got.startTimeUnixNano !== sp.startTimeUnixNano || got.endTimeUnixNano !== sp.endTimeUnixNano)
            fail(`${where}: times changed`);
          if (JSON.stringify(got.attributes || []) !== JSON.stringify(sp.attributes))
            fail(`${where}: attributes changed: ${JSON.stringify(got.attributes).slice(0, 300)}`);
        })
      )
    );
    if (back.resourceSpans[0].schemaUrl !== "https://opentelemetry.io/schemas/1.41.1") fail(`${where}: schemaUrl`);
  });
  console.log(`${file}: ${lines.length} lines, ${spans} spans`);
}
