// assay/otel/exporter.hpp — evidence events as OpenTelemetry spans: OTLP/JSON TracesData, one
// object per line, and the otel-export-report-v1 that says what the mapping lost (docs/otel.md).
//
//   assay::otel::exporter x({.name = "my-agent", .version = "1.2.0"});   // the resource
//   for (std::string_view line : my_events) if (auto r = x.add(line); !r) ...;   // a runtime's events
//   auto out = x.finish();   // out->lines: TracesData lines; out->report: the report
//
// or, over a bundle, as a visitor of the one verification pass (bundle_exporter, below).
//
// The mapping follows the GenAI, MCP and CloudEvents semantic conventions of one release,
// semconv_version (below): every attribute written in a registry namespace (gen_ai.*, mcp.*,
// cloudevents.*, service.*) is defined there with the type written, and every GenAI span carries
// what its span definition requires. What the conventions do not define goes under assay.*.
//   assay.tool.decision, assay.tool.call with a tool name -> span "execute_tool {tool}", kind
//       INTERNAL, gen_ai.operation.name=execute_tool, gen_ai.tool.name; a decision's members under
//       assay.decision*; mcp.method.name=tools/call for a tool whose definition came from MCP
//       tools/list (its decisions and its calls in the run)
//   assay.model.invoked with an operation and a provider -> span "{operation} {model}", kind
//       CLIENT, gen_ai.operation.name, gen_ai.provider.name, gen_ai.request.model (when the model
//       is a name, not a redaction commitment)
//   the same types without what their span definition requires (no tool name, no operation, no
//       provider, an operation with a span type of its own, a provider whose span definition needs
//       what the event does not give) -> a span named by the event type, kind INTERNAL, with no
//       gen_ai.* attribute: its members under assay.tool.* / assay.model.*, and an entry in
//       mapping_loss.dropped_attributes saying what was missing. Nothing is guessed.
//   assay.profile.started -> the run's root span "assay.run"; every other span of the run is its
//       child. A run without one still has a root span, made from its first event's identity.
//   assay.profile.finished (and any later profile.started) -> a span event on the root span
//   anything else -> no span: counted by type in mapping_loss.unmapped_events
// Every span carries its event's envelope: assay.event.id, assay.content_hash, assay.run.id,
// assay.event.seq, cloudevents.event_{id,type,source,spec_version,subject}, ...; payload members
// without a semantic convention keep their names under the type's assay.* prefix; a redaction
// commitment in place of a member the conventions name is assay.{tool,model,...}.commitment.*.
// Whatever has no attribute form (attributes.hpp), and sensitive members (docs/privacy.md) unless
// include_sensitive, is listed in mapping_loss.dropped_attributes with its pointer and the reason.
//
// Ids: the run's traceId is the trace id of the first traceparent in the run, else 16 bytes of
// sha256 over the run id; a spanId is 8 bytes of sha256 over the event's content hash and id.
// An event whose traceparent names another trace keeps that trace and the traceparent's span as
// its parent, with a link to the run's root. Times: the event time in Unix nanoseconds; an event
// span lasts 1 µs; the root span lasts from the run's first event to 1 µs after its last.
//
// Lines: one TracesData per line, one resource (service.name, service.version: the producer), one
// scope (assay, the library version), at most spans_per_line spans, all of one run, the root
// first. Spans are held until finish() (at most max_spans of them): the output is bounded.
#pragma once

#include "assay/contracts/otel_export_report.hpp"
#include "assay/contracts/otlp.hpp"
#include "assay/error.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/event_data.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/time.hpp"
#include "assay/otel/attributes.hpp"
#include "assay/separate.hpp"
#include "assay/version.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::otel {

// The semantic-conventions release the mapping is pinned to (docs/otel.md), named in every schemaUrl
// and in the report. Moving to another release is this one line, once the conformance test
// otel_semconv passes against that release's registry (it checks every attribute, type, enum
// member, required attribute, span name and kind written against the registry's YAML model).
inline constexpr std::string_view semconv_version = "1.41.1";

namespace detail {
inline constexpr std::string_view schema_url_base = "https://opentelemetry.io/schemas/";
inline constexpr auto schema_url_chars = [] {
  std::array<char, schema_url_base.size() + semconv_version.size()> a{};
  std::copy(schema_url_base.begin(), schema_url_base.end(), a.begin());
  std::copy(semconv_version.begin(), semconv_version.end(), a.begin() + schema_url_base.size());
  return a;
}();
}  // namespace detail

// https://opentelemetry.io/schemas/{semconv_version}
inline constexpr std::string_view schema_url{detail::schema_url_chars.data(), detail::schema_url_chars.size()};
inline constexpr std::string_view scope_name = "assay";

