// assay/lint/engine.hpp — lint(verified bundle, packs) (docs/packs.md), a visitor of the one
// verification pass.
//
//   auto packs = assay::lint::load_packs(values, assay::lint::yaml_options());
//   auto l = assay::lint::linter::create(*packs, {.bundle_path = "run.tar.gz"});
//   if (!l) ...;                                             // two compliance packs share a rule id
//   auto v = assay::evidence::verify_bundle_file("run.tar.gz", {}, *l);   // one pass
//   if (v) { assay::lint::lint_result r = l->take(); }
//
// The six built-in rules (builtin_rules.hpp) run over every event, then every rule of every pack
// in the order given (packs in order, rules in file order; a canonical id already run is not run
// again). Each rule keeps its own state through the pass and stops looking once its outcome is
// settled, so the pass costs little more than verifying. Every rule ends pass, violated or
// skipped (with its reason); findings carry the reference's fingerprints. At most max_results
// findings are reported: past that the highest severities are kept, and `dropped` says how many
// were not.
#pragma once

#include "assay/error.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/lint/builtin_rules.hpp"
#include "assay/lint/event_view.hpp"
#include "assay/lint/glob.hpp"
#include "assay/lint/literal.hpp"
#include "assay/lint/pack.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

// The pack engine version rules may require (engine_min_version).
inline constexpr std::string_view engine_version = "1.2";

enum class outcome : std::uint8_t { pass, violated, skipped };

constexpr std::string_view name(outcome o) noexcept {
  return o == outcome::pass ? "pass" : o == outcome::violated ? "violated" : "skipped";
}

struct rule_result {
  std::string rule_id;              // built-in id, or canonical <pack>@<version>:<id>
  std::string short_id;             // the id in its pack (the built-in id for built-ins)
  std::optional<std::size_t> pack;  // index into the packs; none for a built-in rule
  severity level = severity::info;
  outcome status = outcome::pass;
  std::string reason;  // skipped: why
  std::string description;
  std::size_t findings = 0;  // found (reported or dropped)
};

struct lint_options {
  std::size_t max_results = 500;
  std::string bundle_path = "bundle.tar.gz";  // as given: SARIF locations of global findings
};

struct lint_result {
  std::vector<rule_result> rules;
  std::vector<finding> findings;  // reported: at most max_results, highest severities kept
  std::size_t dropped = 0;        // findings past max_results
  std::size_t max_results = 0;
  std::optional<severity> highest;  // of all findings, reported or dropped
  std::string run_id, bundle_id;
  std::uint64_t event_count = 0;

  // Whether the lint fails at a threshold (nullopt: --fail-on none, never).
  bool fails(std::optional<severity> threshold) const noexcept {
    return threshold && highest && *highest >= *threshold;
  }
};

// engine_min_version satisfied by this engine: "major.minor" (more parts ignored) at most 1.2.
inline bool engine_satisfies(std::string_view required) {
  const std::size_t dot = required.find('.');
  if (dot == std::string_view::npos)
    return false;
  std::string_view minor = required.substr(dot + 1);
  minor = minor.substr(0, minor.find('.'));
  std::uint32_t major = 0, min = 0;
  if (!parse_u32(required.substr(0, dot), major) || !parse_u32(minor, min))
    return false;
  return major < 1 || (major == 1 && min <= 2);
}

