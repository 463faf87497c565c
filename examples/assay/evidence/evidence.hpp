// What the `assay evidence` verbs share: events files (NDJSON) and their errors.
#pragma once

#include "../cli.hpp"

#include "assay/evidence/bundle.hpp"
#include "assay/json/ndjson.hpp"

#include <string>
#include <string_view>

namespace assay_cli {

// An error about the event on `line` of an events file: its position moved from the line to the
// file, or the line named when it has no position.
inline std::string at_line(const assay::json::ndjson_line& line, assay::error e) {
  if (!e.has_position())
    return "line " + std::to_string(line.number) + ": " + e.format();
  e.line = line.number;
  e.offset += line.offset;
  return e.format();
}

// `verify --contracts`: the verification pass with evidence::payload_check as its visitor. In a
// translation unit of its own (verify_contracts.cpp): it compiles a decoder for every known
// payload, which the plain pass does without.
assay::result<assay::evidence::verified_bundle> verify_with_contracts(std::string_view bytes,
                                                                      const assay::evidence::bundle_limits& limits);

}  // namespace assay_cli