// OTLP SpanKind.
enum class span_kind : int { internal = 1, server = 2, client = 3, producer = 4, consumer = 5 };

struct export_options {
  std::uint64_t max_spans = 100000;  // more: add() fails (errc::above_maximum), nothing is written
  std::size_t spans_per_line = 512;  // spans in one TracesData line (at least 1)
  bool include_sensitive = false;    // export the payload members docs/privacy.md calls sensitive
};

struct export_output {
  std::string lines;  // TracesData objects, canonical JSON, one per line, each ending in '\n'
  std::uint64_t line_count = 0;
  contracts::otel_export_report report;
};

namespace detail {

// How a payload member maps: to `key`, a semantic-conventions attribute (a string one, or one of
// type any as the canonical JSON text of the value: json_text), or to `fallback` under assay.*
// when the event gets no GenAI span, when its value is not of the key's type, or (as
// fallback.commitment.*) when it is a redaction commitment (docs/privacy.md). Members whose key is already
// under assay.* have no fallback. Sensitive members are exported only when asked for.
struct member_rule {
  std::string_view member;
  std::string_view key;
  std::string_view fallback;
  bool sensitive = false;
  bool json_text = false;
};

enum class role { tool, inference, root, root_event };

struct type_rule {
  std::string_view type;
  role what;
  std::string_view prefix;  // the key prefix of members without a rule
  std::span<const member_rule> members;
};

inline constexpr member_rule decision_members[] = {{"tool", "gen_ai.tool.name", "assay.tool"},
                                                   {"decision", "assay.decision", ""},
                                                   {"reason_code", "assay.decision.reason_code", ""}};
inline constexpr member_rule call_members[] = {
    {"tool", "gen_ai.tool.name", "assay.tool"},
    {"call_id", "gen_ai.tool.call.id", "assay.tool.call_id"},
    {"arguments", "gen_ai.tool.call.arguments", "assay.tool.arguments", true, true},
    {"result", "gen_ai.tool.call.result", "assay.tool.result", true, true},
};
inline constexpr member_rule model_members[] = {{"model", "gen_ai.request.model", "assay.model"},
                                                {"provider", "gen_ai.provider.name", "assay.model.provider"},
                                                {"operation", "gen_ai.operation.name", "assay.model.operation"}};
inline constexpr member_rule started_members[] = {{"profile_name", "assay.profile.name", ""},
                                                  {"profile_version", "assay.profile.version", ""}};

inline constexpr type_rule type_rules[] = {
    {"assay.tool.decision", role::tool, "assay.decision.", decision_members},
    {"assay.tool.call", role::tool, "assay.tool.", call_members},
    {"assay.model.invoked", role::inference, "assay.model.", model_members},
    {"assay.profile.started", role::root, "assay.profile.", started_members},
    {"assay.profile.finished", role::root_event, "assay.profile.", {}},
};

// Values of gen_ai.operation.name that have a span type of their own in the conventions (retrieval,
// agents, tools, workflows): not a model inference, so an assay.model.invoked naming one gets no
// GenAI span rather than a span of a type whose requirements it does not meet.
inline constexpr std::string_view non_inference_operations[] = {"retrieval", "create_agent", "invoke_agent",
                                                                "execute_tool", "invoke_workflow"};

// Providers whose inference span definition requires an attribute beyond the generic one's
// (gen_ai.operation.name, gen_ai.provider.name): the attribute, and the member of
// assay.model.invoked that gives it ("" when no member does).
struct provider_rule {
  std::string_view provider, span_definition, attribute, member;
};
inline constexpr provider_rule provider_rules[] = {
    {"openai", "span.openai.inference.client", "gen_ai.request.model", "model"},
    {"aws.bedrock", "span.aws.bedrock.client", "aws.bedrock.guardrail.id", ""},
};

inline const type_rule* rule_for(std::string_view type) noexcept {
  for (const type_rule& r : type_rules)
    if (r.type == type)
      return &r;
  return nullptr;
}

// Envelope members (docs/evidence.md) and their attribute keys; "" for those the span itself carries. The
// CloudEvents attributes are written for an event that is a CloudEvent (a string id and source,
// which that convention requires) and for string values; otherwise the member goes to `fallback`.
struct envelope_rule {
  std::string_view member, key, fallback;
};
inline constexpr envelope_rule envelope_rules[] = {
    {"specversion", "cloudevents.event_spec_version", "assay.event.spec_version"},
    {"type", "cloudevents.event_type", "assay.event.type"},
    {"source", "cloudevents.event_source", "assay.event.source"},
    {"id", "assay.event.id", ""},  // and cloudevents.event_id
    {"subject", "cloudevents.event_subject", "assay.event.subject"},
    {"time", "", ""},  // the span's start time
    {"datacontenttype", "assay.event.datacontenttype", ""},
    {"traceparent", "assay.traceparent", ""},
    {"tracestate", "", ""},  // the span's traceState
    {"assayrunid", "assay.run.id", ""},
    {"assayseq", "assay.event.seq", ""},
    {"assayproducer", "assay.producer.name", ""},            // unless it is the resource's service.name
    {"assayproducerversion", "assay.producer.version", ""},  // unless it is the resource's service.version
    {"assaygit", "assay.git", ""},
    {"assaypolicyid", "assay.policy.id", ""},
    {"assaypii", "assay.pii", ""},
    {"assaysecrets", "assay.secrets", ""},
    {"assaycontenthash", "assay.content_hash", ""},
    {"assaysemanticdigest", "assay.semantic_digest", ""},
    {"assaydigestprofile", "assay.digest_profile", ""},
    {"data", "", ""},  // by the type's rule
};

// A member's string value, or what it is instead ("absent", "a redaction commitment", ...).
struct member_text {
  std::optional<std::string_view> value;
  std::string_view instead;
};
inline member_text member_string(const json::document& d, std::size_t data, std::string_view name) {
  const std::size_t i = data == 0 ? 0 : d.find_member(data, name);
  if (i == 0)
    return {std::nullopt, "absent"};
  if (d.nodes()[i].kind == json::kind::string)
    return d.string_at(i).empty() ? member_text{std::nullopt, "empty"} : member_text{d.string_at(i), ""};
  if (evidence::commitment_at(d, i))
    return {std::nullopt, "a redaction commitment"};
  return {std::nullopt, "not a string"};
}

// Why an event of a tool or inference type gets no GenAI span: the member and the reason; nullopt
// when it gets one. `data` is the event's data object (0 when it has none).
struct no_genai {
  std::string member, reason;
};
inline std::optional<no_genai> genai_refusal(const json::document& d, std::size_t data, role what) {
  // Built only for a refusal: most events get their span, and this runs for each.
  const auto tail = [] {
    return " (semantic conventions " + std::string(semconv_version) +
           "), and it is not guessed: the span has no gen_ai.* attribute, its members are under assay.*";
  };
  if (what == role::tool) {
    const auto tool = member_string(d, data, "tool");
    if (!tool.value)
      return no_genai{"/data/tool",
                      std::string(tool.instead) + ": an execute_tool span requires gen_ai.tool.name" + tail()};
    return std::nullopt;
  }
  const auto op = member_string(d, data, "operation");
  if (!op.value)
    return no_genai{"/data/operation",
                    std::string(op.instead) + ": a GenAI inference span requires gen_ai.operation.name" + tail()};
  for (std::string_view other : non_inference_operations)
    if (*op.value == other)
      return no_genai{"/data/operation", "the operation " + std::string(other) +
                                             " has a span type of its own, not a model inference" + tail()};
  const auto provider = member_string(d, data, "provider");
  if (!provider.value)
    return no_genai{"/data/provider",
                    std::string(provider.instead) + ": a GenAI inference span requires gen_ai.provider.name" + tail()};
  for (const provider_rule& p : provider_rules) {
    if (*provider.value != p.provider)
      continue;
    if (p.member.empty())
      return no_genai{"/data/provider", "the " + std::string(p.provider) + " inference span (" +
                                            std::string(p.span_definition) + ") requires " + std::string(p.attribute) +
                                            ", which this event type does not give" + tail()};
    const auto m = member_string(d, data, p.member);
    if (!m.value)
      return no_genai{"/data/" + std::string(p.member), std::string(m.instead) + ": the " + std::string(p.provider) +
                                                            " inference span (" + std::string(p.span_definition) +
                                                            ") requires " + std::string(p.attribute) + tail()};
  }
  return std::nullopt;
}

inline std::string hex_prefix(std::string_view bytes, std::size_t n) {
  std::string h = hash::digest_bytes<hash::sha256>(bytes).hex().substr(0, 2 * n);
  if (h.find_first_not_of('0') == std::string::npos)
    h.back() = '1';  // never all zero (OTLP)
  return h;
}

// Unix nanoseconds of an RFC 3339 time; nullopt before 1970 or past 2554.
inline std::optional<std::uint64_t> unix_nanos(const std::optional<json::instant>& t) {
  if (!t || t->seconds < 0)
    return std::nullopt;
  std::string frac(t->fraction.substr(0, 9));
  frac.resize(9, '0');
  const auto s = static_cast<std::uint64_t>(t->seconds);
  const std::uint64_t f = std::stoull(frac);
  if (s > (std::numeric_limits<std::uint64_t>::max() - f) / 1000000000u)
    return std::nullopt;
  return s * 1000000000u + f;
}

inline std::optional<std::string_view> string_member(const json::document& d, std::size_t obj, std::string_view name) {
  const std::size_t i = d.find_member(obj, name);
  if (i == 0 || d.nodes()[i].kind != json::kind::string)
    return std::nullopt;
  return d.string_at(i);
}

// A traceparent's trace id and parent id, when it is one (version 00, neither id all zero).
struct trace_context {
  std::string trace_id, parent_id;
};
inline std::optional<trace_context> parse_traceparent(std::string_view tp) {
  const auto hex = [](std::string_view s) {
    return s.find_first_not_of("0123456789abcdef") == std::string_view::npos && s.find_first_not_of('0') != s.npos;
  };
  if (tp.size() != 55 || tp.substr(0, 3) != "00-" || tp[35] != '-' || tp[52] != '-')
    return std::nullopt;
  if (!hex(tp.substr(3, 32)) || !hex(tp.substr(36, 16)))
    return std::nullopt;
  return trace_context{std::string(tp.substr(3, 32)), std::string(tp.substr(36, 16))};
}

// The finished spans' attribute texts of a run, packed into blocks (2 KiB doubling to 1 MiB): one
// allocation per block rather than one per span, and no slack beyond the last block's.
class text_arena {
 public:
  struct ref {
    std::size_t block = 0, at = 0, size = 0;
  };
  ref add(std::string_view text) {
    if (blocks_.empty() || blocks_.back().capacity() - blocks_.back().size() < text.size()) {
      next_ = std::min<std::size_t>(next_ * 2, std::size_t(1) << 20);
      blocks_.emplace_back();
      blocks_.back().reserve(std::max(next_, text.size()));
    }
    std::string& b = blocks_.back();
    const ref r{blocks_.size() - 1, b.size(), text.size()};
    b.append(text);
    return r;
  }
  std::string_view at(const ref& r) const { return std::string_view(blocks_[r.block]).substr(r.at, r.size); }

