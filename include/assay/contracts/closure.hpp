// assay/contracts/closure.hpp — closure-v1, completeness and closure (docs/packs.md; normative schema
// schemas/closure-v1.schema.json). The schema generated from this type equals that file.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/contracts/sorted.hpp"
#include "assay/reflect/constraints.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace closure_v1 {

struct pack_ref {
  static constexpr std::string_view schema_name = "pack_ref";
  non_empty name;
  non_empty version;
  std::optional<non_empty> kind{};
  std::optional<non_empty> digest{};
};

// A canonical signal key of the registry (docs/packs.md).
struct signal : pattern<"^[a-z0-9][a-z0-9_.-]*[a-z0-9]$"> {
  static constexpr std::string_view schema_name = "signal";
  static constexpr std::string_view schema_description = "Canonical signal key. Prefer a registry to avoid drift.";
  using str::str;
  using str::operator=;
};

using contracts::check_sorted_unique;

struct commitment {
  non_empty alg;
  non_empty digest;
  std::optional<bounded<std::int64_t, 0>> size_bytes{};
};

struct signal_detail {
  static constexpr std::string_view schema_name = "signal_detail";
  one_of<"captured", "redacted", "missing", "unknown"> status;
  std::optional<std::string> reason{};
  std::optional<std::vector<non_empty>> evidence_paths{};
  std::optional<struct commitment> commitment{};
  static constexpr field_info assay_fields[] = {
      {.field = "evidence_paths", .description = "JSON pointer(s) or path hints where the signal should be found."},
      {.field = "commitment",
       .description = "For redacted signals: a verifiable commitment (hash/size) without revealing content."},
  };
};

struct completeness {
  static constexpr std::string_view schema_name = "completeness";
  std::vector<signal> required;
  std::vector<signal> captured;
  std::vector<signal> redacted;
  std::vector<signal> unknown;
  std::optional<std::map<std::string, signal_detail>> by_signal{};
  static constexpr field_info assay_fields[] = {
      {.field = "by_signal", .description = "Optional per-signal detail (why missing, where expected)."},
  };

  // required is sorted and unique (a sorted union); captured, redacted and unknown partition it,
  // each sorted (docs/packs.md).
  void check_rules(rules& r) const {
    check_sorted_unique(r, "/required", "required", required);
    check_sorted_unique(r, "/captured", "captured", captured);
    check_sorted_unique(r, "/redacted", "redacted", redacted);
    check_sorted_unique(r, "/unknown", "unknown", unknown);
    std::vector<std::string> parts;
    for (const auto* v : {&captured, &redacted, &unknown})
      for (const auto& s : *v)
        parts.push_back(s);
    std::vector<std::string> req(required.begin(), required.end());
    std::sort(parts.begin(), parts.end());
    std::sort(req.begin(), req.end());
    if (parts != req)
      r.fail("", "captured, redacted and unknown must partition required (each signal exactly once)");
  }
};

struct scoring {
  one_of<"weighted_ratio_v1"> method;
  std::map<std::string, bounded<double, 0>> weights;
  static constexpr field_info assay_fields[] = {
      {.field = "weights", .description = "Optional: per-signal weights used to compute score."},
  };
};

struct closure {
  static constexpr std::string_view schema_name = "closure";
  bounded<double, 0, 1> score;
  one_of<"low", "medium", "high"> confidence;
  std::vector<signal> captured;
  std::vector<signal> missing;
  std::optional<std::vector<non_empty>> uncontrolled_dependencies{};
  std::optional<struct scoring> scoring{};
  static constexpr field_info assay_fields[] = {
      {.field = "uncontrolled_dependencies",
       .description = "Optional: known nondeterministic inputs (network, live tools) that prevent hermetic replay."},
      {.field = "scoring", .description = "Optional scoring transparency for audits/CI."},
  };

  // uncontrolled_dependencies: sorted, unique (docs/packs.md).
  void check_rules(rules& r) const {
    if (uncontrolled_dependencies)
      check_sorted_unique(r, "/uncontrolled_dependencies", "uncontrolled_dependencies", *uncontrolled_dependencies);
  }
};

}  // namespace closure_v1

struct closure_report {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/closure-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Completeness + Closure v1";

  const_string<"closure-v1"> schema_version;
  std::optional<date_time> generated_at{};
  std::optional<non_empty> bundle_digest{};
  std::optional<std::vector<closure_v1::pack_ref>> pack_context{};
  closure_v1::completeness completeness;
  closure_v1::closure closure;

  static constexpr field_info assay_fields[] = {
      {.field = "bundle_digest",
       .description = "Optional sha256 (or similar) digest of the evidence bundle for linking."},
      {.field = "pack_context", .description = "Optional: the packs used to compute required signals."},
  };
};

}  // namespace assay::contracts
