// assay/lint/pack.hpp — loading a pack (docs/packs.md): validation, normalization and its digest.
//
//   auto p = assay::lint::load_pack(text, {assay::lint::pack_source::origin::file, "my-pack.json"});
//   if (!p) std::cerr << p.error().format();              // every error: pack, pointer, reason
//   p->digest;                                             // "sha256:…", as the reference computes it
//   p->canonical_rule_id(p->definition.rules[0].id);       // "my-pack@1.0.0:R-001"
//
// This header reads JSON packs with the strict reader and needs no YAML library; include
// assay/lint/pack_yaml.hpp (libyaml) and pass `yaml_options()` to read YAML, and JSON as YAML.
// Finding a pack by `--pack` value (paths, built-ins, the config directory) is resolve.hpp.
//
// Loading runs, in order: the reader (syntax, duplicate keys), the scalar rules of docs/packs.md
// (pack_document.hpp), the pack-v1 contract (members, types, names, severities, checks, the
// compliance disclaimer, unique rule ids, one spelling of x-assay), then `assay_min_version`
// against the pack format implemented here and the signals against the registry. Every error
// names the pack, carries the JSON Pointer of the member and, when it has one, its position.
#pragma once

#include "assay/contracts/pack.hpp"
#include "assay/error.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/value.hpp"
#include "assay/lint/glob.hpp"
#include "assay/lint/pack_document.hpp"
#include "assay/lint/signals.hpp"
#include "assay/reflect/codec.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <compare>
#include <limits>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

using contracts::pack_v1::check_type;

// --- severities ------------------------------------------------------------------------------------

enum class severity : std::uint8_t { info, warning, error };  // in increasing order

constexpr std::string_view name(severity s) noexcept {
  return s == severity::error ? "error" : s == severity::warning ? "warning" : "info";
}

// Every spelling a pack may use: error/Error, warning/Warning/warn/Warn, info/Info.
constexpr std::optional<severity> parse_severity(std::string_view s) noexcept {
  if (s == "error" || s == "Error")
    return severity::error;
  if (s == "warning" || s == "Warning" || s == "warn" || s == "Warn")
    return severity::warning;
  if (s == "info" || s == "Info")
    return severity::info;
  return std::nullopt;
}

// --- requires.assay_min_version ----------------------------------------------------------------------

// The reference version whose pack engine this library follows (docs/packs.md).
inline constexpr std::string_view pack_format_version = "5.4.0";

struct version {
  std::uint32_t major = 0, minor = 0, patch = 0;
  friend constexpr auto operator<=>(const version&, const version&) = default;
};

// A decimal u32 as Rust's `str::parse::<u32>` reads one: a leading '+' allowed, then digits
// only (leading zeros too), at most 2^32 - 1.
constexpr bool parse_u32(std::string_view s, std::uint32_t& out) noexcept {
  if (!s.empty() && s[0] == '+')
    s.remove_prefix(1);
  if (s.empty())
    return false;
  std::uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
    if (n > 0xFFFFFFFFu)
      return false;
  }
  out = static_cast<std::uint32_t>(n);
  return true;
}

// `major.minor[.patch[-…]]`, each part a decimal u32 (parse_u32), the patch cut at its first
// '-', parts after the third ignored; nothing else.
constexpr std::optional<version> parse_version(std::string_view v) noexcept {
  std::string_view parts[3];
  std::size_t count = 0;
  while (count < 3) {
    const std::size_t dot = v.find('.');
    parts[count++] = v.substr(0, dot);
    if (dot == std::string_view::npos) {
      v = {};
      break;
    }
    v.remove_prefix(dot + 1);
  }
  version out;
  if (count < 2 || !parse_u32(parts[0], out.major) || !parse_u32(parts[1], out.minor))
    return std::nullopt;
  if (count == 3 && !parse_u32(parts[2].substr(0, parts[2].find('-')), out.patch))
    return std::nullopt;
  return out;
}

// requires.assay_min_version as a version: every leading ">=" stripped, then every leading "=".
constexpr std::optional<version> parse_min_version(std::string_view required) noexcept {
  while (required.substr(0, 2) == ">=")
    required.remove_prefix(2);
  while (!required.empty() && required[0] == '=')
    required.remove_prefix(1);
  return parse_version(required);
}

// --- a loaded pack -------------------------------------------------------------------------------------