 private:
  std::vector<std::string> blocks_;
  std::size_t next_ = 1024;
};

struct span_record {
  std::string span_id, name, trace_state;
  std::optional<trace_context> foreign;  // the event's traceparent names another trace
  span_kind kind = span_kind::internal;
  std::uint64_t start = 0;
  attribute_set attrs;              // while the span is built (and the root's, until the end)
  text_arena::ref attributes;       // a finished span's attributes, canonical JSON (run_state::texts)
  std::optional<std::string> tool;  // a finished span's gen_ai.tool.name
};

struct run_state {
  std::string run_id;
  std::optional<trace_context> context;  // from the run's first traceparent
  std::optional<span_record> root;       // from assay.profile.started
  std::string first_id, first_hash;      // the run's first event, for a root made without one
  std::vector<contracts::otlp_v1::span_event> root_events;
  std::vector<span_record> spans;
  text_arena texts;  // the spans' attributes
  std::set<std::string> mcp_tools;
  std::uint64_t first_ns = std::numeric_limits<std::uint64_t>::max(), last_ns = 0;
};

}  // namespace detail

template <class V = void>
class basic_exporter {
  // The run's records and the OTLP types, named through V (deferred_t, assay/separate.hpp): a
  // template's non-dependent code is compiled where it is written, so without this every unit
  // that includes this header would compile the code of their containers, exporting or not.
  using run_state = deferred_t<V, detail::run_state>;
  using span_record = deferred_t<V, detail::span_record>;
  using attribute_set_t = deferred_t<V, attribute_set>;
  using otlp_traces_data = deferred_t<V, contracts::otlp_v1::traces_data>;
  using otlp_resource_spans = deferred_t<V, contracts::otlp_v1::resource_spans>;
  using otlp_scope_spans = deferred_t<V, contracts::otlp_v1::scope_spans>;
  using otlp_span = deferred_t<V, contracts::otlp_v1::span>;
  using otlp_span_event = deferred_t<V, contracts::otlp_v1::span_event>;
  using otlp_span_link = deferred_t<V, contracts::otlp_v1::span_link>;
  using otlp_key_value = deferred_t<V, contracts::otlp_v1::key_value>;
  using otlp_any_value = deferred_t<V, contracts::otlp_v1::any_value>;
  using otlp_trace_id = deferred_t<V, contracts::otlp_v1::trace_id>;
  using otlp_span_id = deferred_t<V, contracts::otlp_v1::span_id>;
  using otlp_unix_nano = deferred_t<V, contracts::otlp_v1::unix_nano>;

