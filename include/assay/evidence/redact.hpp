// assay/evidence/redact.hpp — privacy classes applied to events (docs/privacy.md).
//
// Every member of a payload type is public, sensitive or forbidden (`field_info::privacy`, known
// at compile time). `redact_event` applies the classes to an event before anything is hashed or
// written:
//   public     kept as it is;
//   sensitive  every string in the value generalized: home-directory paths become
//              `~/**/<last component>`, a secret-bearing argument is cut after its marker and
//              ends in `***`;
//   forbidden  dropped, and the event's `assaysecrets` (or `assaypii`) set; with
//              `redact_options::commitments` replaced by `{alg, digest, size_bytes}` over its
//              canonical bytes instead, when the member can hold a commitment.
// The `data` of an event type the registry does not know is treated as sensitive throughout.
// The content hash is computed afresh.
#pragma once

#include "assay/contracts/event.hpp"
#include "assay/contracts/known_payloads.hpp"
#include "assay/contracts/payloads.hpp"
#include "assay/error.hpp"
#include "assay/evidence/content_hash.hpp"
#include "assay/hash/hash.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace assay::evidence {

// One value a redaction changed or removed: where it is (a JSON Pointer below the payload, or
// `/subject` for the envelope's subject) and the class that made it so (sensitive: generalized;
// forbidden: dropped, or replaced by a commitment).
struct redacted_value {
  std::string pointer;
  privacy cls = privacy::sensitive;
  friend bool operator==(const redacted_value&, const redacted_value&) = default;
};

// Where a redaction records what it changed (redact_options::log), and the pointer it is at.
struct redaction_log {
  std::vector<redacted_value> values;
  std::string at;  // the pointer of the value being redacted (the walk's own)
};

struct redact_options {
  bool commitments = false;      // forbidden values become commitments instead of disappearing
  bool keep_sensitive = false;   // sensitive values (declared or additive) kept as written
  redaction_log* log = nullptr;  // when set, each value changed or dropped is named there
};

// What a redaction changed.
struct redaction {
  std::size_t paths = 0;      // home-directory paths generalized
  std::size_t secrets = 0;    // secret-bearing strings cut
  std::size_t dropped = 0;    // forbidden members removed
  std::size_t committed = 0;  // forbidden members replaced by commitments
  bool set_secrets = false;   // a forbidden secret was removed
  bool set_pii = false;       // a forbidden personal value was removed
  bool changed() const noexcept { return paths + secrets + dropped + committed != 0; }
};

namespace detail {

inline char lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Position of the first case-insensitive occurrence of `needle` (lowercase) in `s`.
inline std::size_t find_nocase(std::string_view s, std::string_view needle) noexcept {
  if (needle.size() > s.size())
    return std::string_view::npos;
  for (std::size_t i = 0; i + needle.size() <= s.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && lower(s[i + k]) == needle[k])
      ++k;
    if (k == needle.size())
      return i;
  }
  return std::string_view::npos;
}

// The markers of docs/privacy.md, in their order (the first that occurs wins).
inline constexpr std::array<std::string_view, 13> secret_markers = {
    "authorization: bearer ",
    "authorization: ",
    "token=",
    "key=",
    "bearer ",
    "api_key=",
    "apikey=",
    "secret=",
    "password=",
    "session=",
    "cookie=",
    "x-api-key:",
    "x-token:",
};

// The end of the first `--<name>=` whose name contains token, key, secret or password.
inline std::size_t secret_flag_end(std::string_view s) noexcept {
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    if (s[i] != '-' || s[i + 1] != '-' || (i > 0 && s[i - 1] == '-'))
      continue;
    std::size_t j = i + 2;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '-' || s[j] == '_'))
      ++j;
    if (j == i + 2 || j >= s.size() || s[j] != '=')
      continue;
    const std::string_view name = s.substr(i + 2, j - i - 2);
    for (std::string_view word : {"token", "key", "secret", "password"})
      if (find_nocase(name, word) != std::string_view::npos)
        return j + 1;
  }
  return std::string_view::npos;
}

}  // namespace detail

