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
//
// Each event is written once, as its line of events.ndjson: the envelope's members in canonical
// order around the payload's canonical bytes, which are hashed once for the content hash as
// they stand. finish() checks what the verifier would (the envelope's rules, the limits), writes
// the manifest and packs the lines as they are: nothing is parsed again.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/event_rules.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/evidence/writer.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"

#include <charconv>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace assay::evidence {

struct recorder_options {
  std::string source = "urn:assay:runtime";  // a URI: contains ':', not first
  std::string run_id{};                      // default: a live run id (UUIDv7)
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

namespace detail {

// How deeply canonical JSON nests (a scalar: 0).
inline std::uint32_t nesting_depth(std::string_view json) noexcept {
  std::uint32_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

// `"name":` and `s` as a JSON string, appended to out; false when s is not valid UTF-8.
inline bool append_member(std::string& out, std::string_view name, std::string_view s) {
  out += ",\"";
  out += name;
  out += "\":";
  json::string_sink sink{&out};
  json::writer<json::string_sink> w(sink);
  return json::write_string(w, s);
}

}  // namespace detail

class recorder {
 public:
  explicit recorder(recorder_options o = {}) : opt_(std::move(o)) {
    if (opt_.run_id.empty())
      opt_.run_id = live_run_id();
    // The envelope members every event shares, written once; see append() for the layout.
    auto member = [&](std::string& out, std::string_view name, std::string_view value) {
      if (!detail::append_member(out, name, value) && !envelope_error_)
        envelope_error_ = detail::event_error(code::ContractInvalidJson, 0, name,
                                              "member \"" + std::string(name) + "\" is not valid UTF-8");
    };
    member(after_hash_, "assaygit", opt_.producer.git.value_or("unknown"));
    after_hash_ += ",\"assaypii\":";
    if (opt_.policy_id)
      member(after_pii_, "assaypolicyid", *opt_.policy_id);
    member(after_pii_, "assayproducer", opt_.producer.name);
    member(after_pii_, "assayproducerversion", opt_.producer.version);
    member(after_pii_, "assayrunid", opt_.run_id);
    after_pii_ += ",\"assaysecrets\":";
    member(id_, "id", opt_.run_id);
    id_.back() = ':';  // the run id's closing quote: the seq follows
    member(after_id_, "source", opt_.source);
    after_id_ += ",\"specversion\":\"1.0\"";
  }

  const std::string& run_id() const noexcept { return opt_.run_id; }
  std::uint64_t size() const noexcept { return starts_.size(); }

  // The canonical line of event `seq` (without its newline).
  std::string_view line(std::uint64_t seq) const {
    const std::size_t end = seq + 1 < starts_.size() ? starts_[seq + 1] : lines_.size();
    return std::string_view(lines_).substr(starts_[seq], end - 1 - starts_[seq]);
  }
  // Event `seq` as a DOM value (read from its line).
  json::value event(std::uint64_t seq) const { return json::parse(line(seq)).value(); }