 public:
  explicit basic_exporter(evidence::producer_info service = {}, export_options o = {})
      : service_(std::move(service)), opt_(o) {
    if (opt_.spans_per_line == 0)
      opt_.spans_per_line = 1;
  }

  // The resource's service.name / service.version (before the first event).
  void set_service(evidence::producer_info service) { service_ = std::move(service); }

  // One event's JSON text, read strictly.
  result<void> add(std::string_view event_json) {
    auto doc = json::document::parse(event_json);
    if (!doc)
      return doc.error();
    return add(*doc);
  }

  // One event, parsed (its root the event object). Needs type, id, time, assayrunid and
  // assaycontenthash as strings; fails with errc::above_maximum past max_spans.
  result<void> add(const json::document& doc) {
    if (doc.root().kind != json::kind::object)
      return make_error(errc::type_mismatch, "an event is a JSON object");
    std::string_view f[5];
    static constexpr std::string_view required[] = {"type", "id", "time", "assayrunid", "assaycontenthash"};
    for (std::size_t k = 0; k < 5; ++k) {
      const auto s = detail::string_member(doc, 0, required[k]);
      if (!s)
        return make_error(errc::missing_member, "an event needs a string member " + std::string(required[k]),
                          "/" + std::string(required[k]));
      f[k] = *s;
    }
    return add(doc, envelope{f[0], f[1], f[3], f[4], json::parse_instant(f[2])});
  }