// `s` cut after its first secret marker and ended with "***"; nullopt when it has none.
inline std::optional<std::string> cut_secret(std::string_view s) {
  for (std::string_view m : detail::secret_markers) {
    const std::size_t at = detail::find_nocase(s, m);
    if (at != std::string_view::npos)
      return std::string(s.substr(0, at + m.size())) + "***";
  }
  const std::size_t end = detail::secret_flag_end(s);
  if (end != std::string_view::npos)
    return std::string(s.substr(0, end)) + "***";
  return std::nullopt;
}

namespace detail {

inline bool path_char(char c) noexcept {
  return !(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '`' || c == ',' ||
           c == ';' || c == '(' || c == ')' || c == '<' || c == '>' || c == '|');
}

inline bool ieq(std::string_view a, std::string_view lower_b) noexcept {
  if (a.size() != lower_b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower_b[i])
      return false;
  return true;
}

// The length of the home-directory prefix starting at s[i] (through the user's name and the
// separator after it), or 0. Forms: /home/<u>/, /Users/<u>/, /root/, <drive>:\Users\<u>\ (also
// with '/', any case).
inline std::size_t home_prefix(std::string_view s, std::size_t i) noexcept {
  auto user_then_sep = [&](std::size_t at, char sep1, char sep2) -> std::size_t {
    std::size_t j = at;
    while (j < s.size() && s[j] != sep1 && s[j] != sep2 && path_char(s[j]))
      ++j;
    if (j == at || j >= s.size() || (s[j] != sep1 && s[j] != sep2))
      return 0;
    return j + 1 - i;
  };
  const std::string_view rest = s.substr(i);
  if (rest.starts_with("/home/"))
    return user_then_sep(i + 6, '/', '/');
  if (rest.starts_with("/Users/"))
    return user_then_sep(i + 7, '/', '/');
  if (rest.starts_with("/root/"))
    return 6;
  if (rest.size() >= 9 && std::isalpha(static_cast<unsigned char>(rest[0])) && rest[1] == ':' &&
      (rest[2] == '\\' || rest[2] == '/') && ieq(rest.substr(3, 5), "users") && (rest[8] == '\\' || rest[8] == '/'))
    return user_then_sep(i + 9, '\\', '/');
  return 0;
}

}  // namespace detail

// `s` with every path under a home directory written `~/**/<last component>`. `count` is
// increased by the number of paths replaced.
inline std::string generalize_home_paths(std::string_view s, std::size_t& count) {
  std::string out;
  std::size_t i = 0, copied = 0;
  while (i < s.size()) {
    const bool boundary = i == 0 || !detail::path_char(s[i - 1]) || s[i - 1] == '=' || s[i - 1] == ':';
    const std::size_t prefix = boundary ? detail::home_prefix(s, i) : 0;
    if (prefix == 0) {
      ++i;
      continue;
    }
    std::size_t end = i + prefix;
    while (end < s.size() && detail::path_char(s[end]))
      ++end;
    // The last non-empty component after the home directory.
    std::string_view tail = s.substr(i + prefix, end - i - prefix);
    while (!tail.empty() && (tail.back() == '/' || tail.back() == '\\'))
      tail.remove_suffix(1);
    const std::size_t sep = tail.find_last_of("/\\");
    const std::string_view last = sep == std::string_view::npos ? tail : tail.substr(sep + 1);
    if (last.empty()) {  // the home directory itself
      i = end;
      continue;
    }
    out.append(s.substr(copied, i - copied));
    out += "~/**/";
    out.append(last);
    copied = i = end;
    ++count;
  }
  if (copied == 0)
    return std::string(s);
  out.append(s.substr(copied));
  return out;
}

// The sensitive-string rule: secrets cut, then home paths generalized.
inline std::string redact_string(std::string_view s, redaction& r) {
  std::string out;
  if (auto cut = cut_secret(s)) {
    ++r.secrets;
    out = std::move(*cut);
  } else {
    out = std::string(s);
  }
  return generalize_home_paths(out, r.paths);
}

namespace detail {

inline bool ends_with_nocase(std::string_view s, std::size_t end, std::string_view lower_word) noexcept {
  return end >= lower_word.size() && ieq(s.substr(end - lower_word.size(), lower_word.size()), lower_word);
}

}  // namespace detail

