// The OpenTelemetry export (SPEC §16): the span of each mapped event type (name, kind,
// attributes, parent, times), the root span, traceId from traceparent, deterministic ids and
// bytes, the mapping_loss report, a walk over every member of every event that finds it either
// exported or listed as lost, the max_spans guard, and every upstream ndjson stream exported.
#include "support.hpp"

#include "../evidence/events.hpp"
#include "upstream_streams.hpp"
#include "assay/contracts/otlp.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/otel/exporter.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/schema.hpp"

#include <algorithm>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace json = assay::json;
namespace otel = assay::otel;
using assay_test::event;

namespace {

// The events renumbered from seq 0 in run "run-1", time 2026-01-02T03:04:0<seq>.25Z.
std::vector<json::value> numbered(std::vector<json::value> events) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].set("assayseq", static_cast<double>(i));
    events[i].set("id", "run-1:" + std::to_string(i));
    events[i].set("time", "2026-01-02T03:04:0" + std::to_string(i) + ".25Z");
  }
  return events;
}

std::string bundle_of(std::vector<json::value> events) {
  return assay_test::bundle(assay_test::lines_of(numbered(std::move(events))));
}

struct exported {
  std::string lines;
  std::vector<json::value> spans;  // every span of every line, in order
  std::string report;              // canonical bytes
  assay::contracts::otel_export_report r;
};

exported parse_output(otel::export_output out) {
  exported e;
  e.lines = out.lines;
  e.r = out.report;
  e.report = assay::encode(out.report).value();
  std::size_t at = 0;
  while (at < e.lines.size()) {
    const std::size_t nl = e.lines.find('\n', at);
    REQUIRE(nl != std::string::npos);
    const std::string_view line = std::string_view(e.lines).substr(at, nl - at);
    // Every line is an OTLP TracesData as contracts/otlp.hpp types it: decoded strictly (every
    // member known, every constraint held) and encoded again to the same bytes.
    auto typed = assay::decode<assay::contracts::otlp_traces_data>(line);
    REQUIRE_MESSAGE(typed.has_value(), (typed ? std::string() : typed.error().format()));
    CHECK(assay::encode(*typed).value() == line);
    const auto v = json::parse(line).value();
    for (const auto& rs : v.find("resourceSpans")->as_array())
      for (const auto& ss : rs.find("scopeSpans")->as_array())
        for (const auto& s : ss.find("spans")->as_array())
          e.spans.push_back(s);
    at = nl + 1;
  }
  return e;
}

exported export_bundle(const std::string& bytes, otel::export_options o = {}) {
  otel::bundle_exporter x(o);
  auto v = assay::evidence::verify_bundle_bytes(bytes, {}, x);
  REQUIRE_MESSAGE(v.has_value(), (v ? std::string() : v.error().format()));
  return parse_output(x.finish());
}

// The span whose assay.event.id is `id` (from the span `from` on).
const json::value& span_of(const exported& e, std::string_view id, std::size_t from = 0) {
  for (const auto& s : std::span(e.spans).subspan(from))
    for (const auto& kv : s.find("attributes")->as_array())
      if (kv.find("key")->as_string() == "assay.event.id" && kv.find("value")->find("stringValue")->as_string() == id)
        return s;
  FAIL("no span for " << id);
  return e.spans.front();
}

// The span's attributes as canonical text of {key: AnyValue}.
std::string attrs(const json::value& span) {
  json::value o = json::object{};
  for (const auto& kv : span.find("attributes")->as_array())
    o.set(kv.find("key")->as_string(), *kv.find("value"));
  return json::to_canonical(o).value();
}

std::string str(const json::value& span, std::string_view member) {
  const json::value* v = span.find(member);
  return v ? v->as_string() : std::string("(absent)");
}

std::string span_id(std::string_view content_hash, std::string_view id) {
  return assay::hash::digest_bytes<assay::hash::sha256>(std::string(content_hash) + "\n" + std::string(id))
      .hex()
      .substr(0, 16);
}

