// Events for the evidence tests: a small valid stream, built as DOM values.
#pragma once

#include "assay/evidence/content_hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"

#include <cstdint>
#include <string>
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

}  // namespace assay_test
