// assay/findings/render.hpp — review packets: a finding as Markdown, or as one self-contained
// HTML page (docs/findings.md).
//
//   auto md = assay::findings::render_markdown(f);      // results<std::string>
//   auto html = assay::findings::render_html(f);
//   assay::errors e = assay::findings::disagreements(f); // what render refuses, by JSON pointer
//
// A finding is proof-carrying: before anything is rendered, every computed member is derived
// again from the finding's own trial_results (the ledger the finding tells, ledger_of(), given
// to the same compute() `finding stats` uses) and compared with what the finding says, member by
// member, numbers by their canonical (JCS) bytes. A finding that disagrees is refused, each
// disagreeing member named by its JSON pointer ("/method/delta_confirmed: the finding says true,
// its trial_results give false"): a hand-edited verdict, interval or evidence never reaches a
// reviewer.
//
// Both show the intent, the verdict and the rule that gave it, the evidence, the per-route and
// per-label tables with their 95% Wilson intervals, and the trial ledger; the page adds a chart
// of the success rates with their intervals (inline SVG). Every string that came from the
// ledger is escaped for its format: in Markdown every ASCII punctuation character is
// backslash-escaped (so no emphasis, link, image, HTML, autolink, entity or table cell can come
// from it) and line breaks and other control characters become spaces; in HTML & < > " ' become
// character references and control characters U+FFFD; in both, the direction overrides, isolates
// and marks (and the other code points the terminal sanitizer escapes) show as `\uHHHH`. The page loads nothing (no
// script, no stylesheet, image or font from elsewhere) and has print rules. The output is a function of the finding:
// the same finding gives the same bytes.
#pragma once

#include "assay/contracts/finding.hpp"
#include "assay/error.hpp"
#include "assay/findings/stats.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/printable.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/separate.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::findings {

// --- proof: the finding derived again from its own trials ---------------------------------------

// The ledger `f` was computed from, as far as the finding tells it: its intent, case family,
// labels, trials and hypothesis binding as they are; the miss summary as the evidence shows it
// (evidence.observed when no laundered trial succeeded, else the by_framing entry of the first
// framing without a laundered success), absent when the finding never shows one.
inline trial_ledger ledger_of(const finding& f) {
  trial_ledger l;
  l.intent = f.intent;
  l.case_family = f.method.case_family;
  l.techniques = f.method.techniques;
  l.mutations = f.method.mutations;
  l.framings = f.method.framings;
  l.trial_results = f.method.trial_results;
  l.hypothesis_binding = f.method.hypothesis_binding;
  const auto laundered_hit = [](const trial_result& t) { return t.route == "laundered" && t.succeeded; };
  bool any = false;
  for (const auto& t : l.trial_results)
    any = any || laundered_hit(t);
  if (!any) {
    l.miss_summary = f.evidence.observed;
  } else if (f.method.framings && f.evidence.by_framing) {
    std::set<std::string_view> hit;
    for (const auto& t : l.trial_results)
      if (laundered_hit(t) && t.framing)
        hit.insert(*t.framing);
    for (const auto& fr : *f.method.framings) {
      if (hit.count(fr) != 0)
        continue;
      const auto it = f.evidence.by_framing->find(fr);
      if (it != f.evidence.by_framing->end() && !it->second.empty()) {
        l.miss_summary = it->second;
        break;
      }
    }
  }
  return l;
}

// At most this many disagreeing members are named; the rest are counted in one last line.
inline constexpr std::size_t max_disagreements = 100;

namespace detail {

// A value as a message shows it: canonical JSON, shortened past 200 bytes (at a UTF-8 boundary).
inline std::string shown(const json::value& v) {
  std::string s = json::to_canonical(v).value();
  if (s.size() <= 200)
    return s;
  std::size_t cut = 200;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
    --cut;
  return s.substr(0, cut) + "\u2026";
}

struct differ {
  errors out;
  std::size_t found = 0;

  void note(const std::string& at, std::string message) {
    if (found++ < max_disagreements) {
      error e = make_error(errc::rule_violation, std::move(message));
      e.pointer = at;
      out.items.push_back(std::move(e));
    }
  }