namespace detail {

// How serde names a value it did not expect, for the reasons of an unsupported conditional.
inline std::string unexpected(const pack_node& n) {
  if (n.is_mapping())
    return "map";
  if (n.is_sequence())
    return "sequence";
  const literal l = literal::of(n);
  switch (l.type) {
    case literal::kind::null:
      return "unit value";
    case literal::kind::boolean:
      return std::string("boolean `") + (l.flag ? "true" : "false") + "`";
    case literal::kind::integer:
      return "integer `" + l.text() + "`";
    case literal::kind::floating:
      return "floating point `" + l.text() + "`";
    default:
      return "string " + l.text();
  }
}

// A mapping with exactly the fields `names` (all required), as serde reads a struct that denies
// unknown fields: the first unknown field, else the first missing one, is the error.
inline std::optional<std::string> struct_shape(const pack_node& n, std::initializer_list<std::string_view> names,
                                               std::string_view what) {
  if (!n.is_mapping())
    return "invalid type: " + unexpected(n) + ", expected struct " + std::string(what);
  std::string expected;
  std::size_t k = 0;
  for (std::string_view f : names) {
    expected += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + ("`" + std::string(f) + "`");
    ++k;
  }
  for (const std::string& key : n.keys)
    if (std::find(names.begin(), names.end(), key) == names.end())
      return "unknown field `" + key + "`, expected " + (names.size() == 1 ? expected : "one of " + expected);
  for (std::string_view f : names)
    if (n.find(f) == nullptr)
      return "missing field `" + std::string(f) + "`";
  return std::nullopt;
}

inline bool plain_string(const pack_node& n) {
  return n.is_scalar() && literal::of(n).type == literal::kind::string;
}

}  // namespace detail

template <class = void>
class basic_linter {
 public:
  // Checks the packs can run together (check_packs_together): the same canonical rule id in two
  // packs is an error when either is a compliance pack. The packs must outlive the linter.
  static result<basic_linter> create(std::span<const loaded_pack> packs, lint_options options = {}) {
    basic_linter l;
    l.options_ = std::move(options);
    l.packs_ = packs;
    for (std::size_t b = 0; b < std::size(builtin_rule_table); ++b) {
      const builtin_rule& r = builtin_rule_table[b];
      l.rules_.push_back({std::string(r.id),
                          std::string(r.id),
                          std::nullopt,
                          r.level,
                          outcome::pass,
                          {},
                          std::string(r.description),
                          0});
    }
    if (auto together = check_packs_together(packs); !together)
      return together.error();
    std::vector<std::string> seen;
    for (std::size_t p = 0; p < packs.size(); ++p) {
      const loaded_pack& pack = packs[p];
      for (std::size_t i = 0; i < pack.definition.rules.size(); ++i) {
        const auto& r = pack.definition.rules[i];
        std::string id = pack.canonical_rule_id(r.id);
        if (std::find(seen.begin(), seen.end(), id) != seen.end())
          continue;  // already run (the same pack twice, or non-compliance packs sharing an id)
        seen.push_back(id);
        l.rules_.push_back({id, std::string(r.id), p, pack.severity_of(r), outcome::pass, {}, r.description, 0});
        l.states_.push_back(l.compile(p, i, l.rules_.size() - 1));
      }
    }
    // The event members the pointers start with, each looked up once per event (slot 0: none).
    for (rule_state& s : l.states_) {
      if (s.spec->type == check_type::manifest_field)
        continue;
      auto slot = [&](const event_pointer& ptr) {
        const std::string_view m = ptr.root_member();
        if (m.empty())
          return std::size_t{0};
        const auto at = std::find(l.roots_.begin(), l.roots_.end(), m);
        if (at != l.roots_.end())
          return static_cast<std::size_t>(at - l.roots_.begin()) + 1;
        l.roots_.emplace_back(m);
        return l.roots_.size();
      };
      for (const event_pointer& ptr : s.pointers)
        s.pointer_roots.push_back(slot(ptr));
      for (const auto& clause : s.clauses)
        s.clause_roots.push_back(slot(clause.first));
    }
    l.root_at_.resize(l.roots_.size() + 1);
    return l;
  }

  void on_manifest(const evidence::bundle_manifest& m) {
    std::optional<json::document> doc;
    std::string text;
    for (rule_state& s : states_) {
      if (s.done || s.spec->type != check_type::manifest_field)
        continue;
      if (!doc) {
        text = manifest_model(m.bytes);
        auto parsed = json::document::parse(text);
        if (!parsed)
          return;  // not reached: the verifier has read the manifest
        doc.emplace(std::move(*parsed));
      }
      s.found = s.pointers.front().find(*doc, false) != event_pointer::npos;
      s.done = true;
    }
  }

