// Events for the evidence tests: a small valid stream, built as DOM values.
#pragma once

#include "assay/evidence/archive.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/evidence/ids.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay_test {

namespace json = assay::json;

// Event `seq` of run `run`: valid, without a content hash.
inline json::value make_event(std::uint64_t seq, const std::string& run = "run-1",
                              const std::string& source = "urn:assay:test") {
  auto v = json::parse(
               R"({"specversion":"1.0","type":"assay.test","datacontenttype":"application/json",)"
               R"("assaypii":false,"assaysecrets":false,"assayproducer":"assay-test","assayproducerversion":"1.0.0",)"
               R"("assaygit":"unknown","time":"2026-01-02T03:04:05Z","data":{"n":1,"s":"x"}})")
               .value();
  v.set("source", source);
  v.set("assayrunid", run);
  v.set("assayseq", static_cast<double>(seq));
  v.set("id", run + ":" + std::to_string(seq));
  v.find("data")->set("n", static_cast<double>(seq));
  return v;
}

// An event of type `type` with `data` (JSON text); other members as make_event makes them.
inline json::value event(std::uint64_t seq, std::string_view type, std::string_view data = "{}") {
  json::value e = make_event(seq);
  e.set("type", std::string(type));
  e.set("data", json::parse(data).value());
  return e;
}

inline std::vector<json::value> make_events(std::size_t n) {
  std::vector<json::value> out;
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(make_event(i));
  return out;
}

// One canonical line per event, content hashes filled in.
inline std::string lines_of(std::vector<json::value> events) {
  std::string out;
  for (auto& e : events) {
    e.set("assaycontenthash", assay::evidence::content_hash(e).value());
    out += json::to_canonical(e).value() + "\n";
  }
  return out;
}

// A manifest for `events` bytes, computed the honest way from whatever lines parse.
inline json::value manifest_for(const std::string& events) {
  assay::evidence::run_root_builder root;
  std::uint64_t count = 0;
  std::string run_id = "run-1";
  std::istringstream in(events);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    auto v = json::parse(line);
    if (!v || !v->is_object())
      continue;
    if (const auto* h = v->find("assaycontenthash"); h && h->is_string())
      root.add(h->as_string());
    if (const auto* r = v->find("assayrunid"); r && r->is_string() && count == 0)
      run_id = r->as_string();
    ++count;
  }
  const std::string rr = root.finish();
  json::value m = json::parse(R"({"algorithms":{"canon":"jcs-rfc8785","hash":"sha256","root":"x"},"schema_version":1,)"
                              R"("producer":{"name":"assay-test","version":"1.0.0"}})")
                      .value();
  m.set("run_id", run_id);
  m.set("run_root", rr);
  m.set("bundle_id", rr);
  m.set("event_count", static_cast<double>(count));
  json::value f = json::object{};
  f.set("bytes", static_cast<double>(events.size()));
  f.set("path", "events.ndjson");
  f.set("sha256", assay::hash::digest_bytes<assay::hash::sha256>(events).to_string());
  json::value files = json::object{};
  files.set("events.ndjson", std::move(f));
  m.set("files", std::move(files));
  return m;
}

inline std::string gz(const std::string& tar) {
  return assay::evidence::gzip(tar, 1).value();
}

inline std::string pack(const std::vector<std::pair<std::string, std::string>>& members) {
  std::vector<std::pair<std::string_view, std::string_view>> v;
  for (const auto& [n, b] : members)
    v.emplace_back(n, b);
  std::string tar;
  assay::evidence::write_tar(tar, v).value();
  return gz(tar);
}

// A bundle of `events` bytes with the honest manifest, after `tweak` edits the manifest: written
// without the writer's checks, as another writer could, for the verifier (or a lint) to judge.
inline std::string bundle(const std::string& events, const std::function<void(json::value&)>& tweak = {}) {
  json::value m = manifest_for(events);
  if (tweak)
    tweak(m);
  return pack({{"manifest.json", json::to_canonical(m).value()}, {"events.ndjson", events}});
}

}  // namespace assay_test
