// assay/contracts/show.hpp — what `assay evidence show --format json` prints: the manifest, the
// events as they are in the bundle, whether they were verified, which manifest members are only
// claimed (no digest covers them: verified or not, nothing vouches for them), and (without
// verification) what could not be read.
//
// The output is streamed as the bundle is read — events are never all held in memory — so its
// members come in the order below (manifest, events, verified, claimed, unreadable), not in canonical
// order, and each event is its line exactly as the bundle has it. A script decodes it into this
// type strictly; `assay::schema<contracts::show_output>()` gives its JSON Schema.
#pragma once

#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/untyped.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace show_v1 {

// A part of the bundle that could not be read (only without verification).
struct unreadable_part {
  static constexpr std::string_view schema_name = "unreadable_part";
  non_empty at;     // "events.ndjson line 5", "manifest.json", an archive member's name
  non_empty error;  // why
};

struct output {
  static constexpr std::string_view schema_name = "show_output";
  json::value manifest;  // its canonical form; null when the bundle has none that is JSON
  std::vector<json::value> events;
  bool verified = false;
  std::optional<std::vector<std::string>> claimed{};
  std::optional<std::vector<unreadable_part>> unreadable{};
  static constexpr field_info assay_fields[] = {
      {.field = "manifest", .description = "manifest.json in canonical form; null when absent or not JSON."},
      {.field = "events", .description = "The lines of events.ndjson exactly as they are in the bundle."},
      {.field = "verified", .description = "false with --no-verify: nothing was checked."},
      {.field = "claimed",
       .description = "JSON Pointers into the manifest of what no digest covers and verification cannot vouch for "
                      "(x-assay's packs_applied and mappings): the producer's claim; absent when there is none."},
      {.field = "unreadable", .description = "Without verification: each part that could not be read, and why."},
  };
};

}  // namespace show_v1

using show_output = show_v1::output;

}  // namespace assay::contracts
