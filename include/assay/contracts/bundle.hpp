// assay/contracts/bundle.hpp — the evidence bundle as data (docs/evidence.md), beside manifest-v1
// (manifest.hpp):
//
//   bundle_limits    the eight limits of a bundle reader; the soak report records them too
//   manifest_view    manifest.json as a verifier reads it: open where the reference is
//   verify_result    the verdict on one bundle, as `assay evidence verify --json` prints it
//
// A writer writes `manifest` (strict: every member, digest patterns, no unknown members); a
// reader reads `manifest_view`, which takes everything the reference verifier takes: members it
// does not know, a producer without git, a files.events.ndjson.sha256 with or without its
// "sha256:" prefix. Every manifest a writer writes reads back as a view with the same facts.
#pragma once

#include "assay/contracts/manifest.hpp"
#include "assay/error.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/separate.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace assay::contracts {

// The limits of a bundle reader (docs/evidence.md), with the reference verifier's defaults. As JSON: an
// object with any of these eight members, each an integer >= 1; from_json() keeps the default of
// each member left out, and refuses any other member.
struct bundle_limits {
  bounded<std::uint64_t, 1> max_bundle_bytes = 100ull << 20;
  bounded<std::uint64_t, 1> max_decode_bytes = 1ull << 30;
  bounded<std::uint64_t, 1> max_manifest_bytes = 10ull << 20;
  bounded<std::uint64_t, 1> max_events_bytes = 500ull << 20;
  bounded<std::uint64_t, 1> max_events = 100000;
  bounded<std::uint64_t, 1> max_line_bytes = 1ull << 20;
  bounded<std::uint64_t, 1> max_path_len = 256;
  bounded<std::uint64_t, 1> max_json_depth = 64;

  // The limits `text` sets over the defaults, reporting its first error.
  template <class = void>  // compiled only where used: it instantiates the decoder
  static result<bundle_limits> from_json(std::string_view text);
};

template <class>
result<bundle_limits> bundle_limits::from_json(std::string_view text) {
  bundle_limits out;
  if (auto r = assay::decode_onto(text, out); !r)
    return r.error().front();
  return out;
}

namespace manifest_view_v1 {

// An integer JSON holds exactly: 0 .. 2^53.
using exact_count = bounded<std::int64_t, 0, 9007199254740992>;

struct producer {
  std::string name;
  std::string version;
  std::optional<std::string> git{};
  extra_members<> other;
};

struct file_entry {
  exact_count bytes;
  std::string sha256;  // "sha256:<hex>", or the hex alone
  extra_members<> other;
};

struct files {
  std::optional<file_entry> events{};
  extra_members<> other;
  static constexpr field_info assay_fields[] = {{.field = "events", .json_name = "events.ndjson"}};
};

}  // namespace manifest_view_v1

struct manifest_view {
  std::string bundle_id;
  manifest_view_v1::exact_count event_count;
  manifest_view_v1::files files;
  manifest_view_v1::producer producer;
  std::string run_id;
  std::string run_root;
  bounded<std::int64_t, 1, 1> schema_version;
  extra_members<> other;  // algorithms, x-assay, and whatever a later writer adds
};

// The verdict on a bundle: its facts when it verified, else the reference's code and class of
// the first check that failed, and a message. Members that do not apply are null.
struct verify_result {
  static constexpr std::string_view schema_name = "verify_result";

  nullable<std::string> bundle_id;
  nullable<one_of<"Integrity", "Contract", "Limits", "Security">> error_class;
  nullable<std::string> code;
  nullable<std::uint64_t> event_count;
  nullable<std::string> message;
  bool ok = false;
  nullable<std::string> run_id;

  static constexpr field_info assay_fields[] = {
      {.field = "error_class",
       .json_name = "class",
       .description = "The class of the code (Integrity, Contract, Limits, Security)."},
      {.field = "code", .description = "The reference verifier's code name, e.g. IntegrityEventHash."},
  };
};

}  // namespace assay::contracts

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::contracts {
ASSAY_EXTERN_TEMPLATE result<bundle_limits> bundle_limits::from_json<void>(std::string_view);
}  // namespace assay::contracts
#endif