struct pack_source {
  enum class origin : std::uint8_t { text, file, built_in };
  origin from = origin::text;
  std::string name{};  // the file's path as given, the built-in's name, or a label for text

  // How errors name the pack.
  std::string label() const {
    if (from == origin::built_in)
      return "built-in pack " + name;
    return name.empty() ? std::string("pack") : name;
  }
  // The `source` of soak and lint reports: "built-in" or the path.
  std::string report_value() const { return from == origin::built_in ? std::string("built-in") : name; }
};

// A check with its members typed (the pack-v1 check, validated).
struct check_spec {
  check_type type = check_type::unsupported;
  std::uint64_t min = 0;                          // event_count
  std::string start_pattern{}, finish_pattern{};  // event_pairs
  std::string pattern{};                          // event_type_exists
  std::string path{};                             // manifest_field
  bool required = false;                          // manifest_field
  bool in_data = false;                           // event_field_present (already applied to `paths`)
  // event_field_present: the pointers to look for (paths_any_of when not empty, else each any_of
  // name as /data/<name> with in_data, /<name> without); json_path_exists: its paths.
  std::vector<std::string> paths{};
  // json_path_exists (value_equals) and conditional (condition, then; their shape is lint's to
  // judge): the check as written, whose scalars keep their YAML typing (lint compares `1`, `1.0`
  // and `"1"` as three values; literal.hpp).
  pack_node node{};
  // event_pairs (start, finish) and event_type_exists (pattern, in `first`): the globs compiled
  // once, at load; nothing when malformed (lint reports the rule, docs/packs.md).
  std::optional<glob> first{}, second{};
};

struct loaded_pack {
  // As written, normalized: severities in their canonical spelling, x-assay in its object form,
  // checks with only their type's members (none for an unsupported type), unknown rule members
  // dropped.
  contracts::pack definition;
  std::string digest;  // "sha256:<hex>" (docs/packs.md)
  pack_source source;
  std::vector<check_spec> checks;  // one per rule

  std::string canonical_rule_id(std::string_view rule_id) const {
    return std::string(definition.name) + "@" + definition.version + ":" + std::string(rule_id);
  }
  severity severity_of(const contracts::pack_v1::rule& r) const { return parse_severity(r.severity).value(); }
  bool is_compliance() const { return definition.kind == "compliance"; }
  // x-assay.requires_signals, in pack order (empty when none).
  std::vector<std::string> requires_signals() const {
    std::vector<std::string> out;
    if (const auto* s = definition.requires_signals())
      out.assign(s->begin(), s->end());
    return out;
  }
};

// The reference to `p` a report lists, for any report's pack_ref T (lint, soak, closure, in-toto):
// each member T declares, by its name, set from the pack — name, version, kind, digest, source (as
// reports write it: "built-in" or the path), source_url (when the pack has one) — and checked
// against T's constraints; other members keep their defaults.
template <class T>
result<T> ref_of(const loaded_pack& p) {
  T out{};
  std::optional<error> failed;
  reflect::for_each_index<T>([&](auto i) {
    constexpr std::string_view member = reflect::field_name<T, decltype(i)::value>;
    std::optional<std::string> text;
    if constexpr (member == "name")
      text = std::string(p.definition.name);
    else if constexpr (member == "version")
      text = p.definition.version;
    else if constexpr (member == "kind")
      text = std::string(p.definition.kind.value());
    else if constexpr (member == "digest")
      text = p.digest;
    else if constexpr (member == "source")
      text = p.source.report_value();
    else if constexpr (member == "source_url")
      text = p.definition.source_url;
    if (text && !failed)
      if (result<void> r = assign(reflect::get<decltype(i)::value>(out), *text); !r)
        failed = make_error(r.error().code, p.source.label() + ": " + std::string(member) + ": " + r.error().message);
  });
  if (failed)
    return *failed;
  return out;
}

namespace detail {

// Whether packs[i] is one of the packs before it (the same name, version and digest).
inline bool listed_before(std::span<const loaded_pack> packs, std::size_t i) {
  const loaded_pack& p = packs[i];
  return std::any_of(packs.begin(), packs.begin() + static_cast<std::ptrdiff_t>(i), [&](const loaded_pack& q) {
    return q.definition.name == p.definition.name && q.definition.version == p.definition.version &&
           q.digest == p.digest;
  });
}

}  // namespace detail