std::vector<json::value> mapped_events() {
  return {
      event(0, "assay.profile.started", R"({"profile_name":"ci","profile_version":"2","total_runs_aggregated":1})"),
      event(
          1, "assay.tool.decision",
          R"j({"tool":"read_file","decision":"allow","reason_code":"policy.allow","tool_definition_digest":"sha256:ab",)j"
          R"j("tool_definition_digest_alg":"sha256","tool_definition_canonicalization":"jcs:mcp_tool_definition.v1",)j"
          R"j("tool_definition_schema":"assay.mcp.tool-definition.snapshot.v1","tool_definition_source":"mcp.tools/list"})j"),
      event(
          2, "assay.tool.call",
          R"j({"tool":"read_file","call_id":"c-7","arguments":{"path":"a.txt"},"result":"hello","nondeterministic":false})j"),
      event(3, "assay.model.invoked", R"({"model":"gpt-4o","provider":"openai","operation":"chat"})"),
      event(4, "assay.profile.finished",
            R"({"files_count":1,"network_count":0,"processes_count":2,"sandbox_degradation_count":0})"),
  };
}

}  // namespace

TEST_CASE("each mapped event type: its span, kind, attributes, parent and times") {
  const auto events = numbered(mapped_events());
  const std::string lines = assay_test::lines_of(events);
  const auto e = export_bundle(assay_test::bundle(lines));
  REQUIRE(e.spans.size() == 4);  // the root (profile.started) and three event spans
  std::vector<std::string> hashes;
  for (auto v : events)
    hashes.push_back(assay::evidence::content_hash(v).value());
  const std::string trace =
      assay::hash::digest_bytes<assay::hash::sha256>(std::string("assay-otel-trace\nrun-1")).hex().substr(0, 32);
  const std::string root_id = span_id(hashes[0], "run-1:0");

  const auto& root = e.spans[0];
  CHECK(str(root, "name") == "assay.run");
  CHECK(root.find("kind")->as_number() == 1);
  CHECK(str(root, "traceId") == trace);
  CHECK(str(root, "spanId") == root_id);
  CHECK(root.find("parentSpanId") == nullptr);
  // 2026-01-02T03:04:00.25Z .. 03:04:04.25Z + 1 µs
  CHECK(str(root, "startTimeUnixNano") == "1767323040250000000");
  CHECK(str(root, "endTimeUnixNano") == "1767323044250001000");
  CHECK(
      attrs(root) ==
      R"({"assay.content_hash":{"stringValue":")" + hashes[0] +
          R"("},"assay.event.datacontenttype":{"stringValue":"application/json"},"assay.event.id":{"stringValue":"run-1:0"},)"
          R"("assay.event.seq":{"intValue":"0"},"assay.git":{"stringValue":"unknown"},"assay.pii":{"boolValue":false},)"
          R"("assay.profile.name":{"stringValue":"ci"},"assay.profile.total_runs_aggregated":{"intValue":"1"},)"
          R"("assay.profile.version":{"stringValue":"2"},"assay.run.id":{"stringValue":"run-1"},"assay.secrets":{"boolValue":false},)"
          R"("cloudevents.event_id":{"stringValue":"run-1:0"},"cloudevents.event_source":{"stringValue":"urn:assay:test"},"cloudevents.event_spec_version":{"stringValue":"1.0"},)"
          R"("cloudevents.event_type":{"stringValue":"assay.profile.started"}})");
  // profile.finished: a span event on the root
  const auto& ev = root.find("events")->as_array();
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].find("name")->as_string() == "assay.profile.finished");
  CHECK(ev[0].find("timeUnixNano")->as_string() == "1767323044250000000");
  CHECK(attrs(ev[0]).find(R"("assay.profile.processes_count":{"intValue":"2"})") != std::string::npos);
  CHECK(attrs(ev[0]).find(R"("assay.event.id":{"stringValue":"run-1:4"})") != std::string::npos);

  const auto& decision = e.spans[1];
  CHECK(str(decision, "name") == "execute_tool read_file");
  CHECK(decision.find("kind")->as_number() == 1);
  CHECK(str(decision, "spanId") == span_id(hashes[1], "run-1:1"));
  CHECK(str(decision, "parentSpanId") == root_id);
  CHECK(str(decision, "traceId") == trace);
  CHECK(str(decision, "startTimeUnixNano") == "1767323041250000000");
  CHECK(str(decision, "endTimeUnixNano") == "1767323041250001000");
  const std::string da = attrs(decision);
  for (std::string_view kv :
       {R"("gen_ai.operation.name":{"stringValue":"execute_tool"})",
        R"("gen_ai.tool.name":{"stringValue":"read_file"})", R"("assay.decision":{"stringValue":"allow"})",
        R"("assay.decision.reason_code":{"stringValue":"policy.allow"})",
        R"("assay.decision.tool_definition_source":{"stringValue":"mcp.tools/list"})",
        R"("mcp.method.name":{"stringValue":"tools/call"})"})
    CHECK_MESSAGE(da.find(kv) != std::string::npos, kv);

  const auto& call = e.spans[2];
  CHECK(str(call, "name") == "execute_tool read_file");
  CHECK(str(call, "parentSpanId") == root_id);
  const std::string ca = attrs(call);
  for (std::string_view kv :
       {R"("gen_ai.tool.call.id":{"stringValue":"c-7"})", R"("assay.tool.nondeterministic":{"boolValue":false})",
        R"("mcp.method.name":{"stringValue":"tools/call"})",
        R"("gen_ai.operation.name":{"stringValue":"execute_tool"})"})
    CHECK_MESSAGE(ca.find(kv) != std::string::npos, kv);
  // Sensitive, and generalized (docs/privacy.md): nothing in them is a home path or a secret.
  CHECK(ca.find(R"("gen_ai.tool.call.arguments":{"stringValue":"{\"path\":\"a.txt\"}"})") != std::string::npos);

  const auto& model = e.spans[3];
  CHECK(str(model, "name") == "chat gpt-4o");
  CHECK(model.find("kind")->as_number() == 3);
  CHECK(str(model, "parentSpanId") == root_id);
  const std::string ma = attrs(model);
  for (std::string_view kv :
       {R"("gen_ai.provider.name":{"stringValue":"openai"})", R"("gen_ai.request.model":{"stringValue":"gpt-4o"})",
        R"("gen_ai.operation.name":{"stringValue":"chat"})"})
    CHECK_MESSAGE(ma.find(kv) != std::string::npos, kv);

  // The line's frame: the resource is the producer, the scope assay, the schema URL pinned.
  const auto line = json::parse(std::string_view(e.lines).substr(0, e.lines.find('\n'))).value();
  const auto& rs = line.find("resourceSpans")->as_array().at(0);
  CHECK(json::to_canonical(*rs.find("resource")).value() ==
        R"({"attributes":[{"key":"service.name","value":{"stringValue":"assay-test"}},)"
        R"({"key":"service.version","value":{"stringValue":"1.0.0"}}]})");
  CHECK(rs.find("schemaUrl")->as_string() == "https://opentelemetry.io/schemas/1.41.1");
  CHECK(otel::schema_url == "https://opentelemetry.io/schemas/1.41.1");
  const auto& ss = rs.find("scopeSpans")->as_array().at(0);
  CHECK(ss.find("schemaUrl")->as_string() == "https://opentelemetry.io/schemas/1.41.1");
  CHECK(json::to_canonical(*ss.find("scope")).value() == R"({"name":"assay","version":"0.1.0"})");
  CHECK(e.report == R"({"events_read":5,"mapping_loss":{"dropped_attributes":[],)"
                    R"("totals":{"dropped_attributes":0,"unmapped_events":0},"unmapped_events":{}},)"
                    R"("schema_version":"otel-export-report-v1","semconv_version":"1.41.1","spans_written":4})");

  // With sensitive values asked for as written: the arguments and result as canonical JSON text.
  const auto s = export_bundle(assay_test::bundle(lines), {.include_sensitive = true});
  const std::string sa = attrs(span_of(s, "run-1:2"));
  CHECK(sa.find(R"("gen_ai.tool.call.arguments":{"stringValue":"{\"path\":\"a.txt\"}"})") != std::string::npos);
  CHECK(sa.find(R"("gen_ai.tool.call.result":{"stringValue":"\"hello\""})") != std::string::npos);
  CHECK(s.r.mapping_loss.totals.dropped_attributes.value() == 0);

  // The library API on the same lines gives the same bytes as the bundle visitor.
  otel::exporter x({"assay-test", "1.0.0", std::nullopt});
  std::size_t at = 0;
  while (at < lines.size()) {
    const std::size_t nl = lines.find('\n', at);
    REQUIRE(x.add(std::string_view(lines).substr(at, nl - at)).has_value());
    at = nl + 1;
  }
  CHECK(x.finish().lines == e.lines);
}

TEST_CASE("no GenAI span by guess: what the conventions need and the event lacks is said, its members under assay.*") {
  const std::string c = R"({"alg":"sha256","digest":"sha256:00","size_bytes":5})";
  const auto events = numbered({
      event(0, "assay.model.invoked", R"({"model":"m-1"})"),
      event(1, "assay.model.invoked", R"({"model":"m-2","operation":"chat"})"),
      event(2, "assay.model.invoked", R"({"model":)" + c + R"(,"operation":"chat","provider":"anthropic"})"),
      event(3, "assay.model.invoked", R"({"model":)" + c + R"(,"operation":"chat","provider":"openai"})"),
      event(4, "assay.model.invoked", R"({"model":"m-3","operation":"chat","provider":"aws.bedrock"})"),
      event(5, "assay.model.invoked", R"({"model":"m-4","operation":"invoke_agent","provider":"openai"})"),
      event(6, "assay.tool.call", R"({"tool":)" + c + R"(,"call_id":"c-1"})"),
      event(7, "assay.tool.call", R"({"tool":"t","call_id":7,"operation":"x"})"),
      event(8, "assay.model.invoked", R"({"model":"m-5","operation":"complete","provider":"acme","seed":3})"),
  });
  const auto e = export_bundle(assay_test::bundle(assay_test::lines_of(events)));
  REQUIRE(e.spans.size() == 10);
  const std::string tail =
      " (semantic conventions 1.41.1), and it is not guessed: the span has no gen_ai.* attribute, its members are "
      "under assay.*";
  CHECK(e.report == R"({"events_read":9,"mapping_loss":{"dropped_attributes":[)"
                    R"({"event_id":"run-1:0","member":"/data/operation","reason":"absent: a GenAI inference span )"
                    R"(requires gen_ai.operation.name)" +
                        tail +
                        R"("},{"event_id":"run-1:1","member":"/data/provider","reason":"absent: a GenAI inference )"
                        R"(span requires gen_ai.provider.name)" +
                        tail +
                        R"("},{"event_id":"run-1:3","member":"/data/model","reason":"a redaction commitment: the )"
                        R"(openai inference span (span.openai.inference.client) requires gen_ai.request.model)" +
                        tail +
                        R"("},{"event_id":"run-1:4","member":"/data/provider","reason":"the aws.bedrock inference )"
                        R"(span (span.aws.bedrock.client) requires aws.bedrock.guardrail.id, which this event type )"
                        R"(does not give)" +
                        tail +
                        R"("},{"event_id":"run-1:5","member":"/data/operation","reason":"the operation )"
                        R"(invoke_agent has a span type of its own, not a model inference)" +
                        tail +
                        R"("},{"event_id":"run-1:6","member":"/data/tool","reason":"a redaction commitment: an )"
                        R"(execute_tool span requires gen_ai.tool.name)" +
                        tail +
                        R"("}],"totals":{"dropped_attributes":6,"unmapped_events":0},"unmapped_events":{}},)"
                        R"("schema_version":"otel-export-report-v1","semconv_version":"1.41.1","spans_written":10})");

  // The payload's attributes of a span: those not from the envelope.
  const auto payload = [&](std::string_view id) {
    const auto& s = span_of(e, id, 1);  // not the root, which carries the run's first event id
    json::value o = json::object{};
    for (const auto& kv : s.find("attributes")->as_array()) {
      const std::string& k = kv.find("key")->as_string();
      if (k.starts_with("assay.model") || k.starts_with("assay.tool") || k.starts_with("gen_ai.") ||
          k.starts_with("mcp."))
        o.set(k, *kv.find("value"));
    }
    return str(s, "name") + " " + std::to_string(static_cast<int>(s.find("kind")->as_number())) + " " +
           json::to_canonical(o).value();
  };
  const std::string commitment =
      R"(alg":{"stringValue":"sha256"},"assay.model.commitment.digest":{"stringValue":"sha256:00"},)"
      R"("assay.model.commitment.size_bytes":{"intValue":"5"})";
  CHECK(payload("run-1:0") == R"(assay.model.invoked 1 {"assay.model":{"stringValue":"m-1"}})");
  CHECK(
      payload("run-1:1") ==
      R"(assay.model.invoked 1 {"assay.model":{"stringValue":"m-2"},"assay.model.operation":{"stringValue":"chat"}})");
  // A redacted model: the span is still the inference span (the model is required only when
  // available), the commitment under assay.model.commitment.*.
  CHECK(payload("run-1:2") == R"(chat 3 {"assay.model.commitment.)" + commitment +
                                  R"(,"gen_ai.operation.name":{"stringValue":"chat"},)"
                                  R"("gen_ai.provider.name":{"stringValue":"anthropic"}})");
  CHECK(payload("run-1:3") == R"(assay.model.invoked 1 {"assay.model.commitment.)" + commitment +
                                  R"(,"assay.model.operation":{"stringValue":"chat"},)"
                                  R"("assay.model.provider":{"stringValue":"openai"}})");
  CHECK(payload("run-1:4") == R"(assay.model.invoked 1 {"assay.model":{"stringValue":"m-3"},)"
                              R"("assay.model.operation":{"stringValue":"chat"},)"
                              R"("assay.model.provider":{"stringValue":"aws.bedrock"}})");
  CHECK(payload("run-1:5") == R"(assay.model.invoked 1 {"assay.model":{"stringValue":"m-4"},)"
                              R"("assay.model.operation":{"stringValue":"invoke_agent"},)"
                              R"("assay.model.provider":{"stringValue":"openai"}})");
  CHECK(payload("run-1:6") == R"(assay.tool.call 1 {"assay.tool.call_id":{"stringValue":"c-1"},)"
                              R"("assay.tool.commitment.alg":{"stringValue":"sha256"},)"
                              R"("assay.tool.commitment.digest":{"stringValue":"sha256:00"},)"
                              R"("assay.tool.commitment.size_bytes":{"intValue":"5"}})");
  // A call id that is not a string is not gen_ai.tool.call.id (a string attribute).
  CHECK(payload("run-1:7") == R"(execute_tool t 1 {"assay.tool.call_id":{"intValue":"7"},)"
                              R"("assay.tool.operation":{"stringValue":"x"},)"
                              R"("gen_ai.operation.name":{"stringValue":"execute_tool"},)"
                              R"("gen_ai.tool.name":{"stringValue":"t"}})");
  // The conventions' enums are open: an operation and a provider they do not list pass as given.
  CHECK(payload("run-1:8") == R"(complete m-5 3 {"assay.model.seed":{"intValue":"3"},)"
                              R"("gen_ai.operation.name":{"stringValue":"complete"},)"
                              R"("gen_ai.provider.name":{"stringValue":"acme"},)"
                              R"("gen_ai.request.model":{"stringValue":"m-5"}})");

  // An event with no source is no CloudEvent: its envelope goes under assay.event.*.
  otel::exporter x({"p", "1", std::nullopt});
  REQUIRE(x.add(R"({"type":"assay.tool.call","id":"r:0","time":"2026-01-01T00:00:00Z","assayrunid":"r",)"
                R"("assaycontenthash":"sha256:00","specversion":"1.0","subject":"s","data":{"tool":"search"}})")
              .has_value());
  const auto lib = parse_output(x.finish());
  REQUIRE(lib.spans.size() == 2);
  CHECK(attrs(lib.spans[1]) ==
        R"({"assay.content_hash":{"stringValue":"sha256:00"},"assay.event.id":{"stringValue":"r:0"},)"
        R"("assay.event.spec_version":{"stringValue":"1.0"},"assay.event.subject":{"stringValue":"s"},)"
        R"("assay.event.type":{"stringValue":"assay.tool.call"},"assay.run.id":{"stringValue":"r"},)"
        R"("gen_ai.operation.name":{"stringValue":"execute_tool"},"gen_ai.tool.name":{"stringValue":"search"}})");
}

