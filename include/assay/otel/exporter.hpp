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
// Whatever has no attribute form (attributes.hpp) is listed in mapping_loss.dropped_attributes with
// its pointer and the reason. Nothing leaves in the clear (docs/privacy.md): before anything is
// mapped, the privacy classes of the event's payload type apply to its data and its subject, as
// the recorder applies them (evidence::redact_for_output, from the contract types): a sensitive
// value (declared, additive, or any value of an unknown type's data) goes out generalized, a
// forbidden one never; each value changed is listed with the reason "sensitive", each dropped
// with "forbidden". include_sensitive keeps sensitive values as written (never forbidden ones).
//
// Ids: the run's traceId is the trace id of the first traceparent in the run, else 16 bytes of
// sha256 over the run id; a spanId is 8 bytes of sha256 over the event's content hash and id.
// An event whose traceparent names another trace keeps that trace and the traceparent's span as
// its parent, with a link to the run's root. Times: the event time in Unix nanoseconds; an event
// span lasts 1 µs; the root span lasts from the run's first event to 1 µs after its last.
//
// Lines: one TracesData per line, one resource (service.name, service.version: the producer), one
// scope (assay, the library version), at most spans_per_line spans, all of one run, the root
// first. A span's bytes depend on what later events of its run say (the trace id, the root, the
// run's end, the MCP marks), so the finished spans wait for finish() in a spill (evidence/spill.hpp):
// an unnamed file in export_options::spill_dir, where memory does not grow with the export, or
// memory when no directory is given. So do the report's dropped attributes, one record per event;
// finish_to() writes the report from them, a batch at a time. At most max_spans are written.
#pragma once

#include "assay/contracts/otel_export_report.hpp"
#include "assay/contracts/otlp.hpp"
#include "assay/error.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/event_data.hpp"
#include "assay/evidence/redact.hpp"
#include "assay/evidence/spill.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/time.hpp"
#include "assay/otel/attributes.hpp"
#include "assay/otel/mapping.hpp"
#include "assay/separate.hpp"
#include "assay/version.hpp"

#include <algorithm>
#include <array>
#include <charconv>
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

// OTLP SpanKind.
enum class span_kind : int { internal = 1, server = 2, client = 3, producer = 4, consumer = 5 };

struct export_options {
  // A bound on the output: more spans and add() fails (errc::above_maximum), nothing is written.
  // The default admits every bundle the verifier's default limits read (100,000 events: one span
  // each at most, and a root per run).
  std::uint64_t max_spans = 200000;
  std::size_t spans_per_line = 512;  // spans in one TracesData line (at least 1)
  bool include_sensitive = false;    // sensitive values (docs/privacy.md) as written, not generalized
  // Where the finished spans and the dropped attributes wait for finish(): an unnamed file in this
  // directory (mode 0600, gone with the exporter); empty: in memory.
  std::string spill_dir{};
};

struct export_output {
  std::string lines;  // TracesData objects, canonical JSON, one per line, each ending in '\n'
  std::uint64_t line_count = 0;
  contracts::otel_export_report report;
};

namespace detail {

struct span_record {
  std::string span_id, name, trace_state;
  std::optional<trace_context> foreign;  // the event's traceparent names another trace
  span_kind kind = span_kind::internal;
  std::uint64_t start = 0;
  attribute_set attrs;  // while the span is built (and the root's, until the end)
};

// A finished span as it waits in the spill, one record of canonical JSON: what emit_run needs.
struct spilled_span {
  std::string span_id, name, trace_state;
  std::optional<trace_context> foreign;
  int kind = 1;
  std::string start;  // Unix nanoseconds in decimal (a JSON number is exact only up to 2^53)
  std::vector<contracts::otlp_v1::key_value> attributes;
  std::optional<std::string> tool;  // its gen_ai.tool.name
};

// A dropped attribute as it waits (its contract is checked when the report is written).
struct spilled_loss {
  std::string event_id, member, reason;
};

// Records written by this exporter, read again as they are.
inline json::limits unbounded_limits() {
  json::limits lim;
  lim.max_depth = lim.max_members = lim.max_string_chars = static_cast<std::size_t>(-1);
  return lim;
}

struct run_state {
  std::string run_id;
  std::optional<trace_context> context;  // from the run's first traceparent
  std::optional<span_record> root;       // from assay.profile.started
  std::string first_id, first_hash;      // the run's first event, for a root made without one
  std::vector<contracts::otlp_v1::span_event> root_events;
  evidence::spill_store::chain spans;  // its finished spans, in the spill
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
  using spilled_span = deferred_t<V, detail::spilled_span>;
  using spilled_loss = deferred_t<V, detail::spilled_loss>;
  using report_t = deferred_t<V, contracts::otel_export_report>;
  using dropped_t = deferred_t<V, contracts::otel_v1::dropped_attribute>;
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

