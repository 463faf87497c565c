// assay/lint/report.hpp — what a lint run reports (docs/packs.md): the lint-report-v1 document, the
// text for people, and SARIF 2.1.0.
//
//   auto doc = assay::lint::make_report(result, packs, {.fail_on = severity::error, .tool_version = "1.2.3"});
//   std::cout << assay::lint::text_report(result, threshold);
//   std::string sarif = assay::encode(assay::lint::sarif_log(result, packs, {...})).value();
#pragma once

#include "assay/contracts/lint_report.hpp"
#include "assay/contracts/sarif.hpp"
#include "assay/json/printable.hpp"
#include "assay/lint/builtin_rules.hpp"
#include "assay/lint/engine.hpp"
#include "assay/lint/pack.hpp"
#include "assay/separate.hpp"
#include "assay/version.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::lint {

struct report_options {
  std::optional<severity> fail_on = severity::error;  // nullopt: --fail-on none
  std::string tool_name = "assay";
  std::string tool_version = std::string(assay::version);
  std::optional<std::string> generated_at{};  // RFC 3339
  std::string bundle_path = "bundle.tar.gz";  // SARIF: global findings' location
};

// "none", or the severity's name.
inline std::string_view threshold_name(std::optional<severity> t) {
  return t ? name(*t) : std::string_view("none");
}

// --fail-on's values: none, info, warning (or warn), error; nothing else (not "warnings"). False
// for any other word; `out` is then left as it was.
inline bool parse_threshold(std::string_view s, std::optional<severity>& out) {
  if (s == "none")
    out.reset();
  else if (s == "info")
    out = severity::info;
  else if (s == "warning" || s == "warn")
    out = severity::warning;
  else if (s == "error")
    out = severity::error;
  else
    return false;
  return true;
}

template <class = void>  // compiled only where used: it reflects the report contract
contracts::lint_report make_report(const lint_result& r, std::span<const loaded_pack> packs,
                                   const report_options& o = {}) {
  namespace v1 = contracts::lint_v1;
  using contracts::lint_report;
  auto sev = [](severity s) { return v1::severity_level::of(s); };
  lint_report out;
  if (o.generated_at)
    out.generated_at = *o.generated_at;
  out.tool.name = o.tool_name;
  out.tool.version = o.tool_version;
  out.bundle.bundle_id = r.bundle_id;
  out.bundle.run_id = r.run_id;
  out.bundle.event_count = decltype(out.bundle.event_count)(static_cast<std::int64_t>(r.event_count));
  for (const loaded_pack& p : packs) {
    v1::pack_ref ref = ref_of<v1::pack_ref>(p).value();  // a loaded pack meets its constraints
    bool listed = false;
    for (const auto& q : out.packs)
      listed = listed || (q.name == ref.name && q.version == ref.version);
    if (!listed)
      out.packs.push_back(std::move(ref));
    if (p.is_compliance() && p.definition.disclaimer) {
      v1::disclaimer d;
      d.pack = p.definition.name;
      d.text = *p.definition.disclaimer;
      out.disclaimers.push_back(std::move(d));
    }
  }
  std::int64_t outcomes[3] = {0, 0, 0}, by_severity[3] = {0, 0, 0};
  for (const rule_result& x : r.rules) {
    v1::rule_result rr;
    rr.rule_id = x.rule_id;
    rr.severity = sev(x.level);
    rr.outcome = decltype(rr.outcome)::of(x.status);
    if (x.status == outcome::skipped)
      rr.reason = x.reason;
    if (!x.description.empty())
      rr.description = x.description;
    out.results.push_back(std::move(rr));
    ++outcomes[static_cast<int>(x.status)];
  }
  for (const finding& f : r.findings) {
    out.results[f.rule].findings.push_back(f);  // the contract's part of it
    ++by_severity[f.severity.index()];
  }
  auto n = [](auto v) { return static_cast<std::int64_t>(v); };
  out.summary.rules = decltype(out.summary.rules)(n(r.rules.size()));
  out.summary.passed = decltype(out.summary.passed)(n(outcomes[0]));
  out.summary.violated = decltype(out.summary.violated)(n(outcomes[1]));
  out.summary.skipped = decltype(out.summary.skipped)(n(outcomes[2]));
  out.summary.findings.total = decltype(out.summary.findings.total)(n(r.findings.size()));
  out.summary.findings.info = decltype(out.summary.findings.info)(n(by_severity[0]));
  out.summary.findings.warning = decltype(out.summary.findings.warning)(n(by_severity[1]));
  out.summary.findings.error = decltype(out.summary.findings.error)(n(by_severity[2]));
  out.summary.dropped = decltype(out.summary.dropped)(n(r.dropped));
  out.summary.max_results = decltype(out.summary.max_results)(n(r.max_results));
  out.fail_on = v1::threshold::parse(threshold_name(o.fail_on)).value();
  out.verdict = decltype(out.verdict)::parse(r.fails(o.fail_on) ? "fail" : "pass").value();
  return out;
}

