// assay/evidence/writer.hpp — writing an evidence bundle (docs/evidence.md).
//
//   std::vector<std::string_view> lines = ...;                  // one event's JSON text each
//   auto gz = assay::evidence::write_bundle(lines);              // the .tar.gz bytes
//   auto gz2 = assay::evidence::write_bundle(dom_events);        // or CloudEvents as DOM values
//
// Each event is read strictly; a missing (or null) content hash is computed, a present one must
// match. Events are put in seq order and must then form a stream the verifier accepts: the rules
// of event_rules.hpp and the limits of bundle_limits (line length, depth, event count, file and
// bundle sizes); otherwise the verifier's code, with the pointer /<input index>/<member>. Each
// event must also be what `assay validate evidence-event-v1` accepts: the envelope of docs/evidence.md
// and, for a known type, its payload's contract (docs/contracts.md; bundle_options::check_payloads);
// otherwise every violation, each with its pointer (/3/data/decision). The manifest is filled
// from the events (producer from the first event unless given). Same inputs, same bytes.
//
// Speed: events are parsed into flat documents and written in canonical form straight into
// events.ndjson; the tar stream is never assembled (gzip reads its pieces), and compression runs
// on every core. bundle_stream writes the same bytes in one pass with flat memory, compressing
// events.ndjson while later events are read (`assay evidence bundle` uses it).
#pragma once

#include "assay/contracts/events.hpp"
#include "assay/contracts/manifest.hpp"
#include "assay/error.hpp"
#include "assay/evidence/archive.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/evidence/codes.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/event_rules.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/big_array.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::evidence {

// The code of a refusal to take the events as they come (bundle_stream): they need
// write_bundle(), which sorts them or names every fault with its code and pointer.
inline constexpr errc needs_write_bundle = errc::invalid_argument;

using pack_applied = contracts::manifest_v1::pack_applied;
using mapping = contracts::manifest_v1::mapping;

struct bundle_options {
  std::optional<producer_info> producer;  // default: from the first event
  std::vector<pack_applied> packs_applied;
  std::vector<mapping> mappings;
  bundle_limits limits;  // the verifier's limits: nothing is written that they would refuse
  unsigned threads = 0;  // for compression; 0 = all cores (the bytes do not depend on it)
  // The payload of each event of a known type is held to its contract (docs/contracts.md). false re-packs
  // other producers' events as they are (`assay evidence bundle --unchecked-payloads`); the
  // envelope is checked either way.
  bool check_payloads = true;
};

// The two files of a bundle, before they are packed.
struct bundle_files {
  std::string manifest;  // JCS bytes of manifest.json
  std::string events;    // events.ndjson
  std::string run_id, run_root;
  std::uint64_t event_count = 0;
};