TEST_CASE("traceId from traceparent; a root without profile.started; another trace is linked") {
  auto events = mapped_events();
  events.erase(events.begin());  // no profile.started
  events[0].set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  events[1].set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
  events[1].set("tracestate", "vendor=1");
  const auto e = export_bundle(bundle_of(events));
  REQUIRE(e.spans.size() == 4);
  const auto& root = e.spans[0];
  const std::string root_id =
      assay::hash::digest_bytes<assay::hash::sha256>(std::string("assay-otel-root\nrun-1")).hex().substr(0, 16);
  CHECK(str(root, "traceId") == "4bf92f3577b34da6a3ce929d0e0e4736");
  CHECK(str(root, "spanId") == root_id);
  CHECK(str(root, "parentSpanId") == "00f067aa0ba902b7");  // the run nests under the caller's span
  CHECK(attrs(root).find(R"("assay.event.id":{"stringValue":"run-1:0"})") != std::string::npos);
  const auto& decision = e.spans[1];
  CHECK(str(decision, "traceId") == "4bf92f3577b34da6a3ce929d0e0e4736");
  CHECK(str(decision, "parentSpanId") == root_id);
  CHECK(attrs(decision).find(
            R"("assay.traceparent":{"stringValue":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})") !=
        std::string::npos);
  const auto& call = e.spans[2];
  CHECK(str(call, "traceId") == "0af7651916cd43dd8448eb211c80319c");
  CHECK(str(call, "parentSpanId") == "b7ad6b7169203331");
  CHECK(str(call, "traceState") == "vendor=1");
  CHECK(json::to_canonical(*call.find("links")).value() ==
        R"([{"spanId":")" + root_id + R"(","traceId":"4bf92f3577b34da6a3ce929d0e0e4736"}])");
  CHECK(str(e.spans[3], "traceId") == "4bf92f3577b34da6a3ce929d0e0e4736");
}