  void on_event(const evidence::verified_event& e) {
    builtins_.on_event(e);
    ++events_;
    // The event's type, as an index into the types seen so far (a rule's scope and globs are
    // decided once per type, not once per event); past max_types, npos: decided every time.
    std::size_t type = npos;
    if (last_type_ < types_.size() && types_[last_type_] == e.type) {
      type = last_type_;
    } else {
      const auto at = std::find(types_.begin(), types_.end(), e.type);
      if (at != types_.end()) {
        type = last_type_ = static_cast<std::size_t>(at - types_.begin());
      } else if (types_.size() < max_types) {
        types_.emplace_back(e.type);
        type = last_type_ = types_.size() - 1;
      }
    }
    std::fill(root_at_.begin(), root_at_.end(), 0);
    const auto& nodes = e.doc.nodes();
    if (!roots_.empty() && nodes[0].kind == json::kind::object)
      for (std::size_t j = 1; j < nodes[0].payload; j = e.doc.next(j + 1)) {
        const std::string_view name = e.doc.string_at(j);
        for (std::size_t r = 0; r < roots_.size(); ++r)
          if (roots_[r] == name)
            root_at_[r + 1] = j + 1;
      }
    for (rule_state& s : states_) {
      if (s.done)
        continue;
      const std::uint8_t facts = type_facts(s, e.type, type);
      if (!(facts & in_scope_bit))
        continue;
      visit(s, e, facts);
    }
  }

  void on_end(const evidence::verified_bundle& b) {
    run_id_ = b.run_id;
    bundle_id_ = b.bundle_id;
  }

  // The result of the pass (call once, after a pass that verified).
  lint_result take() {
    lint_result out;
    out.run_id = std::move(run_id_);
    out.bundle_id = std::move(bundle_id_);
    out.event_count = events_;
    out.max_results = options_.max_results;
    std::vector<finding> all = builtins_.finish();
    for (const finding& f : all) {
      rules_[f.rule].status = outcome::violated;
      ++rules_[f.rule].findings;
    }
    for (rule_state& s : states_)
      conclude(s, all);
    for (const finding& f : all)
      out.highest = out.highest ? std::max(*out.highest, f.level()) : f.level();
    if (all.size() > options_.max_results) {
      std::stable_sort(all.begin(), all.end(),
                       [](const finding& a, const finding& b) { return a.level() > b.level(); });
      out.dropped = all.size() - options_.max_results;
      all.resize(options_.max_results);
    }
    out.findings = std::move(all);
    out.rules = std::move(rules_);
    return out;
  }

 private:
  struct rule_state {
    std::size_t rule = 0;  // index into rules_
    const loaded_pack* pack = nullptr;
    const contracts::pack_v1::rule* def = nullptr;
    const check_spec* spec = nullptr;
    std::optional<std::string> unsupported;                  // why the rule cannot run
    std::vector<std::string> scope;                          // event_types; empty: every event
    const glob *first = nullptr, *second = nullptr;          // event_pairs (start, finish), event_type_exists
    std::vector<event_pointer> pointers;                     // the paths to look for; conditional: the then-path
    std::optional<literal> want;                             // json_path_exists.value_equals
    std::vector<std::pair<event_pointer, literal>> clauses;  // conditional
    std::vector<std::size_t> pointer_roots, clause_roots;    // their root members' slots in roots_
    std::vector<std::uint8_t> by_type;                       // type_facts() by type index (0: not yet)
    // through the pass
    bool done = false, found = false, found_second = false;
    std::uint64_t count = 0, missing = 0;
    std::optional<event_location> first_missing;
  };

