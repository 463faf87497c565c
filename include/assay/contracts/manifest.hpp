// assay/contracts/manifest.hpp — manifest-v1, the `manifest.json` of an evidence bundle (docs/evidence.md),
// with the reference's additions under `x-assay` (packs applied, framework mappings).
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace assay::contracts {

namespace manifest_v1 {

using sha256_digest = pattern<"^sha256:[0-9a-f]{64}$">;

struct algorithms {
  static constexpr std::string_view schema_name = "algorithms";
  const_string<"jcs-rfc8785"> canon;
  const_string<"sha256"> hash;
  const_string<"sha256(concat(content_hash + \"\\n\"))"> root;
};

struct file_entry {
  static constexpr std::string_view schema_name = "file_entry";
  bounded<std::int64_t, 0> bytes;
  const_string<"events.ndjson"> path;
  sha256_digest sha256;
};

struct files {
  static constexpr std::string_view schema_name = "files";
  file_entry events;
  static constexpr field_info assay_fields[] = {{.field = "events", .json_name = "events.ndjson"}};
};

struct producer {
  static constexpr std::string_view schema_name = "producer";
  non_empty name;
  non_empty version;
  std::optional<std::string> git{};
  static constexpr field_info assay_fields[] = {
      {.field = "git", .description = "Left out when absent or \"unknown\"."},
  };
  void check_rules(rules& r) const {
    if (git && *git == "unknown")
      r.fail("/git", "an unknown git revision is left out, not written as \"unknown\"");
  }
};

struct pack_applied {
  static constexpr std::string_view schema_name = "pack_applied";
  non_empty name;
  non_empty version;
  sha256_digest digest;
  one_of<"compliance", "security", "quality"> kind;
  std::optional<std::string> source_url{};
};

struct mapping {
  static constexpr std::string_view schema_name = "mapping";
  non_empty rule;
  non_empty framework;
  non_empty ref;
};

struct x_assay {
  static constexpr std::string_view schema_name = "x_assay";
  std::optional<list<pack_applied, 1>> packs_applied{};
  std::optional<list<mapping, 1>> mappings{};
  void check_rules(rules& r) const {
    if (!packs_applied && !mappings)
      r.fail("", "x-assay is present only when it has packs_applied or mappings");
  }
};

}  // namespace manifest_v1

struct manifest {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/manifest-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Evidence Bundle Manifest v1";

  manifest_v1::algorithms algorithms;
  manifest_v1::sha256_digest bundle_id;
  bounded<std::int64_t, 0> event_count;
  manifest_v1::files files;
  manifest_v1::producer producer;
  non_empty run_id;
  manifest_v1::sha256_digest run_root;
  bounded<std::int64_t, 1, 1> schema_version;
  std::optional<manifest_v1::x_assay> x_assay{};

  static constexpr field_info assay_fields[] = {
      {.field = "bundle_id", .description = "Equal to run_root."},
      {.field = "run_root", .description = "sha256 over each event's content hash and a newline, in seq order."},
      {.field = "schema_version", .description = "Always 1."},
      {.field = "x_assay",
       .json_name = "x-assay",
       .description = "This library's additions (packs_applied, mappings), which the reference ignores; present only "
                      "when non-empty."},
  };
  void check_rules(rules& r) const {
    if (bundle_id != run_root)
      r.fail("/bundle_id", "bundle_id must equal run_root");
  }
};

}  // namespace assay::contracts