// Whether `packs` can be used together (docs/packs.md "Linting with a pack"): the same canonical
// rule id in two packs is an error when either is a compliance pack — two packs of one
// name@version whose rules differ (one maps OWN-003 to one article, the other to another) among
// them. The one check of it: lint and soak refuse such packs (linter::create calls it), and a
// bundle or an attestation is not stamped with them.
inline result<void> check_packs_together(std::span<const loaded_pack> packs) {
  struct seen_id {
    std::string id;
    std::size_t pack;
  };
  std::vector<seen_id> seen;
  for (std::size_t p = 0; p < packs.size(); ++p) {
    const loaded_pack& pack = packs[p];
    for (const auto& r : pack.definition.rules) {
      std::string id = pack.canonical_rule_id(r.id);
      const auto dup = std::find_if(seen.begin(), seen.end(), [&](const seen_id& s) { return s.id == id; });
      if (dup == seen.end()) {
        seen.push_back({std::move(id), p});
        continue;
      }
      if (dup->pack != p && (pack.is_compliance() || packs[dup->pack].is_compliance()))
        return make_error(errc::invalid_argument, "rule " + quoted_text(id) + " is defined by two packs (" +
                                                      packs[dup->pack].source.label() + " and " + pack.source.label() +
                                                      "); a compliance pack's rule ids must be unique");
    }
  }
  return {};
}

// The references to `packs` a report or a manifest lists (ref_of each), in order, each pack once.
template <class T>
std::vector<T> refs_of(std::span<const loaded_pack> packs) {
  std::vector<T> out;
  for (std::size_t i = 0; i < packs.size(); ++i)
    if (!detail::listed_before(packs, i))
      out.push_back(ref_of<T>(packs[i]).value());  // a loaded pack meets every reference's constraints
  return out;
}

// The rules of `packs` mapped to a regulatory framework (docs/evidence.md `x-assay.mappings`,
// docs/attestation.md `mappings[]`), for any mapping type T with members rule, framework and ref: one per rule with an
// `article_ref`, in pack and rule order — `rule` its canonical id, `framework` its pack's name,
// `ref` the article_ref text. A pack listed twice (same name, version, digest) maps once.
template <class T>
std::vector<T> mappings_of(std::span<const loaded_pack> packs) {
  std::vector<T> out;
  for (std::size_t i = 0; i < packs.size(); ++i) {
    const loaded_pack& p = packs[i];
    if (detail::listed_before(packs, i))
      continue;
    for (const auto& r : p.definition.rules) {
      if (!r.article_ref || r.article_ref->empty())
        continue;
      T m{};
      m.rule = p.canonical_rule_id(r.id);
      m.framework = std::string(p.definition.name);
      m.ref = *r.article_ref;
      out.push_back(std::move(m));
    }
  }
  return out;
}

// --- loading ------------------------------------------------------------------------------------------

using pack_reader = result<pack_node> (*)(std::string_view text);

inline result<pack_node> json_pack_reader(std::string_view text) {
  return read_json_pack(text);
}

struct pack_options {
  const signal_registry* signals = nullptr;  // the signals packs may name; nullptr: registry v0
  pack_reader reader = nullptr;              // nullptr: JSON (json_pack_reader)
};

