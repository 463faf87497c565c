// assay/inspect/diff.hpp — what changed between two runs (docs/inspect.md): both bundles verified, each
// in its one pass with a diff_side gathering what a diff compares; then evidence-diff-v1.
//
//   auto d = assay::inspect::diff_bundle_files("baseline.tar.gz", "candidate.tar.gz");
//   if (d && !d->summary.added_in.empty()) ...   // the candidate reached something new
//   std::fputs(assay::inspect::diff_text(*d).c_str(), stdout);
//
// Categories as the reference's diff has them: the `subject` of each *.net.* event (network),
// *.fs.* (filesystem), *.process.* (processes), a type ending in .net, .fs or .process too; a
// subject its payload type classes sensitive generalized (docs/privacy.md), as in every output.
// Beyond the reference: tools (named by assay.tool.call and assay.tool.decision; a redacted name
// by its commitment's digest), each tool's decision outcomes, and the count of each event type.
#pragma once

#include "assay/contracts/evidence_diff.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/error.hpp"
#include "assay/evidence/event_data.hpp"
#include "assay/evidence/redact.hpp"
#include "assay/evidence/verify.hpp"
#include "assay/inspect/text.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace assay::inspect {

using contracts::evidence_diff;

// A visitor of one bundle's verification pass: what a diff compares, and nothing else (subjects,
// tools and types each kept once, so memory follows the distinct values, not the events).
class diff_side {
 public:
  void on_manifest(const evidence::bundle_manifest& m) { run_root_ = m.fields.run_root; }

  void on_event(const evidence::verified_event& e) {
    ++types_[std::string(e.type)];
    if (e.subject && !e.subject->empty()) {
      if (auto* set = category_of(e.type)) {
        // As it may leave (docs/privacy.md): a subject its type classes sensitive (a path, a
        // host:port), or any subject of a type the registry does not know, generalized.
        std::string subject(*e.subject);
        evidence::redact_for_output(e.type, nullptr, &subject);
        set->emplace(std::move(subject));
      }
    }
    const bool decision = e.type == "assay.tool.decision";
    if (!decision && e.type != "assay.tool.call")
      return;
    auto tool = evidence::tool_of(e);
    if (!tool || tool->empty())  // a tool without a name is not one the report can name
      return;
    if (decision) {
      const std::size_t d = e.doc.find_member(e.data, "decision");
      if (d != 0 && e.doc.nodes()[d].kind == json::kind::string)
        if (auto v = contracts::diff_v1::decision::parse(e.doc.string_at(d)))
          decisions_[*tool] |= 1u << v->index();
    }
    tools_.insert(std::move(*tool));
  }

  void on_end(const evidence::verified_bundle& b) {
    summary_.run_id = b.run_id;
    summary_.run_root = run_root_;
    summary_.event_count = static_cast<std::int64_t>(b.event_count);
    summary_.time_range.start = b.time_start;
    summary_.time_range.end = b.time_end;
  }

  const contracts::diff_v1::bundle_summary& summary() const noexcept { return summary_; }

 private:
  friend evidence_diff diff(const diff_side& baseline, const diff_side& candidate);

  // The set a type's subjects go to, or nullptr (contracts::capability_of).
  std::set<std::string>* category_of(std::string_view type) {
    const contracts::capability c = contracts::capability_of(type);
    return c == contracts::capability::none ? nullptr : &subjects_[static_cast<std::size_t>(c)];
  }

  std::string run_root_;
  contracts::diff_v1::bundle_summary summary_;
  std::array<std::set<std::string>, 3> subjects_;  // network, filesystem, processes
  std::set<std::string> tools_;
  std::map<std::string, unsigned> decisions_;  // tool -> the decisions seen, a bit per decision
  std::map<std::string, std::int64_t> types_;
};

namespace detail {

inline contracts::diff_v1::subject_changes set_changes(const std::set<std::string>& base,
                                                       const std::set<std::string>& cand) {
  contracts::diff_v1::subject_changes c;
  for (const auto& s : cand)
    if (!base.contains(s))
      c.added.push_back(s);
  for (const auto& s : base)
    if (!cand.contains(s))
      c.removed.push_back(s);
  return c;
}

inline std::vector<contracts::diff_v1::decision> decisions_in(unsigned bits) {
  std::vector<contracts::diff_v1::decision> out;
  for (std::size_t i = 0; i < contracts::diff_v1::decision::values.size(); ++i)
    if ((bits >> i) & 1u)
      out.push_back(*contracts::diff_v1::decision::parse(contracts::diff_v1::decision::values[i]));
  return out;
}

}  // namespace detail