TEST_CASE("two exports of a bundle are byte-identical, and lines hold at most spans_per_line spans") {
  const std::string b = bundle_of(mapped_events());
  const auto a = export_bundle(b, {.spans_per_line = 2});
  const auto c = export_bundle(b, {.spans_per_line = 2});
  CHECK(a.lines == c.lines);
  CHECK(a.report == c.report);
  CHECK(std::count(a.lines.begin(), a.lines.end(), '\n') == 2);
  CHECK(assay::hash::digest_bytes<assay::hash::sha256>(a.lines).hex() ==
        assay::hash::digest_bytes<assay::hash::sha256>(export_bundle(b, {.spans_per_line = 2}).lines).hex());
  // A line's type (every line decodes into it: parse_output) has its schema generated.
  const json::value schema = assay::schema<assay::contracts::otlp_traces_data>();
  const auto at = [&](std::string_view p) { return json::to_canonical(**json::find(schema, p)).value(); };
  CHECK(at("/required") == R"(["resourceSpans"])");
  CHECK(at("/$defs/span/properties/traceId/pattern") == R"("^[0-9a-f]{32}$")");
  CHECK(at("/$defs/span/properties/spanId/pattern") == R"("^[0-9a-f]{16}$")");
  CHECK(at("/$defs/span/properties/startTimeUnixNano/pattern") == R"("^(0|[1-9][0-9]*)$")");
  CHECK(at("/$defs/anyValue/properties/intValue/type") == R"("string")");
}