  // The TracesData lines, each handed to `lines(std::string_view line)` (with its newline) as it
  // is made, one line in memory at a time; then the report's canonical bytes (exactly those of
  // assay::encode of the whole report) to `report(std::string_view bytes)`, in pieces, its
  // dropped attributes read back from the spill a batch at a time, each checked by its contract.
  // A sink that returns false stops the export (an I/O error). Returns the report as written but
  // for its dropped_attributes, which went to `report` (mapping_loss.totals counts them): what a
  // summary says. The exporter is empty afterwards, its spill gone.
  template <class LineSink, class ReportSink>
  result<contracts::otel_export_report> finish_to(LineSink&& lines, ReportSink&& report) {
    report_t head;
    std::string text, tail;
    std::uint64_t n = 0, losses = 0;
    auto r = finish_parts(
        lines,
        [&](report_t&& h) -> result<void> {
          head = std::move(h);
          losses = static_cast<std::uint64_t>(head.mapping_loss.totals.dropped_attributes.value());
          return report_frame(head, text, tail);
        },
        [&](dropped_t&& d) -> result<void> {
          if (n != 0)
            text += ',';
          json::string_sink out{&text};
          if (auto e = reflect::encode_to(out, d); !e)
            return breaks_contract(e.error(), "/mapping_loss/dropped_attributes/" + std::to_string(n));
          ++n;
          if (text.size() >= 64 * 1024) {
            if (!report(std::string_view(text)))
              return make_error(errc::io_error, "the report could not be written");
            text.clear();
          }
          return {};
        });
    if (!r)
      return r.error();
    if (n != losses)  // what the totals say, written
      return make_error(errc::io_error, "the spill file does not hold the dropped attributes written to it");
    text += tail;
    if (!report(std::string_view(text)))
      return make_error(errc::io_error, "the report could not be written");
    return head;
  }

  // The lines to `lines` as finish_to() above writes them; the report whole, as a value (its
  // dropped attributes all in memory).
  template <class Sink>
  result<contracts::otel_export_report> finish_to(Sink&& lines) {
    report_t out;
    auto r = finish_parts(
        lines,
        [&](report_t&& h) -> result<void> {
          out = std::move(h);
          return {};
        },
        [&](dropped_t&& d) -> result<void> {
          out.mapping_loss.dropped_attributes.push_back(std::move(d));
          return {};
        });
    if (!r)
      return r.error();
    return out;
  }

  // finish_to() into one string and the report as a value. (Without a spill_dir nothing can
  // fail; with one, an I/O error of the spill is thrown, as result::value() throws: use
  // finish_to() there.)
  export_output finish() {
    export_output out;
    out.report = finish_to([&out](std::string_view line) {
                   out.lines += line;
                   ++out.line_count;
                   return true;
                 }).value();
    return out;
  }

 private:
  // The envelope members the mapping reads, and the time as an instant (nullopt: not a time).
  struct envelope {
    std::string_view type, id, run_id, hash;
    std::optional<json::instant> at;
  };

  // The event mapped, then what it lost spilled (all of it, even from an event refused). Once the
  // spill has failed, every event and finish() fail with its error: no span is left out unsaid.
  result<void> add(const json::document& given, const envelope& env) {
    if (spill_failed_)
      return *spill_failed_;
    auto r = map_event(given, env);
    if (loss_.empty())
      return r;
    std::vector<spilled_loss> batch;
    batch.reserve(loss_.size());
    for (const auto& d : loss_)
      batch.push_back({std::string(d.event_id), std::string(d.member), std::string(d.reason)});
    loss_.clear();
    losses_ += batch.size();
    auto s = spill(loss_chain_, batch);
    return r ? s : r;
  }

  // `record`'s canonical JSON as the last record of `c`, the spill opened on its first use.
  template <class T>
  result<void> spill(evidence::spill_store::chain& c, const T& record) {
    if (!spill_) {
      auto opened = opt_.spill_dir.empty() ? result<evidence::spill_store>(evidence::spill_store())
                                           : evidence::spill_store::open_in(opt_.spill_dir);
      if (!opened)
        return *(spill_failed_ = opened.error());
      spill_.emplace(std::move(*opened));
    }
    scratch_.clear();
    json::string_sink sink{&scratch_};
    reflect::encode_to(sink, record).value();  // strings, finite numbers and booleans: no error
    if (auto r = spill_->append(c, scratch_); !r)
      return *(spill_failed_ = r.error());
    return {};
  }

