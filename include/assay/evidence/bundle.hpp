// assay/evidence/bundle.hpp — the bundle model the evidence floor writes and verifies with
// (docs/evidence.md): the reader limits, the producer, and what a verification yields, as a whole
// (verified_bundle) and event by event (verified_event, for visitors). Data only: including it
// pulls in neither zlib nor a thread.
//
// The contract types (limits, the manifest as read, the verdict) are in
// assay/contracts/bundle.hpp; the codes of a failure in codes.hpp.
#pragma once

#include "assay/contracts/bundle.hpp"
#include "assay/error.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/json/document.hpp"
#include "assay/json/time.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace assay::evidence {

using bundle_limits = contracts::bundle_limits;
using manifest_view = contracts::manifest_view;
using verify_result = contracts::verify_result;

struct producer_info {
  std::string name;
  std::string version;
  std::optional<std::string> git;
};

// What a verified bundle yields.
struct verified_bundle {
  std::string run_id;
  std::string bundle_id;
  std::uint64_t event_count = 0;
  producer_info producer;
  std::string time_start;         // the earliest event time, as written
  std::string time_end;           // the latest event time, as written
  std::string manifest;           // the manifest bytes
  manifest_view manifest_fields;  // ... as read (the contract's members)
  // "sha256:<hex>" digests, computed by the pass: of the bundle file (its bytes as read, before
  // decompression), of manifest.json, of events.ndjson.
  std::string file_sha256, manifest_sha256, events_sha256;
};

// manifest.json as read, before the events are checked against it.
struct bundle_manifest {
  std::string_view bytes;
  const manifest_view& fields;
};

// One event of events.ndjson that passed every check of docs/evidence.md step 4, in file order. Views
// into the line and its document: valid during the visit only.
struct verified_event {
  std::uint64_t seq = 0;
  std::uint64_t line_number = 0;  // 1-based, among the lines of events.ndjson
  std::string_view line;          // without the newline (and a '\r' before it)
  const json::document& doc;
  std::size_t data = 0;  // the node of `data` in doc
  std::string_view type, source, id, time, run_id, content_hash;
  std::optional<std::string_view> subject;  // absent when absent or null
  json::instant at;                         // the time as an instant (its fraction a view into doc)
};

// A failure of the pass is either the bundle's — it does not verify, and the error carries the
// reference verifier's code (codes.hpp), whether a check of docs/evidence.md or a visitor holding events
// to more (payload_check's ContractInvalidEvent) found it — or not the bundle's: an I/O error, or
// a visitor's own refusal (a limit of its own, such as the OTel exporter's max_spans; a stop),
// which says nothing of the bundle and is reported as the caller's own error.
inline bool is_verification_failure(const error& e) noexcept {
  return bundle_code(e.code).has_value();
}

// The verdict in its contract form (what `assay evidence verify --json` prints).
inline verify_result verify_result_of(const result<verified_bundle>& r) {
  verify_result out;
  if (r) {
    out.ok = true;
    out.bundle_id = r->bundle_id;
    out.run_id = r->run_id;
    out.event_count.emplace(r->event_count);
    return out;
  }
  const error& e = r.error();
  out.code = std::string(assay::name(e.code));
  if (const auto c = bundle_code(e.code))
    out.error_class = decltype(out.error_class)::value_type::parse(error_class(*c));
  out.message = e.message;
  return out;
}

}  // namespace assay::evidence
