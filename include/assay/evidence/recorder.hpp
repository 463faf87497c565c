// assay/evidence/recorder.hpp — recording a run as it happens and finishing it as a bundle.
//
//   auto run = assay::evidence::recorder::make({.source = "urn:assay:my-runtime",
//                                               .producer = {"my-runtime", "1.4.0", std::nullopt}});
//   if (!run) ...                                           // every bad option, with its pointer
//   if (auto seq = run->append("assay.tool.decision", decision); !seq) ...   // refused: why
//   auto gz = run->finish();                                // the .tar.gz bytes
//
// The recorder fills the envelope of every event (SPEC §4): specversion, id = run_id:seq, seq,
// time (RFC 3339 UTC with 0, 3, 6 or 9 fraction digits, the fewest that are exact), producer,
// git, privacy flags and the content hash. Its options are checked when it is made (the source
// a URI, the run id without ':', the producer named, everything valid UTF-8); each event when it
// is appended, as `assay validate evidence-event-v1` would check it: its type, trace context and
// payload. A payload of a known event type (contracts/known_payloads.hpp) is held to that type's
// contract whatever C++ type carries it (a json::value, a struct of your own); a listed payload
// type must be recorded under its own event type. A refused event leaves no trace.
//
// Each event is written once, as its line of events.ndjson: the envelope's members in canonical
// order around the payload's canonical bytes, which are hashed once for the content hash as
// they stand. finish() checks the verifier's limits, writes the manifest and packs the lines as
// they are: nothing is parsed again.
#pragma once

#include "assay/error.hpp"
#include "assay/contracts/event.hpp"
#include "assay/contracts/events.hpp"
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
#include "assay/separate.hpp"
#include "assay/version.hpp"

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
  std::string run_id{};                      // no ':'; default: a live run id (UUIDv7)
  producer_info producer = {"assay", std::string(assay::version), std::nullopt};  // name and version not empty
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

// Where the check of a contract member reports: into a list, at a pointer.
struct report_into {
  errors& out;
  std::string_view pointer;
  void operator()(errc code, std::string message) {
    out.items.push_back(make_error(code, std::move(message), std::string(pointer)));
  }
};

// `value` checked as the member type C checks it (and as valid UTF-8), into `out`.
template <class C = std::string>
void check_member(errors& out, std::string_view pointer, std::string_view value) {
  report_into report{out, pointer};
  if (!json::is_valid_utf8(value)) {
    report(errc::invalid_utf8, "string is not valid UTF-8");
    return;
  }
  if constexpr (!std::is_same_v<C, std::string>)
    C::assay_check(value, report);
}

// The errors of a payload validated on its own, placed under `under` (they have no position: the
// bytes they were found in are the recorder's, not the caller's).
inline void add_under(errors& out, errors found, std::string_view under) {
  for (auto& e : found.items) {
    e.pointer = std::string(under) + e.pointer;
    e.offset = error::npos;
    e.line = 0;
    e.column = 0;
    out.items.push_back(std::move(e));
  }
}

}  // namespace detail

template <class = void>
class basic_recorder {
 public:
  // A recorder for a run with these options, or every option that is wrong, with its pointer
  // into recorder_options (/source, /run_id, /producer/name, ...).
  static results<basic_recorder> make(recorder_options o = {}) {
    errors bad;
    detail::check_member<contracts::event_v1::source_uri>(bad, "/source", o.source);
    if (!o.run_id.empty())
      detail::check_member<contracts::event_v1::run_id>(bad, "/run_id", o.run_id);
    detail::check_member<non_empty>(bad, "/producer/name", o.producer.name);
    detail::check_member<non_empty>(bad, "/producer/version", o.producer.version);
    if (o.producer.git)
      detail::check_member(bad, "/producer/git", *o.producer.git);
    if (o.policy_id)
      detail::check_member(bad, "/policy_id", *o.policy_id);
    if (!o.clock)
      bad.items.push_back(make_error(errc::invalid_argument, "no clock", "/clock"));
    if (!bad.empty())
      return bad;
    return basic_recorder(std::move(o));
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
  // seq, or every violation, each with its pointer into the event (/type, /traceparent,
  // /data/...): the event is then not recorded. A result to look at, never to drop.
  template <class Payload>
  [[nodiscard]] results<std::uint64_t> append(std::string_view type, const Payload& data,
                                              const event_extras& extras = {}) {
    const std::uint64_t seq = starts_.size();
    const std::size_t start = lines_.size();
    errors bad = check_event<Payload>(type, extras);
    auto refuse = [&]() {
      lines_.resize(start);
      return std::move(bad);
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
        if (auto r = json::to_sink(sink, data); !r) {
          detail::add_under(bad, errors(r.error()), "/data");
          return refuse();
        }
      } else if (auto r = reflect::encode_to(sink, data); !r) {
        auto all = assay::validate(data);
        detail::add_under(bad, all ? errors(r.error()) : all.error(), "/data");
        return refuse();
      }
    }
    const std::string_view canonical_data = std::string_view(lines_).substr(data_at);
    if constexpr (!contracts::listed_payload<Payload, contracts::known_payloads>) {
      // Not the listed type itself (which its encoding checked): held to the contract of a
      // known type all the same.
      if (const auto* known = contracts::find_event_type(type)) {
        if (auto r = known->validate_data(canonical_data, json::limits{}); !r)
          detail::add_under(bad, r.error(), "/data");
      }
    }
    if (!bad.empty())
      return refuse();
    const std::size_t data_size = canonical_data.size();
    lines_ += ",\"datacontenttype\":\"application/json\"";
    lines_ += id_;
    lines_ += seq_text;
    lines_ += '"';
    lines_ += after_id_;
    if (extras.subject)
      detail::append_member(lines_, "subject", *extras.subject);
    lines_ += ",\"time\":\"";
    lines_ += json::format_rfc3339(opt_.clock());
    lines_ += '"';
    if (extras.traceparent)
      detail::append_member(lines_, "traceparent", *extras.traceparent);
    if (extras.tracestate)
      detail::append_member(lines_, "tracestate", *extras.tracestate);
    detail::append_member(lines_, "type", type);
    lines_ += "}\n";
    const std::string_view written_data = std::string_view(lines_).substr(data_at, data_size);
    auto h = content_hash_of_parts(written_data, "application/json", "1.0", extras.subject, type);
    if (!h) {
      bad.items.push_back(h.error());
      return refuse();
    }
    lines_.replace(hash_at, content_hash_size, *h);
    starts_.push_back(start);
    depths_.push_back(1 + detail::nesting_depth(written_data));
    return seq;
  }

