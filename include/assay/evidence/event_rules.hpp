// assay/evidence/event_rules.hpp — the rules every event of a bundle obeys (docs/evidence.md step 4),
// in one place for the verifier (which reports the first broken one) and the writer (which
// refuses to write what the verifier would reject).
//
//   read_event_fields(doc, fields)   one event on its own: member types, seq, data, time,
//                                    specversion
//   event_stream::next(fields)       its place in the stream: seq start and gaps, one run id
//                                    without ':', one source URI, id = run_id:seq; keeps the
//                                    time window
//
// Each rule yields a violation: the verifier's code (codes.hpp), the member concerned and a
// message without location, which the caller places ("line 3 of events.ndjson: ...", or the
// pointer "/3/assayseq").
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/json/document.hpp"
#include "assay/json/time.hpp"
#include "assay/separate.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace assay::evidence {

struct event_violation {
  evidence::code code;
  std::string member;  // the event member concerned ("" for the event as a whole)
  std::string message;
};

// The members of one event the rules look at (node indices into its document; 0 = absent), and
// what was read from them.
struct event_fields {
  std::size_t specversion = 0, type = 0, source = 0, id = 0, time = 0, run_id = 0, seq_node = 0, content_hash = 0,
              data = 0, datacontenttype = 0, subject = 0;
  std::uint64_t seq = 0;
  json::instant at;  // the time as an instant (its fraction a view into the document)
  // The strings the stream's rules compare, as views into the document: read once where it was
  // parsed (the verifier parses on one thread and takes the events in order on another, which
  // then need not touch the document's nodes).
  std::string_view run_id_text, source_text, id_text, time_text;
};

namespace detail {

inline bool is_string_node(const json::document& doc, std::size_t i) noexcept {
  return i != 0 && doc.nodes()[i].kind == json::kind::string;
}

}  // namespace detail

// The event's seq: `assayseq`, an integer in [0, 2^53). The one thing the writer needs of every
// event before it can put them in order.
inline std::optional<event_violation> read_event_seq(const json::document& doc, std::size_t seq_node,
                                                     std::uint64_t& seq) {
  // An integer token, as the reference reads it (an unsigned integer): 0.0, 1e0 and -0 are not
  // sequence numbers, and none from 2^53 up (where a double stops counting by one) is taken.
  if (seq_node == 0)
    return event_violation{code::ContractInvalidJson, "assayseq", "required member \"assayseq\" is missing"};
  if (doc.nodes()[seq_node].kind != json::kind::number || !doc.integer_token_at(seq_node))
    return event_violation{code::ContractInvalidJson, "assayseq", "member \"assayseq\" must be an integer"};
  const double d = doc.number_at(seq_node);
  if (!(d >= 0 && !std::signbit(d) && d < 9007199254740992.0 &&
        d == static_cast<double>(static_cast<std::uint64_t>(d))))
    return event_violation{code::ContractInvalidJson, "assayseq", "member \"assayseq\" must be an integer >= 0"};
  seq = static_cast<std::uint64_t>(d);
  return std::nullopt;
}

// The rules one event obeys on its own, in the verifier's order: it is an object; specversion,
// type, source, id, time and assayrunid are strings; assayseq an integer >= 0; data present;
// time RFC 3339; specversion "1.0". Fills `f` (content_hash, datacontenttype and subject are
// left to the caller: they are the content hash's).
inline std::optional<event_violation> read_event_fields(const json::document& doc, event_fields& f) {
  if (doc.root().kind != json::kind::object)
    return event_violation{code::ContractInvalidJson, "", "the event is not a JSON object"};
  const auto m = doc.find_members<11>(0, {"specversion", "type", "source", "id", "time", "assayrunid", "assayseq",
                                          "assaycontenthash", "data", "datacontenttype", "subject"});
  f.specversion = m[0];
  f.type = m[1];
  f.source = m[2];
  f.id = m[3];
  f.time = m[4];
  f.run_id = m[5];
  f.seq_node = m[6];
  f.content_hash = m[7];
  f.data = m[8];
  f.datacontenttype = m[9];
  f.subject = m[10];
  for (const auto& [idx, name] :
       {std::pair{f.specversion, "specversion"}, std::pair{f.type, "type"}, std::pair{f.source, "source"},
        std::pair{f.id, "id"}, std::pair{f.time, "time"}, std::pair{f.run_id, "assayrunid"}}) {
    if (idx == 0)
      return event_violation{code::ContractInvalidJson, name,
                             std::string("required member \"") + name + "\" is missing"};
    if (!detail::is_string_node(doc, idx))
      return event_violation{code::ContractInvalidJson, name, std::string("member \"") + name + "\" must be a string"};
  }
  f.run_id_text = doc.string_at(f.run_id);
  f.source_text = doc.string_at(f.source);
  f.id_text = doc.string_at(f.id);
  f.time_text = doc.string_at(f.time);
  if (auto v = read_event_seq(doc, f.seq_node, f.seq))
    return v;
  if (f.data == 0)
    return event_violation{code::ContractInvalidJson, "data", "required member \"data\" is missing"};
  const auto at = json::parse_instant(f.time_text);
  if (!at)
    return event_violation{code::ContractInvalidJson, "time", "member \"time\" is not an RFC 3339 date-time"};
  f.at = *at;
  if (doc.string_at(f.specversion) != "1.0")
    return event_violation{code::ContractSchemaVersion, "specversion", "specversion must be \"1.0\""};
  return std::nullopt;
}

