// assay/otel/mapping.hpp — the rules of the OpenTelemetry mapping (docs/otel.md; the whole
// mapping is described at the top of exporter.hpp): which event types make which spans, where each
// envelope and payload member goes, what a GenAI span definition of the pinned semantic-conventions
// release requires (and why an event without it gets no GenAI span), and the ids and times.
#pragma once

#include "assay/evidence/event_data.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/document.hpp"
#include "assay/json/time.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

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

namespace detail {

// How a payload member maps: to `key`, a semantic-conventions attribute (a string one, or one of
// type any as the canonical JSON text of the value: json_text), or to `fallback` under assay.*
// when the event gets no GenAI span, when its value is not of the key's type, or (as
// fallback.commitment.*) when it is a redaction commitment (docs/privacy.md). Members whose key is already
// under assay.* have no fallback. (What a member may carry is its privacy class's business, applied
// before any rule: basic_exporter::add.)
struct member_rule {
  std::string_view member;
  std::string_view key;
  std::string_view fallback;
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
    {"arguments", "gen_ai.tool.call.arguments", "assay.tool.arguments", true},
    {"result", "gen_ai.tool.call.result", "assay.tool.result", true},
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

}  // namespace detail

}  // namespace assay::otel
