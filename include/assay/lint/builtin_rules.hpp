// assay/lint/builtin_rules.hpp — the six rules every lint runs (docs/packs.md), per event, and the G3
// authorization-context predicate.
//
//   builtin_rules rules;
//   rules.on_event(e);                 // during the verification pass
//   auto found = rules.finish();       // after it: the findings, in event order
//
// ASSAY-W001  the subject holds a secret-like pattern (first match named)
// ASSAY-W002  assaypii is true and the subject is not empty
// ASSAY-I001  the source starts with neither urn: nor https://
// ASSAY-W003  a W001 match while assaysecrets is false
// ASSAY-W004  a denied-call observation (v0: code -32042, v1: -31999, origin assay-proxy) whose
//             tool and target digest have no assay.enforcement_decision.v0 deny record anywhere
//             in the bundle (an allow record contradicts it)
// ASSAY-W005  an assay.enforcement_decision.v0 approval basis with a retained view other than
//             structured_meta_jcs
#pragma once

#include "assay/contracts/lint_report.hpp"
#include "assay/evidence/bundle.hpp"
#include "assay/lint/event_view.hpp"
#include "assay/lint/literal.hpp"
#include "assay/lint/pack.hpp"
#include "assay/separate.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

struct builtin_rule {
  std::string_view id;
  severity level;
  std::string_view description;
  std::string_view tags[3];
  std::string_view security_severity;  // "" when none
};

inline constexpr builtin_rule builtin_rule_table[] = {
    {"ASSAY-W001",
     severity::warning,
     "Subject may contain a secret (API key, token, password pattern)",
     {"security", "secrets"},
     "7.0"},
    {"ASSAY-W002",
     severity::warning,
     "Event flagged as containing PII but subject is non-empty",
     {"privacy", "pii"},
     "4.0"},
    {"ASSAY-I001", severity::info, "Source format does not follow URN convention", {"convention", "format"}, ""},
    {"ASSAY-W003",
     severity::warning,
     "Event flagged as containing secrets but secrets flag is false",
     {"security", "secrets"},
     "6.5"},
    {"ASSAY-W004",
     severity::warning,
     "Observed enforcement marker is not supported by a bound enforcement decision record",
     {"security", "enforcement", "attribution"},
     "4.0"},
    {"ASSAY-W005",
     severity::warning,
     "Approval basis declares an opaque or unknown retained view — content-review claims over it cap at incomplete",
     {"retention", "review", "sufficiency"},
     ""},
};

// A finding of any rule (built-in or of a pack): what lint-report-v1 reports of it (the contract's
// finding: severity, message, location, fingerprint), and beside it what the text and SARIF forms
// and the engine need.
struct finding : contracts::lint_v1::finding {
  std::string rule_id;        // the built-in id, or the canonical id of a pack rule
  std::string location_hash;  // pack rules: SARIF's primaryLocationLineHash; built-ins: empty
  std::size_t rule = 0;       // the index of its rule in lint_result::rules

  finding() = default;
  finding(std::string id, lint::severity level, std::string text, const std::optional<event_location>& at,
          std::string print, std::string line_hash, std::size_t rule_index)
      : rule_id(std::move(id)), location_hash(std::move(line_hash)), rule(rule_index) {
    severity = contracts::lint_v1::severity_level::of(level);
    message = non_empty(std::move(text));  // the engine's messages are never empty
    if (at)
      location = contracts::lint_v1::location{static_cast<std::int64_t>(at->seq), static_cast<std::int64_t>(at->line),
                                              at->event_type};
    fingerprint = contracts::lint_v1::sha256_digest(std::move(print));  // "sha256:" and 64 hex digits, as computed
  }
  // Its severity as the engine orders them.
  lint::severity level() const noexcept { return static_cast<lint::severity>(severity.index()); }
};
static_assert(
    [] {
      for (lint::severity s : {severity::info, severity::warning, severity::error})
        if (contracts::lint_v1::severity_level::of(s).index() != static_cast<std::size_t>(s))
          return false;
      return true;
    }(),
    "the contract's severities are in the engine's order");