  // Every leaf where `said` (the finding) and `derived` (from its trials) differ.
  void walk(const std::string& at, const json::value* said, const json::value* derived) {
    if (said == nullptr) {
      note(at, "the finding leaves it out, its trial_results give " + shown(*derived));
      return;
    }
    if (derived == nullptr) {
      note(at, "the finding says " + shown(*said) + ", its trial_results give none");
      return;
    }
    if (said->is_object() && derived->is_object()) {
      // Both are canonical: members in the same (sorted) order, so one merge pass.
      const auto& a = said->as_object();
      const auto& b = derived->as_object();
      std::size_t i = 0, j = 0;
      while (i < a.size() || j < b.size()) {
        if (j == b.size() || (i < a.size() && json::utf16_less(a[i].name, b[j].name))) {
          walk(key_at(at, a[i].name), &a[i].value, nullptr);
          ++i;
        } else if (i == a.size() || json::utf16_less(b[j].name, a[i].name)) {
          walk(key_at(at, b[j].name), nullptr, &b[j].value);
          ++j;
        } else {
          walk(key_at(at, a[i].name), &a[i].value, &b[j].value);
          ++i;
          ++j;
        }
      }
      return;
    }
    if (said->is_array() && derived->is_array()) {
      const auto& a = said->as_array();
      const auto& b = derived->as_array();
      for (std::size_t i = 0; i < a.size() || i < b.size(); ++i)
        walk(at + "/" + std::to_string(i), i < a.size() ? &a[i] : nullptr, i < b.size() ? &b[i] : nullptr);
      return;
    }
    const std::string x = json::to_canonical(*said).value();
    const std::string y = json::to_canonical(*derived).value();
    if (x != y)
      note(at, "the finding says " + shown(*said) + ", its trial_results give " + shown(*derived));
  }

  static std::string key_at(const std::string& at, std::string_view key) {
    return at + "/" + json::escape_pointer_token(key);
  }
};

}  // namespace detail

// The members of `f` its own trial_results do not give, each by its JSON pointer; empty when
// `f` is exactly the finding of ledger_of(f). When the trials themselves break the ledger's rules
// (the evidence rules, the bounds), those violations, at the finding's pointers.
template <class = void>  // compiled only where used: it computes and encodes the finding
errors disagreements(const finding& f) {
  auto g = compute(ledger_of(f));
  if (!g) {
    errors out = g.error();
    for (auto& e : out.items) {
      for (const std::string_view m : {"/trial_results", "/framings", "/techniques", "/mutations"}) {
        if (e.pointer.rfind(m, 0) == 0) {
          e.pointer = "/method" + e.pointer;
          break;
        }
      }
    }
    return out;
  }
  const std::string said = encode_as_is(f);  // its rules not judged: they are what is compared
  auto derived = assay::encode(*g);
  if (!derived)  // a computed finding meets its contract: this would be a bug, said as such
    return derived.error();
  if (said == *derived)
    return {};
  json::limits lim;
  lim.max_members = static_cast<std::size_t>(-1);
  lim.max_string_chars = static_cast<std::size_t>(-1);
  const auto a = json::parse(said, lim);
  const auto b = json::parse(*derived, lim);
  if (!a)
    return errors(a.error());
  if (!b)
    return errors(b.error());
  detail::differ d;
  d.walk("", &*a, &*b);
  if (d.found > max_disagreements) {
    error e = make_error(errc::rule_violation, "and " + std::to_string(d.found - max_disagreements) +
                                                   " more members disagree with the finding's trial_results");
    d.out.items.push_back(std::move(e));
  }
  return std::move(d.out);
}

// --- escaping ----------------------------------------------------------------------------------

// `s` as Markdown text that reads as `s` and is nothing else. The code points the terminal
// sanitizer escapes (json::invisible_control: direction overrides, isolates and marks, C1
// controls, line separators) are shown as `\uHHHH`, its backslash escaped.
inline std::string markdown_text(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 4);
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    const auto c = static_cast<unsigned char>(ch);
    const json::utf8_char u = json::utf8_at(s, i);
    if (c < 0x20 || c == 0x7F) {
      out += ' ';
    } else if ((c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
               (c >= 0x7B && c <= 0x7E)) {
      out += '\\';
      out += ch;
    } else if (u.valid && json::invisible_control(u.cp)) {
      out += '\\';
      json::append_u_escape(out, u.cp);
    } else {
      out.append(s.data() + i, u.len);
    }
    i += u.len;
  }
  return out;
}