namespace detail {

inline error event_error(code c, std::size_t index, std::string_view member, std::string message) {
  error e = make_error(c, std::move(message));
  e.pointer = "/" + std::to_string(index) + (member.empty() ? "" : "/" + std::string(member));
  return e;
}

// An error found inside event `index` (its pointer is relative to the event).
inline error in_event(error e, std::size_t index, std::optional<code> c = std::nullopt) {
  e.pointer = "/" + std::to_string(index) + e.pointer;
  if (c)
    e.code = to_errc(*c);
  return e;
}

// The reader limits of the verifier for manifest.json and each event.
inline json::limits event_json_limits(const bundle_limits& lim) {
  json::limits jl;
  jl.max_depth = lim.max_json_depth;
  return jl;
}

// Reads event `index`: a depth beyond the limit is the verifier's LimitJsonDepth; any other
// reader error keeps its own code (the input is not JSON).
inline result<json::document> parse_event(std::string_view text, std::size_t index, const bundle_limits& lim) {
  auto doc = json::document::parse(text, event_json_limits(lim));
  if (!doc)
    return in_event(doc.error(), index, limit_code(doc.error().code));
  return doc;
}

// The input indices of the events in seq order (a stable sort): every event must be a JSON
// object with a valid assayseq.
inline result<std::vector<std::size_t>> seq_order(std::span<const std::string_view> events, const bundle_limits& lim) {
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;
  keyed.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    auto doc = parse_event(events[i], i, lim);
    if (!doc)
      return doc.error();
    if (doc->root().kind != json::kind::object)
      return event_error(code::ContractInvalidJson, i, "", "the event is not a JSON object");
    std::uint64_t seq = 0;
    if (auto v = read_event_seq(*doc, doc->find_member(0, "assayseq"), seq))
      return event_error(v->code, i, v->member, v->message);
    keyed.emplace_back(seq, i);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> order;
  order.reserve(keyed.size());
  for (const auto& k : keyed)
    order.push_back(k.second);
  return order;
}

// The stream's facts the manifest states.
struct stream_facts {
  std::uint64_t events_bytes = 0;  // of events.ndjson
  std::string events_sha256;       // "sha256:<hex>" of events.ndjson
  std::string run_id, run_root;
  std::uint64_t event_count = 0;
};

struct events_file {
  std::string bytes;
  stream_facts facts;
  producer_info producer;  // the first event's producer members, when strings
};

// Every event is also validated as evidence-event-v1 (its payload too, with check_payloads),
// in its canonical form: the violations are gathered in `invalid` (pointers /<input index>/...),
// and do not stop the pass.
inline constexpr std::size_t max_reported = 1000;

template <class = void>  // compiled only where used: it holds every payload's decoder
void check_contract(std::string_view line, std::string_view type, std::size_t index, const bundle_limits& lim,
                    bool check_payloads, errors& invalid) {
  if (invalid.size() >= max_reported)
    return;
  auto r = contracts::validate_event(line, type, event_json_limits(lim), check_payloads);
  if (r)
    return;
  errors found = r.error();
  for (auto& e : found.items) {
    if (invalid.size() == max_reported) {
      invalid.items.push_back(make_error(errc::invalid_argument, "more violations were found; only the first " +
                                                                     std::to_string(max_reported) + " are reported"));
      return;
    }
    // The position is in the canonical line, not in the caller's text: only the pointer says where.
    e = make_error(e.code, std::move(e.message), "/" + std::to_string(index) + e.pointer);
    invalid.items.push_back(std::move(e));
  }
}

// Takes the events one at a time and writes each one's line of events.ndjson (canonical, its
// content hash added when it lacked one, then "\n"), checking every rule of the stream; the
// events must come in seq order. Contract violations are gathered in `invalid`; any other
// failure is returned by add(), and with `optimistic` (the events taken as they come, unsorted)
// an event out of place fails too, as needs_write_bundle.
template <class = void>
class basic_events_builder {
 public:
  basic_events_builder(const bundle_options& opt, bool optimistic, errors& invalid)
      : opt_(opt), optimistic_(optimistic), invalid_(invalid) {
    invalid_.items.clear();
  }