namespace detail {

// Rust's str::trim: Unicode White_Space at both ends.
inline std::string_view trim_unicode(std::string_view s) {
  auto space_at_start = [](std::string_view t) -> std::size_t {
    if (t.empty())
      return 0;
    const auto c = static_cast<unsigned char>(t[0]);
    if (c == ' ' || (c >= 0x09 && c <= 0x0D))
      return 1;
    static constexpr std::string_view wide[] = {"\xC2\x85",     "\xC2\xA0",     "\xE1\x9A\x80", "\xE2\x80\xA8",
                                                "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F", "\xE3\x80\x80"};
    for (std::string_view w : wide)
      if (t.substr(0, w.size()) == w)
        return w.size();
    if (t.size() >= 3 && c == 0xE2 && static_cast<unsigned char>(t[1]) == 0x80 &&
        static_cast<unsigned char>(t[2]) >= 0x80 && static_cast<unsigned char>(t[2]) <= 0x8A)
      return 3;  // U+2000..U+200A
    return 0;
  };
  auto space_at_end = [&](std::string_view t) -> std::size_t {
    for (std::size_t len : {std::size_t{1}, std::size_t{2}, std::size_t{3}})
      if (t.size() >= len && space_at_start(t.substr(t.size() - len)) == len)
        return len;
    return 0;
  };
  while (std::size_t n = space_at_start(s))
    s.remove_prefix(n);
  while (std::size_t n = space_at_end(s))
    s.remove_suffix(n);
  return s;
}

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// A subject lowercased as Rust's to_lowercase affects the ASCII patterns: ASCII letters, and the
// two characters whose lowercase is ASCII (KELVIN SIGN to 'k', DOTTED CAPITAL I to "i̇").
inline std::string lower_for_patterns(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.substr(i, 3) == "\xE2\x84\xAA") {
      out += 'k';
      i += 2;
    } else if (s.substr(i, 2) == "\xC4\xB0") {
      out += "i\xCC\x87";
      i += 1;
    } else {
      const char c = s[i];
      out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
  }
  return out;
}

inline constexpr std::string_view secret_patterns[] = {"sk-",    "sk_live_",  "sk_test_",   "api_key=", "apikey=",
                                                       "token=", "password=", "secret=",    "Bearer ",  "AKIA",
                                                       "ghp_",   "gho_",      "github_pat_"};
// The same, lowercased (what a lowercased subject is searched for).
inline constexpr std::string_view secret_patterns_lower[] = {"sk-",    "sk_live_",  "sk_test_",   "api_key=", "apikey=",
                                                             "token=", "password=", "secret=",    "bearer ",  "akia",
                                                             "ghp_",   "gho_",      "github_pat_"};
static_assert(std::size(secret_patterns) == std::size(secret_patterns_lower));

inline std::string_view string_member(const json::document& doc, std::size_t obj, std::string_view name) {
  const std::size_t m = doc.find_member(obj, name);
  return m != 0 && doc.nodes()[m].kind == json::kind::string ? doc.string_at(m) : std::string_view();
}
inline bool has_string_member(const json::document& doc, std::size_t obj, std::string_view name) {
  const std::size_t m = doc.find_member(obj, name);
  return m != 0 && doc.nodes()[m].kind == json::kind::string;
}
inline std::size_t path_node(const json::document& doc, std::size_t obj, std::string_view a, std::string_view b) {
  const std::size_t m = doc.find_member(obj, a);
  return m == 0 ? 0 : doc.find_member(m, b);
}
inline std::string_view path_string(const json::document& doc, std::size_t obj, std::string_view a,
                                    std::string_view b) {
  const std::size_t m = path_node(doc, obj, a, b);
  return m != 0 && doc.nodes()[m].kind == json::kind::string ? doc.string_at(m) : std::string_view();
}

inline bool bearer_prefixed(std::string_view s) {
  s = trim_unicode(s);
  return s.size() >= 7 && ascii_lower(s.substr(0, 7)) == "bearer ";
}
inline bool jws_shaped(std::string_view s) {
  std::string_view parts[3];
  std::size_t n = 0;
  while (true) {
    const std::size_t dot = s.find('.');
    if (n == 3)
      return false;
    parts[n++] = s.substr(0, dot);
    if (dot == std::string_view::npos)
      break;
    s.remove_prefix(dot + 1);
  }
  if (n != 3 || parts[0].substr(0, 3) != "eyJ")
    return false;
  for (std::string_view p : parts) {
    if (p.size() < 4)
      return false;
    for (char c : p)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
        return false;
  }
  return true;
}

}  // namespace detail