// `s` as HTML text or attribute value. The code points json::invisible_control names are shown
// as the text `\uHHHH` (a character reference would give the character itself).
inline std::string html_text(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (std::size_t i = 0; i < s.size();) {
    const char ch = s[i];
    const auto c = static_cast<unsigned char>(ch);
    const json::utf8_char u = json::utf8_at(s, i);
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if ((c < 0x20 && ch != '\n' && ch != '\t') || c == 0x7F)
          out += "&#xFFFD;";
        else if (u.valid && json::invisible_control(u.cp))
          json::append_u_escape(out, u.cp);
        else
          out.append(s.data() + i, u.len);
    }
    i += u.len;
  }
  return out;
}

namespace detail {

using contracts::finding_v1::route_pair;
using contracts::finding_v1::route_stats;
using contracts::finding_v1::trial_result;

// A rate as a percentage with one decimal ("12.5%").
inline std::string percent(double rate) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", rate * 100.0);
  return buf;
}

inline std::string fraction(const route_stats& s) {
  return std::to_string(s.successes.value()) + "/" + std::to_string(s.trials.value());
}

// The laundered successes/trials of the technique x mutation cell (t, mu), or empty when the
// matrix has no such cell.
inline std::string matrix_cell(const contracts::finding& f, std::string_view t, std::string_view mu) {
  const auto& matrix = *f.stats.technique_mutation_matrix;
  const auto row = matrix.find(std::string(t));
  if (row == matrix.end())
    return {};
  const auto c = row->second.find(std::string(mu));
  return c == row->second.end() ? std::string() : fraction(c->second.laundered);
}

inline std::string interval_text(const route_stats& s) {
  return "[" + percent(s.ci_low.value()) + ", " + percent(s.ci_high.value()) + "]";
}

// "1/2, 50.0% [9.5%, 90.5%]"
inline std::string cell_text(const route_stats& s) {
  return fraction(s) + ", " + percent(s.success_rate.value()) + " " + interval_text(s);
}

inline bool confirmed(const route_pair& p) {
  return delta_holds(p);
}

// One labelled table of the finding (by framing, technique or mutation), in label order.
struct label_table {
  std::string_view title;   // "By framing"
  std::string_view column;  // "framing"
  const std::vector<assay::non_empty>* labels;
  const std::map<std::string, route_pair>* cells;
};

inline std::vector<label_table> label_tables(const contracts::finding& f) {
  std::vector<label_table> out;
  const auto add = [&](std::string_view title, std::string_view column, const auto& labels, const auto& cells) {
    if (labels && cells)
      out.push_back({title, column, &*labels, &*cells});
  };
  add("By framing", "framing", f.method.framings, f.stats.by_framing);
  add("By technique", "technique", f.method.techniques, f.stats.by_technique);
  add("By mutation", "mutation", f.method.mutations, f.stats.by_mutation);
  return out;
}

inline std::string optional_label(const std::optional<assay::non_empty>& v) {
  return v ? std::string(*v) : std::string();
}

inline std::string joined(const std::vector<assay::non_empty>& items, std::string_view sep) {
  std::string out;
  for (const auto& i : items)
    out += (out.empty() ? "" : std::string(sep)) + std::string(i);
  return out;
}

// The hypothesis binding as one line of plain text (escaped by the caller).
inline std::string binding_text(const contracts::finding_v1::binding& b) {
  std::string out = b.hypothesis_id;
  std::vector<std::string> parts;
  if (b.owasp_asi)
    parts.push_back("OWASP ASI " + joined(*b.owasp_asi, ", "));
  if (b.atlas)
    parts.push_back("ATLAS " + joined(*b.atlas, ", "));
  if (b.graph_ref)
    parts.push_back("graph " + std::string(*b.graph_ref));
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? " (" : "; ") + parts[i];
  return parts.empty() ? out : out + ")";
}