  // Event `i` of the input (its JSON text); on success, line() is its line.
  std::optional<error> add(std::string_view text, std::size_t i) {
    const bundle_limits& lim = opt_.limits;
    auto fail = [&](error e) -> std::optional<error> {
      if (optimistic_)
        return make_error(needs_write_bundle, "");
      return e;
    };
    auto doc = parse_event(text, i, lim);
    if (!doc)
      return fail(doc.error());
    event_fields f;
    if (auto v = read_event_fields(*doc, f))
      return fail(event_error(v->code, i, v->member, v->message));
    if (optimistic_ && f.seq != count_)
      return fail({});
    auto computed = content_hash(*doc, f);
    if (!computed)
      return fail(in_event(computed.error(), i, code::ContractInvalidJson));
    const bool has_hash = f.content_hash != 0 && doc->nodes()[f.content_hash].kind != json::kind::null;
    if (has_hash && (!detail::is_string_node(*doc, f.content_hash) || doc->string_at(f.content_hash) != *computed)) {
      return fail(event_error(code::IntegrityEventHash, i, "assaycontenthash",
                              "assaycontenthash does not match the content (expected " + *computed + ")"));
    }
    if (auto v = stream_.next(f))
      return fail(event_error(v->code, i, v->member, v->message));
    if (count_ == 0) {
      const auto p = doc->find_members<3>(0, {"assayproducer", "assayproducerversion", "assaygit"});
      auto string_of = [&](std::size_t n) {
        return detail::is_string_node(*doc, n) ? std::optional<std::string>(doc->string_at(n)) : std::nullopt;
      };
      name_ = string_of(p[0]);
      version_ = string_of(p[1]);
      git_ = string_of(p[2]);
    }
    line_.clear();
    {
      json::string_sink sink{&line_};
      json::writer<json::string_sink> w(sink);
      if (has_hash) {
        doc->write_canonical(w);
      } else {
        hash_text_.assign(1, '"').append(*computed).push_back('"');
        doc->write_canonical_with(w, 0, "assaycontenthash", hash_text_);
      }
    }
    if (line_.size() > lim.max_line_bytes) {
      return fail(event_error(
          code::LimitLineBytes, i, "",
          "the event's line would be longer than " + std::to_string(lim.max_line_bytes.value()) + " bytes"));
    }
    check_contract(line_, doc->string_at(f.type), i, lim, opt_.check_payloads, invalid_);
    line_ += '\n';
    bytes_ += line_.size();
    sha_.update(line_.data(), line_.size());
    root_.add(*computed);
    ++count_;
    return std::nullopt;
  }

  // The line of the last event taken, "\n" included.
  std::string_view line() const noexcept { return line_; }
  // The events taken so far.
  std::uint64_t count() const noexcept { return count_; }

  // events.ndjson so far is larger than the limit allows.
  bool too_large() const noexcept { return bytes_ > opt_.limits.max_events_bytes; }

  // The stream's facts, once every event is in; or the limit on the size of events.ndjson.
  result<stream_facts> finish() {
    if (too_large()) {
      if (optimistic_)
        return make_error(needs_write_bundle, "");
      return make_error(code::LimitFileSize, "events.ndjson would be larger than " +
                                                 std::to_string(opt_.limits.max_events_bytes.value()) + " bytes");
    }
    return stream_facts{bytes_, hash::digest<hash::sha256>(sha_.final()).to_string(), stream_.run_id(), root_.finish(),
                        count_};
  }
  // The producer members of the first event, when strings.
  producer_info producer() const { return producer_info{name_.value_or(""), version_.value_or(""), git_}; }

 private:
  const bundle_options& opt_;
  bool optimistic_;
  errors& invalid_;
  event_stream stream_;
  run_root_builder root_;
  hash::sha256::state sha_;
  std::string line_, hash_text_;
  std::uint64_t bytes_ = 0, count_ = 0;
  std::optional<std::string> name_, version_, git_;
};
using events_builder = basic_events_builder<>;

// events.ndjson from the events taken in `order`, with every rule checked. With `optimistic`,
// `order` is ignored: the events are taken as they come, nothing has been checked yet: any failure (an event out of
// place included) returns needs_write_bundle, and the caller starts again from seq_order().
template <class = void>
result<events_file> build_events(std::span<const std::string_view> events, std::span<const std::size_t> order,
                                 const bundle_options& opt, bool optimistic, errors& invalid) {
  events_file out;
  std::size_t estimate = 0;
  for (std::string_view e : events)
    estimate += e.size() + 96;  // room for a content hash member the event may lack
  out.bytes.reserve(estimate);
  json::advise_huge_pages(out.bytes.data(), out.bytes.capacity());
  events_builder b(opt, optimistic, invalid);
  for (std::size_t k = 0; k < events.size(); ++k) {
    const std::size_t i = optimistic ? k : order[k];
    if (auto e = b.add(events[i], i))
      return *e;
    out.bytes += b.line();
  }
  auto facts = b.finish();
  if (!facts)
    return facts.error();
  out.facts = std::move(*facts);
  out.producer = b.producer();
  return out;
}

// The JSON text of each DOM event (canonical), or the first event that has none.
inline result<std::vector<std::string>> event_texts(const std::vector<json::value>& events) {
  std::vector<std::string> texts;
  texts.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    auto t = json::to_canonical(events[i]);
    if (!t)
      return in_event(t.error(), i, code::ContractInvalidJson);
    texts.push_back(std::move(*t));
  }
  return texts;
}

