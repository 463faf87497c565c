// assay/mcp/policy.hpp — the MCP gate's policy (docs/mcp.md): the reference's v2 YAML
// format read strictly, v1 migrated, what this gate does not enforce refused, and its digest.
//
//   auto p = assay::mcp::load_policy(text, "policy.yaml");
//   if (!p) { std::cerr << p.error().format(); ... }        // FILE:LINE:COL: message, each problem
//   p->digest;                                               // "sha256:…" (P56a jcs:mcp_policy)
//
// Reading is the pack reader's (libyaml, 4 MiB, aliases within the byte budget, duplicate keys
// and non-UTF-8 refused), typed as the reference types it: a string position takes a YAML string
// only (`version: 2.0`, a float, is refused), an unknown key is an error naming the nearest known
// one. Loading then merges the legacy root lists into `tools`, migrates v1 `constraints` into
// `schemas`, fills in every member of the reference's policy model (absent = null, empty maps and
// lists as they are) so that the JCS of `model` is the digest's input, and checks what the gate
// could not honour: a tool-name pattern with a `*` inside (it would match only a literal star), a
// control it does not enforce (unless allow_unenforced), a runtime feature, a `$defs` name both
// shared and a tool's own.
#pragma once

#include "assay/contracts/mcp_policy.hpp"
#include "assay/error.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/nearest.hpp"
#include "assay/json/pointer.hpp"
#include "assay/lint/pack_document.hpp"
#include "assay/lint/pack_yaml.hpp"
#include "assay/reflect/untyped.hpp"
#include "assay/separate.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::mcp {

// The largest policy file read (as a pack: lint/resolve.hpp).
inline constexpr std::size_t max_policy_bytes = std::size_t{4} << 20;

// --- tool-name patterns ---------------------------------------------------------------------------

// One of the reference's five forms: the leading and the trailing run of `*` stripped, what
// remains is the literal. No star: exact; both runs: substring (an empty literal matches every
// name); trailing only: prefix; leading only: suffix.
class tool_pattern {
 public:
  enum class form : std::uint8_t { exact, substring, prefix, suffix };

  // The pattern, or nullopt when its literal still holds a `*` (`read_*_file`): the reference
  // matches such a star literally, so a pattern meant as a glob would match nothing.
  static std::optional<tool_pattern> parse(std::string_view text) {
    const std::size_t first = text.find_first_not_of('*');
    if (first == std::string_view::npos)
      return tool_pattern(form::substring, "", std::string(text));
    const std::size_t last = text.find_last_not_of('*');
    const std::string_view literal = text.substr(first, last - first + 1);
    if (literal.find('*') != std::string_view::npos)
      return std::nullopt;
    const bool lead = first > 0, trail = last + 1 < text.size();
    const form f = lead && trail ? form::substring : trail ? form::prefix : lead ? form::suffix : form::exact;
    return tool_pattern(f, std::string(literal), std::string(text));
  }

  bool matches(std::string_view name) const noexcept {
    switch (form_) {
      case form::exact:
        return name == literal_;
      case form::prefix:
        return name.starts_with(literal_);
      case form::suffix:
        return name.ends_with(literal_);
      case form::substring:
        return name.find(literal_) != std::string_view::npos;
    }
    return false;
  }

  form kind() const noexcept { return form_; }
  const std::string& literal() const noexcept { return literal_; }
  const std::string& text() const noexcept { return text_; }

 private:
  tool_pattern(form f, std::string literal, std::string text)
      : form_(f), literal_(std::move(literal)), text_(std::move(text)) {}
  form form_;
  std::string literal_, text_;
};

// --- the loaded policy ------------------------------------------------------------------------------

struct policy_options {
  // Load a policy that names controls this gate does not enforce (approval_required*,
  // restrict_scope*, redact_args*, signatures); they are then recorded, as the reference records
  // them, and enforced by nothing.
  bool allow_unenforced = false;
  lint::yaml_limits yaml{};
};

enum class unconstrained_mode : std::uint8_t { warn, deny, allow };

