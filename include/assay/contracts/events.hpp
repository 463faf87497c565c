// assay/contracts/events.hpp — reading an event with the payload types the library knows.
//
// `event_types()` maps each `type` to the validation of a whole event carrying that payload.
// Reading an event decodes the envelope with `data` as any JSON value; when the type is a known
// one the bytes are decoded once more as `evidence_event<Payload>`, so every violation of the
// payload is reported with its exact position and pointer (/data/...). Unknown types keep `data`
// as it is.
//
// The functions are templates over the list of payload types (known_payloads.hpp by default;
// pass your own payload_list<...> to read your own event types): including this header compiles
// no decoder, the first call does.
#pragma once

#include "assay/contracts/event.hpp"
#include "assay/contracts/known_payloads.hpp"
#include "assay/error.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"

#include <span>
#include <string_view>

namespace assay::contracts {

struct event_type_entry {
  std::string_view type;                                                            // "assay.tool.decision"
  results<void> (*validate_event)(std::string_view text, const json::limits& lim);  // a whole event
};

template <class Payload>
event_type_entry make_event_type() {
  return event_type_entry{
      Payload::event_type,
      [](std::string_view text, const json::limits& lim) -> results<void> {
        auto r = assay::decode<evidence_event<Payload>>(text, lim);
        if (!r)
          return r.error();
        return {};
      },
  };
}

// Every event type of the list, in list order.
template <class Payloads = known_payloads>
std::span<const event_type_entry> event_types() {
  static const auto list = Payloads::table([]<class P>() { return make_event_type<P>(); });
  return list;
}

template <class Payloads = known_payloads>
const event_type_entry* find_event_type(std::string_view type) {
  for (const event_type_entry& e : event_types<Payloads>())
    if (e.type == type)
      return &e;
  return nullptr;
}

// Reads one event: the envelope always, the payload too when its type is known. The errors are
// those of evidence_event<Payload> for a known type (envelope and payload together), else those
// of the envelope.
template <class Payloads = known_payloads>
results<evidence_event<>> read_event(std::string_view text, const json::limits& lim = {}) {
  auto ev = assay::decode<evidence_event<>>(text, lim);
  const event_type_entry* known = nullptr;
  if (ev) {
    known = find_event_type<Payloads>(ev->type);
  } else if (auto doc = json::document::parse(text, lim); doc && doc->root().kind == json::kind::object) {
    const std::size_t t = doc->find_member(0, "type");
    if (t != 0 && doc->nodes()[t].kind == json::kind::string)
      known = find_event_type<Payloads>(doc->string_at(t));
  }
  if (known != nullptr) {
    auto typed = known->validate_event(text, lim);
    if (!typed)
      return typed.error();
  }
  return ev;
}

}  // namespace assay::contracts