// The first checks of any bundle: events there are, and not too many.
inline std::optional<error> check_event_count(std::size_t n, const bundle_limits& lim) {
  if (n == 0)
    return make_error(code::ContractInvalidEvent, "a bundle needs at least one event");
  if (n > lim.max_events) {
    return make_error(code::LimitTotalEvents,
                      "more than the limit of " + std::to_string(lim.max_events.value()) + " events");
  }
  return std::nullopt;
}

// manifest.json, through its contract type: encoding checks it (digest patterns, the x-assay
// kinds) and writes it in canonical form; the verifier's limits hold for it.
template <class = void>  // compiled only where used: it holds the manifest's encoder
result<std::string> write_manifest(const stream_facts& s, const producer_info& producer, const bundle_options& opt) {
  const bundle_limits& lim = opt.limits;
  contracts::manifest m;
  m.bundle_id = std::string(s.run_root);
  m.event_count = static_cast<std::int64_t>(s.event_count);
  m.files.events.bytes = static_cast<std::int64_t>(s.events_bytes);
  m.files.events.sha256 = s.events_sha256;
  m.producer.name = producer.name;
  m.producer.version = producer.version;
  if (producer.git && *producer.git != "unknown")
    m.producer.git = *producer.git;
  m.run_id = std::string(s.run_id);
  m.run_root = std::string(s.run_root);
  m.schema_version = 1;
  if (!opt.packs_applied.empty() || !opt.mappings.empty()) {
    m.x_assay.emplace();
    if (!opt.packs_applied.empty())
      m.x_assay->packs_applied = opt.packs_applied;
    if (!opt.mappings.empty())
      m.x_assay->mappings = opt.mappings;
  }
  auto manifest = assay::encode(m);
  if (!manifest) {
    error e = manifest.error().front();
    e.message = "manifest" + (e.pointer.empty() ? std::string() : " " + e.pointer) + ": " + e.message;
    return e;
  }
  if (manifest->size() > lim.max_manifest_bytes) {
    return make_error(code::LimitFileSize, "manifest.json would be larger than " +
                                               std::to_string(lim.max_manifest_bytes.value()) + " bytes");
  }
  if (!json::document::parse(*manifest, event_json_limits(lim))) {  // only its depth can fail
    return make_error(code::LimitJsonDepth,
                      "manifest.json would nest deeper than " + std::to_string(lim.max_json_depth.value()) + " levels");
  }
  return std::move(*manifest);
}

}  // namespace detail