namespace detail {

inline check_spec spec_of(const contracts::pack_v1::check& c) {
  check_spec s;
  s.type = c.kind();
  auto text = [&](std::string_view n) {
    const json::value* v = c.member(n);
    return v != nullptr && v->is_string() ? v->as_string() : std::string();
  };
  auto flag = [&](std::string_view n) {
    const json::value* v = c.member(n);
    return v != nullptr && v->is_bool() && v->as_bool();
  };
  auto strings = [&](std::string_view n) {
    std::vector<std::string> out;
    if (const json::value* v = c.member(n); v != nullptr && v->is_array())
      for (const json::value& item : v->as_array())
        out.push_back(item.as_string());
    return out;
  };
  switch (s.type) {
    case check_type::event_count:
      // 2^64 - 1 reads as the double 2^64: the largest count there is.
      s.min = c.member("min")->as_number() >= 18446744073709551615.0
                  ? std::numeric_limits<std::uint64_t>::max()
                  : static_cast<std::uint64_t>(c.member("min")->as_number());
      break;
    case check_type::event_pairs:
      s.start_pattern = text("start_pattern");
      s.finish_pattern = text("finish_pattern");
      break;
    case check_type::event_field_present:
      s.in_data = flag("in_data");
      s.paths = strings("paths_any_of");
      if (s.paths.empty())
        for (const std::string& field : strings("any_of"))
          s.paths.push_back((s.in_data ? "/data/" : "/") + field);
      break;
    case check_type::event_type_exists:
      s.pattern = text("pattern");
      break;
    case check_type::manifest_field:
      s.path = text("path");
      s.required = flag("required");
      break;
    case check_type::json_path_exists:
      s.paths = strings("paths");
      break;
    case check_type::conditional:
    case check_type::g3_authorization_context_present:
    case check_type::unsupported:
      break;
  }
  return s;
}

// Severities in their canonical spelling, one x-assay form, checks reduced to their members.
inline void normalize(contracts::pack& p) {
  for (contracts::pack_v1::rule& r : p.rules) {
    r.severity = decltype(r.severity)::of(parse_severity(r.severity).value());
    r.ignored.clear();
    extra_members<> kept;
    for (const auto& m : contracts::pack_v1::check_members(r.check.kind()))
      if (const json::value* v = r.check.member(m.name); v != nullptr && !v->is_null())
        kept.emplace(std::string(m.name), *v);
    r.check.members = std::move(kept);
  }
  if (p.x_assay_requires_signals) {
    p.x_assay = contracts::pack_v1::x_assay{std::move(p.x_assay_requires_signals)};
    p.x_assay_requires_signals.reset();
  }
}

template <class T>
json::value or_null(const std::optional<T>& v) {
  return v ? json::value(std::string(*v)) : json::value(nullptr);
}

}  // namespace detail

// The document whose canonical bytes the digest hashes (docs/packs.md): the typed pack with every
// member, absent optionals as null (in_data and required as false), severities normalized, each
// check as {type, <its members>} ("unsupported" for an unknown type), x-assay only with signals.
inline json::value digest_document(const contracts::pack& p) {
  using contracts::pack_v1::member_kind;
  json::value doc = json::object{};
  doc.set("name", std::string(p.name));
  doc.set("version", p.version);
  doc.set("kind", p.kind.value());
  doc.set("description", p.description);
  doc.set("author", p.author);
  doc.set("license", p.license);
  doc.set("source_url", detail::or_null(p.source_url));
  doc.set("disclaimer", detail::or_null(p.disclaimer));
  json::value req = json::object{};
  req.set("assay_min_version", p.requires_.assay_min_version);
  req.set("evidence_schema_version", detail::or_null(p.requires_.evidence_schema_version));
  doc.set("requires", std::move(req));
  json::array rules;
  for (const contracts::pack_v1::rule& r : p.rules) {
    json::value rule = json::object{};
    rule.set("id", std::string(r.id));
    rule.set("severity", name(parse_severity(r.severity).value()));
    rule.set("description", r.description);
    rule.set("article_ref", detail::or_null(r.article_ref));
    rule.set("help_markdown", detail::or_null(r.help_markdown));
    rule.set("engine_min_version", detail::or_null(r.engine_min_version));
    if (r.event_types) {
      json::array types;
      for (const auto& t : *r.event_types)
        types.emplace_back(std::string(t));
      rule.set("event_types", std::move(types));
    } else {
      rule.set("event_types", nullptr);
    }
    const check_type t = r.check.kind();
    json::value check = json::object{};
    check.set("type", contracts::pack_v1::name(t));
    for (const auto& m : contracts::pack_v1::check_members(t)) {
      const json::value* v = r.check.member(m.name);
      if (v != nullptr && !v->is_null())
        check.set(m.name, *v);
      else
        check.set(m.name, m.kind == member_kind::boolean ? json::value(false) : json::value(nullptr));
    }
    rule.set("check", std::move(check));
    rules.push_back(std::move(rule));
  }
  doc.set("rules", std::move(rules));
  if (const auto* signals = p.requires_signals(); signals != nullptr && !signals->empty()) {
    json::array list;
    for (const auto& s : *signals)
      list.emplace_back(std::string(s));
    json::value x = json::object{};
    x.set("requires_signals", std::move(list));
    doc.set("x-assay", std::move(x));
  }
  return doc;
}

// "sha256:" + hex(sha256(JCS(digest_document(p)))).
template <class = void>  // compiled only where used: it instantiates the digest
std::string pack_digest(const contracts::pack& p) {
  return hash::digest_of<hash::sha256>(digest_document(p)).value().to_string();
}