// False only when the sensitive rule can change no string held in `text` — JSON as written, or a
// plain string: no secret marker, no home-directory path, nothing escaped that could hide one.
// A quick test before the real work (redact_strings), which is then skipped; true says only
// "look closer". One pass; the bytes that can start a match ('=', ':', ' ', '/', '\') are rare
// enough that each is looked at where it stands.
inline bool may_need_redaction(std::string_view text) noexcept {
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    switch (text[i]) {
      case '=':   // token=, key=, api_key=, secret=, password=, session=, cookie=, --<name>=
      case '\\':  // an escape: the rules look at the decoded string
        return true;
      case ':':  // "authorization: ", x-api-key:, x-token:
        if ((i + 1 < n && text[i + 1] == ' ') || detail::ends_with_nocase(text, i, "key") ||
            detail::ends_with_nocase(text, i, "token"))
          return true;
        break;
      case ' ':  // "bearer "
        if (detail::ends_with_nocase(text, i, "bearer"))
          return true;
        break;
      case '/':  // /home/<u>/, /Users/<u>/, /root/, C:/Users/<u>/
        if (text.substr(i + 1).starts_with("home/") || text.substr(i + 1).starts_with("root/") ||
            (i + 6 < n && detail::ieq(text.substr(i + 1, 5), "users")))
          return true;
        break;
      default:
        break;
    }
  }
  return false;
}

// Applies the sensitive rule to every string inside `v` (member names stay); with a log, each
// string changed is named there (its pointer below log->at). The walk keeps its own stack: any
// depth the reader admitted.
inline void redact_strings(json::value& v, redaction& r, redaction_log* log = nullptr) {
  struct level {
    json::value* container;
    std::size_t next, pointer_size;
  };
  std::vector<level> stack;
  json::value* cur = &v;
  for (;;) {
    if (cur->is_string()) {
      std::string red = redact_string(cur->as_string(), r);
      if (red != cur->as_string()) {
        *cur = json::value(std::move(red));
        if (log != nullptr)
          log->values.push_back({log->at, privacy::sensitive});
      }
    } else if ((cur->is_array() && !cur->as_array().empty()) || (cur->is_object() && !cur->as_object().empty())) {
      stack.push_back({cur, 0, log != nullptr ? log->at.size() : 0});
    }
    cur = nullptr;
    while (cur == nullptr && !stack.empty()) {
      level& l = stack.back();
      const bool array = l.container->is_array();
      const std::size_t n = array ? l.container->as_array().size() : l.container->as_object().size();
      if (l.next >= n) {
        if (log != nullptr)
          log->at.resize(l.pointer_size);
        stack.pop_back();
        continue;
      }
      const std::size_t k = l.next++;
      if (log != nullptr) {
        log->at.resize(l.pointer_size);
        log->at += '/';
        log->at += array ? std::to_string(k) : json::escape_pointer_token(l.container->as_object()[k].name);
      }
      cur = array ? &l.container->as_array()[k] : &l.container->as_object()[k].value;
    }
    if (cur == nullptr)
      return;
  }
}

// The commitment to a value given as its canonical bytes: their sha256 and their length.
inline json::value commitment_of_canonical(std::string_view canonical) {
  json::value c = json::object{};
  c.set("alg", "sha256");
  c.set("digest", hash::digest_bytes<hash::sha256>(canonical).to_string());
  c.set("size_bytes", static_cast<double>(canonical.size()));
  return c;
}

// The commitment to a value: sha256 of its canonical bytes and their length.
inline result<json::value> commitment_of(const json::value& v) {
  auto bytes = json::to_canonical(v);
  if (!bytes)
    return bytes.error();
  return commitment_of_canonical(*bytes);
}