  // An event the verification pass read: its envelope as the pass found it (bundle_exporter).
  result<void> add(const evidence::verified_event& e) {
    return add(e.doc, envelope{e.type, e.id, e.run_id, e.content_hash, e.at});
  }

  // The TracesData lines, each handed to `sink(std::string_view line)` (with its newline) as it
  // is made, so that only one line is built at a time; then the report. A sink that returns false
  // stops the export: the result is then an I/O error. The exporter is empty afterwards.
  template <class Sink>
  result<contracts::otel_export_report> finish_to(Sink&& sink) {
    std::uint64_t written = 0, lines = 0;
    bool ok = true;
    for (run_state& run : runs_) {
      if (ok)
        ok = emit_run(run, sink, written, lines);
      run = run_state{};  // freed as soon as written
    }
    contracts::otel_export_report r;
    r.semconv_version = std::string(semconv_version);
    r.events_read = static_cast<std::int64_t>(events_read_);
    r.spans_written = static_cast<std::int64_t>(written);
    auto& loss = r.mapping_loss;
    loss.dropped_attributes = std::move(loss_);
    for (const auto& [type, n] : unmapped_)
      loss.unmapped_events.emplace(type, static_cast<std::int64_t>(n));
    loss.totals.dropped_attributes = static_cast<std::int64_t>(loss.dropped_attributes.size());
    loss.totals.unmapped_events = loss.unmapped_sum();
    *this = basic_exporter(service_, opt_);
    if (!ok)
      return make_error(errc::io_error, "the TracesData lines could not be written");
    return r;
  }

  // finish_to() into one string.
  export_output finish() {
    export_output out;
    auto r = finish_to([&out](std::string_view line) {
      out.lines += line;
      ++out.line_count;
      return true;
    });
    out.report = std::move(*r);  // a string sink does not fail
    return out;
  }

 private:
  // The envelope members the mapping reads, and the time as an instant (nullopt: not a time).
  struct envelope {
    std::string_view type, id, run_id, hash;
    std::optional<json::instant> at;
  };

