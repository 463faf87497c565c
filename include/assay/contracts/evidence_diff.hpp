// assay/contracts/evidence_diff.hpp — evidence-diff-v1, what changed between a baseline bundle
// and a candidate (docs/inspect.md): each bundle's facts, the event-count delta, subjects added and
// removed per category as the reference's diff reports them (network, filesystem, processes),
// and beyond it tools newly called or no longer called, decisions whose outcome changed and event
// types whose count changed. The schema is written here, from the type.
#pragma once

#include "assay/contracts/sorted.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/reflect/constraints.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assay::contracts {

namespace diff_v1 {

// The first and last event times of a bundle, as its events write them.
struct time_range {
  date_time start;
  date_time end;
};

struct bundle_summary {
  static constexpr std::string_view schema_name = "bundle_summary";
  non_empty run_id;
  pattern<"^sha256:[0-9a-f]{64}$"> run_root;
  bounded<std::int64_t, 1> event_count;
  struct time_range time_range;
  static constexpr field_info assay_fields[] = {
      {.field = "run_root", .description = "The bundle's run root (equal to its bundle_id)."},
      {.field = "time_range", .description = "The earliest and the latest event time."},
  };
};

// A category's subjects (the events' `subject`) only in the candidate, and only in the baseline.
struct subject_changes {
  static constexpr std::string_view schema_name = "subject_changes";
  std::vector<std::string> added;
  std::vector<std::string> removed;
  void check_rules(rules& r) const {
    check_sorted_unique(r, "/added", "added", added);
    check_sorted_unique(r, "/removed", "removed", removed);
  }
};

// The decisions of assay.tool.decision (docs/contracts.md), in code point order.
using decision = one_of<"allow", "deny", "error", "requires_approval">;

// A tool whose decisions differ: the outcomes each bundle recorded for it (assay.tool.decision),
// each listed once, in code point order.
struct decision_change {
  static constexpr std::string_view schema_name = "decision_change";
  non_empty tool;
  std::vector<decision> baseline;
  std::vector<decision> candidate;
  void check_rules(rules& r) const {
    check_sorted_unique(r, "/baseline", "baseline", baseline);
    check_sorted_unique(r, "/candidate", "candidate", candidate);
    if (baseline == candidate)
      r.fail("/candidate", "a decision change must differ from the baseline's decisions");
  }
};

struct tool_changes {
  static constexpr std::string_view schema_name = "tool_changes";
  std::vector<std::string> added;
  std::vector<std::string> removed;
  std::vector<decision_change> decisions_changed;
  static constexpr field_info assay_fields[] = {
      {.field = "added",
       .description = "Tools the candidate called (assay.tool.call or assay.tool.decision) and the baseline did not; a "
                      "redacted name is its commitment's digest."},
      {.field = "removed", .description = "Tools the baseline called and the candidate did not."},
      {.field = "decisions_changed", .description = "Tools in both whose decision outcomes differ, by tool."},
  };
  void check_rules(rules& r) const {
    check_sorted_unique(r, "/added", "added", added);
    check_sorted_unique(r, "/removed", "removed", removed);
    std::vector<std::string_view> tools;
    for (const auto& c : decisions_changed)
      tools.push_back(c.tool);
    check_sorted_unique(r, "/decisions_changed", "decisions_changed (by tool)", tools);
  }
};

struct type_count_change {
  static constexpr std::string_view schema_name = "type_count_change";
  non_empty type;
  bounded<std::int64_t, 0> baseline;
  bounded<std::int64_t, 0> candidate;
  void check_rules(rules& r) const {
    if (baseline.value() == candidate.value())
      r.fail("/candidate", "a count change must differ from the baseline's count");
  }
};

using category = one_of<"network", "filesystem", "processes", "tools">;

struct summary {
  static constexpr std::string_view schema_name = "diff_summary";
  std::int64_t event_count_delta = 0;
  bool changed = false;
  std::vector<category> added_in;
  static constexpr field_info assay_fields[] = {
      {.field = "event_count_delta", .description = "The candidate's event count minus the baseline's."},
      {.field = "changed",
       .description = "True when any subject, tool, decision or event-type count differs (run ids, roots and "
                      "times always do)."},
      {.field = "added_in",
       .description = "The categories in which the candidate adds something, in the order network, filesystem, "
                      "processes, tools (what --fail-on-new gates on)."},
  };
};

}  // namespace diff_v1

struct evidence_diff {
  static constexpr std::string_view schema_id = "https://assay.dev/schemas/evidence-diff-v1.schema.json";
  static constexpr std::string_view schema_title = "Assay Evidence Diff v1";

  const_string<"evidence-diff-v1"> schema_version;
  diff_v1::bundle_summary baseline;
  diff_v1::bundle_summary candidate;
  diff_v1::summary summary;
  diff_v1::subject_changes network;
  diff_v1::subject_changes filesystem;
  diff_v1::subject_changes processes;
  diff_v1::tool_changes tools;
  std::vector<diff_v1::type_count_change> event_types;

  static constexpr field_info assay_fields[] = {
      {.field = "network", .description = "Subjects of *.net.* events."},
      {.field = "filesystem", .description = "Subjects of *.fs.* events."},
      {.field = "processes", .description = "Subjects of *.process.* events."},
      {.field = "event_types", .description = "Event types whose count differs, by type (0: none of that type)."},
  };

  void check_rules(rules& r) const {
    const std::int64_t delta = candidate.event_count.value() - baseline.event_count.value();
    if (summary.event_count_delta != delta) {
      r.fail(
          "/summary/event_count_delta",
          "event_count_delta must be the candidate's event count minus the baseline's (" + std::to_string(delta) + ")");
    }
    std::vector<std::string_view> types;
    for (const auto& t : event_types)
      types.push_back(t.type);
    check_sorted_unique(r, "/event_types", "event_types (by type)", types);
    const diff_v1::subject_changes* subjects[] = {&network, &filesystem, &processes};
    std::vector<std::string_view> want;
    bool changed = !event_types.empty() || !tools.removed.empty() || !tools.decisions_changed.empty();
    for (std::size_t i = 0; i < 3; ++i) {
      if (!subjects[i]->added.empty())
        want.push_back(diff_v1::category::values[i]);
      changed = changed || !subjects[i]->added.empty() || !subjects[i]->removed.empty();
    }
    if (!tools.added.empty())
      want.push_back("tools");
    changed = changed || !want.empty();
    std::vector<std::string_view> given(summary.added_in.begin(), summary.added_in.end());
    if (given != want)
      r.fail("/summary/added_in", "added_in must list exactly the categories with additions, in category order");
    if (summary.changed != changed)
      r.fail("/summary/changed", changed ? "changed must be true: something differs" : "changed must be false");
  }
};

}  // namespace assay::contracts