// The columns of the trial ledger: the labels only when some trial has one.
enum class cell_kind { text, long_text, number, code };
struct ledger_column {
  std::string_view header;
  cell_kind kind;
  std::string (*cell)(const trial_result&);
  std::optional<assay::non_empty> trial_result::*label;  // an optional label's member, or null
};

inline std::vector<ledger_column> ledger_columns(const std::vector<trial_result>& trials) {
  static constexpr ledger_column all[] = {
      {"#", cell_kind::number, [](const trial_result& t) { return std::to_string(t.trial_index.value()); }, nullptr},
      {"route", cell_kind::text, [](const trial_result& t) { return std::string(t.route.value()); }, nullptr},
      {"succeeded", cell_kind::text, [](const trial_result& t) { return std::string(t.succeeded ? "yes" : "no"); },
       nullptr},
      {"framing", cell_kind::text, [](const trial_result& t) { return optional_label(t.framing); },
       &trial_result::framing},
      {"probe", cell_kind::text, [](const trial_result& t) { return optional_label(t.probe_id); },
       &trial_result::probe_id},
      {"technique", cell_kind::text, [](const trial_result& t) { return optional_label(t.technique_id); },
       &trial_result::technique_id},
      {"mutation", cell_kind::text, [](const trial_result& t) { return optional_label(t.mutation_id); },
       &trial_result::mutation_id},
      {"oracle", cell_kind::text, [](const trial_result& t) { return std::string(t.evidence.oracle); }, nullptr},
      {"observed", cell_kind::long_text, [](const trial_result& t) { return t.evidence.observed; }, nullptr},
      {"transcript", cell_kind::code, [](const trial_result& t) { return std::string(t.transcript_ref); }, nullptr},
  };
  std::vector<ledger_column> out;
  for (const auto& c : all) {
    bool shown = c.label == nullptr;
    for (const auto& t : trials)
      shown = shown || (t.*c.label).has_value();
    if (shown)
      out.push_back(c);
  }
  return out;
}

inline std::string verdict_words(const contracts::finding& f) {
  return f.method.delta_confirmed ? "delta confirmed" : "delta not confirmed";
}

}  // namespace detail

// --- Markdown ----------------------------------------------------------------------------------