  static std::optional<std::string> conditional_shape(const pack_node& check) {
    const std::string prefix = "Unsupported conditional shape for engine v1.1: ";
    const pack_node* cond = check.find("condition");
    const pack_node* then = check.find("then");
    if (cond == nullptr)
      return prefix + "missing condition";
    if (auto e = detail::struct_shape(*cond, {"all"}, "RawConditionalCondition"))
      return prefix + "unsupported condition shape: " + *e;
    const pack_node& all = *cond->find("all");
    if (!all.is_sequence())
      return prefix + "unsupported condition shape: invalid type: " + detail::unexpected(all) + ", expected a sequence";
    for (const pack_node& clause : all.items) {
      if (auto e = detail::struct_shape(clause, {"path", "equals"}, "RawConditionalClause"))
        return prefix + "unsupported condition shape: " + *e;
      if (!detail::plain_string(*clause.find("path")))
        return prefix + "unsupported condition shape: invalid type: " + detail::unexpected(*clause.find("path")) +
               ", expected a string";
    }
    if (all.items.empty())
      return prefix + "condition.all must contain at least one clause";
    for (const pack_node& clause : all.items) {
      if (literal::of(*clause.find("path")).text_.empty())
        return prefix + "conditional clause path cannot be empty";
      if (!literal::of(*clause.find("equals")).is_scalar())
        return prefix + "conditional clause equals must be a JSON scalar or null";
    }
    if (then == nullptr)
      return prefix + "missing then check";
    if (auto e = detail::struct_shape(*then, {"type", "paths"}, "RawConditionalThen"))
      return prefix + "unsupported then shape: " + *e;
    const pack_node& type = *then->find("type");
    const pack_node& paths = *then->find("paths");
    if (!detail::plain_string(type))
      return prefix + "unsupported then shape: invalid type: " + detail::unexpected(type) + ", expected a string";
    if (!paths.is_sequence())
      return prefix + "unsupported then shape: invalid type: " + detail::unexpected(paths) + ", expected a sequence";
    for (const pack_node& p : paths.items)
      if (!detail::plain_string(p))
        return prefix + "unsupported then shape: invalid type: " + detail::unexpected(p) + ", expected a string";
    if (literal::of(type).text_ != "json_path_exists")
      return prefix + "conditional then must use json_path_exists";
    if (paths.items.size() != 1)
      return prefix + "conditional then json_path_exists must contain exactly one required path";
    if (literal::of(paths.items.front()).text_.empty())
      return prefix + "conditional then path cannot be empty";
    return std::nullopt;
  }

  rule_state compile(std::size_t p, std::size_t i, std::size_t rule) const {
    rule_state s;
    s.rule = rule;
    s.pack = &packs_[p];
    s.def = &s.pack->definition.rules[i];
    s.spec = &s.pack->checks[i];
    if (s.def->event_types)
      for (const auto& t : *s.def->event_types)
        s.scope.emplace_back(std::string(t));
    if (s.def->engine_min_version && !engine_satisfies(*s.def->engine_min_version)) {
      s.unsupported =
          "Rule requires engine v" + *s.def->engine_min_version + ", current is v" + std::string(engine_version);
      s.done = true;
      return s;
    }
    const check_spec& c = *s.spec;
    switch (c.type) {
      case check_type::event_pairs:
        s.first = c.first ? &*c.first : nullptr;  // compiled at load
        s.second = c.second ? &*c.second : nullptr;
        s.done = !s.first || !s.second;
        break;
      case check_type::event_type_exists:
        s.first = c.first ? &*c.first : nullptr;
        s.done = !s.first;
        break;
      case check_type::manifest_field:
        s.pointers.push_back(event_pointer::parse(c.path));
        break;
      case check_type::event_field_present:
      case check_type::json_path_exists:
        for (const std::string& path : c.paths)
          s.pointers.push_back(event_pointer::parse(path));
        // `value_equals: null` is no value_equals (the reference reads it as absent); `.inf` is a null to compare.
        if (const pack_node* v = c.node.find("value_equals");
            v != nullptr && c.type == check_type::json_path_exists && !yaml_scalar::is_null(*v))
          s.want = literal::of(*v);
        break;
      case check_type::conditional:
        if ((s.unsupported = conditional_shape(c.node))) {
          s.done = true;
          break;
        }
        for (const pack_node& clause : c.node.find("condition")->find("all")->items)
          s.clauses.emplace_back(event_pointer::parse(literal::of(*clause.find("path")).text_),
                                 literal::of(*clause.find("equals")));
        s.pointers.push_back(event_pointer::parse(literal::of(c.node.find("then")->find("paths")->items[0]).text_));
        break;
      case check_type::unsupported:
        s.unsupported = "Unknown check type 'unsupported'";
        s.done = true;
        break;
      case check_type::event_count:
      case check_type::g3_authorization_context_present:
        break;
    }
    return s;
  }

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_types = 1024;
  static constexpr std::uint8_t known_bit = 1, in_scope_bit = 2, first_bit = 4, second_bit = 8;

