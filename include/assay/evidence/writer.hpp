// assay/evidence/writer.hpp — writing an evidence bundle (SPEC §6).
//
//   std::vector<std::string_view> lines = ...;                  // one event's JSON text each
//   auto gz = assay::evidence::write_bundle(lines);              // the .tar.gz bytes
//   auto gz2 = assay::evidence::write_bundle(dom_events);        // or CloudEvents as DOM values
//
// Each event is read strictly; a missing (or null) content hash is computed, a present one must
// match. Events are put in seq order and must then form a stream the verifier accepts: the rules
// of event_rules.hpp and the limits of bundle_limits (line length, depth, event count, file and
// bundle sizes); otherwise the verifier's code, with the pointer /<input index>/<member>. Each
// event must also be what `assay validate evidence-event-v1` accepts: the envelope of SPEC §4
// and, for a known type, its payload's contract (SPEC §8; bundle_options::check_payloads);
// otherwise every violation, each with its pointer (/3/data/decision). The manifest is filled
// from the events (producer from the first event unless given). Same inputs, same bytes.
//
// Speed: events are parsed into flat documents and written in canonical form straight into
// events.ndjson; the tar stream is never assembled (gzip reads its pieces), and compression runs
// on every core.
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
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::evidence {

using pack_applied = contracts::manifest_v1::pack_applied;
using mapping = contracts::manifest_v1::mapping;

struct bundle_options {
  std::optional<producer_info> producer;  // default: from the first event
  std::vector<pack_applied> packs_applied;
  std::vector<mapping> mappings;
  bundle_limits limits;  // the verifier's limits: nothing is written that they would refuse
  unsigned threads = 0;  // for compression; 0 = all cores (the bytes do not depend on it)
  // The payload of each event of a known type is held to its contract (SPEC §8). false re-packs
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

// events.ndjson from the events taken in `order`, with every rule checked. With `optimistic`,
// `order` is ignored: the events are taken as they come, nothing has been checked yet: any failure (an event out of
// place included) returns no_result, and the caller starts again from seq_order().
struct events_file {
  std::string bytes;
  std::string run_id, run_root;
  std::uint64_t count = 0;
  std::optional<std::string> name, version, git;  // its producer members, when strings
};

inline constexpr errc no_result = errc::invalid_argument;

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

template <class = void>
result<events_file> build_events(std::span<const std::string_view> events, std::span<const std::size_t> order,
                                 const bundle_options& opt, bool optimistic, errors& invalid) {
  const bundle_limits& lim = opt.limits;
  invalid.items.clear();
  auto fail = [&](error e) -> result<events_file> {
    if (optimistic)
      return make_error(no_result, "");
    return e;
  };
  events_file out;
  std::size_t estimate = 0;
  for (std::string_view e : events)
    estimate += e.size() + 96;  // room for a content hash member the event may lack
  out.bytes.reserve(estimate);
  json::advise_huge_pages(out.bytes.data(), out.bytes.capacity());
  event_stream stream;
  run_root_builder root;
  json::string_sink sink{&out.bytes};
  std::string hash_text;
  for (std::size_t k = 0; k < events.size(); ++k) {
    const std::size_t i = optimistic ? k : order[k];
    auto doc = parse_event(events[i], i, lim);
    if (!doc)
      return fail(doc.error());
    event_fields f;
    if (auto v = read_event_fields(*doc, f))
      return fail(event_error(v->code, i, v->member, v->message));
    if (optimistic && f.seq != k)
      return fail({});
    auto computed = content_hash(*doc, f);
    if (!computed)
      return fail(in_event(computed.error(), i, code::ContractInvalidJson));
    const bool has_hash = f.content_hash != 0 && doc->nodes()[f.content_hash].kind != json::kind::null;
    if (has_hash && (!detail::is_string_node(*doc, f.content_hash) || doc->string_at(f.content_hash) != *computed)) {
      return fail(event_error(code::IntegrityEventHash, i, "assaycontenthash",
                              "assaycontenthash does not match the content (expected " + *computed + ")"));
    }
    if (auto v = stream.next(*doc, f))
      return fail(event_error(v->code, i, v->member, v->message));
    if (k == 0) {
      const auto p = doc->find_members<3>(0, {"assayproducer", "assayproducerversion", "assaygit"});
      auto text = [&](std::size_t n) {
        return detail::is_string_node(*doc, n) ? std::optional<std::string>(doc->string_at(n)) : std::nullopt;
      };
      out.name = text(p[0]);
      out.version = text(p[1]);
      out.git = text(p[2]);
    }
    const std::size_t line_start = out.bytes.size();
    {
      json::writer<json::string_sink> w(sink);
      if (has_hash) {
        doc->write_canonical(w);
      } else {
        hash_text.assign(1, '"').append(*computed).push_back('"');
        doc->write_canonical_with(w, 0, "assaycontenthash", hash_text);
      }
    }
    if (out.bytes.size() - line_start > lim.max_line_bytes) {
      return fail(event_error(
          code::LimitLineBytes, i, "",
          "the event's line would be longer than " + std::to_string(lim.max_line_bytes.value()) + " bytes"));
    }
    check_contract(std::string_view(out.bytes).substr(line_start), doc->string_at(f.type), i, lim, opt.check_payloads,
                   invalid);
    out.bytes += '\n';
    root.add(*computed);
  }
  if (out.bytes.size() > lim.max_events_bytes) {
    return fail(make_error(code::LimitFileSize, "events.ndjson would be larger than " +
                                                    std::to_string(lim.max_events_bytes.value()) + " bytes"));
  }
  out.run_id = stream.run_id();
  out.run_root = root.finish();
  out.count = events.size();
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

// The stream's facts the manifest states.
struct stream_facts {
  std::string_view events;  // events.ndjson
  std::string_view run_id, run_root;
  std::uint64_t event_count = 0;
};

// manifest.json, through its contract type: encoding checks it (digest patterns, the x-assay
// kinds) and writes it in canonical form; the verifier's limits hold for it.
template <class = void>  // compiled only where used: it holds the manifest's encoder
result<std::string> write_manifest(const stream_facts& s, const producer_info& producer, const bundle_options& opt) {
  const bundle_limits& lim = opt.limits;
  contracts::manifest m;
  m.bundle_id = std::string(s.run_root);
  m.event_count = static_cast<std::int64_t>(s.event_count);
  m.files.events.bytes = static_cast<std::int64_t>(s.events.size());
  m.files.events.sha256 = hash::digest_bytes<hash::sha256>(s.events).to_string();
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
// evidence-event-v1 contract (SPEC §4, §8), each with its pointer /<input index>/...
template <class = void>
results<bundle_files> build_bundle_files(std::span<const std::string_view> events, const bundle_options& opt = {}) {
  const bundle_limits& lim = opt.limits;
  if (auto e = detail::check_event_count(events.size(), lim))
    return *e;
  errors invalid;
  // The normal case first: the events come in seq order and break no rule.
  auto built = detail::build_events(events, {}, opt, true, invalid);
  if (!built) {
    auto order = detail::seq_order(events, lim);
    if (!order)
      return order.error();
    built = detail::build_events(events, *order, opt, false, invalid);
    if (!built)
      return built.error();
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
  out.run_id = std::move(built->run_id);
  out.run_root = std::move(built->run_root);
  out.event_count = built->count;

  // The first event in seq order names the producer unless one is given (every event has one:
  // the envelope requires it).
  const producer_info producer =
      opt.producer ? *opt.producer : producer_info{built->name.value_or(""), built->version.value_or(""), built->git};
  auto manifest = detail::write_manifest({out.events, out.run_id, out.run_root, out.event_count}, producer, opt);
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

// The .tar.gz bytes of a bundle of these two files: manifest.json and events.ndjson.
inline result<std::string> pack_bundle(std::string_view manifest, std::string_view events,
                                       const bundle_options& opt = {}) {
  auto tar = tar_of({{"manifest.json", manifest}, {"events.ndjson", events}});
  if (!tar)
    return tar.error();
  if (tar->size > opt.limits.max_decode_bytes) {
    return make_error(code::LimitDecodeBytes, "the tar stream would be larger than " +
                                                  std::to_string(opt.limits.max_decode_bytes.value()) + " bytes");
  }
  auto gz = gzip(tar->pieces, opt.threads);
  if (gz && gz->size() > opt.limits.max_bundle_bytes) {
    return make_error(code::LimitBundleBytes, "the bundle would be larger than " +
                                                  std::to_string(opt.limits.max_bundle_bytes.value()) + " bytes");
  }
  return gz;
}

inline result<std::string> pack_bundle(const bundle_files& files, const bundle_options& opt = {}) {
  return pack_bundle(files.manifest, files.events, opt);
}

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
}  // namespace assay::evidence
#endif