struct loaded_policy {
  contracts::mcp_policy model;  // as loaded: every member of the reference's model present
  std::string digest;           // "sha256:" + hex sha256 of the JCS of `model`
  std::string source;           // the file it came from (for messages)

  std::vector<tool_pattern> allow, deny;  // tools.allow / tools.deny, legacy lists merged
  std::vector<std::string> allow_classes, deny_classes;
  bool has_allowlist = false;  // allow, tools.allow or tools.allow_classes given
  std::map<std::string, std::vector<std::string>, std::less<>> classes;  // tool -> sorted classes
  // Each tool's argument schema, with the shared $defs merged in (compiled by the gate).
  std::map<std::string, json::value, std::less<>> schemas;
  unconstrained_mode unconstrained = unconstrained_mode::warn;
  std::optional<std::int64_t> max_requests_total, max_tool_calls_total;
  std::map<std::string, contracts::mcp_policy_v1::tool_pin, std::less<>> pins;
  // Controls present but not enforced (only with allow_unenforced), by their key, e.g.
  // "tools.approval_required", "signatures".
  std::vector<std::string> unenforced_controls;
  // The patterns and classes of the unenforced obligations, for the decisions that record them.
  struct obligation_rule {
    std::string type;  // approval_required | restrict_scope | redact_args
    std::vector<tool_pattern> names;
    std::vector<std::string> classes;
  };
  std::vector<obligation_rule> obligations;

  // version as the decisions carry it: "unspecified" when blank.
  std::string policy_version() const {
    const std::string& v = *model.version;
    return v.find_first_not_of(" \t\r\n") == std::string::npos ? std::string("unspecified") : v;
  }
  // The classes of `tool` (empty when it has none).
  std::span<const std::string> classes_of(std::string_view tool) const {
    const auto it = classes.find(tool);
    return it == classes.end() ? std::span<const std::string>() : std::span<const std::string>(it->second);
  }
};