  // What depends on an event's type alone: in scope, matches the first glob, the second.
  static std::uint8_t type_facts(rule_state& s, std::string_view type_name, std::size_t type) {
    if (type != npos && type < s.by_type.size() && s.by_type[type] != 0)
      return s.by_type[type];
    std::uint8_t f = known_bit;
    bool in = s.scope.empty();
    for (const std::string& t : s.scope)
      in = in || t == type_name;
    if (in) {
      f |= in_scope_bit;
      if (s.first && s.first->matches(type_name))
        f |= first_bit;
      if (s.second && s.second->matches(type_name))
        f |= second_bit;
    }
    if (type != npos) {
      if (type >= s.by_type.size())
        s.by_type.resize(type + 1, 0);
      s.by_type[type] = f;
    }
    return f;
  }

  void visit(rule_state& s, const evidence::verified_event& e, std::uint8_t facts) const {
    const check_spec& c = *s.spec;
    switch (c.type) {
      case check_type::event_count:
        ++s.count;
        return;
      case check_type::event_pairs:
        s.found = s.found || (facts & first_bit);
        s.found_second = s.found_second || (facts & second_bit);
        s.done = s.found && s.found_second;
        return;
      case check_type::event_type_exists:
        s.done = s.found = (facts & first_bit) != 0;
        return;
      case check_type::event_field_present:
      case check_type::json_path_exists:
        for (std::size_t k = 0; k < s.pointers.size(); ++k) {
          const std::size_t at = s.pointers[k].find_in_event(e.doc, root_at_[s.pointer_roots[k]]);
          if (at != event_pointer::npos && (!s.want || equals(e.doc, e.line, at, *s.want))) {
            s.done = s.found = true;
            return;
          }
        }
        return;
      case check_type::conditional: {
        for (std::size_t k = 0; k < s.clauses.size(); ++k) {
          const auto& [pointer, want] = s.clauses[k];
          const std::size_t at = pointer.find_in_event(e.doc, root_at_[s.clause_roots[k]]);
          if (at == event_pointer::npos || !equals(e.doc, e.line, at, want))
            return;
        }
        ++s.count;
        if (s.pointers.front().find_in_event(e.doc, root_at_[s.pointer_roots.front()]) == event_pointer::npos) {
          ++s.missing;
          if (!s.first_missing)
            s.first_missing = event_location{e.seq, e.line_number, std::string(e.type)};
        }
        return;
      }
      case check_type::g3_authorization_context_present:
        s.done = s.found = g3_authorization_context(e);
        return;
      case check_type::manifest_field:
      case check_type::unsupported:
        return;
    }
  }

