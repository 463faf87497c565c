// assay/lint/explain.hpp — what `--explain <rule>` says of a rule from its pack alone, no bundle
// needed (docs/packs.md, "Explain"): its canonical id, severity, description, pack, check, the events it
// looks at, its article, and its help_markdown rendered for a terminal.
//
//   const auto* r = assay::lint::find_rule(packs, "CICD-002");   // short or canonical id
//   if (r) std::cout << assay::lint::describe_rule(packs, *r) << assay::lint::rule_help(packs, *r);
//
// The texts come from packs, which anybody may write: every piece of a pack's text in them is made
// printable (json/printable.hpp), so their line breaks are their own and no pack can forge one.
#pragma once

#include "assay/json/canonical.hpp"
#include "assay/json/printable.hpp"
#include "assay/lint/builtin_rules.hpp"
#include "assay/lint/pack.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace assay::lint {

// A rule named by `--explain`: a rule of packs[pack] (its index in the pack's rules), or one of the
// built-in rules.
struct rule_ref {
  std::optional<std::size_t> pack;
  std::size_t index = 0;                  // in the pack's rules
  const builtin_rule* builtin = nullptr;  // when pack is empty
};

// The rule whose canonical id (`<pack>@<version>:<id>`) or short id is `id`: packs in order, rules
// in file order, the first that matches; then the built-in rules. None when no rule has that id.
inline std::optional<rule_ref> find_rule(std::span<const loaded_pack> packs, std::string_view id) {
  for (std::size_t p = 0; p < packs.size(); ++p) {
    const auto& rules = packs[p].definition.rules;
    for (std::size_t i = 0; i < rules.size(); ++i) {
      const std::string_view short_id = rules[i].id;
      if (short_id == id || packs[p].canonical_rule_id(short_id) == id)
        return rule_ref{p, i, nullptr};
    }
  }
  for (const builtin_rule& b : builtin_rule_table)
    if (b.id == id)
      return rule_ref{std::nullopt, 0, &b};
  return std::nullopt;
}

// The rule's canonical id and severity on the first line, its description indented under it, then
// (for a pack rule) `pack:`, `check:` (its canonical JSON, as the digest reads it), `looks at:` and
// `article:` lines. Every line ends with '\n'; the pack's text in them is made printable.
inline std::string describe_rule(std::span<const loaded_pack> packs, const rule_ref& r) {
  if (!r.pack) {
    const builtin_rule& b = *r.builtin;
    return std::string(b.id) + " (" + std::string(name(b.level)) + ")\n  " + std::string(b.description) +
           "\n  built-in rule: checked on every event of every bundle\n";
  }
  const loaded_pack& p = packs[*r.pack];
  const auto& def = p.definition.rules[r.index];
  std::string out = json::printable(p.canonical_rule_id(def.id)) + " (" + std::string(name(p.severity_of(def))) +
                    ")\n  " + json::printable(def.description) + "\n";
  const json::value doc = digest_document(p.definition);
  const auto check = json::to_canonical(*doc.find("rules")->as_array()[r.index].find("check"));
  out += "  pack: " + json::printable(std::string(p.definition.name) + "@" + p.definition.version) + " (" +
         json::printable(p.source.report_value()) + ")\n";
  out += "  check: " + (check ? json::printable(*check) : std::string("?")) + "\n";
  if (def.event_types) {
    std::string types;
    for (const auto& t : *def.event_types)
      types += (types.empty() ? "" : ", ") + json::printable(t);
    out += "  looks at: events of type " + types + "\n";
  } else {
    out += "  looks at: every event\n";
  }
  if (def.article_ref)
    out += "  article: " + json::printable(*def.article_ref) + "\n";
  return out;
}