namespace detail {

// A whole number written as a float (`min: 1.0`) is no integer to the reference, though it is to
// JSON: event_count.min must be written as an integer. (Other non-integers the contract refuses.)
inline std::vector<error> check_integer_literals(const pack_node& tree) {
  std::vector<error> out;
  const pack_node* rules = tree.find("rules");
  if (rules == nullptr || !rules->is_sequence())
    return out;
  for (std::size_t i = 0; i < rules->items.size(); ++i) {
    const pack_node* check = rules->items[i].find("check");
    const pack_node* type = check != nullptr ? check->find("type") : nullptr;
    const pack_node* min = check != nullptr ? check->find("min") : nullptr;
    if (type == nullptr || !type->is_scalar() || type->text != "event_count" || min == nullptr || !min->is_scalar())
      continue;
    auto v = yaml_scalar::typed(*min);
    double d = 0;
    const bool float_form = min->tag == "tag:yaml.org,2002:float" || !yaml_scalar::parse_integer(min->text, d);
    if (v && v->is_number() && float_form && v->as_number() > 0 && std::floor(v->as_number()) == v->as_number())
      out.push_back(make_error(errc::rule_violation, "event_count.min must be an integer > 0, found " + min->text,
                               "/rules/" + std::to_string(i) + "/check/min"));
  }
  return out;
}

// An integer no 64-bit integer holds (past 2^64 - 1 or below -2^63) anywhere in a rule's check
// (value_equals, a conditional, even a member the check ignores): the reference reads the check
// into JSON values, which cannot hold it, and refuses the pack ("invalid type: integer `…` as
// u128, expected any value").
inline void check_integer_ranges(const pack_node& n, const std::string& pointer, const std::string& path,
                                 std::vector<error>& out) {
  if (n.is_sequence() || n.is_mapping()) {
    for (std::size_t i = 0; i < n.items.size(); ++i) {
      const bool seq = n.is_sequence();
      const std::string key = seq ? std::to_string(i) : n.keys[i];
      check_integer_ranges(n.items[i], pointer + "/" + json::escape_pointer_token(key),
                           path + (seq ? "[" + key + "]" : "." + key), out);
    }
    return;
  }
  if (!n.plain || !(n.tag.empty() || n.tag == "tag:yaml.org,2002:int"))
    return;
  std::uint64_t magnitude = 0;
  bool negative = false;
  if (yaml_scalar::parse_integer_exact(n.text, magnitude, negative) == -1)
    out.push_back(make_error(errc::above_maximum,
                             path + ": invalid type: integer `" + n.text + "` as " +
                                 (!n.text.empty() && n.text[0] == '-' ? "i128" : "u128") +
                                 ", expected any value (integers run from -2^63 to 2^64 - 1)",
                             pointer));
}

inline std::vector<error> check_integer_ranges(const pack_node& tree) {
  std::vector<error> out;
  const pack_node* rules = tree.find("rules");
  if (rules == nullptr || !rules->is_sequence())
    return out;
  for (std::size_t i = 0; i < rules->items.size(); ++i) {
    if (const pack_node* check = rules->items[i].find("check"))
      check_integer_ranges(*check, "/rules/" + std::to_string(i) + "/check", "rules[" + std::to_string(i) + "].check",
                           out);
  }
  return out;
}

inline errors in_input_order(errors e) {
  std::stable_sort(e.items.begin(), e.items.end(), [](const error& a, const error& b) { return a.offset < b.offset; });
  return e;
}

// An error placed at the node its pointer names, in the words of a pack load error.
inline error pack_error(const pack_source& src, const pack_node& tree, error e) {
  const located where = locate(tree, e.pointer);
  const text_position at =
      where.at_key && (!where.complete || e.code == errc::unknown_member) ? where.key : where.node->at;
  e.offset = at.offset;
  e.line = at.line;
  e.column = at.column;
  e.source = src.label();
  return e;
}

}  // namespace detail

