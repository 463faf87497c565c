// assay/contracts/otel_export_report.hpp — otel-export-report-v1, the report every OpenTelemetry
// export writes beside its spans (docs/otel.md): what was read, what was written, and everything the
// mapping lost. Nothing is dropped silently. The schema is written here, from the type.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace otel_v1 {

// An event's id, its stream id (docs/evidence.md): the run id (no ':'), ':', and the seq in decimal.
using stream_id = pattern<"^[^:]+:(0|[1-9][0-9]*)$">;

struct dropped_attribute {
  static constexpr std::string_view schema_name = "dropped_attribute";
  stream_id event_id;
  pattern<"^(/([^~/]|~[01])*)+$"> member;
  non_empty reason;
  static constexpr field_info assay_fields[] = {
      {.field = "event_id", .description = "The event's id ({assayrunid}:{assayseq})."},
      {.field = "member", .description = "JSON Pointer to the member not exported, e.g. /data/arguments."},
      {.field = "reason", .description = "Why it was not exported."},
  };
};

struct loss_totals {
  bounded<std::int64_t, 0> dropped_attributes;
  bounded<std::int64_t, 0> unmapped_events;
};

struct mapping_loss {
  std::vector<dropped_attribute> dropped_attributes;
  std::map<std::string, bounded<std::int64_t, 0>> unmapped_events;
  loss_totals totals;
  static constexpr field_info assay_fields[] = {
      {.field = "dropped_attributes", .description = "Every attribute left out of the spans."},
      {.field = "unmapped_events", .description = "Event type -> number of events of that type with no mapping."},
      {.field = "totals", .description = "The length of dropped_attributes and the sum of unmapped_events."},
  };

  // The sum of the unmapped counts, or -1 when it does not fit.
  std::int64_t unmapped_sum() const noexcept {
    std::int64_t sum = 0;
    for (const auto& entry : unmapped_events) {
      const std::int64_t n = entry.second.value();
      if (n > std::numeric_limits<std::int64_t>::max() - sum)
        return -1;
      sum += n;
    }
    return sum;
  }

  void check_rules(rules& r) const {
    if (unmapped_events.contains(""))
      r.fail("/unmapped_events/", "an event type in unmapped_events cannot be the empty string");
    const auto dropped = static_cast<std::int64_t>(dropped_attributes.size());
    if (totals.dropped_attributes.value() != dropped) {
      r.fail("/totals/dropped_attributes",
             "totals.dropped_attributes must equal the number of dropped_attributes (" + std::to_string(dropped) + ")");
    }
    const std::int64_t unmapped = unmapped_sum();
    if (totals.unmapped_events.value() != unmapped) {
      r.fail("/totals/unmapped_events",
             unmapped < 0
                 ? std::string("the sum of unmapped_events is too large")
                 : "totals.unmapped_events must equal the sum of unmapped_events (" + std::to_string(unmapped) + ")");
    }
  }
};

}  // namespace otel_v1

struct otel_export_report {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/otel-export-report-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay OpenTelemetry Export Report v1";

  const_string<"otel-export-report-v1"> schema_version;
  std::optional<date_time> generated_at{};
  non_empty semconv_version;
  bounded<std::int64_t, 0> events_read;
  bounded<std::int64_t, 0> spans_written;
  otel_v1::mapping_loss mapping_loss;

  static constexpr field_info assay_fields[] = {
      {.field = "generated_at", .description = "Honours SOURCE_DATE_EPOCH."},
      {.field = "semconv_version",
       .description = "The OpenTelemetry semantic conventions version (GenAI, MCP) the mapping is pinned to."},
      {.field = "events_read", .description = "Events read from the bundle."},
      {.field = "spans_written", .description = "Spans written to the OTLP/JSON output."},
  };

  void check_rules(rules& r) const {
    if (mapping_loss.totals.unmapped_events.value() > events_read.value())
      r.fail("/mapping_loss/totals/unmapped_events", "more events unmapped than events read");
  }
};

}  // namespace assay::contracts