namespace detail {

// The Markdown packet of a finding already checked (render_markdown checks it).
inline std::string markdown_packet(const contracts::finding& f) {
  const auto md = [](std::string_view s) { return markdown_text(s); };
  std::string o;
  o += "# Finding: " + md(f.intent) + "\n\n";
  o += "**Verdict: " + verdict_words(f) + ".** " + md(f.method.verdict_policy) + "\n\n";
  o += "| | |\n|---|---|\n";
  o += "| Evidence (from the oracle) | " + md(f.evidence.observed) + " |\n";
  if (f.method.case_family)
    o += "| Case family | " + md(*f.method.case_family) + " |\n";
  if (f.method.hypothesis_binding)
    o += "| Hypothesis | " + md(binding_text(*f.method.hypothesis_binding)) + " |\n";
  o += "| Trials | " + std::to_string(f.method.trial_results.size()) + " |\n\n";

  o += "## Routes\n\n";
  o += "| route | trials | successes | success rate | 95% Wilson interval |\n|---|---:|---:|---:|---|\n";
  for (const auto* name : {"direct", "laundered"}) {
    const route_stats& s = std::string_view(name) == "direct" ? f.stats.by_route.direct : f.stats.by_route.laundered;
    o += std::string("| ") + name + " | " + std::to_string(s.trials.value()) + " | " +
         std::to_string(s.successes.value()) + " | " + percent(s.success_rate.value()) + " | " + interval_text(s) +
         " |\n";
  }
  o += "\n";

  for (const auto& t : label_tables(f)) {
    const bool framing = t.column == "framing";
    o += "## " + std::string(t.title) + "\n\n";
    o += "| " + std::string(t.column) + " | direct | laundered | delta |" +
         (framing && f.evidence.by_framing ? " observed |" : "") + "\n|---|---|---|---|" +
         (framing && f.evidence.by_framing ? "---|" : "") + "\n";
    for (const auto& label : *t.labels) {
      const auto it = t.cells->find(label);
      if (it == t.cells->end())
        continue;
      o += "| " + md(label) + " | " + cell_text(it->second.direct) + " | " + cell_text(it->second.laundered) + " | " +
           (confirmed(it->second) ? "confirmed" : "not confirmed") + " |";
      if (framing && f.evidence.by_framing) {
        const auto seen = f.evidence.by_framing->find(label);
        o += " " + (seen == f.evidence.by_framing->end() ? std::string() : md(seen->second)) + " |";
      }
      o += "\n";
    }
    o += "\n";
  }

  if (f.stats.technique_mutation_matrix && f.method.techniques && f.method.mutations) {
    o += "## Technique x mutation (laundered successes/trials)\n\n| technique |";
    std::string rule = "|---|";
    for (const auto& mu : *f.method.mutations) {
      o += " " + md(mu) + " |";
      rule += "---|";
    }
    o += "\n" + rule + "\n";
    for (const auto& t : *f.method.techniques) {
      o += "| " + md(t) + " |";
      for (const auto& mu : *f.method.mutations) {
        o += " " + matrix_cell(f, t, mu) + " |";
      }
      o += "\n";
    }
    o += "\n";
  }

  if (f.stats.robust_across && !f.stats.robust_across->empty()) {
    o += "## Robust across\n\n| condition | held |\n|---|---|\n";
    for (const auto& [condition, held] : *f.stats.robust_across)
      o += "| " + md(condition) + " | " + (held ? "yes" : "no") + " |\n";
    o += "\n";
  }

  o += "## Trial ledger\n\n";
  const auto columns = ledger_columns(f.method.trial_results);
  std::string rule;
  o += "|";
  for (const auto& c : columns) {
    o += " " + std::string(c.header) + " |";
    rule += c.kind == cell_kind::number ? "---:|" : "---|";
  }
  o += "\n|" + rule + "\n";
  for (const trial_result& t : f.method.trial_results) {
    o += "|";
    for (const auto& c : columns) {
      const std::string v = c.cell(t);
      o += " " + (c.kind == cell_kind::code ? "`" + v + "`" : c.kind == cell_kind::number ? v : md(v)) + " |";
    }
    o += "\n";
  }
  o += "\n";
  return o;
}

}  // namespace detail

// The Markdown packet of `f`, or its disagreements() when it is not what its trials give.
template <class = void>
results<std::string> render_markdown(const contracts::finding& f) {
  if (errors e = disagreements(f); !e.empty())
    return e;
  return detail::markdown_packet(f);
}

// --- HTML --------------------------------------------------------------------------------------

namespace detail {

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// At most `max` code points of `s`, and "…" when some were left out.
inline std::string shortened(std::string_view s, std::size_t max) {
  std::size_t points = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80)
      continue;  // a continuation byte
    if (points++ == max - 1)
      return std::string(s.substr(0, i)) + "\u2026";
  }
  return std::string(s);
}

// One bar of the chart: a label, the rate, its interval.
struct bar {
  std::string group;  // "all trials", or a framing
  std::string_view route;
  const route_stats* s;
};