  static std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& s : items)
      out += (out.empty() ? "" : ", ") + s;
    return out;
  }

  // The outcome of a pack rule, its finding (if any) added to `out`.
  void conclude(rule_state& s, std::vector<finding>& out) {
    rule_result& r = rules_[s.rule];
    const check_spec& c = *s.spec;
    std::optional<std::string> message;
    std::optional<event_location> at;
    severity level = r.level;
    if (s.unsupported) {
      if (!s.pack->is_compliance()) {
        r.status = outcome::skipped;
        r.reason = *s.unsupported;
        return;
      }
      message = "Cannot execute rule: " + *s.unsupported + ". Compliance packs require all rules to be executable.";
    } else {
      switch (c.type) {
        case check_type::event_count:
          if (s.count < c.min)
            message =
                s.scope.empty()
                    ? "Bundle contains " + std::to_string(s.count) + " events (minimum: " + std::to_string(c.min) + ")"
                    : "Scoped events for event_types [" + joined(s.scope) + "] contain " + std::to_string(s.count) +
                          " events (minimum: " + std::to_string(c.min) + ")";
          break;
        case check_type::event_pairs:
          if (!s.first)
            message = "Invalid start pattern: " + c.start_pattern;
          else if (!s.second)
            message = "Invalid finish pattern: " + c.finish_pattern;
          else if (!s.found && !s.found_second)
            message = "Missing both start (" + c.start_pattern + ") and finish (" + c.finish_pattern + ") events";
          else if (!s.found)
            message = "Missing start event matching '" + c.start_pattern + "'";
          else if (!s.found_second)
            message = "Missing finish event matching '" + c.finish_pattern + "'";
          break;
        case check_type::event_type_exists:
          if (!s.first)
            message = "Invalid pattern: " + c.pattern;
          else if (!s.found)
            message = "No event found matching type pattern '" + c.pattern + "'";
          break;
        case check_type::event_field_present:
          if (!s.found)
            message = "No event contains any of the required fields: " + joined(c.paths);
          break;
        case check_type::json_path_exists:
          if (!s.found)
            message = s.want ? "No event has path " + joined(c.paths) + " equal to " + s.want->text()
                             : "No event contains paths: " + joined(c.paths);
          break;
        case check_type::manifest_field:
          if (!s.found) {
            message = "Manifest missing field: " + c.path;
            if (!c.required)
              level = severity::warning;
          }
          break;
        case check_type::conditional:
          if (s.count != 0 && s.missing != 0) {
            message = std::to_string(s.count) + (s.count == 1 ? " event" : " events") + " matched the condition, but " +
                      std::to_string(s.missing) + (s.missing == 1 ? " matching event was" : " matching events were") +
                      " missing required path: " + s.pointers.front().text();
            at = s.first_missing;
          }
          break;
        case check_type::g3_authorization_context_present:
          if (!s.found)
            message =
                "No assay.tool.decision event satisfies G3 v1 policy-projected authorization context (principal + "
                "allowlisted auth_scheme + auth_issuer with G3 string discipline).";
          break;
        case check_type::unsupported:
          break;
      }
    }
    if (!message)
      return;
    // A missing manifest field that is not required is reported, and the rule still passes.
    r.status =
        c.type == check_type::manifest_field && !c.required && !s.unsupported ? outcome::pass : outcome::violated;
    ++r.findings;
    out.emplace_back(r.rule_id, level, std::move(*message), at, pack_fingerprint(r.rule_id, at, s.pack->digest),
                     location_line_hash(r.rule_id, at, options_.bundle_path, s.pack->digest), s.rule);
  }

  // The manifest as the reference models it (docs/packs.md): its known members only, canonical JSON.
  static std::string manifest_model(std::string_view bytes) {
    auto parsed = json::document::parse(bytes);
    if (!parsed)
      return "{}";
    json::value m = parsed->to_value();
    auto keep = [](json::value& obj, std::initializer_list<std::string_view> names) {
      if (!obj.is_object())
        return;
      json::object kept;
      for (auto& member : obj.as_object())
        if (std::find(names.begin(), names.end(), member.name) != names.end())
          kept.push_back(std::move(member));
      obj = json::value(std::move(kept));
    };
    keep(m, {"schema_version", "bundle_id", "producer", "run_id", "event_count", "run_root", "algorithms", "files"});
    if (json::value* p = m.find("producer")) {
      keep(*p, {"name", "version", "git"});
      if (const json::value* git = p->find("git"); git != nullptr && git->is_null()) {
        json::object kept;
        for (auto& member : p->as_object())
          if (member.name != "git")
            kept.push_back(std::move(member));
        *p = json::value(std::move(kept));
      }
    }
    if (json::value* a = m.find("algorithms"))
      keep(*a, {"canon", "hash", "root"});
    if (json::value* files = m.find("files"); files != nullptr && files->is_object())
      for (auto& member : files->as_object())
        keep(member.value, {"path", "sha256", "bytes"});
    auto text = json::to_canonical(m);
    return text ? *text : std::string("{}");
  }

  lint_options options_;
  std::span<const loaded_pack> packs_;
  std::vector<rule_result> rules_;
  std::vector<rule_state> states_;
  builtin_rules builtins_;
  std::uint64_t events_ = 0;
  std::vector<std::string> types_;  // the event types seen, in order of appearance
  std::size_t last_type_ = 0;
  std::vector<std::string> roots_;    // the event members pointers start with
  std::vector<std::size_t> root_at_;  // 1 + slot: their nodes in the current event (0: absent)
  std::string run_id_, bundle_id_;
};
using linter = basic_linter<>;

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE class basic_linter<void>;
}  // namespace assay::lint
#endif
