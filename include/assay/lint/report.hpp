// assay/lint/report.hpp — what a lint run reports (SPEC §11): the lint-report-v1 document, the
// text for people, and SARIF 2.1.0.
//
//   auto doc = assay::lint::make_report(result, packs, {.fail_on = severity::error, .tool_version = "1.2.3"});
//   std::cout << assay::lint::text_report(result, threshold);
//   json::value sarif = assay::lint::sarif_log(result, packs, {...});
#pragma once

#include "assay/contracts/lint_report.hpp"
#include "assay/json/printable.hpp"
#include "assay/json/value.hpp"
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
    v1::finding vf;
    vf.severity = sev(f.level);
    vf.message = f.message;
    if (f.location) {
      v1::location l;
      l.seq = decltype(l.seq)(static_cast<std::int64_t>(f.location->seq));
      l.line = decltype(l.line)(static_cast<std::int64_t>(f.location->line));
      l.event_type = f.location->event_type;
      vf.location = std::move(l);
    }
    vf.fingerprint = f.fingerprint;
    out.results[f.rule].findings.push_back(std::move(vf));
    ++by_severity[static_cast<int>(f.level)];
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
    out += std::string(name(f.level)) + " " + id;
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

inline std::string_view sarif_level(severity s) {
  return s == severity::error ? "error" : s == severity::warning ? "warning" : "note";
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

inline json::value sarif_log(const lint_result& r, std::span<const loaded_pack> packs, const report_options& o = {}) {
  auto text = [](std::string_view s) {
    json::value v = json::object{};
    v.set("text", std::string(s));
    return v;
  };
  json::array rules;
  for (const builtin_rule& b : builtin_rule_table) {
    json::value rule = json::object{};
    rule.set("id", std::string(b.id));
    rule.set("shortDescription", text(b.description));
    json::value config = json::object{};
    config.set("level", std::string(sarif_level(b.level)));
    rule.set("defaultConfiguration", std::move(config));
    json::value props = json::object{};
    json::array tags;
    for (std::string_view t : b.tags)
      if (!t.empty())
        tags.emplace_back(std::string(t));
    props.set("tags", std::move(tags));
    if (!b.security_severity.empty())
      props.set("security-severity", std::string(b.security_severity));
    rule.set("properties", std::move(props));
    rules.push_back(std::move(rule));
  }
  // Every pack rule with a finding, once.
  std::vector<bool> listed(r.rules.size(), false);
  std::vector<bool> noted(packs.size(), false);
  json::array notes;
  for (const finding& f : r.findings) {
    const rule_result& x = r.rules[f.rule];
    if (!x.pack || listed[f.rule])
      continue;
    listed[f.rule] = true;
    const loaded_pack& p = packs[*x.pack];
    json::value rule = json::object{};
    rule.set("id", x.rule_id);
    rule.set("shortDescription", text(x.description.empty() ? x.short_id : x.description));
    json::value config = json::object{};
    config.set("level", std::string(sarif_level(x.level)));
    rule.set("defaultConfiguration", std::move(config));
    for (const auto& def : p.definition.rules)
      if (def.id == x.short_id && def.help_markdown) {
        json::value help = text(x.description);
        help.set("markdown", *def.help_markdown);
        rule.set("help", std::move(help));
      }
    // helpUri only when the pack's source_url is an absolute URI; otherwise left out, and said
    // in a notification (once per pack).
    if (p.definition.source_url && is_absolute_uri(*p.definition.source_url))
      rule.set("helpUri", std::string(*p.definition.source_url));
    else if (p.definition.source_url && !noted[*x.pack]) {
      noted[*x.pack] = true;
      json::value note = json::object{};
      json::value descriptor = json::object{};
      descriptor.set("id", "ASSAY-LINT-HELPURI");
      note.set("descriptor", std::move(descriptor));
      note.set("level", "note");
      note.set("message", text("pack " + std::string(p.definition.name) + "@" + p.definition.version +
                               ": its source_url is not an absolute URI, so its rules have no helpUri"));
      notes.push_back(std::move(note));
    }
    json::value props = json::object{};
    props.set("pack", std::string(p.definition.name));
    props.set("pack_version", p.definition.version);
    props.set("short_id", x.short_id);
    rule.set("properties", std::move(props));
    rules.push_back(std::move(rule));
  }
  json::array results;
  for (const finding& f : r.findings) {
    json::value res = json::object{};
    res.set("ruleId", f.rule_id);
    res.set("level", std::string(sarif_level(f.level)));
    res.set("message", text(f.message));
    json::value artifact = json::object{};
    artifact.set("uri", f.location ? std::string("events.ndjson") : sarif_uri(o.bundle_path));
    json::value region = json::object{};
    region.set("startLine", static_cast<double>(f.location ? f.location->line : 1));
    json::value physical = json::object{};
    physical.set("artifactLocation", std::move(artifact));
    physical.set("region", std::move(region));
    json::value location = json::object{};
    location.set("physicalLocation", std::move(physical));
    if (f.location) {
      json::value logical = json::object{};
      logical.set("name", "seq:" + std::to_string(f.location->seq));
      logical.set("kind", "event");
      location.set("logicalLocations", json::array{std::move(logical)});
    }
    res.set("locations", json::array{std::move(location)});
    json::value prints = json::object{};
    prints.set("assayLintFingerprint/v1", f.fingerprint);
    if (!f.location_hash.empty())
      prints.set("primaryLocationLineHash", f.location_hash);
    res.set("partialFingerprints", std::move(prints));
    results.push_back(std::move(res));
  }
  json::value driver = json::object{};
  driver.set("name", "assay-evidence-lint");
  driver.set("version", o.tool_version);
  driver.set("rules", std::move(rules));
  json::array pack_list;
  for (const loaded_pack& p : packs) {
    json::value entry = json::object{};
    entry.set("name", std::string(p.definition.name));
    entry.set("version", p.definition.version);
    entry.set("digest", p.digest);
    pack_list.push_back(std::move(entry));
  }
  json::value driver_props = json::object{};
  driver_props.set("assayPacks", std::move(pack_list));
  driver.set("properties", std::move(driver_props));
  json::value tool = json::object{};
  tool.set("driver", std::move(driver));
  json::value invocation = json::object{};
  invocation.set("executionSuccessful", true);
  if (r.dropped != 0) {
    json::value note = json::object{};
    json::value descriptor = json::object{};
    descriptor.set("id", "ASSAY-LINT-TRUNCATED");
    note.set("descriptor", std::move(descriptor));
    note.set("level", "warning");
    note.set("message", text(std::to_string(r.dropped) + " finding(s) were dropped by the max_results cap of " +
                             std::to_string(r.max_results) + "; the highest severities were kept."));
    notes.insert(notes.begin(), std::move(note));
  }
  if (!notes.empty())
    invocation.set("toolExecutionNotifications", std::move(notes));
  json::value run = json::object{};
  run.set("tool", std::move(tool));
  run.set("invocations", json::array{std::move(invocation)});
  json::value automation = json::object{};
  automation.set("id", "assay-evidence/lint/" + r.run_id + "/" + o.tool_version);
  run.set("automationDetails", std::move(automation));
  run.set("results", std::move(results));
  json::value run_props = json::object{};
  std::string disclaimer;
  for (const loaded_pack& p : packs)
    if (p.is_compliance() && p.definition.disclaimer)
      disclaimer += (disclaimer.empty() ? "" : "\n\n---\n\n") + std::string(*p.definition.disclaimer);
  if (!disclaimer.empty())
    run_props.set("disclaimer", disclaimer);
  run_props.set("appliedCap", static_cast<double>(r.max_results));
  run_props.set("droppedResults", static_cast<double>(r.dropped));
  run.set("properties", std::move(run_props));
  json::value log = json::object{};
  log.set("$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json");
  log.set("version", "2.1.0");
  log.set("runs", json::array{std::move(run)});
  return log;
}

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE contracts::lint_report make_report<void>(const lint_result&, std::span<const loaded_pack>,
                                                               const report_options&);
}  // namespace assay::lint
#endif