// The chart: one row per route of every trial, then per framing; a bar for the success rate and
// a whisker for its interval, on a 0..100% axis.
inline std::string chart_svg(const contracts::finding& f) {
  std::vector<bar> bars;
  bars.push_back({"all trials", "direct", &f.stats.by_route.direct});
  bars.push_back({"all trials", "laundered", &f.stats.by_route.laundered});
  if (f.method.framings && f.stats.by_framing) {
    for (const auto& fr : *f.method.framings) {
      const auto it = f.stats.by_framing->find(fr);
      if (it == f.stats.by_framing->end())
        continue;
      bars.push_back({std::string(fr), "direct", &it->second.direct});
      bars.push_back({std::string(fr), "laundered", &it->second.laundered});
    }
  }
  const double left = 250, width = 420, row = 26, top = 30;
  const double height = top + row * static_cast<double>(bars.size()) + 30;
  std::string o = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 780 " + num(height) +
                  "\" role=\"img\" aria-labelledby=\"chart-title\">\n<title id=\"chart-title\">Success rate by "
                  "route, with 95% Wilson intervals</title>\n";
  for (int tick = 0; tick <= 100; tick += 25) {
    const double x = left + width * tick / 100.0;
    o += "<line class=\"grid\" x1=\"" + num(x) + "\" y1=\"" + num(top - 6) + "\" x2=\"" + num(x) + "\" y2=\"" +
         num(height - 24) + "\"/><text class=\"tick\" x=\"" + num(x) + "\" y=\"" + num(height - 8) +
         "\" text-anchor=\"middle\">" + std::to_string(tick) + "%</text>\n";
  }
  o += "<text class=\"legend\" x=\"" + num(left) +
       "\" y=\"14\"><tspan class=\"direct\">&#9632;</tspan> direct "
       "<tspan class=\"laundered\">&#9632;</tspan> laundered &#8212; whiskers: 95% Wilson interval</text>\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const bar& b = bars[i];
    const double y = top + row * static_cast<double>(i);
    const double mid = y + row / 2 - 2;
    const double rate = b.s->success_rate.value();
    const double low = left + width * b.s->ci_low.value();
    const double high = left + width * b.s->ci_high.value();
    // The group's name once, above its two rows, shortened to its column (the whole name as a tooltip).
    const bool first = i % 2 == 0;
    o += "<g class=\"" + std::string(b.route) + "\">";
    if (first) {
      o += "<text class=\"group\" x=\"8\" y=\"" + num(mid + 4) + "\"><title>" + html_text(b.group) + "</title>" +
           html_text(shortened(b.group, 22)) + "</text>";
    }
    o += "<text class=\"route\" x=\"" + num(left - 8) + "\" y=\"" + num(mid + 4) + "\" text-anchor=\"end\">" +
         std::string(b.route) + "</text>";
    o += "<rect x=\"" + num(left) + "\" y=\"" + num(y + 4) + "\" width=\"" + num(width * rate) + "\" height=\"" +
         num(row - 12) + "\"/>";
    o += "<path class=\"whisker\" d=\"M" + num(low) + " " + num(mid) + "H" + num(high) + "M" + num(low) + " " +
         num(mid - 5) + "V" + num(mid + 5) + "M" + num(high) + " " + num(mid - 5) + "V" + num(mid + 5) + "\"/>";
    o += "<circle cx=\"" + num(left + width * rate) + "\" cy=\"" + num(mid) + "\" r=\"3.5\"/>";
    o += "<text class=\"value\" x=\"" + num(left + width + 6) + "\" y=\"" + num(mid + 4) + "\">" + fraction(*b.s) +
         (b.s->trials.value() == 0 ? std::string(" no trials") : " " + percent(rate)) + "</text></g>\n";
  }
  o += "</svg>\n";
  return o;
}

// cell_text() for a page: it may break between the rate and the interval, nowhere else.
inline std::string html_cell(const route_stats& s) {
  return "<span class=\"nw\">" + fraction(s) + ", " + percent(s.success_rate.value()) + "</span> <span class=\"nw\">" +
         interval_text(s) + "</span>";
}