  result<void> add(const json::document& doc, const envelope& env) {
    const std::string_view type = env.type, id = env.id, run_id = env.run_id, hash = env.hash;
    ++events_read_;
    run_state& run = run_of(run_id, id, hash);
    if (!run_seen_.contains(std::string(run_id)))
      return make_error(errc::above_maximum, over_limit());
    const auto ns = detail::unix_nanos(env.at);
    if (ns) {
      run.first_ns = std::min(run.first_ns, *ns);
      run.last_ns = std::max(run.last_ns, *ns);
    }
    const auto tp = detail::string_member(doc, 0, "traceparent");
    const auto ctx = tp ? detail::parse_traceparent(*tp) : std::nullopt;
    if (ctx && !run.context)
      run.context = ctx;

    const detail::type_rule* rule = detail::rule_for(type);
    if (rule == nullptr) {
      ++unmapped_[std::string(type)];
      return {};
    }
    const bool new_span = rule->what == detail::role::tool || rule->what == detail::role::inference ||
                          (rule->what == detail::role::root && !run.root);
    if (new_span && rule->what != detail::role::root && spans_ + 1 > opt_.max_spans)
      return make_error(errc::above_maximum, over_limit());

    span_record s;
    s.span_id = detail::hex_prefix(std::string(hash) + "\n" + std::string(id), 8);
    s.start = ns.value_or(0);
    if (!ns)
      record_loss(loss_, id, "/time", "a time before 1970 or after 2554 has no Unix-nanosecond form");
    if (ctx && run.context && ctx->trace_id != run.context->trace_id)
      s.foreign = ctx;
    std::size_t data = doc.find_member(0, "data");
    if (data != 0 && doc.nodes()[data].kind != json::kind::object)
      data = 0;
    std::optional<detail::no_genai> refusal;
    if (rule->what == detail::role::tool || rule->what == detail::role::inference)
      refusal = detail::genai_refusal(doc, data, rule->what);
    const bool genai = (rule->what == detail::role::tool || rule->what == detail::role::inference) && !refusal;
    map_envelope(doc, id, s);
    map_payload(doc, *rule, id, genai, s);
    if (refusal)
      record_loss(loss_, id, std::move(refusal->member), std::move(refusal->reason));

    if (!genai && (rule->what == detail::role::tool || rule->what == detail::role::inference)) {
      s.kind = span_kind::internal;  // not a GenAI span: named by the event type
      s.name = std::string(type);
    } else if (rule->what == detail::role::tool) {
      s.kind = span_kind::internal;
      s.attrs.set("gen_ai.operation.name", string_value<V>("execute_tool"));
      const auto tool = attr_string(s.attrs, "gen_ai.tool.name");
      s.name = "execute_tool " + tool.value_or("");
      const auto source = data != 0 ? detail::string_member(doc, data, "tool_definition_source") : std::nullopt;
      if (tool && source && *source == "mcp.tools/list")
        run.mcp_tools.insert(*tool);
    } else if (rule->what == detail::role::inference) {
      s.kind = span_kind::client;
      const auto op = attr_string(s.attrs, "gen_ai.operation.name");
      const auto model = attr_string(s.attrs, "gen_ai.request.model");
      s.name = op.value_or("") + (model ? " " + *model : std::string());
    } else if (rule->what == detail::role::root && !run.root) {
      s.kind = span_kind::internal;
      s.name = "assay.run";
      run.root = std::move(s);
      return {};
    } else {  // a span event on the root span
      run.root_events.push_back({std::string(type), otlp_unix_nano(std::to_string(s.start)), s.attrs.list()});
      return {};
    }
    // Held as canonical text until finish(), not as a tree: a tenth of the memory.
    s.tool = attr_string(s.attrs, "gen_ai.tool.name");
    scratch_.clear();
    json::string_sink sink{&scratch_};
    reflect::encode_to(sink, s.attrs.list()).value();  // strings, finite numbers and booleans: no error
    s.attributes = run.texts.add(scratch_);
    s.attrs = attribute_set_t{};
    ++spans_;
    run.spans.push_back(std::move(s));
    return {};
  }

  std::string over_limit() const {
    return "the export would hold more than " + std::to_string(opt_.max_spans) +
           " spans (the limit max_spans, --max-spans): nothing was written";
  }

  static std::optional<std::string> attr_string(const attribute_set_t& a, std::string_view key) {
    const otlp_any_value* v = a.find(key);
    return v != nullptr ? v->string_value : std::nullopt;
  }

  // The run of `run_id`, made on its first event (and its root span counted, when it fits).
  run_state& run_of(std::string_view run_id, std::string_view id, std::string_view hash) {
    const auto it = run_index_.find(std::string(run_id));
    if (it != run_index_.end())
      return runs_[it->second];
    run_index_.emplace(std::string(run_id), runs_.size());
    run_state r;
    r.run_id = std::string(run_id);
    r.first_id = std::string(id);
    r.first_hash = std::string(hash);
    runs_.push_back(std::move(r));
    if (spans_ + 1 <= opt_.max_spans) {  // its root span
      ++spans_;
      run_seen_.insert(std::string(run_id));
    }
    return runs_.back();
  }

  void map_envelope(const json::document& doc, std::string_view id, span_record& s) {
    const auto& root = doc.root();
    const auto source = detail::string_member(doc, 0, "source");
    const bool cloudevent = source.has_value();  // id is a string: add() checked it
    for (std::size_t j = 1; j < root.payload; j = doc.next(j + 1)) {
      const std::string_view name = doc.string_at(j);
      const std::string ptr = child_pointer("", name);
      const auto rule = std::find_if(std::begin(detail::envelope_rules), std::end(detail::envelope_rules),
                                     [&](const detail::envelope_rule& r) { return r.member == name; });
      if (rule == std::end(detail::envelope_rules)) {
        record_loss(loss_, id, ptr, "not a member of the evidence envelope: no mapping");
        continue;
      }
      if (name == "tracestate") {
        if (doc.nodes()[j + 1].kind == json::kind::string)
          s.trace_state = std::string(doc.string_at(j + 1));
        else
          record_loss(loss_, id, ptr, "a tracestate that is not a string has no traceState form");
        continue;
      }
      if (rule->key.empty())
        continue;
      const bool is_string = doc.nodes()[j + 1].kind == json::kind::string;
      if (is_string && ((name == "assayproducer" && doc.string_at(j + 1) == service_.name) ||
                        (name == "assayproducerversion" && doc.string_at(j + 1) == service_.version)))
        continue;  // the resource says it
      if (name == "id" && cloudevent)
        s.attrs.set("cloudevents.event_id", string_value<V>(id));
      const bool to_fallback = !rule->fallback.empty() && !(cloudevent && is_string);
      s.attrs.add_node(to_fallback ? rule->fallback : rule->key, doc, j + 1, ptr, id, loss_);
    }
  }

