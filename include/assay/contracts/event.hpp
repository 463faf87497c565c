// assay/contracts/event.hpp — evidence-event-v1, the CloudEvents 1.0 envelope of every piece of
// evidence (docs/evidence.md), generic over its payload.
//
//   evidence_event<tool_decision>   data is decoded and checked as an assay.tool.decision
//   evidence_event<>                data kept as any JSON value (unknown event types)
//
// Every member rule of docs/evidence.md is either a constraint of the member's type (patterns, constants,
// bounds) or a cross-field rule in check_rules (id = run:seq, time fraction, trace ids not zero,
// the type of a typed payload). `assaycontenthash` is written as null when not yet computed;
// optional members are omitted when absent.
#pragma once

#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace event_v1 {

// RFC 3339 in UTC with `Z`; no fraction, or 3, 6 or 9 digits (which of them: see check_rules).
using event_time =
    str<0, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.([0-9]{3}|[0-9]{6}|[0-9]{9}))?Z$", "date-time">;
// A URI reference with a scheme: contains ':' and does not start with it.
using source_uri = pattern<"^[^:]+:">;
// Never contains ':' (the stream id is run:seq).
using run_id = pattern<"^[^:]+$">;
// W3C trace context, version 00.
using traceparent = pattern<"^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$">;
using content_hash = pattern<"^sha256:[0-9a-f]{64}$">;

// The fraction of an event time: absent, or the fewest of 3, 6, 9 digits that are exact, and
// not zero. Returns the violation ("" when fine).
inline std::string time_fraction_violation(std::string_view t) {
  const std::size_t dot = t.find('.');
  if (dot == std::string_view::npos)
    return {};
  const std::string_view frac = t.substr(dot + 1, t.size() - dot - 2);  // without the Z
  if (frac.find_first_not_of('0') == std::string_view::npos)
    return "a zero sub-second part is written without a fraction";
  if (frac.size() > 3 && frac.substr(frac.size() - 3) == "000")
    return "the fraction must use the fewest of 3, 6 or 9 digits that are exact";
  return {};
}

// The W3C rule beyond the pattern: neither the trace id nor the parent id is all zeros. Returns
// the violations' messages (a value that does not match the pattern has none here).
inline std::vector<std::string> trace_id_violations(std::string_view tp) {
  std::vector<std::string> out;
  if (tp.size() != 55)
    return out;
  if (tp.substr(3, 32).find_first_not_of('0') == std::string_view::npos)
    out.emplace_back("the trace id must not be all zeros");
  if (tp.substr(36, 16).find_first_not_of('0') == std::string_view::npos)
    out.emplace_back("the parent (span) id must not be all zeros");
  return out;
}

// A payload of the type `Payload::event_type` recorded under another type.
inline std::string payload_type_violation(std::string_view payload_type) {
  return "a " + std::string(payload_type) + " payload needs type \"" + std::string(payload_type) + "\"";
}

}  // namespace event_v1

template <class Payload = json::value>
struct evidence_event {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/evidence-event-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Evidence Event v1";
  static constexpr std::string_view schema_description =
      "A CloudEvents 1.0 event carrying one piece of agent evidence.";

  const_string<"1.0"> specversion;
  non_empty type;
  event_v1::source_uri source;
  non_empty id;
  event_v1::event_time time;
  non_empty datacontenttype = std::string("application/json");
  std::optional<std::string> subject{};
  std::optional<event_v1::traceparent> traceparent{};
  std::optional<std::string> tracestate{};
  event_v1::run_id assayrunid;
  bounded<std::int64_t, 0> assayseq;
  std::string assayproducer;
  std::string assayproducerversion;
  std::string assaygit = std::string("unknown");
  std::optional<std::string> assaypolicyid{};
  bool assaypii = false;
  bool assaysecrets = false;
  nullable<event_v1::content_hash> assaycontenthash;
  std::optional<std::string> assaysemanticdigest{};
  std::optional<std::string> assaydigestprofile{};
  Payload data{};

  static constexpr field_info assay_fields[] = {
      {.field = "type", .description = "The event type; a typed payload's own type (assay.tool.decision, ...)."},
      {.field = "source", .description = "URI reference of the producer; the same for every event of a bundle."},
      {.field = "id", .description = "The stream position: assayrunid + ':' + assayseq."},
      {.field = "time",
       .description = "RFC 3339 UTC time; a non-zero sub-second part uses the fewest of 3, 6 or 9 digits that are "
                      "exact."},
      {.field = "datacontenttype", .default_json = "\"application/json\""},
      {.field = "assayrunid", .description = "The run; never contains ':'."},
      {.field = "assayseq", .description = "0-based position of the event in its run, contiguous."},
      {.field = "assaygit", .default_json = "\"unknown\""},
      {.field = "assaycontenthash",
       .description = "sha256 of the JCS of {data, datacontenttype, specversion, subject?, type}; null until "
                      "computed."},
      {.field = "assaysemanticdigest", .description = "Never part of the content hash."},
  };

  void check_rules(rules& r) const {
    if (id != std::string(assayrunid) + ":" + std::to_string(assayseq.value()))
      r.fail("/id", "id must be assayrunid + \":\" + assayseq (\"" + std::string(assayrunid) + ":" +
                        std::to_string(assayseq.value()) + "\")");
    if (std::string v = event_v1::time_fraction_violation(time); !v.empty())
      r.fail("/time", std::move(v));
    if (traceparent) {
      for (auto& v : event_v1::trace_id_violations(*traceparent))
        r.fail("/traceparent", std::move(v));
    }
    if constexpr (requires { Payload::event_type; }) {
      if (type != Payload::event_type)
        r.fail("/type", event_v1::payload_type_violation(Payload::event_type));
    }
  }
};

}  // namespace assay::contracts