  // The record at `at` of the spill decoded into `out`; the offset of the next of its chain.
  template <class T>
  result<std::uint64_t> unspill(std::uint64_t at, T& out) {
    auto next = spill_->read(at, scratch_);
    if (!next)
      return next.error();
    auto v = assay::decode<T>(scratch_, detail::unbounded_limits());
    if (!v)
      return make_error(errc::io_error,
                        "the spill file does not hold what was written to it: " + v.error().front().format());
    out = std::move(*v);
    return next;
  }

  result<void> map_event(const json::document& given, const envelope& env) {
    const std::string_view type = env.type, id = env.id, run_id = env.run_id, hash = env.hash;
    ++events_read_;
    const json::document& doc = private_view(given, type, id);
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
    // To the spill until finish(), as canonical text.
    spilled_span rec{std::move(s.span_id),     std::move(s.name),
                     std::move(s.trace_state), std::move(s.foreign),
                     static_cast<int>(s.kind), std::to_string(s.start),
                     s.attrs.list(),           attr_string(s.attrs, "gen_ai.tool.name")};
    ++spans_;
    return spill(run.spans, rec);
  }

  // The event as it may leave (docs/privacy.md): `doc` itself when the classes of its payload type
  // change nothing in its data and subject, else the event with them applied (held in
  // redacted_), each value changed or dropped recorded in the loss.
  const json::document& private_view(const json::document& doc, std::string_view type, std::string_view id) {
    const std::size_t data = doc.find_member(0, "data");
    json::value data_value;
    if (data != 0)
      data_value = doc.to_value(data);
    const auto subject_in = detail::string_member(doc, 0, "subject");
    std::optional<std::string> subject;
    if (subject_in)
      subject = std::string(*subject_in);
    auto changes = evidence::redact_for_output(type, data != 0 ? &data_value : nullptr, subject ? &*subject : nullptr,
                                               opt_.include_sensitive);
    if (changes.empty())
      return doc;
    for (evidence::redacted_value& c : changes)
      record_loss(loss_, id, std::move(c.pointer), c.cls == privacy::sensitive ? "sensitive" : "forbidden");
    json::value event = doc.to_value(0);
    if (data != 0)
      *event.find("data") = std::move(data_value);
    if (subject)
      *event.find("subject") = json::value(std::move(*subject));
    json::limits lim;  // what was read once is read again as it is
    lim.max_depth = lim.max_members = lim.max_string_chars = static_cast<std::size_t>(-1);
    redacted_text_ = json::to_canonical(event).value();  // the document's strings point into it
    redacted_ = json::document::parse(redacted_text_, lim, std::move(redacted_)).value();
    return redacted_;
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

  // A finished span read back (its strings moved out of `s`): a child of the root, or of the
  // span its traceparent names in another trace.
  static otlp_span span_of(spilled_span& s, const std::string& trace_id, const std::string& root_id) {
    span_record r;
    r.span_id = std::move(s.span_id);
    r.name = std::move(s.name);
    r.trace_state = std::move(s.trace_state);
    r.kind = static_cast<span_kind>(s.kind);
    std::from_chars(s.start.data(), s.start.data() + s.start.size(), r.start);  // written by to_string
    return span_of(r, std::move(s.attributes), s.foreign ? s.foreign->trace_id : trace_id,
                   s.foreign ? s.foreign->parent_id : root_id, r.start + 1000);
  }

  // The lines of every run, then the report in parts: `head(report)`, the report but for its
  // dropped attributes (totals counts them), then `entry(dropped_attribute)` for each, in order.
  // The first error stops it; the exporter is empty afterwards, its spill gone.
  template <class Lines, class Head, class Entry>
  result<void> finish_parts(Lines& lines, Head&& head, Entry&& entry) {
    std::uint64_t written = 0, line_count = 0;
    result<void> r;
    if (spill_failed_)
      r = *spill_failed_;
    for (run_state& run : runs_) {
      if (r)
        r = emit_run(run, lines, written, line_count);
      run = run_state{};  // freed as soon as written
    }
    if (r) {
      report_t h;
      h.semconv_version = std::string(semconv_version);
      h.events_read = static_cast<std::int64_t>(events_read_);
      h.spans_written = static_cast<std::int64_t>(written);
      auto& loss = h.mapping_loss;
      for (const auto& [type, n] : unmapped_)
        loss.unmapped_events.emplace(type, static_cast<std::int64_t>(n));
      loss.totals.dropped_attributes = static_cast<std::int64_t>(losses_);
      loss.totals.unmapped_events = loss.unmapped_sum();
      r = head(std::move(h));
    }
    std::vector<spilled_loss> batch;
    for (std::uint64_t at = loss_chain_.first; r && at != evidence::spill_store::end;) {
      auto next = unspill(at, batch);
      if (!next) {
        r = next.error();
        break;
      }
      at = *next;
      for (spilled_loss& l : batch) {
        dropped_t d;
        d.event_id = std::move(l.event_id);
        d.member = std::move(l.member);
        d.reason = std::move(l.reason);
        if (r = entry(std::move(d)); !r)
          break;
      }
    }
    *this = basic_exporter(service_, opt_);
    return r;
  }

  // The canonical bytes of the report `head` (its totals counting the dropped attributes that
  // are not in it) around its dropped_attributes: `before` up to the array's '[' and `after`
  // from its ']'. The whole head is checked by its contract, as with an empty array; the count
  // of the array is the one the exporter keeps of what it writes.
  static result<void> report_frame(const report_t& head, std::string& before, std::string& after) {
    report_t h = head;
    h.mapping_loss.totals.dropped_attributes = 0;
    auto bytes = assay::encode(h);
    if (!bytes)
      return breaks_contract(bytes.error().front(), "");
    static constexpr std::string_view open = R"({"dropped_attributes":[)",
                                      mark = R"({"dropped_attributes":[],"totals":{"dropped_attributes":0,)";
    const std::size_t at = bytes->find(mark);  // once: the members before are numbers and a time
    before = bytes->substr(0, at + open.size());
    after = R"(],"totals":{"dropped_attributes":)" +
            std::to_string(head.mapping_loss.totals.dropped_attributes.value()) + "," + bytes->substr(at + mark.size());
    return {};
  }

  static error breaks_contract(error e, const std::string& at) {
    e.pointer = at + e.pointer;
    e.message = "the report breaks its contract: " + e.format_pointer_line();
    e.pointer.clear();
    return e;
  }

  // The run's spans as OTLP/JSON TracesData lines, the root first, spans_per_line to a line; each
  // line to `sink` as soon as it is made, its spans read back from the spill as they are put in.
  template <class Sink>
  result<void> emit_run(run_state& run, Sink& sink, std::uint64_t& written, std::uint64_t& lines) {
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
    const auto refused = [] { return make_error(errc::io_error, "the TracesData lines could not be written"); };
    otlp_span r =
        span_of(root, root.attrs.list(), trace_id, run.context ? run.context->parent_id : "", run.last_ns + 1000);
    if (!run.root_events.empty())
      r.events = std::move(run.root_events);
    chunk.push_back(std::move(r));
    spilled_span s;
    for (std::uint64_t at = run.spans.first; at != evidence::spill_store::end;) {
      if (chunk.size() >= opt_.spans_per_line && !flush())
        return refused();
      auto next = unspill(at, s);
      if (!next)
        return next.error();
      at = *next;
      if (s.tool && run.mcp_tools.contains(*s.tool)) {  // in key order, as the rest
        auto to = std::find_if(s.attributes.begin(), s.attributes.end(),
                               [](const otlp_key_value& a) { return a.key.compare("mcp.method.name") >= 0; });
        if (to == s.attributes.end() || to->key != "mcp.method.name")
          s.attributes.insert(to, {non_empty("mcp.method.name"), string_value<V>("tools/call")});
      }
      otlp_span o = span_of(s, trace_id, root.span_id);
      if (s.foreign)
        o.links = std::vector<otlp_span_link>{{otlp_trace_id(trace_id), otlp_span_id(root.span_id)}};
      chunk.push_back(std::move(o));
    }
    if (!flush())
      return refused();
    return {};
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
  loss_list loss_;                              // the event's dropped attributes, until they are spilled
  std::optional<evidence::spill_store> spill_;  // opened on the first record
  evidence::spill_store::chain loss_chain_;     // the events' dropped attributes, a batch per event
  std::uint64_t losses_ = 0;
  std::optional<error> spill_failed_;
  std::string scratch_;        // a record as it is written or read
  std::string redacted_text_;  // the event being mapped, when its privacy classes changed it,
  json::document redacted_;    // and as parsed
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
  result<contracts::otel_export_report> finish_to(Sink&& lines) {
    return x_.finish_to(lines);
  }
  template <class LineSink, class ReportSink>
  result<contracts::otel_export_report> finish_to(LineSink&& lines, ReportSink&& report) {
    return x_.finish_to(lines, report);
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