TEST_CASE("the loss report: unknown types, members with no attribute form, unknown envelope members") {
  auto events = mapped_events();
  events.push_back(event(5, "vendor.thing", R"({"a":1})"));
  events.push_back(event(6, "vendor.thing", R"({"a":2})"));
  events.push_back(event(7, "other.kind", "{}"));
  events.push_back(event(
      8, "assay.tool.call",
      R"j({"tool":"t","extra":null,"mixed":[1,"x"],"nested":[[1]],"empty":{},"list":["a","b"],"obj":{"k":{"z":1.5}}})j"));
  events.back().set("vendorext", "v");
  const auto e = export_bundle(bundle_of(events));
  CHECK(
      e.report ==
      R"({"events_read":9,"mapping_loss":{"dropped_attributes":[)"
      R"({"event_id":"run-1:8","member":"/vendorext","reason":"not a member of the evidence envelope: no mapping"},)"
      R"({"event_id":"run-1:8","member":"/data/empty","reason":"an empty object has no attribute form"},)"
      R"({"event_id":"run-1:8","member":"/data/extra","reason":"null has no OpenTelemetry attribute form"},)"
      R"j({"event_id":"run-1:8","member":"/data/mixed","reason":"an attribute array holds primitives of one type only (strings, integers, doubles or booleans)"},)j"
      R"j({"event_id":"run-1:8","member":"/data/nested","reason":"an attribute array holds primitives of one type only (strings, integers, doubles or booleans)"}],)j"
      R"("totals":{"dropped_attributes":5,"unmapped_events":3},"unmapped_events":{"other.kind":1,"vendor.thing":2}},)"
      R"("schema_version":"otel-export-report-v1","semconv_version":"1.41.1","spans_written":5})");
  const std::string a = attrs(span_of(e, "run-1:8"));
  CHECK(a.find(R"("assay.tool.list":{"arrayValue":{"values":[{"stringValue":"a"},{"stringValue":"b"}]}})") !=
        std::string::npos);
  CHECK(a.find(R"("assay.tool.obj.k.z":{"doubleValue":1.5})") != std::string::npos);
  // The report is a valid otel-export-report-v1 (its totals add up).
  CHECK(assay::decode<assay::contracts::otel_export_report>(e.report).has_value());
}