// For people: a line per finding with a hint to --explain it, the skipped rules, then a summary.
// Every string from a pack or the bundle (rule ids, event types, messages, reasons) is made
// printable (json/printable.hpp), so each finding stays on its one line whatever it holds.
inline std::string text_report(const lint_result& r, std::optional<severity> fail_on) {
  using json::printable;
  std::string out;
  for (const finding& f : r.findings) {
    const std::string id = printable(f.rule_id);
    out += std::string(f.severity.value()) + " " + id;
    if (f.location)
      out += " at events.ndjson:" + std::to_string(f.location->line) + " (seq " + std::to_string(f.location->seq) +
             ", " + printable(f.location->event_type) + ")";
    out += ": " + printable(f.message) + "  [--explain " + id + "]\n";
  }
  std::size_t passed = 0, violated = 0, skipped = 0;
  for (const rule_result& x : r.rules) {
    passed += x.status == outcome::pass;
    violated += x.status == outcome::violated;
    if (x.status == outcome::skipped) {
      ++skipped;
      out += "skipped " + printable(x.rule_id) + ": " + printable(x.reason) + "\n";
    }
  }
  if (r.dropped != 0)
    out += std::to_string(r.dropped) + " finding(s) not shown: past --max-results " + std::to_string(r.max_results) +
           " (the highest severities are shown)\n";
  out += std::to_string(r.rules.size()) + " rules: " + std::to_string(passed) + " passed, " + std::to_string(violated) +
         " violated, " + std::to_string(skipped) + " skipped; " + std::to_string(r.findings.size() + r.dropped) +
         " finding(s); fail-on " + std::string(threshold_name(fail_on)) + ": " + (r.fails(fail_on) ? "FAIL" : "pass") +
         "\n";
  return out;
}

// --- SARIF 2.1.0 --------------------------------------------------------------------------------

inline contracts::sarif_v1::level sarif_level(severity s) {
  using level = contracts::sarif_v1::level;
  return s == severity::error ? level("error") : s == severity::warning ? level("warning") : level("note");
}

// A path with its "." segments and empty ones dropped and each ".." taken with the segment before
// it (lexically, as SARIF wants its file URIs: no dot segments, SARIF1002); a ".." with nothing
// before it stays in a relative path and goes in an absolute one (the root's parent is the root).
inline std::string lexically_normal_path(std::string_view path) {
  const bool absolute = !path.empty() && path.front() == '/';
  std::vector<std::string_view> kept;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos)
      slash = path.size();
    const std::string_view seg = path.substr(start, slash - start);
    if (seg == "..") {
      if (!kept.empty() && kept.back() != "..")
        kept.pop_back();
      else if (!absolute)
        kept.push_back(seg);
    } else if (!seg.empty() && seg != ".") {
      kept.push_back(seg);
    }
    start = slash + 1;
  }
  std::string out = absolute ? "/" : "";
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (i != 0)
      out += '/';
    out += kept[i];
  }
  return out.empty() && !path.empty() ? std::string(".") : out;
}