// The diff of two bundles' sides (each gathered by a verification pass that succeeded).
inline evidence_diff diff(const diff_side& baseline, const diff_side& candidate) {
  evidence_diff d;
  d.baseline = baseline.summary_;
  d.candidate = candidate.summary_;
  d.summary.event_count_delta = candidate.summary_.event_count.value() - baseline.summary_.event_count.value();
  contracts::diff_v1::subject_changes* subjects[] = {&d.network, &d.filesystem, &d.processes};
  for (std::size_t i = 0; i < 3; ++i)
    *subjects[i] = detail::set_changes(baseline.subjects_[i], candidate.subjects_[i]);
  auto tools = detail::set_changes(baseline.tools_, candidate.tools_);
  d.tools.added = std::move(tools.added);
  d.tools.removed = std::move(tools.removed);
  // Tools in both bundles whose decision outcomes differ (none recorded counts as an outcome too).
  auto bits_of = [](const diff_side& side, const std::string& tool) {
    const auto at = side.decisions_.find(tool);
    return at == side.decisions_.end() ? 0u : at->second;
  };
  for (const auto& tool : candidate.tools_) {
    if (!baseline.tools_.contains(tool))
      continue;
    const unsigned before = bits_of(baseline, tool), after = bits_of(candidate, tool);
    if (before == after)
      continue;
    contracts::diff_v1::decision_change c;
    assign(c.tool, tool).value();  // not empty (on_event)
    c.baseline = detail::decisions_in(before);
    c.candidate = detail::decisions_in(after);
    d.tools.decisions_changed.push_back(std::move(c));
  }
  // Both maps are in type order: walk them together.
  auto b = baseline.types_.begin(), c = candidate.types_.begin();
  while (b != baseline.types_.end() || c != candidate.types_.end()) {
    contracts::diff_v1::type_count_change t;
    if (c == candidate.types_.end() || (b != baseline.types_.end() && b->first < c->first)) {
      assign(t.type, b->first).value();  // a verified event's type is not empty
      t.baseline = b->second;
      t.candidate = 0;
      ++b;
    } else if (b == baseline.types_.end() || c->first < b->first) {
      assign(t.type, c->first).value();
      t.baseline = 0;
      t.candidate = c->second;
      ++c;
    } else {
      assign(t.type, b->first).value();
      t.baseline = b->second;
      t.candidate = c->second;
      ++b, ++c;
    }
    if (t.baseline.value() != t.candidate.value())
      d.event_types.push_back(std::move(t));
  }
  for (std::size_t i = 0; i < 3; ++i)
    if (!subjects[i]->added.empty())
      d.summary.added_in.push_back(*contracts::diff_v1::category::parse(contracts::diff_v1::category::values[i]));
  if (!d.tools.added.empty())
    d.summary.added_in.push_back("tools");
  d.summary.changed = !d.summary.added_in.empty() || !d.network.removed.empty() || !d.filesystem.removed.empty() ||
                      !d.processes.removed.empty() || !d.tools.removed.empty() || !d.tools.decisions_changed.empty() ||
                      !d.event_types.empty();
  return d;
}

// Which bundle of a diff an error is about.
enum class diff_role { baseline, candidate };

// A bundle of a diff that could not be read or did not verify: which one, and why.
struct diff_failure {
  diff_role role;
  error why;
};

// Verifies both bundles (the baseline first) and diffs them; the first that fails is the answer.
template <class = void>
std::variant<evidence_diff, diff_failure> diff_bundles(evidence::byte_source& baseline,
                                                       evidence::byte_source& candidate,
                                                       const evidence::bundle_limits& lim = {}) {
  diff_side base, cand;
  if (auto r = evidence::verify_bundle(baseline, lim, base); !r)
    return diff_failure{diff_role::baseline, r.error()};
  if (auto r = evidence::verify_bundle(candidate, lim, cand); !r)
    return diff_failure{diff_role::candidate, r.error()};
  return diff(base, cand);
}

template <class = void>
std::variant<evidence_diff, diff_failure> diff_bundle_files(const std::string& baseline, const std::string& candidate,
                                                            const evidence::bundle_limits& lim = {}) {
  diff_side base, cand;
  if (auto r = evidence::verify_bundle_file(baseline, lim, base); !r)
    return diff_failure{diff_role::baseline, r.error()};
  if (auto r = evidence::verify_bundle_file(candidate, lim, cand); !r)
    return diff_failure{diff_role::candidate, r.error()};
  return diff(base, cand);
}