namespace {

struct leaf {
  std::string pointer;
  const json::value* value;
  std::vector<const json::value*> ancestors;  // the objects it is in, innermost first
};

// Every leaf of `v` (a primitive, an array, or an empty object) with its pointer.
void leaves(const json::value& v, const std::string& ptr, std::vector<const json::value*> up, std::vector<leaf>& out) {
  if (v.is_object() && !v.as_object().empty()) {
    if (!ptr.empty())
      up.insert(up.begin(), &v);
    for (const auto& m : v.as_object())
      leaves(m.value, assay::otel::child_pointer(ptr, m.name), up, out);
    return;
  }
  out.push_back({ptr, &v, up});
}

// Whether the AnyValue `a` holds the JSON value `v`.
bool holds(const json::value& a, const json::value& v) {
  if (const auto* s = a.find("stringValue"))
    return (v.is_string() && s->as_string() == v.as_string()) ||
           json::to_canonical(v).value() == s->as_string();  // a JSON value as its canonical text
  if (const auto* b = a.find("boolValue"))
    return v.is_bool() && b->as_bool() == v.as_bool();
  if (const auto* i = a.find("intValue"))
    return v.is_number() && json::to_canonical(v).value() == i->as_string();
  if (const auto* d = a.find("doubleValue"))
    return v.is_number() && d->as_number() == v.as_number();
  if (const auto* arr = a.find("arrayValue")) {
    const auto& vals = arr->find("values")->as_array();
    if (!v.is_array() || vals.size() != v.as_array().size())
      return false;
    for (std::size_t k = 0; k < vals.size(); ++k)
      if (!holds(vals[k], v.as_array()[k]))
        return false;
    return true;
  }
  return false;
}

}  // namespace