  // The members of `data`: by the type's rules (to the conventions' keys when the event gets a
  // GenAI span, else to their assay.* fallbacks), the others under the type's prefix.
  void map_payload(const json::document& doc, const detail::type_rule& rule, std::string_view id, bool genai,
                   span_record& s) {
    const std::size_t data = doc.find_member(0, "data");
    if (data == 0)
      return;
    const auto& d = doc.nodes()[data];
    if (d.kind != json::kind::object) {
      std::string key(rule.prefix);
      key.pop_back();
      s.attrs.add_node(key, doc, data, "/data", id, loss_);
      return;
    }
    for (std::size_t j = data + 1; j < d.payload; j = doc.next(j + 1)) {
      const std::string_view name = doc.string_at(j);
      const std::string ptr = child_pointer("/data", name);
      const auto m = std::find_if(rule.members.begin(), rule.members.end(),
                                  [&](const detail::member_rule& r) { return r.member == name; });
      if (m == rule.members.end()) {
        s.attrs.add_node(std::string(rule.prefix) + std::string(name), doc, j + 1, ptr, id, loss_);
        continue;
      }
      if (m->sensitive && !opt_.include_sensitive) {
        record_loss(loss_, id, ptr, "sensitive: exported only when asked (include_sensitive, --include-sensitive)");
        continue;
      }
      const auto& v = doc.nodes()[j + 1];
      if (m->fallback.empty()) {  // an assay.* key
        s.attrs.add_node(m->key, doc, j + 1, ptr, id, loss_);
      } else if (evidence::commitment_at(doc, j + 1)) {  // not the value the convention names
        s.attrs.add_node(std::string(m->fallback) + ".commitment", doc, j + 1, ptr, id, loss_);
      } else if (genai && (m->json_text || (v.kind == json::kind::string && !doc.string_at(j + 1).empty()))) {
        set_member(s, m->key, doc, j + 1, m->json_text, ptr, id);
      } else {
        set_member(s, m->fallback, doc, j + 1, m->json_text, ptr, id);
      }
    }
  }

  // `key` = the node at `i`: as itself, or as its canonical JSON text.
  void set_member(span_record& s, std::string_view key, const json::document& doc, std::size_t i, bool json_text,
                  const std::string& ptr, std::string_view id) {
    if (!json_text) {
      s.attrs.add_node(key, doc, i, ptr, id, loss_);
      return;
    }
    if (!s.attrs.set(key, string_value<V>(doc.canonical_at(i))))
      record_loss(loss_, id, ptr, "attribute key " + std::string(key) + " already used");
  }

  static otlp_span span_of(const span_record& s, std::vector<otlp_key_value> attributes, const std::string& trace_id,
                           const std::string& parent, std::uint64_t end) {
    otlp_span o;
    o.trace_id = otlp_trace_id(trace_id);  // ids are made here, or read from a checked traceparent
    o.span_id = otlp_span_id(s.span_id);
    if (!parent.empty())
      o.parent_span_id = otlp_span_id(parent);
    if (!s.trace_state.empty())
      o.trace_state = s.trace_state;
    o.name = s.name;
    o.kind = static_cast<int>(s.kind);
    o.start_time_unix_nano = otlp_unix_nano(std::to_string(s.start));
    o.end_time_unix_nano = otlp_unix_nano(std::to_string(end));
    o.attributes = std::move(attributes);
    return o;
  }