// Normalizes events (content hashes, order), checks the stream and builds both files. Each
// element of `events` is one event's JSON text (canonical or not). Refused: the first event
// that breaks a rule of the stream (the verifier's code), or else every violation of the
// evidence-event-v1 contract (docs/evidence.md, docs/contracts.md), each with its pointer /<input index>/...
template <class = void>
results<bundle_files> build_bundle_files(std::span<const std::string_view> events, const bundle_options& opt = {}) {
  const bundle_limits& lim = opt.limits;
  if (auto e = detail::check_event_count(events.size(), lim))
    return *e;
  errors invalid;
  // A rule of the stream broken: when an event also lacks members its contract requires (the
  // mistake of an envelope written by hand), every violation of every event's contract is the
  // answer, each with its true reason ("required member … is missing"), rather than the first
  // event's first problem in the verifier's order. Otherwise the stream's error, with its code.
  auto refused = [&](error first) -> errors {
    errors all;
    for (std::size_t i = 0; i < events.size() && all.size() < detail::max_reported; ++i) {
      auto doc = json::document::parse(events[i], detail::event_json_limits(lim));
      if (!doc || doc->root().kind != json::kind::object)
        continue;  // not an object: `first` says so, if it is the first such
      const std::size_t t = doc->find_member(0, "type");
      const std::string_view type = detail::is_string_node(*doc, t) ? doc->string_at(t) : std::string_view();
      // A content hash left out (or null) is the writer's to compute: a placeholder stands in.
      std::string text;
      {
        json::string_sink sink{&text};
        json::writer<json::string_sink> w(sink);
        const std::size_t h = doc->find_member(0, "assaycontenthash");
        if (h != 0 && doc->nodes()[h].kind != json::kind::null)
          doc->write_canonical(w);
        else
          doc->write_canonical_with(w, 0, "assaycontenthash", "\"sha256:" + std::string(64, '0') + "\"");
      }
      detail::check_contract(text, type, i, lim, opt.check_payloads, all);
    }
    const bool missing =
        std::any_of(all.items.begin(), all.items.end(), [](const error& e) { return e.code == errc::missing_member; });
    return missing ? all : errors(std::move(first));
  };
  // The normal case first: the events come in seq order and break no rule.
  auto built = detail::build_events(events, {}, opt, true, invalid);
  if (!built) {
    auto order = detail::seq_order(events, lim);
    if (!order)
      return refused(order.error());
    built = detail::build_events(events, *order, opt, false, invalid);
    if (!built)
      return refused(built.error());
  }
  if (!invalid.empty()) {
    // In input order (the pass took the events in seq order).
    auto index = [](const error& e) {
      return e.pointer.size() > 1 ? std::strtoull(e.pointer.c_str() + 1, nullptr, 10) : ~0ull;  // the note: last
    };
    std::stable_sort(invalid.items.begin(), invalid.items.end(),
                     [&](const error& a, const error& b) { return index(a) < index(b); });
    return invalid;
  }
  bundle_files out;
  out.events = std::move(built->bytes);
  out.run_id = built->facts.run_id;
  out.run_root = built->facts.run_root;
  out.event_count = built->facts.event_count;

  // The first event in seq order names the producer unless one is given (every event has one:
  // the envelope requires it).
  auto manifest = detail::write_manifest(built->facts, opt.producer ? *opt.producer : built->producer, opt);
  if (!manifest)
    return manifest.error();
  out.manifest = std::move(*manifest);
  return out;
}

// build_bundle_files() for CloudEvents as DOM values (each is written in canonical form first).
template <class = void>
results<bundle_files> build_bundle_files(const std::vector<json::value>& events, const bundle_options& opt = {}) {
  auto texts = detail::event_texts(events);
  if (!texts)
    return texts.error();
  const std::vector<std::string_view> views(texts->begin(), texts->end());
  return build_bundle_files(views, opt);
}

namespace detail {

// Where the gzip blocks of a bundle end (docs/evidence.md leaves the cutting to the writer; these cuts
// let it compress events.ndjson while it is written): the first block is the tar stream up to
// the first gzip_block_size bytes of events.ndjson (the manifest before them is only known at
// the end); then events.ndjson in blocks of gzip_block_size; then the rest of the archive.
// `prefix`: the tar bytes before events.ndjson; `events`: its size; `total`: the tar's size.
inline std::vector<std::size_t> bundle_cuts(std::size_t prefix, std::size_t events, std::size_t total) {
  std::vector<std::size_t> cuts;
  for (std::size_t end = std::min(events, gzip_block_size);; end += gzip_block_size) {
    cuts.push_back(prefix + std::min(end, events));
    if (end >= events)
      break;
  }
  if (total > cuts.back())
    cuts.push_back(total);
  return cuts;
}

// The tar bytes before the bytes of events.ndjson: manifest.json's header, bytes and padding,
// and the header of events.ndjson.
inline result<std::string> bundle_tar_prefix(std::string_view manifest, std::uint64_t events_bytes) {
  auto h1 = tar_header("manifest.json", manifest.size());
  if (!h1)
    return h1.error();
  auto h2 = tar_header("events.ndjson", events_bytes);
  if (!h2)
    return h2.error();
  std::string p(h1->data(), h1->size());
  p.append(manifest);
  p.append(tar_padding(manifest.size()), '\0');
  p.append(h2->data(), h2->size());
  return p;
}

// The tar bytes after events.ndjson: its padding and the two zero blocks.
inline std::string bundle_tar_suffix(std::uint64_t events_bytes) {
  return std::string(tar_padding(events_bytes) + tar_end, '\0');
}

inline std::optional<error> check_tar_size(std::uint64_t size, const bundle_limits& lim) {
  if (size > lim.max_decode_bytes) {
    return make_error(code::LimitDecodeBytes,
                      "the tar stream would be larger than " + std::to_string(lim.max_decode_bytes.value()) + " bytes");
  }
  return std::nullopt;
}

inline std::optional<error> check_bundle_size(std::uint64_t size, const bundle_limits& lim) {
  if (size > lim.max_bundle_bytes) {
    return make_error(code::LimitBundleBytes,
                      "the bundle would be larger than " + std::to_string(lim.max_bundle_bytes.value()) + " bytes");
  }
  return std::nullopt;
}

}  // namespace detail

