// assay/evidence/payload_check.hpp — holding each payload of a bundle to its contract while it is
// verified (docs/contracts.md; `assay evidence verify --contracts`).
//
//   assay::evidence::payload_check contracts;
//   auto r = assay::evidence::verify_bundle_file("run.tar.gz", {}, contracts);
//   // r.error(): ContractInvalidEvent, "line 3 of events.ndjson: seq 2 (assay.tool.decision):
//   //            /data/decision: "maybe" is not one of "allow", "deny", "requires_approval", "error""
//
// The verifier keeps the reference's checks (docs/evidence.md), which do not look inside `data`, so that
// bundles other producers wrote verify. This visitor of the same pass adds the payload checks:
// an event whose type is a known one (contracts/known_payloads.hpp, or the list given) has its
// `data` decoded as that type's payload; the first violation fails the pass with
// ContractInvalidEvent and the violation's pointer. Unknown types pass as they are.
#pragma once

#include "assay/contracts/events.hpp"
#include "assay/error.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"

#include <optional>
#include <string>

namespace assay::evidence {

template <class Payloads = contracts::known_payloads>
class basic_payload_check {
 public:
  std::optional<error> on_event(const verified_event& e) {
    const contracts::event_type_entry* known = contracts::find_event_type<Payloads>(e.type);
    if (known == nullptr)
      return std::nullopt;
    // `data` decoded from the event's nodes, as the pass parsed them.
    auto r = known->validate_node(e.doc, e.data, json::limits{});
    if (r)
      return std::nullopt;
    const errors all = r.error();
    const error& first = all.front();
    std::string message = "seq " + std::to_string(e.seq) + " (" + json::quote_for_message(e.type) + "): /data" +
                          first.pointer + ": " + first.message;
    if (all.size() > 1)
      message += " (and " + std::to_string(all.size() - 1) + " more)";
    return make_error(code::ContractInvalidEvent, std::move(message), "/data" + first.pointer);
  }
};

using payload_check = basic_payload_check<>;

}  // namespace assay::evidence