// The G3 predicate (docs/packs.md): an assay.tool.decision event whose data has a usable principal,
// an allowed auth_scheme (oauth2, jwt_bearer) and a usable auth_issuer.
inline bool g3_authorization_context(const evidence::verified_event& e) {
  if (e.type != "assay.tool.decision")
    return false;
  const json::document& doc = e.doc;
  if (!detail::has_string_member(doc, e.data, "principal") || !detail::has_string_member(doc, e.data, "auth_scheme") ||
      !detail::has_string_member(doc, e.data, "auth_issuer"))
    return false;
  const std::string_view principal = detail::trim_unicode(detail::string_member(doc, e.data, "principal"));
  if (principal.empty() || detail::bearer_prefixed(principal) || detail::jws_shaped(principal))
    return false;
  const std::string scheme =
      detail::ascii_lower(detail::trim_unicode(detail::string_member(doc, e.data, "auth_scheme")));
  if (scheme != "oauth2" && scheme != "jwt_bearer")
    return false;
  const std::string_view issuer = detail::trim_unicode(detail::string_member(doc, e.data, "auth_issuer"));
  return !issuer.empty() && issuer.size() <= 2048 && !detail::bearer_prefixed(issuer) && !detail::jws_shaped(issuer);
}

// The built-in rules over one verification pass.
template <class = void>
class basic_builtin_rules {
 public:
  void on_event(const evidence::verified_event& e) {
    const json::document& doc = e.doc;
    const auto at = [&] {
      return event_location{e.seq, e.line_number, std::string(e.type)};
    };  // when there is a finding
    std::string_view matched;
    if (e.subject) {
      const std::string lower = detail::lower_for_patterns(*e.subject);
      for (std::size_t k = 0; k < std::size(detail::secret_patterns); ++k) {
        if (lower.find(detail::secret_patterns_lower[k]) != std::string::npos) {
          matched = detail::secret_patterns[k];
          break;
        }
      }
    }
    if (!matched.empty())
      add(0, "Subject may contain a secret (matched pattern '" + std::string(matched) + "')", at());
    const std::size_t pii = doc.find_member(0, "assaypii");
    if (pii != 0 && doc.nodes()[pii].kind == json::kind::boolean && doc.nodes()[pii].payload != 0 && e.subject &&
        !e.subject->empty())
      add(1, "Event marked as containing PII has a non-empty subject — consider redacting", at());
    if (e.source.substr(0, 4) != "urn:" && e.source.substr(0, 8) != "https://")
      add(2, "Source '" + std::string(e.source) + "' does not follow urn: or https:// convention", at());
    const std::size_t secrets = doc.find_member(0, "assaysecrets");
    const bool secrets_flag =
        secrets != 0 && doc.nodes()[secrets].kind == json::kind::boolean && doc.nodes()[secrets].payload != 0;
    if (!matched.empty() && !secrets_flag)
      add(3, "Subject appears to contain a secret but contains_secrets flag is false", at());

    const std::string_view schema = detail::string_member(doc, e.data, "schema");
    if (auto marker = denial_marker(doc, e.line, e.data, schema)) {
      pending_.push_back({found_.size(), std::move(*marker)});
      add(4, "", at());  // its message once every decision record has been seen
    }
    if (schema == "assay.enforcement_decision.v0") {
      const std::string_view tool = detail::path_string(doc, e.data, "tool", "name");
      const std::string_view target = detail::path_string(doc, e.data, "action", "target_digest");
      const std::string_view decision = detail::string_member(doc, e.data, "decision");
      if (!tool.empty() && !target.empty() && !decision.empty()) {
        int& seen = decisions_[{std::string(tool), std::string(target)}];
        seen |= decision == "deny" ? 1 : decision == "allow" ? 2 : 0;
      }
      retained_view(doc, e.data, at());
    }
  }