namespace detail {

// `line` with its inline Markdown made plain: **strong** and __strong__ lose their marks, and a
// link [text](url) becomes `text <url>`. Code spans keep their backticks (they read well as they
// are), and nothing inside one is changed.
inline std::string plain_inline(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size();) {
    const char c = line[i];
    if (c == '`') {
      const std::size_t end = line.find('`', i + 1);
      const std::size_t stop = end == std::string_view::npos ? line.size() : end + 1;
      out.append(line.substr(i, stop - i));
      i = stop;
    } else if ((c == '*' || c == '_') && i + 1 < line.size() && line[i + 1] == c) {
      i += 2;  // a strong mark, opening or closing
    } else if (c == '[') {
      const std::size_t close = line.find("](", i + 1);
      const std::size_t end = close == std::string_view::npos ? close : line.find(')', close + 2);
      if (end == std::string_view::npos) {
        out += c;
        ++i;
        continue;
      }
      out += plain_inline(line.substr(i + 1, close - i - 1));
      out += " <";
      out.append(line.substr(close + 2, end - close - 2));
      out += ">";
      i = end + 1;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

inline std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s)
    n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace detail

// help_markdown as a terminal shows it well, each line indented by `indent` spaces: a heading
// (`#` … `######`) as its text underlined (`=` for level 1, `-` below), list items (`-`, `*`, `+`)
// as `•` items, block quotes (`>`) behind a `│` bar, fenced code blocks indented by four more without their fences,
// strong marks dropped, links as `text <url>`; blank lines kept (runs of them as one), lines not rewrapped; each line's
// text made printable (a lone CR, an escape sequence or a bidi override shows as an escape).
inline std::string render_markdown_for_terminal(std::string_view md, std::size_t indent = 2) {
  const std::string pad(indent, ' ');
  std::string out;
  bool in_fence = false, last_blank = true;
  while (!md.empty()) {
    const std::size_t nl = md.find('\n');
    std::string_view line = md.substr(0, nl);
    md.remove_prefix(nl == std::string_view::npos ? md.size() : nl + 1);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    std::string_view trimmed = line;
    while (!trimmed.empty() && trimmed.front() == ' ')
      trimmed.remove_prefix(1);
    if (trimmed.substr(0, 3) == "```" || trimmed.substr(0, 3) == "~~~") {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) {
      out += pad + "    " + json::printable(line) + "\n";
      last_blank = false;
      continue;
    }
    if (trimmed.empty()) {
      if (!last_blank)
        out += "\n";
      last_blank = true;
      continue;
    }
    last_blank = false;
    std::size_t level = 0;
    while (level < trimmed.size() && trimmed[level] == '#')
      ++level;
    if (level >= 1 && level <= 6 && level < trimmed.size() && trimmed[level] == ' ') {
      std::string_view text = trimmed.substr(level + 1);
      while (!text.empty() && (text.back() == ' ' || text.back() == '#'))
        text.remove_suffix(1);
      const std::string heading = json::printable(detail::plain_inline(text));
      out += pad + heading + "\n" + pad + std::string(detail::code_points(heading), level == 1 ? '=' : '-') + "\n";
      continue;
    }
    const std::size_t lead = line.size() - trimmed.size();
    if (trimmed[0] == '>') {
      std::string_view quoted = trimmed.substr(1);
      if (!quoted.empty() && quoted[0] == ' ')
        quoted.remove_prefix(1);
      out += pad + std::string(lead, ' ') + "\xE2\x94\x82 " + json::printable(detail::plain_inline(quoted)) + "\n";
      continue;
    }
    if (trimmed.size() >= 2 && (trimmed[0] == '-' || trimmed[0] == '*' || trimmed[0] == '+') && trimmed[1] == ' ') {
      out += pad + std::string(lead, ' ') + "\xE2\x80\xA2 " + json::printable(detail::plain_inline(trimmed.substr(2))) +
             "\n";
      continue;
    }
    out += pad + std::string(lead, ' ') + json::printable(detail::plain_inline(trimmed)) + "\n";
  }
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  return out;
}

// "help:" and the rule's help_markdown rendered (above), or "" when the rule has none.
inline std::string rule_help(std::span<const loaded_pack> packs, const rule_ref& r) {
  if (!r.pack)
    return {};
  const auto& def = packs[*r.pack].definition.rules[r.index];
  if (!def.help_markdown || def.help_markdown->empty())
    return {};
  return "  help:\n" + render_markdown_for_terminal(*def.help_markdown, 4);
}

}  // namespace assay::lint