namespace detail {

using namespace contracts::mcp_policy_v1;

// The keys known at each level, for "did you mean" (the contract's own member names).
template <class T>
std::vector<std::string_view> member_names() {
  const auto& n = reflect::struct_info<T>::json_names;
  return {n.begin(), n.end()};
}

inline std::vector<std::string_view> known_keys_at(std::string_view parent) {
  if (parent.empty())
    return member_names<policy>();
  if (parent == "/tools")
    return member_names<tool_rules>();
  if (parent == "/enforcement")
    return member_names<enforcement_rules>();
  if (parent == "/limits")
    return member_names<limit_rules>();
  if (parent == "/signatures")
    return member_names<signature_rules>();
  if (parent == "/tools/restrict_scope_contract")
    return member_names<scope_contract>();
  if (parent == "/tools/redact_args_contract")
    return member_names<redaction_contract>();
  if (parent.starts_with("/tool_pins/") && parent.find('/', 11) == std::string_view::npos)
    return member_names<tool_pin>();
  return {};
}

// An error placed at the node its pointer names (at its key for a member that is unknown or
// missing, or whose value is a mapping or a list), in FILE:LINE:COL form.
inline error placed(const lint::pack_node& tree, std::string_view source, error e) {
  const lint::located where = lint::locate(tree, e.pointer);
  const bool at_key = where.at_key && (!where.complete || e.code == errc::unknown_member || !where.node->is_scalar());
  const lint::text_position at = at_key ? where.key : where.node->at;
  e.offset = at.offset;
  e.line = at.line;
  e.column = at.column;
  e.source = std::string(source);
  return e;
}

inline void add_nearest(error& e) {
  if (e.code != errc::unknown_member)
    return;
  const std::size_t slash = e.pointer.rfind('/');
  if (slash == std::string::npos)
    return;
  const std::string parent = e.pointer.substr(0, slash);
  const auto token = json::pointer::parse(e.pointer.substr(slash));
  if (!token || token->tokens().empty())
    return;
  const std::string& key = token->tokens().back();
  e.message = "unknown key " + lint::quoted_text(key);
  if (const auto n = json::nearest_name(key, known_keys_at(parent)))
    e.message += "; did you mean " + lint::quoted_text(*n) + "?";
}

// v1 constraints of one tool as a schema (docs/mcp.md): each parameter a non-empty string matching
// its pattern, the parameters required, in name order.
inline json::value constraint_schema(const std::map<std::string, std::string>& params) {
  json::object props;
  json::array required;
  for (const auto& [name, pattern] : params) {
    json::value p = json::object{};
    p.set("type", json::value("string"));
    p.set("pattern", json::value(pattern));
    p.set("minLength", json::value(1.0));
    props.push_back({name, std::move(p)});
    required.push_back(json::value(name));
  }
  json::value s = json::object{};
  s.set("type", json::value("object"));
  s.set("additionalProperties", json::value(true));
  s.set("properties", json::value(std::move(props)));
  s.set("required", json::value(std::move(required)));
  return s;
}

// Reads v1 constraints (list or map form) into tool -> parameter -> pattern.
inline void read_constraints(const json::value& c, std::map<std::string, std::map<std::string, std::string>>& out,
                             std::vector<error>& errs) {
  auto fail = [&](std::string pointer, std::string message) {
    errs.push_back(make_error(errc::type_mismatch, std::move(message), std::move(pointer)));
  };
  // One parameter's constraint: a pattern string, or {matches: pattern}.
  auto param = [&](const json::value& v, const std::string& ptr, std::string& pattern, bool map_form) {
    if (map_form && v.is_string()) {
      pattern = v.as_string();
      return true;
    }
    if (!v.is_object()) {
      fail(ptr,
           map_form ? "a constraint is a pattern string or {matches: pattern}" : "a constraint is {matches: pattern}");
      return false;
    }
    for (const auto& [k, x] : v.as_object()) {
      if (k != "matches") {
        errs.push_back(make_error(errc::unknown_member,
                                  "unknown key " + lint::quoted_text(k) + "; a constraint takes matches",
                                  ptr + "/" + json::escape_pointer_token(k)));
        return false;
      }
      if (!x.is_string()) {
        fail(ptr + "/matches", "matches must be a string");
        return false;
      }
      pattern = x.as_string();
    }
    if (v.find("matches") == nullptr) {
      errs.push_back(make_error(errc::missing_member, "a constraint needs matches", ptr));
      return false;
    }
    return true;
  };
  auto params_of = [&](const json::value& params, const std::string& ptr, const std::string& tool, bool map_form) {
    if (!params.is_object()) {
      fail(ptr, "the parameters of a constraint are a mapping of parameter name to constraint");
      return;
    }
    for (const auto& [name, v] : params.as_object()) {
      std::string pattern;
      if (param(v, ptr + "/" + json::escape_pointer_token(name), pattern, map_form))
        out[tool][name] = pattern;
    }
  };
  if (c.is_null())
    return;
  if (c.is_array()) {
    const auto& items = c.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string ptr = "/constraints/" + std::to_string(i);
      const json::value& item = items[i];
      if (!item.is_object()) {
        fail(ptr, "a constraint is {tool, params}");
        continue;
      }
      for (const auto& [k, x] : item.as_object())
        if (k != "tool" && k != "params")
          errs.push_back(make_error(errc::unknown_member,
                                    "unknown key " + lint::quoted_text(k) + "; a constraint takes tool and params",
                                    ptr + "/" + json::escape_pointer_token(k)));
      const json::value* tool = item.find("tool");
      const json::value* params = item.find("params");
      if (tool == nullptr || !tool->is_string()) {
        fail(ptr + (tool == nullptr ? "" : "/tool"), "a constraint needs a tool name (a string)");
        continue;
      }
      if (params == nullptr) {
        errs.push_back(make_error(errc::missing_member, "a constraint needs params", ptr));
        continue;
      }
      params_of(*params, ptr + "/params", tool->as_string(), false);
    }
    return;
  }
  if (c.is_object()) {
    for (const auto& [tool, params] : c.as_object())
      params_of(params, "/constraints/" + json::escape_pointer_token(tool), tool, true);
    return;
  }
  fail("/constraints", "constraints are a list of {tool, params} or a mapping of tool to parameters");
}