// The .tar.gz bytes of a bundle of these two files: manifest.json and events.ndjson.
inline result<std::string> pack_bundle(std::string_view manifest, std::string_view events,
                                       const bundle_options& opt = {}) {
  auto prefix = detail::bundle_tar_prefix(manifest, events.size());
  if (!prefix)
    return prefix.error();
  const std::string suffix = detail::bundle_tar_suffix(events.size());
  const std::array<std::string_view, 3> pieces{*prefix, events, suffix};
  const std::size_t total = prefix->size() + events.size() + suffix.size();
  if (auto e = detail::check_tar_size(total, opt.limits))
    return *e;
  auto gz = gzip(pieces, detail::bundle_cuts(prefix->size(), events.size(), total), opt.threads);
  if (gz) {
    if (auto e = detail::check_bundle_size(gz->size(), opt.limits))
      return *e;
  }
  return gz;
}

inline result<std::string> pack_bundle(const bundle_files& files, const bundle_options& opt = {}) {
  return pack_bundle(files.manifest, files.events, opt);
}

// The two ends of a bundle written by a bundle_stream, which go before and after the body.
struct bundle_ends {
  std::string head;       // the gzip header and the first block (the tar up to the first MiB of events)
  std::string tail;       // the last block and the gzip trailer
  std::string bundle_id;  // the manifest's bundle_id (the run root)
  std::string run_id;
  std::uint64_t event_count = 0;
};

// A bundle written as its events arrive, with memory that stays flat however many there are:
// each event's line is checked and written as in write_bundle(), and events.ndjson is
// compressed in the background (opt.threads) while later events are read. The compressed
// blocks reach `body` in order as they are made; finish() then gives the bytes that go before
// them (the first block holds manifest.json, known only at the end) and after them. The file is
// head + body + tail, byte for byte what write_bundle() writes for the same events.
//
// It takes the normal case: events in seq order that break no rule. When add() returns false
// or finish() fails with needs_write_bundle, the events are out of order or faulty: write_bundle() of all
// of them sorts them, or names every fault with its code and pointer. A `strict` stream takes
// the events only in seq order and names the first fault itself (refusal()): a caller with
// no second chance to sort them (a journal) says what is wrong and where.
template <class = void>
class basic_bundle_stream {
 public:
  using sink_type = std::function<bool(std::string_view)>;

  explicit basic_bundle_stream(sink_type body, const bundle_options& opt = {}, bool strict = false)
      : opt_(opt),
        body_(std::move(body)),
        strict_(strict),
        builder_(opt_, !strict, invalid_),
        pool_(
            [this](std::string_view b) {
              body_bytes_ += b.size();
              return body_(b);
            },
            opt.threads) {}

