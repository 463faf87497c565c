// assay/evidence/recorder.hpp — recording a run as it happens and finishing it as a bundle.
//
//   assay::evidence::recorder run({.source = "urn:assay:my-runtime", .producer = {"my-runtime", "1.4.0"}});
//   run.append("assay.tool.decision", decision);      // any reflected payload, or a json::value
//   auto gz = run.finish();                             // the .tar.gz bytes
//
// The recorder fills the envelope of every event (SPEC §4): specversion, id = run_id:seq, seq,
// time (RFC 3339 UTC with 0, 3, 6 or 9 fraction digits, the fewest that are exact), producer,
// git, privacy flags and the content hash. Payloads are validated against their type when
// appended: an invalid payload is refused before it becomes evidence.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace assay::evidence {

struct recorder_options {
  std::string source = "urn:assay:runtime";  // a URI: contains ':', not first
  std::string run_id;                        // default: a live run id (UUIDv7)
  producer_info producer = {"assay", "0.1.0", std::nullopt};
  std::optional<std::string> policy_id{};
  // The clock, replaceable for reproducible runs.
  std::function<std::chrono::system_clock::time_point()> clock = [] { return std::chrono::system_clock::now(); };
};

// Envelope members an event may set beyond its payload.
struct event_extras {
  std::optional<std::string> subject{};
  std::optional<std::string> traceparent{};
  std::optional<std::string> tracestate{};
  bool pii = false;
  bool secrets = false;
};

class recorder {
 public:
  explicit recorder(recorder_options o = {}) : opt_(std::move(o)) {
    if (opt_.run_id.empty())
      opt_.run_id = live_run_id();
  }

  const std::string& run_id() const noexcept { return opt_.run_id; }
  std::uint64_t size() const noexcept { return events_.size(); }
  const std::vector<json::value>& events() const noexcept { return events_; }

  // Appends an event of `type` with `data` (a reflected payload, or a json::value). Returns its
  // seq. An invalid payload is refused with every violation's pointer under /data.
  template <class Payload>
  results<std::uint64_t> append(std::string_view type, const Payload& data, const event_extras& extras = {}) {
    json::value payload;
    if constexpr (std::is_same_v<Payload, json::value>) {
      payload = data;
    } else {
      auto bytes = assay::encode(data);
      if (!bytes) {
        errors es = bytes.error();
        for (auto& e : es.items)
          e.pointer = "/data" + e.pointer;
        return es;
      }
      payload = json::parse(*bytes).value();
    }
    const std::uint64_t seq = events_.size();
    json::value ev = json::object{};
    ev.set("specversion", "1.0");
    ev.set("type", type);
    ev.set("source", opt_.source);
    ev.set("id", stream_id(opt_.run_id, seq));
    ev.set("time", json::format_rfc3339(opt_.clock()));
    ev.set("datacontenttype", "application/json");
    if (extras.subject)
      ev.set("subject", *extras.subject);
    if (extras.traceparent)
      ev.set("traceparent", *extras.traceparent);
    if (extras.tracestate)
      ev.set("tracestate", *extras.tracestate);
    ev.set("assayrunid", opt_.run_id);
    ev.set("assayseq", static_cast<double>(seq));
    ev.set("assayproducer", opt_.producer.name);
    ev.set("assayproducerversion", opt_.producer.version);
    ev.set("assaygit", opt_.producer.git.value_or("unknown"));
    if (opt_.policy_id)
      ev.set("assaypolicyid", *opt_.policy_id);
    ev.set("assaypii", extras.pii);
    ev.set("assaysecrets", extras.secrets);
    ev.set("data", std::move(payload));
    auto h = content_hash(ev);
    if (!h)
      return errors(h.error());
    ev.set("assaycontenthash", *h);
    events_.push_back(std::move(ev));
    return seq;
  }

  // The bundle of everything recorded so far.
  result<std::string> finish(bundle_options o = {}) const {
    if (!o.producer)
      o.producer = opt_.producer;
    return write_bundle(events_, o);
  }

 private:
  recorder_options opt_;
  std::vector<json::value> events_;
};

}  // namespace assay::evidence