namespace detail {

template <class T>
constexpr bool can_hold_commitment() {
  using reflect::category;
  if constexpr (reflect::is_std_optional<T>::value) {
    return can_hold_commitment<typename T::value_type>();
  } else if constexpr (reflect::category_of<T>() == category::any) {
    return true;
  } else if constexpr (reflect::category_of<T>() == category::either) {
    return std::is_same_v<typename T::second_type, contracts::commitment>;
  } else {
    return false;
  }
}

template <class T>
void redact_typed(json::value& v, const redact_options& opt, redaction& r);

// Redaction of a value of C++ type F (a member's type): recurse into nested structs.
template <class F>
void redact_nested(json::value& v, const redact_options& opt, redaction& r) {
  using reflect::category;
  constexpr category cat = reflect::category_of<F>();
  if constexpr (reflect::is_std_optional<F>::value) {
    redact_nested<typename F::value_type>(v, opt, r);
  } else if constexpr (cat == category::object) {
    redact_typed<F>(v, opt, r);
  } else if constexpr (cat == category::array || cat == category::fixed_array) {
    if (v.is_array()) {
      const std::size_t at = opt.log != nullptr ? opt.log->at.size() : 0;
      std::size_t k = 0;
      for (json::value& e : v.as_array()) {
        if (opt.log != nullptr)
          opt.log->at += "/" + std::to_string(k++);
        redact_nested<typename F::value_type>(e, opt, r);
        if (opt.log != nullptr)
          opt.log->at.resize(at);
      }
    }
  } else if constexpr (cat == category::map) {
    if (v.is_object()) {
      const std::size_t at = opt.log != nullptr ? opt.log->at.size() : 0;
      for (json::member& m : v.as_object()) {
        if (opt.log != nullptr)
          opt.log->at += "/" + json::escape_pointer_token(m.name);
        redact_nested<typename F::mapped_type>(m.value, opt, r);
        if (opt.log != nullptr)
          opt.log->at.resize(at);
      }
    }
  } else if constexpr (cat == category::nullable) {
    if (!v.is_null())
      redact_nested<typename F::value_type>(v, opt, r);
  }
}

// Applies the privacy classes of struct T to the object `v` (which should be a T).
template <class T>
void redact_typed(json::value& v, const redact_options& opt, redaction& r) {
  if (!v.is_object())
    return;
  using info = reflect::struct_info<T>;
  redaction_log* const log = opt.log;
  const std::size_t at = log != nullptr ? log->at.size() : 0;
  // The log's pointer at member `name` (a no-op without a log).
  const auto enter = [&](std::string_view name) {
    if (log != nullptr) {
      log->at.resize(at);
      log->at += '/';
      log->at += json::escape_pointer_token(name);
    }
  };
  reflect::for_each_index<T>([&](auto I) {
    using F = reflect::field_type<T, I.value>;
    if constexpr (info::is_member[I.value]) {
      const std::string_view name = info::json_names[I.value];
      json::value* member = v.find(name);
      if (member == nullptr)
        return;
      enter(name);
      constexpr privacy p = info::privacy_classes[I.value];
      if constexpr (p == privacy::sensitive) {
        if (!opt.keep_sensitive)
          redact_strings(*member, r, log);
      } else if constexpr (p == privacy::forbidden_secret || p == privacy::forbidden_pii) {
        static_assert(reflect::is_std_optional<F>::value || can_hold_commitment<F>(),
                      "a forbidden member must be optional (it is dropped) or able to hold a commitment");
        (p == privacy::forbidden_secret ? r.set_secrets : r.set_pii) = true;
        if (log != nullptr)
          log->values.push_back({log->at, p});
        bool committed = false;
        if constexpr (can_hold_commitment<F>()) {
          if (opt.commitments) {
            if (auto c = commitment_of(*member)) {
              *member = std::move(*c);
              ++r.committed;
              committed = true;
            }
          }
        }
        if (!committed) {
          auto& members = v.as_object();
          for (auto it = members.begin(); it != members.end(); ++it) {
            if (it->name == name) {
              members.erase(it);
              break;
            }
          }
          ++r.dropped;
        }
      } else {
        redact_nested<F>(*member, opt, r);
      }
    }
  });
  // Members the type does not declare (kept by its extra_members, or by no one) are sensitive:
  // nothing says what they hold.
  if (!opt.keep_sensitive) {
    for (json::member& m : v.as_object()) {
      if (info::find(m.name) == info::npos) {
        enter(m.name);
        redact_strings(m.value, r, log);
      }
    }
  }
  if (log != nullptr)
    log->at.resize(at);
}

// Whether a value of C++ type T can hold, at any depth, a member that is forbidden
// (`forbidden_only`), or one that is not public — an additive member (extra_members) counts, being
// sensitive. A listed payload type with neither needs no redaction at all.
template <class T, bool forbidden_only>
constexpr bool holds_class() {
  using reflect::category;
  constexpr category cat = reflect::category_of<T>();
  if constexpr (reflect::is_std_optional<T>::value || cat == category::nullable) {
    return holds_class<typename T::value_type, forbidden_only>();
  } else if constexpr (cat == category::array || cat == category::fixed_array) {
    return holds_class<typename T::value_type, forbidden_only>();
  } else if constexpr (cat == category::map) {
    return holds_class<typename T::mapped_type, forbidden_only>();
  } else if constexpr (cat == category::object) {
    using info = reflect::struct_info<T>;
    bool any = !forbidden_only && info::has_extras;
    reflect::for_each_index<T>([&](auto I) {
      if constexpr (info::is_member[I.value]) {
        constexpr privacy p = info::privacy_classes[I.value];
        const bool picked =
            forbidden_only ? p == privacy::forbidden_secret || p == privacy::forbidden_pii : p != privacy::public_;
        any = any || picked || holds_class<reflect::field_type<T, I.value>, forbidden_only>();
      }
    });
    return any;
  } else {
    return false;
  }
}

using payload_redactor = void (*)(json::value&, const redact_options&, redaction&);

// The privacy class of the envelope's `subject` for payload type P: its `subject_privacy` when
// it declares one (fs.access's subject is a path), else public.
template <class P>
constexpr privacy subject_privacy_of() {
  if constexpr (requires { P::subject_privacy; })
    return P::subject_privacy;
  else
    return privacy::public_;
}

struct redactor_entry {
  std::string_view type;
  payload_redactor redact;
  privacy subject = privacy::public_;
  bool has_forbidden = false;  // a member of the type is forbidden: redaction always has work
};

// The sensitive rule on the envelope's subject, when its class says so.
inline void redact_subject(json::value& event, privacy subject, redaction& r) {
  if (subject != privacy::sensitive)
    return;
  if (json::value* s = event.find("subject"); s != nullptr && s->is_string()) {
    std::string red = redact_string(s->as_string(), r);
    if (red != s->as_string())
      *s = json::value(std::move(red));
  }
}

// The redactor of a payload type by its name. A template (over the payload list) so that the
// table, and the redactor of every known payload in it, is compiled only where it is used.
template <class Payloads = contracts::known_payloads>
const redactor_entry* find_redactor(std::string_view type) {
  static const auto table = Payloads::table([]<class P>() {
    return redactor_entry{P::event_type, &redact_typed<P>, subject_privacy_of<P>(), holds_class<P, true>()};
  });
  for (const redactor_entry& e : table)
    if (e.type == type)
      return &e;
  return nullptr;
}

}  // namespace detail