  // The next event's JSON text; false when the events cannot be taken as they come.
  bool add(std::string_view text) {
    if (failed_)
      return false;
    const std::uint64_t index = builder_.count();
    if (index >= opt_.limits.max_events) {
      refusal_ =
          detail::event_error(code::LimitTotalEvents, index, "",
                              "more than the limit of " + std::to_string(opt_.limits.max_events.value()) + " events");
      return !(failed_ = true);
    }
    if (auto e = builder_.add(text, index)) {
      refusal_ = std::move(*e);
      return !(failed_ = true);
    }
    if (builder_.too_large()) {
      refusal_ = detail::event_error(
          code::LimitFileSize, index, "",
          "events.ndjson would be larger than " + std::to_string(opt_.limits.max_events_bytes.value()) + " bytes");
      return !(failed_ = true);
    }
    if (!invalid_.empty()) {
      refusal_ = invalid_.front();
      return !(failed_ = true);
    }
    put(builder_.line());
    return true;
  }

  // The line the last event taken became ("\n" included): its canonical form.
  std::string_view line() const noexcept { return builder_.line(); }
  // Why the stream stopped taking events (a strict stream names the fault; else the code is
  // needs_write_bundle for a fault write_bundle() would name), or nothing.
  const std::optional<error>& refusal() const noexcept { return refusal_; }

  // After the last event. Fails with needs_write_bundle for what write_bundle() would refuse, else with
  // the error of compressing or of `body`.
  result<bundle_ends> finish() {
    // A strict stream says what is wrong; else the caller is sent to write_bundle(), which does.
    auto refuse = [this](const error& e) -> error {
      if (strict_)
        return refusal_ ? *refusal_ : e;
      return make_error(needs_write_bundle, "the events need sorting or are faulty");
    };
    if (failed_ || builder_.count() == 0)
      return refuse(make_error(code::ContractInvalidEvent, "a bundle needs at least one event"));
    auto facts = builder_.finish();
    if (!facts)
      return refuse(facts.error());
    // The last block's dictionary: the 32 KiB before it. Past the first block, cur_ ends with
    // them (it holds at least the dictionary of the block it fills); else they are in the head.
    const bool past_first = first_.size() == gzip_block_size;
    std::string before_tail = past_first ? cur_.substr(cur_.size() - gzip_dictionary) : std::string();
    if (cur_.size() > gzip_dictionary)
      pool_.submit(std::move(cur_), gzip_dictionary, false);
    if (auto e = pool_.finish())
      return *e;
    auto manifest = detail::write_manifest(*facts, opt_.producer ? *opt_.producer : builder_.producer(), opt_);
    if (!manifest)
      return refuse(manifest.error());
    auto prefix = detail::bundle_tar_prefix(*manifest, facts->events_bytes);
    if (!prefix)
      return refuse(prefix.error());
    const std::string suffix = detail::bundle_tar_suffix(facts->events_bytes);
    const std::uint64_t total = prefix->size() + facts->events_bytes + suffix.size();
    if (auto e = detail::check_tar_size(total, opt_.limits))
      return refuse(*e);

    std::unique_ptr<char[]> buf;
    std::size_t buf_size = 0;
    std::string window = std::move(*prefix);
    window += first_;
    auto head = detail::deflate_block(window, 0, false, buf, buf_size);
    if (!head)
      return head.error();
    if (!past_first)  // all of events.ndjson is in the head: the dictionary may reach into the prefix
      before_tail = window.substr(window.size() - std::min(window.size(), gzip_dictionary));
    const std::size_t dict = before_tail.size();
    auto tail = detail::deflate_block(before_tail + suffix, dict, true, buf, buf_size);
    if (!tail)
      return tail.error();

    uLong crc = crc32_combine(head->crc, pool_.crc(), static_cast<z_off_t>(pool_.size()));
    crc = crc32_combine(crc, tail->crc, static_cast<z_off_t>(tail->input));
    bundle_ends ends;
    ends.head.reserve(gzip_header.size() + head->bytes.size());
    ends.head.append(gzip_header).append(head->bytes);
    ends.tail = std::move(tail->bytes) + gzip_trailer(static_cast<std::uint32_t>(crc), total);
    ends.bundle_id = facts->run_root;
    ends.run_id = facts->run_id;
    ends.event_count = facts->event_count;
    if (auto e = detail::check_bundle_size(ends.head.size() + body_bytes_ + ends.tail.size(), opt_.limits))
      return refuse(*e);
    return ends;
  }

