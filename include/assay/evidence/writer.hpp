// assay/evidence/writer.hpp — writing an evidence bundle (SPEC §6).
//
//   std::vector<assay::json::value> events = ...;          // CloudEvents, one per event
//   auto gz = assay::evidence::write_bundle(std::move(events));   // the .tar.gz bytes
//
// Missing (or null) content hashes are computed; a present one must match. Events are sorted by
// seq and must then form a stream the verifier accepts (seq 0.., one run id without ':', one
// source URI, id = run_id:seq, specversion 1.0, an RFC 3339 time): the writer refuses to emit
// what it would not verify, with the verifier's code. The manifest is filled from the events
// (producer from the first event unless given). Same inputs, same bytes.
#pragma once

#include "assay/contracts/manifest.hpp"
#include "assay/error.hpp"
#include "assay/evidence/archive.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace assay::evidence {

using pack_applied = contracts::manifest_v1::pack_applied;
using mapping = contracts::manifest_v1::mapping;

struct bundle_options {
  std::optional<producer_info> producer;  // default: from the first event
  std::vector<pack_applied> packs_applied;
  std::vector<mapping> mappings;
  unsigned threads = 0;  // for compression; 0 = all cores (the bytes do not depend on it)
};

// The two files of a bundle, before they are packed.
struct bundle_files {
  std::string manifest;  // JCS bytes of manifest.json
  std::string events;    // events.ndjson
  std::string run_id, run_root;
  std::uint64_t event_count = 0;
};

namespace detail {

inline error event_error(errc code, std::size_t index, const std::string& member, std::string message) {
  error e = make_error(code, std::move(message));
  e.pointer = "/" + std::to_string(index) + (member.empty() ? "" : "/" + member);
  return e;
}

inline const std::string* string_member(const json::value& ev, std::string_view name) {
  const json::value* v = ev.find(name);
  return v != nullptr && v->is_string() ? &v->as_string() : nullptr;
}

}  // namespace detail