  // The bundle of everything recorded so far.
  result<std::string> finish(bundle_options o = {}) const {
    if (!o.producer)
      o.producer = opt_.producer;
    const bundle_limits& lim = o.limits;
    if (auto e = detail::check_event_count(size(), lim))
      return *e;
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
    const detail::stream_facts facts{lines_.size(), hash::digest_bytes<hash::sha256>(lines_).to_string(), opt_.run_id,
                                     run_root, size()};
    auto manifest = detail::write_manifest(facts, *o.producer, o);
    if (!manifest)
      return manifest.error();
    return pack_bundle(*manifest, lines_, o);
  }

 private:
  explicit basic_recorder(recorder_options o) : opt_(std::move(o)) {
    if (opt_.run_id.empty())
      opt_.run_id = live_run_id();
    // The envelope members every event shares, written once (make() checked they are UTF-8);
    // see append() for the layout.
    detail::append_member(after_hash_, "assaygit", opt_.producer.git.value_or("unknown"));
    after_hash_ += ",\"assaypii\":";
    if (opt_.policy_id)
      detail::append_member(after_pii_, "assaypolicyid", *opt_.policy_id);
    detail::append_member(after_pii_, "assayproducer", opt_.producer.name);
    detail::append_member(after_pii_, "assayproducerversion", opt_.producer.version);
    detail::append_member(after_pii_, "assayrunid", opt_.run_id);
    after_pii_ += ",\"assaysecrets\":";
    detail::append_member(id_, "id", opt_.run_id);
    id_.back() = ':';  // the run id's closing quote: the seq follows
    detail::append_member(after_id_, "source", opt_.source);
    after_id_ += ",\"specversion\":\"1.0\"";
  }

  // Every violation of the envelope members the caller gives (SPEC §4) and of the payload's
  // contract: a listed payload type under its own type; any other payload of a known type
  // validated as that type's payload (its canonical bytes, `data`).
  template <class Payload>
  static errors check_event(std::string_view type, const event_extras& extras) {
    errors bad;
    detail::check_member<non_empty>(bad, "/type", type);
    if (extras.subject)
      detail::check_member(bad, "/subject", *extras.subject);
    if (extras.traceparent) {
      const std::size_t before = bad.size();
      detail::check_member<contracts::event_v1::traceparent>(bad, "/traceparent", *extras.traceparent);
      if (bad.size() == before) {
        for (auto& v : contracts::event_v1::trace_id_violations(*extras.traceparent))
          bad.items.push_back(make_error(errc::rule_violation, std::move(v), "/traceparent"));
      }
    }
    if (extras.tracestate)
      detail::check_member(bad, "/tracestate", *extras.tracestate);
    if constexpr (requires { Payload::event_type; }) {
      if (type != Payload::event_type)
        bad.items.push_back(make_error(errc::rule_violation,
                                       contracts::event_v1::payload_type_violation(Payload::event_type), "/type"));
    }
    return bad;
  }

  static constexpr std::size_t hash_offset = 21;        // {"assaycontenthash":"
  static constexpr std::size_t content_hash_size = 71;  // sha256:<64 hex>

  recorder_options opt_;
  std::string after_hash_ = "\"";      // closes the hash: ","assaygit":..,"assaypii":
  std::string after_pii_;              // ,"assaypolicyid"?,"assayproducer",..,"assaysecrets":
  std::string id_;                     // ,"id":"<run id>:
  std::string after_id_;               // ,"source":..,"specversion":"1.0"
  std::string lines_;                  // events.ndjson so far
  std::vector<std::size_t> starts_;    // where each event's line starts
  std::vector<std::uint32_t> depths_;  // how deeply each event nests
};
using recorder = basic_recorder<>;

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE class basic_recorder<void>;
}  // namespace assay::evidence
#endif