 private:
  // Appends bytes of events.ndjson: the first block's are held, later blocks are compressed.
  void put(std::string_view bytes) {
    if (first_.size() < gzip_block_size) {
      const std::size_t n = std::min(bytes.size(), gzip_block_size - first_.size());
      first_.append(bytes.substr(0, n));
      bytes.remove_prefix(n);
      if (first_.size() == gzip_block_size)
        start_block(first_);
    }
    while (!bytes.empty()) {  // past the first block: cur_ starts with its dictionary
      const std::size_t n = std::min(bytes.size(), gzip_dictionary + gzip_block_size - cur_.size());
      cur_.append(bytes.substr(0, n));
      bytes.remove_prefix(n);
      if (cur_.size() == gzip_dictionary + gzip_block_size) {
        std::string full = std::move(cur_);
        start_block(full);
        pool_.submit(std::move(full), gzip_dictionary, false);
      }
    }
  }
  // The next block starts: its dictionary is the last 32 KiB of `previous`.
  void start_block(std::string_view previous) {
    cur_.assign(previous.substr(previous.size() - gzip_dictionary));
    cur_.reserve(gzip_dictionary + gzip_block_size);
  }

  bundle_options opt_;
  sink_type body_;
  bool strict_;
  errors invalid_;
  std::optional<error> refusal_;
  detail::basic_events_builder<void> builder_;
  std::uint64_t body_bytes_ = 0;
  bool failed_ = false;
  std::string first_;              // events.ndjson's first gzip_block_size bytes
  std::string cur_;                // past them, the block being filled: its 32 KiB dictionary, then its bytes
  basic_deflate_pool<void> pool_;  // last: its threads stop before the rest is destroyed
};
using bundle_stream = basic_bundle_stream<>;

// The .tar.gz bytes of a bundle of `events`: JSON texts, one event each. Refused as
// build_bundle_files() refuses, or by a limit of the container.
template <class = void>
results<std::string> write_bundle(std::span<const std::string_view> events, const bundle_options& opt = {}) {
  auto files = build_bundle_files(events, opt);
  if (!files)
    return files.error();
  auto gz = pack_bundle(*files, opt);
  if (!gz)
    return gz.error();
  return std::move(*gz);
}

// The .tar.gz bytes of a bundle of `events`: CloudEvents as DOM values.
template <class = void>
results<std::string> write_bundle(const std::vector<json::value>& events, const bundle_options& opt = {}) {
  auto files = build_bundle_files(events, opt);
  if (!files)
    return files.error();
  auto gz = pack_bundle(*files, opt);
  if (!gz)
    return gz.error();
  return std::move(*gz);
}

}  // namespace assay::evidence

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::evidence {
ASSAY_EXTERN_TEMPLATE void detail::check_contract<void>(std::string_view, std::string_view, std::size_t,
                                                        const bundle_limits&, bool, errors&);
ASSAY_EXTERN_TEMPLATE result<detail::events_file> detail::build_events<void>(std::span<const std::string_view>,
                                                                             std::span<const std::size_t>,
                                                                             const bundle_options&, bool, errors&);
ASSAY_EXTERN_TEMPLATE result<std::string> detail::write_manifest<void>(const detail::stream_facts&,
                                                                       const producer_info&, const bundle_options&);
ASSAY_EXTERN_TEMPLATE results<bundle_files> build_bundle_files<void>(std::span<const std::string_view>,
                                                                     const bundle_options&);
ASSAY_EXTERN_TEMPLATE results<bundle_files> build_bundle_files<void>(const std::vector<json::value>&,
                                                                     const bundle_options&);
ASSAY_EXTERN_TEMPLATE results<std::string> write_bundle<void>(std::span<const std::string_view>, const bundle_options&);
ASSAY_EXTERN_TEMPLATE results<std::string> write_bundle<void>(const std::vector<json::value>&, const bundle_options&);
ASSAY_EXTERN_TEMPLATE class detail::basic_events_builder<void>;
ASSAY_EXTERN_TEMPLATE class basic_bundle_stream<void>;
}  // namespace assay::evidence
#endif