// A file path as a SARIF artifact URI (RFC 3986): lexically normal, bytes other than unreserved
// ones and '/' percent-encoded; an absolute path becomes a file: URI, a relative one stays
// relative (a relative reference that begins with '/' would not combine with a uriBaseId).
inline std::string sarif_uri(std::string_view raw_path) {
  static constexpr char hex[] = "0123456789ABCDEF";
  const std::string path = lexically_normal_path(raw_path);
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (const char c : path) {
    const auto b = static_cast<unsigned char>(c);
    if ((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '/') {
      out += c;
    } else {
      out += '%';
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  }
  return out;
}

// Whether `s` is an absolute URI (RFC 3986 §4.3): a scheme (a letter, then letters, digits, "+",
// "-" or "."), ":", then only characters a URI may hold (unreserved, reserved, and "%" with two hex
// digits); no space, no control character, nothing outside ASCII. SARIF's helpUri must be one.
inline bool is_absolute_uri(std::string_view s) noexcept {
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto hexdig = [&](char c) { return digit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); };
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || !alpha(s[0]))
    return false;
  for (std::size_t i = 1; i < colon; ++i)
    if (!alpha(s[i]) && !digit(s[i]) && s[i] != '+' && s[i] != '-' && s[i] != '.')
      return false;
  constexpr std::string_view allowed = "-._~:/?#[]@!$&'()*+,;=";
  for (std::size_t i = colon + 1; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size() || !hexdig(s[i + 1]) || !hexdig(s[i + 2]))
        return false;
      i += 2;
    } else if (!alpha(c) && !digit(c) && allowed.find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

// The SARIF 2.1.0 log of a lint run: the built-in rules, then every pack rule that has a finding
// (once), and each finding as a result; the packs' digests in the driver's properties.
inline contracts::sarif_log sarif_log(const lint_result& r, std::span<const loaded_pack> packs,
                                      const report_options& o = {}) {
  namespace v1 = contracts::sarif_v1;
  auto text = [](std::string s) { return v1::message{std::move(s)}; };
  auto notification = [&](std::string id, v1::level level, std::string message) {
    v1::notification n;
    n.descriptor.id = std::move(id);
    n.level_ = level;
    n.message = text(std::move(message));
    return n;
  };
  contracts::sarif_log log;
  v1::run& run = log.runs.emplace_back();
  v1::tool_component& driver = run.tool.driver;
  driver.name = "assay-evidence-lint";
  driver.version = o.tool_version;
  for (const builtin_rule& b : builtin_rule_table) {
    v1::reporting_descriptor& rule = driver.rules.emplace_back();
    rule.id = std::string(b.id);
    rule.short_description = text(std::string(b.description));
    rule.default_configuration.level_ = sarif_level(b.level);
    auto& tags = rule.properties.tags.emplace();
    for (std::string_view t : b.tags)
      if (!t.empty())
        tags.emplace_back(t);
    if (!b.security_severity.empty())
      rule.properties.security_severity = std::string(b.security_severity);
  }
  // Every pack rule with a finding, once.
  std::vector<bool> listed(r.rules.size(), false);
  std::vector<bool> noted(packs.size(), false);
  std::vector<v1::notification> notes;
  for (const finding& f : r.findings) {
    const rule_result& x = r.rules[f.rule];
    if (!x.pack || listed[f.rule])
      continue;
    listed[f.rule] = true;
    const loaded_pack& p = packs[*x.pack];
    v1::reporting_descriptor& rule = driver.rules.emplace_back();
    rule.id = x.rule_id;
    rule.short_description = text(x.description.empty() ? x.short_id : x.description);
    rule.default_configuration.level_ = sarif_level(x.level);
    for (const auto& def : p.definition.rules)
      if (def.id == x.short_id && def.help_markdown)
        rule.help = v1::message{x.description, *def.help_markdown};
    // helpUri only when the pack's source_url is an absolute URI; otherwise left out, and said
    // in a notification (once per pack).
    if (p.definition.source_url && is_absolute_uri(*p.definition.source_url)) {
      rule.help_uri = std::string(*p.definition.source_url);
    } else if (p.definition.source_url && !noted[*x.pack]) {
      noted[*x.pack] = true;
      notes.push_back(notification("ASSAY-LINT-HELPURI", "note",
                                   "pack " + std::string(p.definition.name) + "@" + p.definition.version +
                                       ": its source_url is not an absolute URI, so its rules have no helpUri"));
    }
    rule.properties.pack = std::string(p.definition.name);
    rule.properties.pack_version = p.definition.version;
    rule.properties.short_id = x.short_id;
  }
  for (const finding& f : r.findings) {
    v1::result& res = run.results.emplace_back();
    res.rule_id = f.rule_id;
    res.level_ = sarif_level(f.level());
    res.message = text(f.message);
    v1::location& at = res.locations.emplace_back();
    at.physical_location_.artifact_location_.uri = f.location ? std::string("events.ndjson") : sarif_uri(o.bundle_path);
    at.physical_location_.region.start_line =
        decltype(at.physical_location_.region.start_line)(f.location ? f.location->line.value() : std::int64_t{1});
    if (f.location)
      at.logical_locations.emplace().push_back({"seq:" + std::to_string(f.location->seq), {}});
    res.partial_fingerprints.assay_lint = f.fingerprint;
    if (!f.location_hash.empty())
      res.partial_fingerprints.primary_location_line_hash = f.location_hash;
  }
  for (const loaded_pack& p : packs)
    driver.properties.assay_packs.push_back({std::string(p.definition.name), p.definition.version, p.digest});
  v1::invocation& invocation = run.invocations.emplace_back();
  if (r.dropped != 0)
    notes.insert(notes.begin(),
                 notification("ASSAY-LINT-TRUNCATED", "warning",
                              std::to_string(r.dropped) + " finding(s) were dropped by the max_results cap of " +
                                  std::to_string(r.max_results) + "; the highest severities were kept."));
  if (!notes.empty())
    invocation.tool_execution_notifications = std::move(notes);
  run.automation_details.id = "assay-evidence/lint/" + r.run_id + "/" + o.tool_version;
  std::string disclaimer;
  for (const loaded_pack& p : packs)
    if (p.is_compliance() && p.definition.disclaimer)
      disclaimer += (disclaimer.empty() ? "" : "\n\n---\n\n") + std::string(*p.definition.disclaimer);
  if (!disclaimer.empty())
    run.properties.disclaimer = std::move(disclaimer);
  run.properties.applied_cap = decltype(run.properties.applied_cap)(static_cast<std::int64_t>(r.max_results));
  run.properties.dropped_results = decltype(run.properties.dropped_results)(static_cast<std::int64_t>(r.dropped));
  return log;
}

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE contracts::lint_report make_report<void>(const lint_result&, std::span<const loaded_pack>,
                                                               const report_options&);
}  // namespace assay::lint
#endif