// The event's content hash (docs/evidence.md), from the members read_event_fields found.
template <class = void>
result<std::string> content_hash(const json::document& doc, const event_fields& f) {
  return content_hash_at_nodes(doc, f.data, f.datacontenttype, f.specversion, f.subject, f.type);
}

// The source rule (docs/evidence.md): a URI, with ':' and not first.
inline std::optional<event_violation> check_source(std::string_view source, std::uint64_t seq) {
  if (source.empty() || source.front() == ':' || source.find(':') == std::string_view::npos)
    return event_violation{code::ContractInvalidEvent, "source",
                           "seq " + std::to_string(seq) + ": source must be a URI (with ':', not first)"};
  return std::nullopt;
}

// The run id rule (docs/evidence.md): no ':' (the stream id is run:seq).
inline std::optional<event_violation> check_run_id(std::string_view run_id, std::uint64_t seq) {
  if (run_id.find(':') != std::string_view::npos)
    return event_violation{code::ContractInvalidEvent, "assayrunid",
                           "seq " + std::to_string(seq) + ": run id must not contain ':'"};
  return std::nullopt;
}

// The rules between the events of one bundle, fed in file order.
class event_stream {
 public:
  // `run_id`: the run id every event must carry (the manifest's); when absent, the first
  // event's.
  explicit event_stream(std::optional<std::string> run_id = std::nullopt)
      : run_id_(std::move(run_id)), run_id_given_(run_id_.has_value()) {}

  // `f` as read_event_fields() filled it.
  std::optional<event_violation> next(const event_fields& f) {
    const std::uint64_t seq = f.seq;
    auto at_seq = [seq] { return "seq " + std::to_string(seq); };  // for messages only
    if (events_ == 0) {
      if (seq != 0)
        return event_violation{code::ContractSequenceStart, "assayseq",
                               "the first event must have seq 0, found " + std::to_string(seq)};
    } else if (seq != prev_seq_ + 1) {
      return event_violation{code::ContractSequenceGap, "assayseq",
                             "sequence gap: " + at_seq() + " follows " + std::to_string(prev_seq_)};
    }
    const std::string_view run_id = f.run_id_text;
    if (!run_id_)
      run_id_.emplace(run_id);
    if (run_id != *run_id_) {
      return event_violation{
          code::ContractRunIdMismatch, "assayrunid",
          "the run id at " + at_seq() + " differs from " + (run_id_given_ ? "the manifest's" : "the first event's")};
    }
    const std::string_view source = f.source_text;
    if (auto v = check_source(source, seq))
      return v;
    if (events_ == 0) {
      first_source_ = source;
    } else if (source != first_source_) {
      return event_violation{code::ContractInvalidEvent, "source",
                             at_seq() + ": source differs from the first event's"};
    }
    if (auto v = check_run_id(run_id, seq))
      return v;
    const std::string_view id = f.id_text;
    char digits[24];
    const std::string_view seq_text(digits,
                                    static_cast<std::size_t>(std::to_chars(digits, digits + 24, seq).ptr - digits));
    if (id.size() != run_id.size() + 1 + seq_text.size() || id.substr(0, run_id.size()) != run_id ||
        id[run_id.size()] != ':' || id.substr(run_id.size() + 1) != seq_text) {
      return event_violation{code::ContractInvalidEvent, "id",
                             "event id does not match the run_id:seq contract at " + at_seq()};
    }
    const std::string_view time = f.time_text;
    if (events_ == 0 || f.at < json::instant{lo_seconds_, lo_fraction_}) {
      lo_seconds_ = f.at.seconds;
      lo_fraction_ = f.at.fraction;
      time_start_ = time;
    }
    if (events_ == 0 || json::instant{hi_seconds_, hi_fraction_} < f.at) {
      hi_seconds_ = f.at.seconds;
      hi_fraction_ = f.at.fraction;
      time_end_ = time;
    }
    prev_seq_ = seq;
    ++events_;
    return std::nullopt;
  }

  std::uint64_t events() const noexcept { return events_; }
  const std::string& run_id() const noexcept { return *run_id_; }
  const std::string& source() const noexcept { return first_source_; }
  const std::string& time_start() const noexcept { return time_start_; }  // the earliest time, as written
  const std::string& time_end() const noexcept { return time_end_; }      // the latest time, as written

 private:
  std::optional<std::string> run_id_;
  bool run_id_given_;
  std::string first_source_;

  std::uint64_t events_ = 0, prev_seq_ = 0;
  std::int64_t lo_seconds_ = 0, hi_seconds_ = 0;
  std::string lo_fraction_, hi_fraction_;  // of the earliest and latest times
  std::string time_start_, time_end_;
};

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE result<std::string> content_hash<void>(const json::document&, const event_fields&);
}  // namespace assay::evidence
#endif