// The categories of `kinds` ("network", "filesystem", "processes", "tools") in which the
// candidate adds something.
inline std::vector<std::string> added_in(const evidence_diff& d, std::span<const std::string> kinds) {
  std::vector<std::string> out;
  for (const auto& k : kinds)
    for (const auto& a : d.summary.added_in)
      if (a == k && std::find(out.begin(), out.end(), k) == out.end())
        out.push_back(k);
  return out;
}

namespace detail {

inline std::string signed_count(std::int64_t n) {
  return (n > 0 ? "+" : "") + std::to_string(n);
}

inline std::string side_line(std::string_view role, const contracts::diff_v1::bundle_summary& s) {
  return std::string(role) + printable(s.run_id) + "  " + std::to_string(s.event_count.value()) + " event" +
         (s.event_count.value() == 1 ? "" : "s") + "  " + printable(s.time_range.start) + " .. " +
         printable(s.time_range.end) + "  bundle_id " + printable(s.run_root) + "\n";
}

inline void list_changes(std::string& out, std::string_view name, const std::vector<std::string>& added,
                         const std::vector<std::string>& removed, std::string_view more = {}) {
  out += std::string(name) + ": ";
  if (added.empty() && removed.empty() && more.empty()) {
    out += "no change\n";
    return;
  }
  out += std::to_string(added.size()) + " added, " + std::to_string(removed.size()) + " removed" + std::string(more) +
         "\n";
  for (const auto& s : added)
    out += "  + " + printable(s) + "\n";
  for (const auto& s : removed)
    out += "  - " + printable(s) + "\n";
}

inline std::string joined(const std::vector<contracts::diff_v1::decision>& ds) {
  std::string out;
  for (const auto& d : ds)
    out += (out.empty() ? "" : ", ") + printable(d.value());
  return out.empty() ? "(none)" : out;
}

}  // namespace detail

// The diff as a person reads it (what `assay evidence diff` prints): a line per bundle, the
// event-count change, then each category with its additions (+) and removals (-), decisions that
// changed (~ tool: before → after) and event types whose count changed. Strings from the bundles
// are made printable (json::printable).
inline std::string diff_text(const evidence_diff& d) {
  std::string out = detail::side_line("baseline   ", d.baseline) + detail::side_line("candidate  ", d.candidate);
  out += "events: " + std::to_string(d.baseline.event_count.value()) + " \xe2\x86\x92 " +
         std::to_string(d.candidate.event_count.value()) + " (" + detail::signed_count(d.summary.event_count_delta) +
         ")\n";
  detail::list_changes(out, "network", d.network.added, d.network.removed);
  detail::list_changes(out, "filesystem", d.filesystem.added, d.filesystem.removed);
  detail::list_changes(out, "processes", d.processes.added, d.processes.removed);
  const std::size_t flips = d.tools.decisions_changed.size();
  detail::list_changes(
      out, "tools", d.tools.added, d.tools.removed,
      flips == 0 ? std::string() : ", " + std::to_string(flips) + " decision" + (flips == 1 ? "" : "s") + " changed");
  for (const auto& c : d.tools.decisions_changed) {
    out += "  ~ " + printable(c.tool) + ": " + detail::joined(c.baseline) + " \xe2\x86\x92 " +
           detail::joined(c.candidate) + "\n";
  }
  out += "event types: ";
  if (d.event_types.empty()) {
    out += "no change\n";
  } else {
    out += std::to_string(d.event_types.size()) + " changed\n";
    for (const auto& t : d.event_types) {
      out += "  " + printable(t.type) + ": " + std::to_string(t.baseline.value()) + " \xe2\x86\x92 " +
             std::to_string(t.candidate.value()) + " (" +
             detail::signed_count(t.candidate.value() - t.baseline.value()) + ")\n";
    }
  }
  return out;
}

}  // namespace assay::inspect

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::inspect {
ASSAY_EXTERN_TEMPLATE std::variant<evidence_diff, diff_failure> diff_bundles<void>(evidence::byte_source&,
                                                                                   evidence::byte_source&,
                                                                                   const evidence::bundle_limits&);
ASSAY_EXTERN_TEMPLATE std::variant<evidence_diff, diff_failure> diff_bundle_files<void>(const std::string&,
                                                                                        const std::string&,
                                                                                        const evidence::bundle_limits&);
}  // namespace assay::inspect
#endif
