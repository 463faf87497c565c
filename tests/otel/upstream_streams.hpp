// Every upstream ndjson stream of the conformance data, each written into a bundle: what the
// OTel tests export.
#pragma once

#include "support.hpp"
#include "assay/evidence/writer.hpp"
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace assay_test {

// Calls fn(bundle bytes, events in it) for every stream, in file name order; nothing without the
// conformance data.
template <class Fn>
void for_each_upstream_bundle(Fn&& fn) {
  const auto dir = conformance_dir();
  if (dir.empty())
    return;
  const auto ndjson = dir / "assay-upstream" / "ndjson";
  REQUIRE(std::filesystem::is_directory(ndjson));
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(ndjson))
    if (entry.path().extension() == ".ndjson")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 30);
  for (const auto& f : files) {
    CAPTURE(f.filename().string());
    const std::string text = read_file(f);
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < text.size();) {
      std::size_t nl = text.find('\n', at);
      if (nl == std::string::npos)
        nl = text.size();
      if (nl > at)
        lines.push_back(std::string_view(text).substr(at, nl - at));
      at = nl + 1;
    }
    assay::evidence::bundle_options bo;
    bo.threads = 1;
    bo.check_payloads = false;
    auto gz = assay::evidence::write_bundle(lines, bo);
    REQUIRE_MESSAGE(gz.has_value(), (gz ? std::string() : gz.error().front().format()));
    fn(*gz, lines.size());
  }
}

}  // namespace assay_test
