// assay/contracts/events.hpp — the event types the library knows, and reading an event with them.
//
// `event_types()` maps each `type` to its payload type (type-erased: schema, validation). Reading
// an event decodes the envelope with `data` as any JSON value; when the type is a known one the
// bytes are decoded once more as `evidence_event<Payload>`, so every violation of the payload is
// reported with its exact position and pointer (/data/...). Unknown types keep `data` as it is.
// A versioned type (`assay.env.filtered.v2`) is one more entry beside the old one.
#pragma once

#include "assay/contracts/event.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/error.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/schema.hpp"

#include <array>
#include <span>
#include <string_view>

namespace assay::contracts {

struct event_type_entry {
  std::string_view type;                                                              // "assay.tool.decision"
  json::value (*schema)();                                                            // of the payload
  results<void> (*validate_payload)(std::string_view text, const json::limits& lim);  // a `data` document
  results<void> (*validate_event)(std::string_view text, const json::limits& lim);    // a whole event
};

template <class Payload>
event_type_entry make_event_type() {
  return event_type_entry{
      Payload::event_type,
      [] { return assay::schema<Payload>(); },
      [](std::string_view text, const json::limits& lim) -> results<void> {
        auto r = assay::decode<Payload>(text, lim);
        if (!r)
          return r.error();
        return {};
      },
      [](std::string_view text, const json::limits& lim) -> results<void> {
        auto r = assay::decode<evidence_event<Payload>>(text, lim);
        if (!r)
          return r.error();
        return {};
      },
  };
}

// The payload types of the known event types, in name order: one list for every table built
// over them (this registry, the redactor of evidence/redact.hpp).
template <class... P>
struct payload_list {
  static constexpr std::size_t size = sizeof...(P);
  template <class F>
  static auto table(F make) {
    return std::array<decltype(make.template operator()<approval_recorded>()), sizeof...(P)>{
        make.template operator()<P>()...};
  }
};
using known_payloads =
    payload_list<approval_recorded, env_filtered, fs_access, model_invoked, net_access, profile_finished,
                 profile_started, prompt_lineage, run_input, run_seed, sandbox_degraded, tool_call, tool_decision>;

// Every known event type, in name order.
inline std::span<const event_type_entry> event_types() {
  static const auto list = known_payloads::table([]<class P>() { return make_event_type<P>(); });
  return list;
}

inline const event_type_entry* find_event_type(std::string_view type) {
  for (const event_type_entry& e : event_types())
    if (e.type == type)
      return &e;
  return nullptr;
}

// Reads one event: the envelope always, the payload too when its type is known. The errors are
// those of evidence_event<Payload> for a known type (envelope and payload together), else those
// of the envelope.
inline results<evidence_event<>> read_event(std::string_view text, const json::limits& lim = {}) {
  auto ev = assay::decode<evidence_event<>>(text, lim);
  const event_type_entry* known = nullptr;
  if (ev) {
    known = find_event_type(ev->type);
  } else if (auto doc = json::document::parse(text, lim); doc && doc->root().kind == json::kind::object) {
    const std::size_t t = doc->find_member(0, "type");
    if (t != 0 && doc->nodes()[t].kind == json::kind::string)
      known = find_event_type(doc->string_at(t));
  }
  if (known != nullptr) {
    auto typed = known->validate_event(text, lim);
    if (!typed)
      return typed.error();
  }
  return ev;
}

}  // namespace assay::contracts
