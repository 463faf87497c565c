// assay/contracts/sarif.hpp — the SARIF 2.1.0 log that `assay evidence lint --sarif` writes: the
// subset of OASIS SARIF 2.1.0 (errata 01) its lint results use, as types. Encoded canonically,
// like every other output; the schema generated from the types is the members it writes (the
// OASIS schema allows more), and `sarif-multitool validate` accepts what it describes.
#pragma once

#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace sarif_v1 {

using level = one_of<"none", "note", "warning", "error">;

// A SARIF message: plain text, and Markdown beside it when a rule has help written in it.
struct message {
  static constexpr std::string_view schema_name = "message";
  std::string text;
  std::optional<std::string> markdown{};
};

struct reporting_configuration {
  static constexpr std::string_view schema_name = "reportingConfiguration";
  level level_;
  static constexpr field_info assay_fields[] = {{.field = "level_", .json_name = "level"}};
};

// A rule's property bag: a built-in rule's tags and security-severity (GitHub code scanning reads
// both), a pack rule's pack, version and id in its pack.
struct rule_properties {
  static constexpr std::string_view schema_name = "ruleProperties";
  std::optional<std::vector<std::string>> tags{};
  std::optional<std::string> security_severity{};
  std::optional<std::string> pack{};
  std::optional<std::string> pack_version{};
  std::optional<std::string> short_id{};
  static constexpr field_info assay_fields[] = {{.field = "security_severity", .json_name = "security-severity"}};
};

struct reporting_descriptor {
  static constexpr std::string_view schema_name = "reportingDescriptor";
  std::string id;
  message short_description;
  reporting_configuration default_configuration;
  std::optional<message> help{};
  std::optional<std::string> help_uri{};
  rule_properties properties;
  static constexpr field_info assay_fields[] = {
      {.field = "short_description", .json_name = "shortDescription"},
      {.field = "default_configuration", .json_name = "defaultConfiguration"},
      {.field = "help_uri", .json_name = "helpUri", .description = "Only an absolute URI (RFC 3986 §4.3)."},
  };
};

struct pack_entry {
  static constexpr std::string_view schema_name = "assayPack";
  std::string name;
  std::string version;
  std::string digest;
};

struct driver_properties {
  static constexpr std::string_view schema_name = "driverProperties";
  std::vector<pack_entry> assay_packs;
  static constexpr field_info assay_fields[] = {{.field = "assay_packs", .json_name = "assayPacks"}};
};

struct tool_component {
  static constexpr std::string_view schema_name = "toolComponent";
  std::string name;
  std::string version;
  std::vector<reporting_descriptor> rules;
  driver_properties properties;
};

struct tool {
  static constexpr std::string_view schema_name = "tool";
  tool_component driver;
};

struct descriptor_reference {
  static constexpr std::string_view schema_name = "reportingDescriptorReference";
  std::string id;
};

struct notification {
  static constexpr std::string_view schema_name = "notification";
  descriptor_reference descriptor;
  level level_;
  sarif_v1::message message;
  static constexpr field_info assay_fields[] = {{.field = "level_", .json_name = "level"}};
};

struct invocation {
  static constexpr std::string_view schema_name = "invocation";
  bool execution_successful = true;
  std::optional<std::vector<notification>> tool_execution_notifications{};
  static constexpr field_info assay_fields[] = {
      {.field = "execution_successful", .json_name = "executionSuccessful"},
      {.field = "tool_execution_notifications", .json_name = "toolExecutionNotifications"},
  };
};

struct artifact_location {
  static constexpr std::string_view schema_name = "artifactLocation";
  std::string uri;
};

struct region {
  static constexpr std::string_view schema_name = "region";
  bounded<std::int64_t, 1> start_line = 1;
  static constexpr field_info assay_fields[] = {{.field = "start_line", .json_name = "startLine"}};
};

struct physical_location {
  static constexpr std::string_view schema_name = "physicalLocation";
  artifact_location artifact_location_;
  sarif_v1::region region;
  static constexpr field_info assay_fields[] = {{.field = "artifact_location_", .json_name = "artifactLocation"}};
};

// The event a result is about, by its seq.
struct logical_location {
  static constexpr std::string_view schema_name = "logicalLocation";
  std::string name;
  const_string<"event"> kind;
};

struct location {
  static constexpr std::string_view schema_name = "location";
  physical_location physical_location_;
  std::optional<std::vector<logical_location>> logical_locations{};
  static constexpr field_info assay_fields[] = {
      {.field = "physical_location_", .json_name = "physicalLocation"},
      {.field = "logical_locations", .json_name = "logicalLocations"},
  };
};

struct fingerprints {
  static constexpr std::string_view schema_name = "partialFingerprints";
  std::string assay_lint;
  std::optional<std::string> primary_location_line_hash{};
  static constexpr field_info assay_fields[] = {
      {.field = "assay_lint",
       .json_name = "assayLintFingerprint/v1",
       .description = "Stable across runs of the same finding."},
      {.field = "primary_location_line_hash", .json_name = "primaryLocationLineHash"},
  };
};

struct result {
  static constexpr std::string_view schema_name = "result";
  std::string rule_id;
  level level_;
  sarif_v1::message message;
  std::vector<location> locations;
  fingerprints partial_fingerprints;
  static constexpr field_info assay_fields[] = {
      {.field = "rule_id", .json_name = "ruleId"},
      {.field = "level_", .json_name = "level"},
      {.field = "partial_fingerprints", .json_name = "partialFingerprints"},
  };
};

struct run_automation_details {
  static constexpr std::string_view schema_name = "runAutomationDetails";
  std::string id;
};

struct run_properties {
  static constexpr std::string_view schema_name = "runProperties";
  std::optional<std::string> disclaimer{};
  bounded<std::int64_t, 0> applied_cap;
  bounded<std::int64_t, 0> dropped_results;
  static constexpr field_info assay_fields[] = {
      {.field = "disclaimer", .description = "The compliance packs' disclaimers, in pack order."},
      {.field = "applied_cap", .json_name = "appliedCap"},
      {.field = "dropped_results", .json_name = "droppedResults"},
  };
};

struct run {
  static constexpr std::string_view schema_name = "run";
  sarif_v1::tool tool;
  std::vector<invocation> invocations;
  run_automation_details automation_details;
  std::vector<result> results;
  run_properties properties;
  static constexpr field_info assay_fields[] = {{.field = "automation_details", .json_name = "automationDetails"}};
};

}  // namespace sarif_v1

struct sarif_log {
  static constexpr std::string_view schema_title = "SARIF 2.1.0 log of assay evidence lint";

  const_string<"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"> schema;
  const_string<"2.1.0"> version;
  std::vector<sarif_v1::run> runs;
  static constexpr field_info assay_fields[] = {{.field = "schema", .json_name = "$schema"}};
};

}  // namespace assay::contracts