  // The run's spans as OTLP/JSON TracesData lines, the root first, spans_per_line to a line; each
  // line to `sink` as soon as it is made. False when the sink refused one.
  template <class Sink>
  bool emit_run(run_state& run, Sink& sink, std::uint64_t& written, std::uint64_t& lines) const {
    const std::string trace_id =
        run.context ? run.context->trace_id : detail::hex_prefix("assay-otel-trace\n" + run.run_id, 16);
    span_record root;
    if (run.root) {
      root = std::move(*run.root);
    } else {  // no assay.profile.started: the root is made from the run's first event
      root.name = "assay.run";
      root.span_id = detail::hex_prefix("assay-otel-root\n" + run.run_id, 8);
      root.attrs.set("assay.event.id", string_value<V>(run.first_id));
      root.attrs.set("assay.content_hash", string_value<V>(run.first_hash));
      root.attrs.set("assay.run.id", string_value<V>(run.run_id));
    }
    const std::uint64_t start = run.first_ns == std::numeric_limits<std::uint64_t>::max() ? 0 : run.first_ns;
    root.start = start;
    otlp_traces_data line = traces_data();
    std::vector<otlp_span>& chunk = line.resource_spans.front().scope_spans.front().spans;
    std::string text;
    auto flush = [&] {
      if (chunk.empty())
        return true;
      written += chunk.size();
      ++lines;
      text.clear();
      json::string_sink out{&text};
      reflect::encode_to(out, line).value();  // every value made here meets its type
      chunk.clear();
      text += '\n';
      return static_cast<bool>(sink(std::string_view(text)));
    };
    otlp_span r =
        span_of(root, root.attrs.list(), trace_id, run.context ? run.context->parent_id : "", run.last_ns + 1000);
    if (!run.root_events.empty())
      r.events = std::move(run.root_events);
    chunk.push_back(std::move(r));
    for (span_record& s : run.spans) {
      if (chunk.size() >= opt_.spans_per_line && !flush())
        return false;
      auto attributes =
          assay::decode<std::vector<otlp_key_value>>(run.texts.at(s.attributes)).value();  // written above
      if (s.tool && run.mcp_tools.contains(*s.tool)) {                                     // in key order, as the rest
        auto at = std::find_if(attributes.begin(), attributes.end(),
                               [](const otlp_key_value& a) { return a.key.compare("mcp.method.name") >= 0; });
        if (at == attributes.end() || at->key != "mcp.method.name")
          attributes.insert(at, {non_empty("mcp.method.name"), string_value<V>("tools/call")});
      }
      otlp_span o = span_of(s, std::move(attributes), s.foreign ? s.foreign->trace_id : trace_id,
                            s.foreign ? s.foreign->parent_id : root.span_id, s.start + 1000);
      if (s.foreign)
        o.links = std::vector<otlp_span_link>{{otlp_trace_id(trace_id), otlp_span_id(root.span_id)}};
      chunk.push_back(std::move(o));
    }
    return flush();
  }

  // A TracesData with its resource and scope, and no spans yet.
  otlp_traces_data traces_data() const {
    attribute_set_t res;
    res.set("service.name", string_value<V>(service_.name));
    res.set("service.version", string_value<V>(service_.version));
    otlp_scope_spans ss;
    ss.scope = {std::string(scope_name), std::string(assay::version)};
    ss.schema_url = std::string(schema_url);
    otlp_resource_spans rs;
    rs.resource.attributes = res.list();
    rs.scope_spans.push_back(std::move(ss));
    rs.schema_url = std::string(schema_url);
    otlp_traces_data td;
    td.resource_spans.push_back(std::move(rs));
    return td;
  }

  evidence::producer_info service_;
  export_options opt_;
  std::vector<run_state> runs_;
  std::map<std::string, std::size_t> run_index_;
  std::set<std::string> run_seen_;  // runs whose root span fitted under max_spans
  std::map<std::string, std::uint64_t> unmapped_;
  loss_list loss_;
  std::string scratch_;  // a span's attribute text as it is made
  std::uint64_t events_read_ = 0, spans_ = 0;
};
using exporter = basic_exporter<>;

// The exporter as a visitor of the one verification pass: the resource is the bundle's producer
// (manifest.json). An event past max_spans fails the pass there with errc::above_maximum.
template <class = void>
class basic_bundle_exporter {
 public:
  explicit basic_bundle_exporter(export_options o = {}) : x_({}, o) {}

  void on_manifest(const evidence::bundle_manifest& m) {
    x_.set_service({m.fields.producer.name, m.fields.producer.version, m.fields.producer.git});
  }
  std::optional<error> on_event(const evidence::verified_event& e) {
    if (auto r = x_.add(e); !r)
      return r.error();
    return std::nullopt;
  }

  export_output finish() { return x_.finish(); }
  template <class Sink>
  result<contracts::otel_export_report> finish_to(Sink&& sink) {
    return x_.finish_to(sink);
  }

 private:
  exporter x_;
};
using bundle_exporter = basic_bundle_exporter<>;

}  // namespace assay::otel

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::otel {
ASSAY_EXTERN_TEMPLATE class basic_exporter<void>;
ASSAY_EXTERN_TEMPLATE class basic_bundle_exporter<void>;
}  // namespace assay::otel
#endif