  // Appends an event of `type` with `data` (a reflected payload, or a json::value). Returns its
  // seq. An invalid payload is refused with every violation's pointer under /data.
  template <class Payload>
  results<std::uint64_t> append(std::string_view type, const Payload& data, const event_extras& extras = {}) {
    const std::uint64_t seq = starts_.size();
    const std::size_t start = lines_.size();
    auto refuse = [&](errors es, std::string_view under) {
      lines_.resize(start);
      for (auto& e : es.items)
        e.pointer = std::string(under) + e.pointer;
      return es;
    };
    char digits[24];
    const std::string_view seq_text(digits,
                                    static_cast<std::size_t>(std::to_chars(digits, digits + 24, seq).ptr - digits));
    // {"assaycontenthash":"<71 bytes, filled in below>","assaygit":...,"assaypii":..,
    //  "assaypolicyid"?,"assayproducer","assayproducerversion","assayrunid","assaysecrets":..,
    //  "assayseq":..,"data":<payload>,"datacontenttype":"application/json","id":"run:seq",
    //  "source","specversion":"1.0","subject"?,"time","traceparent"?,"tracestate"?,"type"}
    lines_ += "{\"assaycontenthash\":\"";
    const std::size_t hash_at = lines_.size();
    lines_.append(content_hash_size, '0');
    lines_ += after_hash_;
    lines_ += extras.pii ? "true" : "false";
    lines_ += after_pii_;
    lines_ += extras.secrets ? "true" : "false";
    lines_ += ",\"assayseq\":";
    lines_ += seq_text;
    lines_ += ",\"data\":";
    const std::size_t data_at = lines_.size();
    {
      json::string_sink sink{&lines_};
      if constexpr (std::is_same_v<Payload, json::value>) {
        if (auto r = json::to_sink(sink, data); !r)
          return refuse(errors(r.error()), "/data");
      } else if (auto r = reflect::encode_to(sink, data); !r) {
        auto all = assay::validate(data);
        return refuse(all ? errors(r.error()) : all.error(), "/data");
      }
    }
    const std::size_t data_size = lines_.size() - data_at;
    lines_ += ",\"datacontenttype\":\"application/json\"";
    lines_ += id_;
    lines_ += seq_text;
    lines_ += '"';
    lines_ += after_id_;
    if (extras.subject && !detail::append_member(lines_, "subject", *extras.subject))
      return refuse(errors(detail::not_utf8("subject")), "");
    lines_ += ",\"time\":\"";
    lines_ += json::format_rfc3339(opt_.clock());
    lines_ += '"';
    if (extras.traceparent && !detail::append_member(lines_, "traceparent", *extras.traceparent))
      return refuse(errors(detail::not_utf8("traceparent")), "");
    if (extras.tracestate && !detail::append_member(lines_, "tracestate", *extras.tracestate))
      return refuse(errors(detail::not_utf8("tracestate")), "");
    if (!detail::append_member(lines_, "type", type))
      return refuse(errors(detail::not_utf8("type")), "");
    lines_ += "}\n";
    const std::string_view canonical_data = std::string_view(lines_).substr(data_at, data_size);
    auto h = content_hash_of_parts(canonical_data, "application/json", "1.0", extras.subject, type);
    if (!h)
      return refuse(errors(h.error()), "");
    lines_.replace(hash_at, content_hash_size, *h);
    starts_.push_back(start);
    depths_.push_back(1 + detail::nesting_depth(canonical_data));
    return seq;
  }

  // The bundle of everything recorded so far.
  result<std::string> finish(bundle_options o = {}) const {
    if (!o.producer)
      o.producer = opt_.producer;
    const bundle_limits& lim = o.limits;
    if (auto e = detail::check_event_count(size(), lim))
      return *e;
    if (envelope_error_)
      return *envelope_error_;
    // The rules every event shares, at the first; the others hold by construction.
    for (const auto& v : {check_source(opt_.source, 0), check_run_id(opt_.run_id, 0)})
      if (v)
        return detail::event_error(v->code, 0, v->member, v->message);
    run_root_builder root;
    for (std::uint64_t i = 0; i < size(); ++i) {
      if (depths_[i] > lim.max_json_depth) {
        return detail::event_error(
            code::LimitJsonDepth, i, "",
            "the event nests deeper than " + std::to_string(lim.max_json_depth.value()) + " levels");
      }
      const std::string_view l = line(i);
      if (l.size() > lim.max_line_bytes) {
        return detail::event_error(
            code::LimitLineBytes, i, "",
            "the event's line would be longer than " + std::to_string(lim.max_line_bytes.value()) + " bytes");
      }
      root.add(l.substr(hash_offset, content_hash_size));
    }
    if (lines_.size() > lim.max_events_bytes) {
      return make_error(code::LimitFileSize, "events.ndjson would be larger than " +
                                                 std::to_string(lim.max_events_bytes.value()) + " bytes");
    }
    const std::string run_root = root.finish();
    auto manifest = detail::write_manifest({lines_, opt_.run_id, run_root, size()}, *o.producer, o);
    if (!manifest)
      return manifest.error();
    return pack_bundle(*manifest, lines_, o);
  }

 private:
  static constexpr std::size_t hash_offset = 21;        // {"assaycontenthash":"
  static constexpr std::size_t content_hash_size = 71;  // sha256:<64 hex>

  recorder_options opt_;
  std::string after_hash_ = "\"";  // closes the hash: ","assaygit":..,"assaypii":
  std::string after_pii_;          // ,"assaypolicyid"?,"assayproducer",..,"assaysecrets":
  std::string id_;                 // ,"id":"<run id>:
  std::string after_id_;           // ,"source":..,"specversion":"1.0"
  std::optional<error> envelope_error_;
  std::string lines_;                  // events.ndjson so far
  std::vector<std::size_t> starts_;    // where each event's line starts
  std::vector<std::uint32_t> depths_;  // how deeply each event nests
};

}  // namespace assay::evidence