TEST_CASE("every member of every event is exported or listed as lost") {
  auto events = mapped_events();
  events.push_back(event(5, "vendor.thing", R"({"a":1})"));
  events.push_back(
      event(6, "assay.model.invoked",
            R"j({"model":{"alg":"sha256","digest":"sha256:00","size_bytes":3},"n":[true,false],"x":null,"e":{}})j"));
  events.back().set("subject", "s");
  events.back().set("assaypolicyid", "p-1");
  events.back().set("custom", 1);
  events = numbered(std::move(events));
  const std::string lines = assay_test::lines_of(events);
  const auto e = export_bundle(assay_test::bundle(lines), {.include_sensitive = true});
  std::size_t checked = 0;
  std::size_t at = 0;
  while (at < lines.size()) {
    const std::size_t nl = lines.find('\n', at);
    const auto ev = json::parse(std::string_view(lines).substr(at, nl - at)).value();
    at = nl + 1;
    const std::string id = ev.find("id")->as_string();
    const std::string type = ev.find("type")->as_string();
    CAPTURE(id);
    if (e.r.mapping_loss.unmapped_events.contains(type))
      continue;  // the whole event is listed as lost, by type
    // The span (or root span event) that carries it.
    const json::value* carrier = nullptr;
    for (const auto& s : e.spans) {
      if (attrs(s).find(R"("assay.event.id":{"stringValue":")" + id + "\"") != std::string::npos)
        carrier = &s;
      if (const auto* evs = s.find("events"))
        for (const auto& x : evs->as_array())
          if (attrs(x).find(R"("assay.event.id":{"stringValue":")" + id + "\"") != std::string::npos)
            carrier = &x;
    }
    REQUIRE(carrier != nullptr);
    std::vector<leaf> all;
    leaves(ev, "", {}, all);
    for (const leaf& l : all) {
      const std::string& ptr = l.pointer;
      const json::value* v = l.value;
      const auto& up = l.ancestors;
      CAPTURE(ptr);
      ++checked;
      bool lost = false;
      for (const auto& d : e.r.mapping_loss.dropped_attributes)
        lost = lost || (d.event_id == id && d.member == ptr);
      if (lost)
        continue;
      bool found = ptr == "/time";  // the span's times
      if (ptr == "/assayproducer" || ptr == "/assayproducerversion")
        found = v->as_string() == (ptr == "/assayproducer" ? "assay-test" : "1.0.0");  // the resource
      for (const auto& kv : carrier->find("attributes")->as_array()) {
        found = found || holds(*kv.find("value"), *v);
        for (const json::value* a : up)  // inside a value exported whole, as its JSON text
          found = found || holds(*kv.find("value"), *a);
      }
      CHECK_MESSAGE(found, "neither exported nor listed as lost");
    }
  }
  CHECK(checked > 100);
}

