// assay/contracts/otlp.hpp — the OTLP/JSON TracesData that `assay evidence export-otel` writes, one
// per line (docs/otel.md): the subset of OpenTelemetry's protocol its spans use, as types. Encoded
// canonically, like every other output; the schema generated from the types is the members it
// writes (OTLP allows more). Member names are the protobuf JSON mapping's (lowerCamelCase),
// 64-bit integers decimal strings, ids lowercase hex.
//
// It is not in the contract registry (`assay schema --list`): OTLP is OpenTelemetry's format, and
// these types describe only what the exporter writes.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace otlp_v1 {

using trace_id = pattern<"^[0-9a-f]{32}$">;
using span_id = pattern<"^[0-9a-f]{16}$">;
using unix_nano = pattern<"^(0|[1-9][0-9]*)$">;  // fixed64 in the JSON mapping: a decimal string
using int64_text = pattern<"^-?(0|[1-9][0-9]*)$">;

// An AnyValue holding a primitive: exactly one of its members.
struct primitive_value {
  static constexpr std::string_view schema_name = "primitiveValue";
  std::optional<std::string> string_value{};
  std::optional<int64_text> int_value{};
  std::optional<double> double_value{};
  std::optional<bool> bool_value{};
  static constexpr field_info assay_fields[] = {
      {.field = "string_value", .json_name = "stringValue"},
      {.field = "int_value", .json_name = "intValue", .description = "A 64-bit integer, as its decimal text."},
      {.field = "double_value", .json_name = "doubleValue"},
      {.field = "bool_value", .json_name = "boolValue"},
  };
  void check_rules(rules& r) const {
    if (string_value.has_value() + int_value.has_value() + double_value.has_value() + bool_value.has_value() != 1)
      r.fail("", "a value holds exactly one of stringValue, intValue, doubleValue, boolValue");
  }
};

// An attribute array: primitives of one kind.
struct array_value {
  static constexpr std::string_view schema_name = "arrayValue";
  std::vector<primitive_value> values;
};

// An attribute's AnyValue: a primitive, or an array of them.
struct any_value {
  static constexpr std::string_view schema_name = "anyValue";
  std::optional<std::string> string_value{};
  std::optional<int64_text> int_value{};
  std::optional<double> double_value{};
  std::optional<bool> bool_value{};
  std::optional<otlp_v1::array_value> array_value{};
  static constexpr field_info assay_fields[] = {
      {.field = "string_value", .json_name = "stringValue"},
      {.field = "int_value", .json_name = "intValue", .description = "A 64-bit integer, as its decimal text."},
      {.field = "double_value", .json_name = "doubleValue"},
      {.field = "bool_value", .json_name = "boolValue"},
      {.field = "array_value", .json_name = "arrayValue"},
  };
  void check_rules(rules& r) const {
    if (string_value.has_value() + int_value.has_value() + double_value.has_value() + bool_value.has_value() +
            array_value.has_value() !=
        1)
      r.fail("", "a value holds exactly one of stringValue, intValue, doubleValue, boolValue, arrayValue");
  }
};

struct key_value {
  static constexpr std::string_view schema_name = "keyValue";
  non_empty key;
  any_value value;
};

struct span_event {
  static constexpr std::string_view schema_name = "spanEvent";
  std::string name;
  unix_nano time_unix_nano;
  std::vector<key_value> attributes;
  static constexpr field_info assay_fields[] = {{.field = "time_unix_nano", .json_name = "timeUnixNano"}};
};

// A span of another trace points back to its run's root span.
struct span_link {
  static constexpr std::string_view schema_name = "spanLink";
  otlp_v1::trace_id trace_id;
  otlp_v1::span_id span_id;
  static constexpr field_info assay_fields[] = {
      {.field = "trace_id", .json_name = "traceId"},
      {.field = "span_id", .json_name = "spanId"},
  };
};

struct span {
  static constexpr std::string_view schema_name = "span";
  otlp_v1::trace_id trace_id;
  otlp_v1::span_id span_id;
  std::optional<otlp_v1::span_id> parent_span_id{};
  std::optional<std::string> trace_state{};
  std::string name;
  bounded<int, 0, 5> kind;  // SpanKind: 1 INTERNAL, 3 CLIENT
  unix_nano start_time_unix_nano;
  unix_nano end_time_unix_nano;
  std::vector<key_value> attributes;
  std::optional<std::vector<span_event>> events{};
  std::optional<std::vector<span_link>> links{};
  static constexpr field_info assay_fields[] = {
      {.field = "trace_id", .json_name = "traceId"},
      {.field = "span_id", .json_name = "spanId"},
      {.field = "parent_span_id", .json_name = "parentSpanId", .description = "Absent on a run's root span."},
      {.field = "trace_state", .json_name = "traceState"},
      {.field = "kind", .description = "SpanKind: 1 INTERNAL, 3 CLIENT."},
      {.field = "start_time_unix_nano", .json_name = "startTimeUnixNano"},
      {.field = "end_time_unix_nano", .json_name = "endTimeUnixNano"},
      {.field = "events", .description = "The root span's events: the run's events that make no span."},
      {.field = "links", .description = "A span in another trace (its event's traceparent) links to the root."},
  };
};

struct instrumentation_scope {
  static constexpr std::string_view schema_name = "instrumentationScope";
  std::string name;
  std::string version;
};

struct scope_spans {
  static constexpr std::string_view schema_name = "scopeSpans";
  instrumentation_scope scope;
  std::vector<otlp_v1::span> spans;
  std::string schema_url;
  static constexpr field_info assay_fields[] = {{.field = "schema_url", .json_name = "schemaUrl"}};
};

struct resource {
  static constexpr std::string_view schema_name = "resource";
  std::vector<key_value> attributes;
};

struct resource_spans {
  static constexpr std::string_view schema_name = "resourceSpans";
  otlp_v1::resource resource;
  std::vector<otlp_v1::scope_spans> scope_spans;
  std::string schema_url;
  static constexpr field_info assay_fields[] = {
      {.field = "scope_spans", .json_name = "scopeSpans"},
      {.field = "schema_url", .json_name = "schemaUrl"},
  };
};

// One line of the export.
struct traces_data {
  static constexpr std::string_view schema_name = "TracesData";
  std::vector<otlp_v1::resource_spans> resource_spans;
  static constexpr field_info assay_fields[] = {{.field = "resource_spans", .json_name = "resourceSpans"}};
};

}  // namespace otlp_v1

using otlp_traces_data = otlp_v1::traces_data;

}  // namespace assay::contracts