// What an output that goes to another system (an OTLP export, a SARIF or lint message, a
// findings packet, a diff report) may carry of an event's `data` and `subject`: the classes of
// the payload type of `type` among Payloads applied — sensitive values (declared, additive, or
// all of an unknown type's data) generalized unless `keep_sensitive`, forbidden ones dropped
// whatever the bundle holds (docs/privacy.md, "nothing leaves in the clear"). `data` and
// `subject` (either may be null) are changed in place; the result names each value changed or
// dropped, by its pointer in the event (`/data/...`, `/subject`), in the order met.
template <class Payloads = contracts::known_payloads>
std::vector<redacted_value> redact_for_output(std::string_view type, json::value* data, std::string* subject,
                                              bool keep_sensitive = false) {
  redaction_log log;
  log.at = "/data";
  redact_options opt;
  opt.keep_sensitive = keep_sensitive;
  opt.log = &log;
  redaction r;
  const detail::redactor_entry* e = detail::find_redactor<Payloads>(type);
  if (data != nullptr) {
    if (e != nullptr)
      e->redact(*data, opt, r);
    else if (!keep_sensitive)
      redact_strings(*data, r, &log);
  }
  const privacy sc = e != nullptr ? e->subject : privacy::sensitive;
  if (subject != nullptr && sc == privacy::sensitive && !keep_sensitive) {
    std::string red = redact_string(*subject, r);
    if (red != *subject) {
      *subject = std::move(red);
      log.values.push_back({"/subject", privacy::sensitive});
    }
  }
  return std::move(log.values);
}