// Normalizes events (content hashes, order), checks the stream and builds both files.
inline result<bundle_files> build_bundle_files(std::vector<json::value> events, const bundle_options& opt = {}) {
  using detail::event_error;
  if (events.empty())
    return make_error(errc::ContractInvalidEvent, "a bundle needs at least one event");
  std::vector<std::pair<std::uint64_t, std::size_t>> order;  // (seq, input index)
  order.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    json::value& ev = events[i];
    if (!ev.is_object())
      return event_error(errc::ContractInvalidJson, i, "", "an event must be a JSON object");
    const json::value* seq = ev.find("assayseq");
    const double d = seq != nullptr && seq->is_number() ? seq->as_number() : -1;
    if (!(d >= 0 && d <= 9007199254740992.0 && d == static_cast<double>(static_cast<std::uint64_t>(d)))) {
      return event_error(errc::ContractInvalidJson, i, "assayseq", "assayseq must be an integer >= 0");
    }
    auto computed = content_hash(ev);
    if (!computed) {
      error e = computed.error();
      e.code = errc::ContractInvalidJson;
      e.pointer = "/" + std::to_string(i) + e.pointer;
      return e;
    }
    json::value* present = ev.find("assaycontenthash");
    if (present != nullptr && !present->is_null()) {
      if (!present->is_string() || present->as_string() != *computed) {
        return event_error(errc::IntegrityEventHash, i, "assaycontenthash",
                           "assaycontenthash does not match the content (expected " + *computed + ")");
      }
    } else {
      ev.set("assaycontenthash", *computed);
    }
    order.emplace_back(static_cast<std::uint64_t>(d), i);
  }
  std::stable_sort(order.begin(), order.end());

  bundle_files out;
  run_root_builder root;
  const json::value& first = events[order.front().second];
  const std::string* run_id = detail::string_member(first, "assayrunid");
  const std::string* source = detail::string_member(first, "source");
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto [seq, i] = order[k];
    const json::value& ev = events[i];
    if (seq != k) {
      return event_error(k == 0 ? errc::ContractSequenceStart : errc::ContractSequenceGap, i, "assayseq",
                         k == 0 ? "the first event must have seq 0"
                                : "seq " + std::to_string(seq) + " leaves a gap (expected " + std::to_string(k) + ")");
    }
    const std::string* spec = detail::string_member(ev, "specversion");
    if (spec == nullptr || *spec != "1.0")
      return event_error(errc::ContractSchemaVersion, i, "specversion", "specversion must be \"1.0\"");
    const std::string* rid = detail::string_member(ev, "assayrunid");
    if (rid == nullptr || run_id == nullptr)
      return event_error(errc::ContractInvalidJson, i, "assayrunid", "assayrunid must be a string");
    if (*rid != *run_id)
      return event_error(errc::ContractRunIdMismatch, i, "assayrunid", "all events of a bundle need the same run id");
    if (rid->find(':') != std::string::npos)
      return event_error(errc::ContractInvalidEvent, i, "assayrunid", "run id must not contain ':'");
    const std::string* src = detail::string_member(ev, "source");
    if (src == nullptr || source == nullptr || src->empty() || src->front() == ':' ||
        src->find(':') == std::string::npos) {
      return event_error(errc::ContractInvalidEvent, i, "source", "source must be a URI (with ':', not first)");
    }
    if (*src != *source)
      return event_error(errc::ContractInvalidEvent, i, "source", "all events of a bundle need the same source");
    const std::string* id = detail::string_member(ev, "id");
    if (id == nullptr || *id != stream_id(*rid, seq)) {
      return event_error(errc::ContractInvalidEvent, i, "id", "id must be " + stream_id(*rid, seq));
    }
    const std::string* time = detail::string_member(ev, "time");
    std::int64_t secs = 0;
    std::int32_t nanos = 0;
    if (time == nullptr || !detail::instant_of(*time, secs, nanos)) {
      return event_error(errc::ContractInvalidJson, i, "time", "time must be an RFC 3339 date-time");
    }
    if (ev.find("data") == nullptr)
      return event_error(errc::ContractInvalidJson, i, "data", "data is required");
    json::string_sink s{&out.events};
    {
      json::writer<json::string_sink> w(s);
      auto r = json::write_canonical(w, ev);
      if (!r) {
        error e = r.error();
        e.pointer = "/" + std::to_string(i) + e.pointer;
        return e;
      }
    }
    out.events += '\n';
    root.add(ev.find("assaycontenthash")->as_string());
  }
  out.run_id = *run_id;
  out.run_root = root.finish();
  out.event_count = order.size();

  producer_info producer;
  if (opt.producer) {
    producer = *opt.producer;
  } else {
    const std::string* name = detail::string_member(first, "assayproducer");
    const std::string* version = detail::string_member(first, "assayproducerversion");
    const std::string* git = detail::string_member(first, "assaygit");
    if (name == nullptr || version == nullptr) {
      return event_error(errc::ContractInvalidJson, order.front().second, "assayproducer",
                         "the first event names no producer (assayproducer, assayproducerversion)");
    }
    producer = {*name, *version, git ? std::optional<std::string>(*git) : std::nullopt};
  }

  // The manifest through its contract type: encoding checks it (digest patterns, the x-assay
  // kinds) and writes it in canonical form.
  contracts::manifest m;
  m.bundle_id = out.run_root;
  m.event_count = static_cast<std::int64_t>(out.event_count);
  m.files.events.bytes = static_cast<std::int64_t>(out.events.size());
  m.files.events.sha256 = hash::digest_bytes<hash::sha256>(out.events).to_string();
  m.producer.name = producer.name;
  m.producer.version = producer.version;
  if (producer.git && *producer.git != "unknown")
    m.producer.git = *producer.git;
  m.run_id = out.run_id;
  m.run_root = out.run_root;
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
  out.manifest = std::move(*manifest);
  return out;
}

// The .tar.gz bytes of a bundle of `events`.
inline result<std::string> write_bundle(std::vector<json::value> events, const bundle_options& opt = {}) {
  auto files = build_bundle_files(std::move(events), opt);
  if (!files)
    return files.error();
  std::string tar;
  tar.reserve(files->manifest.size() + files->events.size() + 4096);
  auto t = write_tar(tar, {{"manifest.json", files->manifest}, {"events.ndjson", files->events}});
  if (!t)
    return t.error();
  files->events.clear();
  files->events.shrink_to_fit();
  return gzip(tar, opt.threads);
}

}  // namespace assay::evidence
