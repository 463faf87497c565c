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
#include "assay/reflect/decode_node.hpp"

#include <span>
#include <string_view>
#include <type_traits>

namespace assay::contracts {

struct event_type_entry {
  std::string_view type;                                                            // "assay.tool.decision"
  results<void> (*validate_event)(std::string_view text, const json::limits& lim);  // a whole event
  results<void> (*validate_data)(std::string_view text, const json::limits& lim);   // its payload alone
  // Its payload at node `at` of a parsed event (the verifier's pass holds it): decoded from the
  // nodes, as validate_data decodes its canonical text.
  results<void> (*validate_node)(const json::document& doc, std::size_t at, const json::limits& lim);
};

template <class T>
results<void> validate_text(std::string_view text, const json::limits& lim) {
  auto r = assay::decode<T>(text, lim);
  if (!r)
    return r.error();
  return {};
}

template <class T>
results<void> validate_node(const json::document& doc, std::size_t at, const json::limits& lim) {
  auto r = assay::decode<T>(doc, at, lim);
  if (!r)
    return r.error();
  return {};
}

template <class Payload>
event_type_entry make_event_type() {
  return event_type_entry{Payload::event_type, &validate_text<evidence_event<Payload>>, &validate_text<Payload>,
                          &validate_node<Payload>};
}

// Whether P is one of the payload types of the list.
template <class P, class List>
inline constexpr bool listed_payload = false;
template <class P, class... L>
inline constexpr bool listed_payload<P, payload_list<L...>> = (std::is_same_v<P, L> || ...);

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

// Validates one event as `assay validate evidence-event-v1` does, every violation with its
// pointer: the envelope (docs/evidence.md), and with `payloads` the payload of a known `type` (docs/contracts.md).
// `type` is the event's type member as the caller read it (the writer has parsed the event).
template <class Payloads = known_payloads>
results<void> validate_event(std::string_view text, std::string_view type, const json::limits& lim = {},
                             bool payloads = true) {
  if (payloads) {
    if (const event_type_entry* known = find_event_type<Payloads>(type))
      return known->validate_event(text, lim);  // the envelope and the payload in one pass
  }
  return validate_text<evidence_event<>>(text, lim);
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
