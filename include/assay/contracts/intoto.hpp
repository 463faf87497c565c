// assay/contracts/intoto.hpp — intoto-statement-v1, the in-toto Statement v1 an attestation
// signs (docs/attestation.md, the reference's payload v1): one subject, the evidence bundle (.tar.gz), and a
// predicate that ties it to the run (run_root), its artifacts, packs and mappings. The schema is
// written here, from the type.
#pragma once

#include "assay/json/time.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace intoto_v1 {

using sha256_digest = pattern<"^sha256:[0-9a-f]{64}$">;

struct digest_set {
  pattern<"^[0-9a-f]{64}$"> sha256;
  static constexpr field_info assay_fields[] = {
      {.field = "sha256", .description = "Lowercase hex of the sha256 of the whole .tar.gz, no prefix."},
  };
};

struct subject {
  static constexpr std::string_view schema_name = "subject";
  non_empty name;
  digest_set digest;
  static constexpr field_info assay_fields[] = {
      {.field = "name", .description = "The bundle_id."},
  };
};

struct semantic_equivalence {
  const_string<"assay-run-root-v1"> algorithm;
  sha256_digest value;
  static constexpr field_info assay_fields[] = {
      {.field = "value", .description = "The bundle's run_root."},
  };
};

struct producer_info {
  non_empty name;
  non_empty version;
  std::string git;
  static constexpr field_info assay_fields[] = {
      {.field = "git", .description = "The producer's git revision; empty when none."},
  };
};

struct time_window {
  date_time start;
  date_time end;
  static constexpr field_info assay_fields[] = {
      {.field = "start", .description = "Time of the first event."},
      {.field = "end", .description = "Time of the last event."},
  };

  // Compared as instants: offsets applied, fractions of any length.
  void check_rules(rules& r) const {
    const auto order = json::compare_date_times(start, end);
    if (order && *order == std::strong_ordering::greater)
      r.fail("", "the time window starts (" + start + ") after it ends (" + end + ")");
  }
};

struct run_info {
  non_empty run_id;
  bounded<std::int64_t, 0> event_count;
  producer_info producer;
  struct time_window time_window;
};

struct artifact_digests {
  sha256_digest manifest;
  sha256_digest events;
  static constexpr field_info assay_fields[] = {
      {.field = "manifest", .description = "sha256 of the bundle's manifest.json bytes."},
      {.field = "events", .description = "sha256 of the bundle's events.ndjson bytes."},
  };
};

struct pack_ref {
  static constexpr std::string_view schema_name = "pack_ref";
  non_empty name;
  non_empty version;
  sha256_digest digest;
};

struct mapping {
  static constexpr std::string_view schema_name = "mapping";
  non_empty rule;
  non_empty framework;
  non_empty ref;
};

// The reference's predicate (schema_version, semantic_equivalence, run); the members after those
// (artifacts, packs, mappings, closure_report_digest) are the reference's payload v1, present only when
// the attestation was asked to carry packs or a closure report.
struct predicate {
  bounded<std::int64_t, 1, 1> schema_version;
  struct semantic_equivalence semantic_equivalence;
  run_info run;
  std::optional<artifact_digests> artifacts{};
  std::optional<std::vector<pack_ref>> packs{};
  std::optional<std::vector<mapping>> mappings{};
  std::optional<sha256_digest> closure_report_digest{};
  static constexpr field_info assay_fields[] = {
      {.field = "schema_version", .description = "Always 1."},
      {.field = "artifacts", .description = "sha256 of manifest.json and of events.ndjson, when asked."},
      {.field = "packs", .description = "The packs the bundle was checked with."},
      {.field = "mappings", .description = "Rule-to-framework mappings (rule, framework, reference)."},
      {.field = "closure_report_digest", .description = "sha256 of the closure-v1 report's JCS bytes, when given."},
  };
};

}  // namespace intoto_v1

struct intoto_statement {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/intoto-statement-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay in-toto Statement v1";

  const_string<"https://in-toto.io/Statement/v1"> type_;
  // A list of exactly one, not std::array: Boost.PFR cannot count the members of an aggregate
  // that holds a std::array (brace elision).
  list<intoto_v1::subject, 1, 1> subject;
  const_string<"https://docs.getassay.dev/attestation/evidence-bundle/v1"> predicateType;
  intoto_v1::predicate predicate;

  static constexpr field_info assay_fields[] = {
      {.field = "type_", .json_name = "_type"},
      {.field = "subject", .description = "Exactly one subject: the evidence bundle."},
  };

  void check_rules(rules& r) const {
    if (subject.size() == 1 && subject[0].name != predicate.semantic_equivalence.value)
      r.fail("/subject/0/name",
             "the subject's name (the bundle_id) must equal the run_root in "
             "predicate.semantic_equivalence.value");
  }
};

}  // namespace assay::contracts