inline bool constraints_empty(const json::value& c) {
  return c.is_null() || (c.is_array() && c.as_array().empty()) || (c.is_object() && c.as_object().empty());
}

template <class T>
bool given(const maybe<T>& m) {
  return m.has_value() && m->has_value();
}

}  // namespace detail

// Loads a policy from its text (YAML, JSON included). `source` names it in errors.
template <class = void>
results<loaded_policy> load_policy(std::string_view text, std::string_view source, const policy_options& opt = {}) {
  using namespace contracts::mcp_policy_v1;
  auto one = [&](error e) {
    e.source = std::string(source);
    return errors(std::move(e));
  };
  if (text.size() > max_policy_bytes)
    return one(make_error(errc::size_limit, "a policy is at most " + std::to_string(max_policy_bytes) +
                                                " bytes (this one has " + std::to_string(text.size()) + ")"));
  auto tree = lint::read_yaml_pack(text, opt.yaml);
  if (!tree)
    return one(std::move(tree).error());

  errors errs;
  auto fail = [&](error e) { errs.items.push_back(detail::placed(*tree, source, std::move(e))); };
  auto untyped = lint::to_untyped_json(*tree);  // YAML's core schema: a string position takes a string
  if (!untyped) {
    for (const error& e : untyped.error())
      fail(e);
    return errs;
  }
  json::value as_json = std::move(*untyped);
  if (!as_json.is_object())
    return one(make_error(errc::type_mismatch, "a policy is a mapping of keys (version, name, tools, schemas, ...)"));
  auto decoded = from_value<policy>(as_json);
  if (!decoded) {
    for (error e : decoded.error()) {
      detail::add_nearest(e);
      fail(std::move(e));
    }
    return errs;
  }
  policy p = std::move(*decoded);

  // Runtime features of the reference are not tool-call controls: always refused.
  for (const auto& [key, member] :
       {std::pair{"discovery", &p.discovery}, std::pair{"runtime_monitor", &p.runtime_monitor},
        std::pair{"kill_switch", &p.kill_switch}}) {
    if (*member && !(*member)->is_null())
      fail(make_error(errc::unsupported,
                      std::string(key) + " is a runtime feature of the reference, not a tool-call control; this gate "
                                         "does not run it (remove the key)",
                      "/" + std::string(key)));
  }

  // Legacy root lists appended to tools.*, then null.
  tool_rules& t = p.tools ? *p.tools : p.tools.emplace();
  auto merge = [](name_list& root, name_list& into) {
    if (!detail::given(root))
      return;
    if (!detail::given(into))
      into = nullable<std::vector<std::string>>(std::vector<std::string>{});
    auto& dst = **into;
    for (std::string& s : **root)
      dst.push_back(std::move(s));
  };
  merge(p.allow, t.allow);
  merge(p.deny, t.deny);

  // Controls the gate does not enforce.
  loaded_policy out;
  struct control {
    const char* key;
    bool present;
  };
  const control controls[] = {
      {"tools.approval_required", detail::given(t.approval_required)},
      {"tools.approval_required_classes", detail::given(t.approval_required_classes)},
      {"tools.restrict_scope", detail::given(t.restrict_scope)},
      {"tools.restrict_scope_classes", detail::given(t.restrict_scope_classes)},
      {"tools.restrict_scope_contract", detail::given(t.restrict_scope_contract)},
      {"tools.redact_args", detail::given(t.redact_args)},
      {"tools.redact_args_classes", detail::given(t.redact_args_classes)},
      {"tools.redact_args_contract", detail::given(t.redact_args_contract)},
      {"signatures", detail::given(p.signatures)},
  };
  for (const control& c : controls) {
    if (!c.present)
      continue;
    std::string ptr = "/" + std::string(c.key);
    std::replace(ptr.begin(), ptr.end(), '.', '/');
    if (!opt.allow_unenforced)
      fail(make_error(errc::unsupported,
                      std::string(c.key) +
                          " is not enforced by this gate (the reference accepts it and enforces "
                          "nothing); remove it, or load with --allow-unenforced to record it unenforced",
                      ptr));
    else
      out.unenforced_controls.emplace_back(c.key);
  }

  // Tool-name patterns: a `*` inside is refused, in every list. `at(i)` is where item i was
  // written (a legacy root item was appended after the tools.* ones).
  auto patterns = [&](const name_list& list, auto at, std::vector<tool_pattern>& into) {
    if (!detail::given(list))
      return;
    const auto& items = **list;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (auto pt = tool_pattern::parse(items[i])) {
        into.push_back(std::move(*pt));
        continue;
      }
      fail(make_error(errc::format_mismatch,
                      "tool pattern " + lint::quoted_text(items[i]) +
                          " has a * inside: only a leading and a trailing run of * are wildcards (exact, prefix*, "
                          "*suffix, *substring*), so it would match a literal star and nothing else",
                      at(i)));
    }
  };
  auto merged_at = [&](const char* key, std::size_t root_count, const name_list& list) {
    const std::size_t own = detail::given(list) ? (**list).size() - root_count : 0;
    return [key, own](std::size_t i) {
      return i < own ? "/tools/" + std::string(key) + "/" + std::to_string(i)
                     : "/" + std::string(key) + "/" + std::to_string(i - own);
    };
  };
  auto root_count = [&](const char* key) -> std::size_t {
    const lint::pack_node* n = tree->find(key);
    return n != nullptr && n->is_sequence() ? n->items.size() : 0;
  };
  patterns(t.allow, merged_at("allow", root_count("allow"), t.allow), out.allow);
  patterns(t.deny, merged_at("deny", root_count("deny"), t.deny), out.deny);
  if (detail::given(t.allow_classes))
    out.allow_classes = **t.allow_classes;
  if (detail::given(t.deny_classes))
    out.deny_classes = **t.deny_classes;
  out.has_allowlist = detail::given(t.allow) || detail::given(t.allow_classes);

  if (opt.allow_unenforced) {
    auto rule = [&](const char* type, const name_list& names, const name_list& classes, const char* key) {
      loaded_policy::obligation_rule r{type, {}, {}};
      patterns(
          names, [key](std::size_t i) { return "/tools/" + std::string(key) + "/" + std::to_string(i); }, r.names);
      if (detail::given(classes))
        r.classes = **classes;
      if (!r.names.empty() || !r.classes.empty())
        out.obligations.push_back(std::move(r));
    };
    rule("approval_required", t.approval_required, t.approval_required_classes, "approval_required");
    rule("restrict_scope", t.restrict_scope, t.restrict_scope_classes, "restrict_scope");
    rule("redact_args", t.redact_args, t.redact_args_classes, "redact_args");
  }

  // v1 constraints migrated into schemas (replacing any schema of the same tool).
  std::map<std::string, json::value> schemas = p.schemas ? std::move(*p.schemas) : std::map<std::string, json::value>{};
  if (p.constraints && !detail::constraints_empty(*p.constraints)) {
    std::map<std::string, std::map<std::string, std::string>> c;
    std::vector<error> cerrs;
    detail::read_constraints(*p.constraints, c, cerrs);
    for (error& e : cerrs)
      fail(std::move(e));
    for (const auto& [tool, params] : c)
      schemas[tool] = detail::constraint_schema(params);
    if (!p.version || p.version->empty() || *p.version == "1.0")
      p.version = "2.0";
  }
  p.constraints = json::value(json::array{});

  // Shared $defs merged into each object-valued tool schema's $defs; one name in both is refused.
  const json::value* shared = nullptr;
  if (const auto it = schemas.find("$defs"); it != schemas.end()) {
    if (!it->second.is_object())
      fail(make_error(errc::type_mismatch, "schemas.$defs holds the definitions shared by every tool: a mapping",
                      "/schemas/$defs"));
    else
      shared = &it->second;
  }
  for (const auto& [tool, schema] : schemas) {
    if (tool == "$defs")
      continue;
    json::value merged = schema;
    if (shared != nullptr && merged.is_object()) {
      json::value* own = merged.find("$defs");
      if (own == nullptr) {
        merged.set("$defs", *shared);
      } else if (own->is_object()) {
        for (const auto& [name, def] : shared->as_object()) {
          if (own->find(name) != nullptr) {
            fail(make_error(
                errc::duplicate_member,
                "the $defs name " + lint::quoted_text(name) + " is both shared (schemas.$defs) and the tool " +
                    lint::quoted_text(tool) + "'s own: rename one",
                "/schemas/" + json::escape_pointer_token(tool) + "/$defs/" + json::escape_pointer_token(name)));
            continue;
          }
          own->set(name, def);
        }
      }
    }
    out.schemas.emplace(tool, std::move(merged));
  }
  p.schemas = std::move(schemas);

  // Classes: a sorted set per tool.
  if (p.tool_classes) {
    for (auto& [tool, list] : *p.tool_classes) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      out.classes.emplace(tool, list);
    }
  } else {
    p.tool_classes.emplace();
  }
  if (p.tool_pins) {
    for (const auto& [tool, pin] : *p.tool_pins)
      out.pins.emplace(tool, pin);
  } else {
    p.tool_pins.emplace();
  }

  // Every member of the model present.
  if (!p.version)
    p.version = "";
  if (!p.name)
    p.name = "";
  auto null_list = [](name_list& l) {
    if (!l)
      l = nullable<std::vector<std::string>>();
  };
  for (name_list* l :
       {&t.allow, &t.deny, &t.allow_classes, &t.deny_classes, &t.approval_required, &t.approval_required_classes,
        &t.restrict_scope, &t.restrict_scope_classes, &t.redact_args, &t.redact_args_classes})
    null_list(*l);
  if (!t.restrict_scope_contract)
    t.restrict_scope_contract = nullable<scope_contract>();
  if (!t.redact_args_contract)
    t.redact_args_contract = nullable<redaction_contract>();
  p.allow = nullable<std::vector<std::string>>();
  p.deny = nullable<std::vector<std::string>>();
  if (!p.enforcement)
    p.enforcement.emplace();
  if (!p.enforcement->unconstrained_tools)
    p.enforcement->unconstrained_tools = contracts::mcp_policy_v1::unconstrained_mode("warn");
  if (!p.limits)
    p.limits = nullable<limit_rules>();
  if (detail::given(p.limits)) {
    limit_rules& l = **p.limits;
    for (auto* m : {&l.max_requests_total, &l.max_tool_calls_total})
      if (!*m)
        *m = nullable<bounded<std::int64_t, 0>>();
    if (detail::given(l.max_requests_total))
      out.max_requests_total = (**l.max_requests_total).value();
    if (detail::given(l.max_tool_calls_total))
      out.max_tool_calls_total = (**l.max_tool_calls_total).value();
  }
  if (!p.signatures)
    p.signatures = nullable<signature_rules>();
  if (detail::given(p.signatures) && !(**p.signatures).check_descriptions)
    (**p.signatures).check_descriptions = false;
  for (auto* m : {&p.discovery, &p.runtime_monitor, &p.kill_switch})
    if (!*m)
      *m = json::value(nullptr);

  const std::string_view mode = *p.enforcement->unconstrained_tools;
  out.unconstrained = mode == "deny"    ? unconstrained_mode::deny
                      : mode == "allow" ? unconstrained_mode::allow
                                        : unconstrained_mode::warn;

  if (!errs.empty()) {
    std::stable_sort(errs.items.begin(), errs.items.end(),
                     [](const error& a, const error& b) { return a.offset < b.offset; });
    return errs;
  }
  auto bytes = encode(p);
  if (!bytes)
    return bytes.error();
  out.digest = hash::digest_bytes<hash::sha256>(*bytes).to_string();
  out.model = std::move(p);
  out.source = std::string(source);
  return out;
}

}  // namespace assay::mcp

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::mcp {
ASSAY_EXTERN_TEMPLATE results<loaded_policy> load_policy<void>(std::string_view, std::string_view,
                                                               const policy_options&);
}  // namespace assay::mcp
#endif