// Loads a pack from its tree (as a reader made it).
template <class = void>
results<loaded_pack> load_pack(const pack_node& tree, pack_source source, const pack_options& opts = {}) {
  errors errs;
  auto fail = [&](error e) { errs.items.push_back(detail::pack_error(source, tree, std::move(e))); };

  for (error& e : detail::check_integer_literals(tree))
    fail(std::move(e));
  for (error& e : detail::check_integer_ranges(tree))
    fail(std::move(e));
  auto json = to_json<contracts::pack>(tree);
  if (!json) {
    for (const error& e : json.error())
      fail(e);
    return errs;
  }
  auto decoded = from_value<contracts::pack>(*json);
  if (!decoded) {
    for (const error& e : decoded.error())
      fail(e);
  }
  if (!errs.empty())
    return detail::in_input_order(std::move(errs));
  contracts::pack& p = *decoded;

  const std::optional<version> required = parse_min_version(p.requires_.assay_min_version);
  const version implemented = parse_version(pack_format_version).value();
  if (!required) {
    fail(make_error(errc::format_mismatch,
                    "requires.assay_min_version " + quoted_text(p.requires_.assay_min_version) +
                        " is not a version ([>=]major.minor[.patch]); this library implements the pack format of "
                        "assay " +
                        std::string(pack_format_version),
                    "/requires/assay_min_version"));
  } else if (*required > implemented) {
    fail(make_error(errc::unsupported,
                    "the pack requires assay " + p.requires_.assay_min_version +
                        ", above the pack format this library implements (assay " + std::string(pack_format_version) +
                        ")",
                    "/requires/assay_min_version"));
  }

  const signal_registry& registry = opts.signals != nullptr ? *opts.signals : signal_registry::v0();
  const std::string list_at = p.x_assay_requires_signals ? "/x-assay.requires_signals" : "/x-assay/requires_signals";
  if (const auto* signals = p.requires_signals()) {
    for (std::size_t i = 0; i < signals->size(); ++i)
      if (registry.find((*signals)[i]) == nullptr)
        fail(make_error(errc::enum_mismatch,
                        "unknown signal " + quoted_text((*signals)[i]) + " (registered: " + registry.names() + ")",
                        list_at + "/" + std::to_string(i)));
  }
  if (!errs.empty())
    return detail::in_input_order(std::move(errs));

  detail::normalize(p);
  loaded_pack out{std::move(p), {}, std::move(source), {}};
  out.digest = pack_digest(out.definition);
  out.checks.reserve(out.definition.rules.size());
  const pack_node* rules = tree.find("rules");
  for (std::size_t i = 0; i < out.definition.rules.size(); ++i) {
    out.checks.push_back(detail::spec_of(out.definition.rules[i].check));
    const check_type t = out.checks.back().type;
    if (t == check_type::json_path_exists || t == check_type::conditional)
      out.checks.back().node = *rules->items[i].find("check");
    // Globs compile here, once; one past the bound is a load error naming the rule (docs/packs.md).
    check_spec& c = out.checks.back();
    auto compile = [&](const std::string& pattern, std::string_view member, std::optional<glob>& into) {
      auto g = glob::build(pattern);
      if (g.status == glob_status::too_large)
        errs.items.push_back(
            detail::pack_error(out.source, tree,
                               make_error(errc::size_limit,
                                          "rule " + quoted_text(std::string(out.definition.rules[i].id)) +
                                              ": the glob in check." + std::string(member) + " compiles to more than " +
                                              std::to_string(glob::max_states) + " automaton states",
                                          "/rules/" + std::to_string(i) + "/check/" + std::string(member))));
      into = std::move(g.glob);
    };
    if (t == check_type::event_pairs) {
      compile(c.start_pattern, "start_pattern", c.first);
      compile(c.finish_pattern, "finish_pattern", c.second);
    } else if (t == check_type::event_type_exists) {
      compile(c.pattern, "pattern", c.first);
    }
  }
  if (!errs.empty())
    return detail::in_input_order(std::move(errs));
  return out;
}

// Loads a pack from its text: JSON, or YAML with pack_yaml.hpp's reader in `opts`.
template <class = void>
results<loaded_pack> load_pack(std::string_view text, pack_source source = {}, const pack_options& opts = {}) {
  auto tree = (opts.reader != nullptr ? opts.reader : &json_pack_reader)(text);
  if (!tree) {
    error e = std::move(tree).error();
    e.source = source.label();
    return errors(std::move(e));
  }
  return load_pack(*tree, std::move(source), opts);
}

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE std::string pack_digest<void>(const contracts::pack&);
ASSAY_EXTERN_TEMPLATE results<loaded_pack> load_pack<void>(const pack_node&, pack_source, const pack_options&);
ASSAY_EXTERN_TEMPLATE results<loaded_pack> load_pack<void>(std::string_view, pack_source, const pack_options&);
}  // namespace assay::lint
#endif