inline constexpr std::string_view page_style = R"(
:root { color-scheme: light; --direct: #4a6fa5; --laundered: #c8553d; --rule: #d0d4da; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #1d2330; background: #fff; margin: 0 auto; max-width: 1040px; padding: 24px 28px 48px; }
h1 { font-size: 1.5em; margin: 0 0 .6em; overflow-wrap: anywhere; }
h1 .kind { display: block; font-size: .6em; font-weight: 600; letter-spacing: .08em; text-transform: uppercase;
  color: #5b6472; }
h2 { font-size: 1.15em; margin: 1.6em 0 .5em; border-bottom: 1px solid var(--rule); padding-bottom: .2em; }
.verdict { border-left: 6px solid; padding: .7em 1em; margin: 1em 0; background: #f6f7f9; }
.verdict.yes { border-color: var(--laundered); }
.verdict.no { border-color: var(--direct); }
.verdict strong { font-size: 1.1em; }
.verdict p { margin: .3em 0 0; }
table { border-collapse: collapse; width: 100%; margin: .4em 0 1em; font-size: .92em; }
th, td { border: 1px solid var(--rule); padding: 4px 8px; text-align: left; vertical-align: top;
  overflow-wrap: break-word; }
td.long, table.facts td { overflow-wrap: anywhere; }
td.long { min-width: 11em; }
.ledger td.long { min-width: 7em; }
@media (max-width: 760px) { .ledger th { white-space: normal; } }
.ledger th { white-space: nowrap; }
th { background: #eef0f3; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.nw { white-space: nowrap; }
td.v { white-space: nowrap; overflow-wrap: normal; }
td.ok { color: #8a2c19; font-weight: 600; }
table.facts th { width: 14em; }
.ledger { font-size: .84em; }
.ledger code { font-size: .95em; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.chart { width: 100%; max-width: 780px; height: auto; display: block; margin: .5em 0 1em; }
.chart text { font: 12px system-ui, sans-serif; fill: #1d2330; }
.chart .tick { fill: #5b6472; }
.chart .grid { stroke: var(--rule); stroke-width: 1; }
.chart .direct rect, .chart .direct circle, .chart tspan.direct { fill: var(--direct); }
.chart .laundered rect, .chart .laundered circle, .chart tspan.laundered { fill: var(--laundered); }
.chart circle { stroke: #fff; stroke-width: 1; }
.chart .whisker { stroke: #1d2330; stroke-width: 1.6; fill: none; }
.chart .group { font-weight: 600; }
footer { margin-top: 2em; color: #5b6472; font-size: .85em; }
@media print {
  @page { margin: 14mm; }
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2 { break-after: avoid; }
  tr, .chart, .verdict { break-inside: avoid; }
  thead { display: table-header-group; }
  .ledger { font-size: 8pt; }
  .ledger th { white-space: normal; }
}
)";

// The page of a finding already checked (render_html checks it).
inline std::string html_packet(const contracts::finding& f) {
  const auto h = [](std::string_view s) { return html_text(s); };
  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  o += "<title>Finding: " + h(f.intent) + "</title>\n<style>" + std::string(page_style) + "</style>\n</head>\n<body>\n";
  o += "<h1><span class=\"kind\">Finding</span>" + h(f.intent) + "</h1>\n";
  o += std::string("<div class=\"verdict ") + (f.method.delta_confirmed ? "yes" : "no") +
       "\"><strong>Verdict: " + verdict_words(f) + ".</strong><p>" + h(f.method.verdict_policy) + "</p></div>\n";
  o += "<table class=\"facts\">\n<tr><th scope=\"row\">Evidence (from the oracle)</th><td>" + h(f.evidence.observed) +
       "</td></tr>\n";
  if (f.method.case_family)
    o += "<tr><th scope=\"row\">Case family</th><td>" + h(*f.method.case_family) + "</td></tr>\n";
  if (f.method.hypothesis_binding)
    o += "<tr><th scope=\"row\">Hypothesis</th><td>" + h(binding_text(*f.method.hypothesis_binding)) + "</td></tr>\n";
  o += "<tr><th scope=\"row\">Trials</th><td>" + std::to_string(f.method.trial_results.size()) + "</td></tr>\n";
  o += "</table>\n";

  o += "<h2>Success rates</h2>\n" + chart_svg(f);

  o += "<h2>Routes</h2>\n<table>\n<thead><tr><th>route</th><th>trials</th><th>successes</th><th>success "
       "rate</th><th>95% Wilson interval</th></tr></thead>\n<tbody>\n";
  for (const auto* name : {"direct", "laundered"}) {
    const route_stats& s = std::string_view(name) == "direct" ? f.stats.by_route.direct : f.stats.by_route.laundered;
    o += std::string("<tr><td>") + name + "</td><td class=\"n\">" + std::to_string(s.trials.value()) +
         "</td><td class=\"n\">" + std::to_string(s.successes.value()) + "</td><td class=\"n\">" +
         percent(s.success_rate.value()) + "</td><td class=\"n\">" + interval_text(s) + "</td></tr>\n";
  }
  o += "</tbody>\n</table>\n";

  for (const auto& t : label_tables(f)) {
    const bool observed = t.column == "framing" && f.evidence.by_framing;
    o += "<h2>" + std::string(t.title) + "</h2>\n<table>\n<thead><tr><th>" + std::string(t.column) +
         "</th><th>direct</th><th>laundered</th><th>delta</th>" + (observed ? "<th>observed</th>" : "") +
         "</tr></thead>\n<tbody>\n";
    for (const auto& label : *t.labels) {
      const auto it = t.cells->find(label);
      if (it == t.cells->end())
        continue;
      const bool yes = confirmed(it->second);
      o += "<tr><td>" + h(label) + "</td><td class=\"n\">" + html_cell(it->second.direct) + "</td><td class=\"n\">" +
           html_cell(it->second.laundered) + "</td><td" +
           (yes ? " class=\"v ok\">confirmed" : " class=\"v\">not confirmed") + "</td>";
      if (observed) {
        const auto seen = f.evidence.by_framing->find(label);
        o += "<td class=\"long\">" + (seen == f.evidence.by_framing->end() ? std::string() : h(seen->second)) + "</td>";
      }
      o += "</tr>\n";
    }
    o += "</tbody>\n</table>\n";
  }

  if (f.stats.technique_mutation_matrix && f.method.techniques && f.method.mutations) {
    o += "<h2>Technique &#215; mutation</h2>\n<p>Laundered successes / trials.</p>\n<table>\n<thead><tr><th>"
         "technique</th>";
    for (const auto& mu : *f.method.mutations)
      o += "<th>" + h(mu) + "</th>";
    o += "</tr></thead>\n<tbody>\n";
    for (const auto& t : *f.method.techniques) {
      o += "<tr><td>" + h(t) + "</td>";
      for (const auto& mu : *f.method.mutations) {
        o += "<td class=\"n\">" + detail::matrix_cell(f, t, mu) + "</td>";
      }
      o += "</tr>\n";
    }
    o += "</tbody>\n</table>\n";
  }

  if (f.stats.robust_across && !f.stats.robust_across->empty()) {
    o += "<h2>Robust across</h2>\n<table>\n<thead><tr><th>condition</th><th>held</th></tr></thead>\n<tbody>\n";
    for (const auto& [condition, held] : *f.stats.robust_across)
      o += "<tr><td>" + h(condition) + "</td><td>" + (held ? "yes" : "no") + "</td></tr>\n";
    o += "</tbody>\n</table>\n";
  }

  o += "<h2>Trial ledger</h2>\n<table class=\"ledger\">\n<thead><tr>";
  const auto columns = ledger_columns(f.method.trial_results);
  for (const auto& c : columns)
    o += "<th>" + std::string(c.header) + "</th>";
  o += "</tr></thead>\n<tbody>\n";
  for (const trial_result& t : f.method.trial_results) {
    o += "<tr>";
    for (const auto& c : columns) {
      const std::string v = h(c.cell(t));
      switch (c.kind) {
        case cell_kind::number:
          o += "<td class=\"n\">" + v + "</td>";
          break;
        case cell_kind::code:
          o += "<td class=\"long\"><code>" + v + "</code></td>";
          break;
        case cell_kind::long_text:
          o += "<td class=\"long\">" + v + "</td>";
          break;
        case cell_kind::text:
          o += "<td>" + v + "</td>";
          break;
      }
    }
    o += "</tr>\n";
  }
  o += "</tbody>\n</table>\n";
  o += "<footer>finding-v1 review packet. Intervals are 95% Wilson score intervals; no trials gives [0%, "
       "100%].</footer>\n</body>\n</html>\n";
  return o;
}

}  // namespace detail

// The HTML page of `f`, or its disagreements() when it is not what its trials give.
template <class = void>
results<std::string> render_html(const contracts::finding& f) {
  if (errors e = disagreements(f); !e.empty())
    return e;
  return detail::html_packet(f);
}

}  // namespace assay::findings

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::findings {
ASSAY_EXTERN_TEMPLATE errors disagreements<void>(const finding&);
ASSAY_EXTERN_TEMPLATE results<std::string> render_markdown<void>(const contracts::finding&);
ASSAY_EXTERN_TEMPLATE results<std::string> render_html<void>(const contracts::finding&);
}  // namespace assay::findings
#endif