// Applies the privacy classes of payload type P to a `data` value.
template <class P>
redaction redact_payload(json::value& data, const redact_options& opt = {}) {
  redaction r;
  detail::redact_typed<P>(data, opt, r);
  return r;
}

// Redacts an event (a JSON object): its `data` by the payload type of its `type` among
// `Payloads` (every string treated as sensitive for an unknown type), the flags set for
// forbidden members, and the content hash computed afresh.
template <class Payloads = contracts::known_payloads>
result<redaction> redact_event(json::value& event, const redact_options& opt = {}) {
  if (!event.is_object())
    return make_error(errc::type_mismatch, "an event must be a JSON object");
  json::value* data = event.find("data");
  const json::value* type = event.find("type");
  if (data == nullptr)
    return make_error(errc::missing_member, "the event has no data", "/data");
  if (type == nullptr || !type->is_string())
    return make_error(errc::type_mismatch, "the event's type must be a string", "/type");
  redaction r;
  if (const detail::redactor_entry* e = detail::find_redactor<Payloads>(type->as_string())) {
    e->redact(*data, opt, r);
    detail::redact_subject(event, e->subject, r);
  } else {
    redact_strings(*data, r);
  }
  if (r.set_secrets)
    event.set("assaysecrets", true);
  if (r.set_pii)
    event.set("assaypii", true);
  auto h = content_hash(event);
  if (!h)
    return h.error();
  event.set("assaycontenthash", *h);
  return r;
}

namespace detail {

// --- typed values: the same classes, applied to the C++ value -------------------------------

// The sensitive rule on every string inside a typed value. The strings of one_of and
// const_string members are the contract's own literals, not free text: they stay.
template <class F>
void redact_strings_in(F& v, redaction& r) {
  using reflect::category;
  constexpr category cat = reflect::category_of<F>();
  if constexpr (reflect::is_std_optional<F>::value || cat == category::nullable) {
    if (v)
      redact_strings_in(*v, r);
  } else if constexpr (cat == category::string) {
    std::string red = redact_string(v, r);
    if (red != v)
      static_cast<std::string&>(v) = std::move(red);
  } else if constexpr (cat == category::any) {
    redact_strings(v, r);
  } else if constexpr (cat == category::either) {
    std::visit([&](auto& x) { redact_strings_in(x, r); },
               static_cast<std::variant<typename F::first_type, typename F::second_type>&>(v));
  } else if constexpr (cat == category::array || cat == category::fixed_array) {
    for (auto& e : v)
      redact_strings_in(e, r);
  } else if constexpr (cat == category::map) {
    for (auto& m : v)
      redact_strings_in(m.second, r);
  } else if constexpr (cat == category::object) {
    reflect::for_each_index<F>([&](auto I) {
      auto& member = reflect::get<I.value>(v);
      if constexpr (reflect::struct_info<F>::is_member[I.value]) {
        redact_strings_in(member, r);
      } else {
        for (auto& m : member)  // extra_members: JSON values
          redact_strings(m.second, r);
      }
    });
  }
}

// The commitment to a typed value: sha256 of its canonical bytes, streamed, and their length.
template <class V>
result<contracts::commitment> commitment_to(const V& v) {
  hash::hash_sink<hash::sha256> sink(hash::sink_options{static_cast<std::size_t>(-1)});
  if (auto w = reflect::encode_to(sink, v); !w)
    return w.error();
  contracts::commitment c;
  c.size_bytes = static_cast<std::int64_t>(sink.bytes_written());
  c.digest = sink.finish().to_string();
  return c;
}

// A forbidden member replaced by its commitment, when its type can hold one (true if done).
template <class F>
bool commit(F& member) {
  if constexpr (reflect::is_std_optional<F>::value) {
    return commit(*member);
  } else if constexpr (reflect::category_of<F>() == reflect::category::any) {
    auto c = commitment_to(member);
    if (!c)
      return false;
    json::value v = json::object{};
    v.set("alg", "sha256");
    v.set("digest", std::string(c->digest));
    v.set("size_bytes", static_cast<double>(c->size_bytes.value()));
    member = std::move(v);
    return true;
  } else {
    auto c = commitment_to(member);
    if (!c)
      return false;
    member.template emplace<1>(std::move(*c));
    return true;
  }
}

template <class T>
void redact_members(T& obj, const redact_options& opt, redaction& r, std::optional<error>& failed);

// Into a public member of type F: the classes of the structs inside it apply.
template <class F>
void redact_inside(F& v, const redact_options& opt, redaction& r, std::optional<error>& failed) {
  using reflect::category;
  constexpr category cat = reflect::category_of<F>();
  if constexpr (reflect::is_std_optional<F>::value || cat == category::nullable) {
    if (v)
      redact_inside(*v, opt, r, failed);
  } else if constexpr (cat == category::object) {
    redact_members(v, opt, r, failed);
  } else if constexpr (cat == category::array || cat == category::fixed_array) {
    for (auto& e : v)
      redact_inside(e, opt, r, failed);
  } else if constexpr (cat == category::map) {
    for (auto& m : v)
      redact_inside(m.second, opt, r, failed);
  }
}

// Applies the privacy classes of struct T to its members.
template <class T>
void redact_members(T& obj, const redact_options& opt, redaction& r, std::optional<error>& failed) {
  using info = reflect::struct_info<T>;
  reflect::for_each_index<T>([&](auto I) {
    using F = reflect::field_type<T, I.value>;
    if constexpr (info::is_member[I.value]) {
      auto& member = reflect::get<I.value>(obj);
      constexpr privacy p = info::privacy_classes[I.value];
      if constexpr (p == privacy::sensitive) {
        redact_strings_in(member, r);
      } else if constexpr (p == privacy::forbidden_secret || p == privacy::forbidden_pii) {
        static_assert(reflect::is_std_optional<F>::value || can_hold_commitment<F>(),
                      "a forbidden member must be optional (it is dropped) or able to hold a commitment");
        if constexpr (reflect::is_std_optional<F>::value) {
          if (!member)
            return;
        }
        (p == privacy::forbidden_secret ? r.set_secrets : r.set_pii) = true;
        if constexpr (can_hold_commitment<F>()) {
          if (opt.commitments && commit(member)) {
            ++r.committed;
            return;
          }
        }
        if constexpr (reflect::is_std_optional<F>::value) {
          member.reset();
          ++r.dropped;
        } else if (!failed) {
          failed = make_error(errc::missing_member,
                              "forbidden member \"" + std::string(info::json_names[I.value]) +
                                  "\" is required: it can only be replaced by a commitment",
                              "/data");
        }
      } else {
        redact_inside(member, opt, r, failed);
      }
    } else {
      for (auto& m : reflect::get<I.value>(obj))  // extra_members: sensitive, as in the JSON path
        redact_strings(m.second, r);
    }
  });
}

}  // namespace detail