TEST_CASE("max_spans: the export is refused, nothing is produced") {
  const std::string b = bundle_of(mapped_events());  // four spans
  CHECK(export_bundle(b, {.max_spans = 4}).spans.size() == 4);
  otel::bundle_exporter x({.max_spans = 3});
  auto v = assay::evidence::verify_bundle_bytes(b, {}, x);
  REQUIRE_FALSE(v.has_value());
  CHECK(v.error().code == assay::errc::above_maximum);
  CHECK(v.error().message.find("the export would hold more than 3 spans (the limit max_spans, --max-spans)") !=
        std::string::npos);
  otel::exporter lib({"p", "1", std::nullopt}, {.max_spans = 0});
  std::string line = assay_test::lines_of({event(0, "vendor.x")});
  line.pop_back();
  const auto r = lib.add(line);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().code == assay::errc::above_maximum);
}

TEST_CASE("every upstream ndjson stream exports, with a report whose totals add up" *
          doctest::test_suite("conformance")) {
  assay_test::for_each_upstream_bundle([&](const std::string& gz, std::size_t events) {
    const auto e = export_bundle(gz);
    const auto& loss = e.r.mapping_loss;
    std::int64_t unmapped = 0;
    for (const auto& [type, n] : loss.unmapped_events)
      unmapped += n.value();
    CHECK(e.r.events_read.value() == static_cast<std::int64_t>(events));
    CHECK(loss.totals.unmapped_events.value() == unmapped);
    CHECK(loss.totals.dropped_attributes.value() == static_cast<std::int64_t>(loss.dropped_attributes.size()));
    // Mapped events give one span each, every run one root span.
    CHECK(e.r.spans_written.value() == static_cast<std::int64_t>(e.spans.size()));
    CHECK(e.r.spans_written.value() == e.r.events_read.value() - unmapped + 1);
    CHECK(assay::decode<assay::contracts::otel_export_report>(e.report).has_value());
    for (const auto& s : e.spans) {
      CHECK(str(s, "traceId").size() == 32);
      CHECK(str(s, "spanId").size() == 16);
    }
  });
}