  // The findings, in event order (per event in rule order). Call once, after the pass.
  std::vector<finding> finish() {
    std::vector<bool> drop(found_.size(), false);
    for (const auto& [index, denied] : pending_) {
      const auto it = decisions_.find(denied);
      const int seen = it == decisions_.end() ? 0 : it->second;
      if (seen & 1) {
        drop[index] = true;
      } else if (seen & 2) {
        found_[index].message =
            "Denied-call observation for '" + denied.first + "' is contradicted by a digest-bound allow record";
      } else {
        found_[index].message = "Denied-call observation for '" + denied.first +
                                "' is not backed by a digest-bound assay.enforcement_decision.v0 deny record";
      }
    }
    std::vector<finding> out;
    out.reserve(found_.size());
    for (std::size_t i = 0; i < found_.size(); ++i)
      if (!drop[i])
        out.push_back(std::move(found_[i]));
    found_.clear();
    return out;
  }

 private:
  using key = std::pair<std::string, std::string>;  // tool name, target digest

  void add(std::size_t rule, std::string message, const event_location& at) {
    const builtin_rule& r = builtin_rule_table[rule];
    found_.emplace_back(std::string(r.id), r.level, std::move(message), at, builtin_fingerprint(r.id, at),
                        std::string(), rule);
  }

  // A bindable denied-call observation: its (tool, target digest).
  static std::optional<key> denial_marker(const json::document& doc, std::string_view line, std::size_t data,
                                          std::string_view schema) {
    std::int64_t want = 0;
    if (schema == "assay.denied_call_observation.v0")
      want = -32042;
    else if (schema == "assay.denied_call_observation.v1")
      want = -31999;
    else
      return std::nullopt;
    const std::size_t err = doc.find_member(data, "caller_visible_error");
    const std::size_t code = err == 0 ? 0 : doc.find_member(err, "code");
    if (code == 0 || doc.nodes()[code].kind != json::kind::number)
      return std::nullopt;
    // The code must be an integer (as_i64): -32042.0 is no marker.
    if (doc.number_at(code) != static_cast<double>(want) || !integer_number(doc, line, code))
      return std::nullopt;
    if (detail::path_string(doc, data, "caller_visible_error", "origin") != "assay-proxy")
      return std::nullopt;
    const std::string_view tool = detail::path_string(doc, data, "call", "tool_name");
    const std::string_view target = detail::path_string(doc, data, "call", "target_digest");
    if (tool.empty() || target.empty())
      return std::nullopt;
    return key{std::string(tool), std::string(target)};
  }

  void retained_view(const json::document& doc, std::size_t data, const event_location& at) {
    const std::size_t view_node = doc.find_member(data, "approval_retained_view");
    if (view_node == 0)
      return;
    const std::string_view view =
        doc.nodes()[view_node].kind == json::kind::string ? doc.string_at(view_node) : std::string_view();
    if (view == "structured_meta_jcs")
      return;
    std::string message;
    if (view == "encrypted") {
      if (!detail::string_member(doc, data, "approval_plaintext_commitment").empty())
        message =
            "Approval basis declares an encrypted retained view (opaque_bindable: a plaintext commitment travels) — "
            "content-review claims cap at incomplete; a later disclosure is checkable against the commitment";
      else
        message =
            "Approval basis declares an encrypted retained view (opaque_unbindable: no plaintext commitment) — "
            "content-review claims cap at incomplete; recovery may run through key disclosure, but that path is not "
            "exhaustive: for some ciphertext classes plaintext is recoverable by a third party with no key holder "
            "involved, so opaque to the reviewer does not imply confidential against others";
    } else if (!view.empty()) {
      message = "Approval basis declares unknown retained view '" + std::string(view) +
                "' — fail-closed: content-review claims cap at incomplete";
    } else {
      message =
          "Approval basis declares an empty or non-string retained view — fail-closed: content-review claims cap at "
          "incomplete";
    }
    add(5, std::move(message), at);
  }

  std::vector<finding> found_;
  std::vector<std::pair<std::size_t, key>> pending_;  // W004 findings awaiting the decisions
  std::map<key, int> decisions_;                      // bit 1: a deny record, bit 2: an allow record
};
using builtin_rules = basic_builtin_rules<>;

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE class basic_builtin_rules<void>;
}  // namespace assay::lint
#endif