// The same for a typed event, on the C++ value: its payload's members by their classes (for an
// evidence_event<> whose data is any JSON, by the class of its type, as above), the flags, and
// the content hash computed afresh from the canonical bytes of the data as they stream.
template <class P>
result<redaction> redact_event(contracts::evidence_event<P>& event, const redact_options& opt = {}) {
  if (auto v = assay::validate(event); !v)
    return v.error().front();
  redaction r;
  privacy subject = privacy::public_;
  if constexpr (std::is_same_v<P, json::value>) {
    if (const detail::redactor_entry* e = detail::find_redactor(event.type)) {
      e->redact(event.data, opt, r);
      subject = e->subject;
    } else {
      redact_strings(event.data, r);
    }
  } else {
    subject = detail::subject_privacy_of<P>();
    std::optional<error> failed;
    detail::redact_members(event.data, opt, r, failed);
    if (failed)
      return *failed;
  }
  if (subject == privacy::sensitive && event.subject)
    *event.subject = redact_string(*event.subject, r);
  if (r.set_secrets)
    event.assaysecrets = true;
  if (r.set_pii)
    event.assaypii = true;
  auto h = detail::projection_hash(
      [&](auto& w) { return reflect::encode_to(w, event.data); }, event.datacontenttype, event.specversion,
      event.subject ? std::optional<std::string_view>(*event.subject) : std::nullopt, event.type);
  if (!h)
    return h.error();
  event.assaycontenthash = std::move(*h);
  return r;
}

}  // namespace assay::evidence
