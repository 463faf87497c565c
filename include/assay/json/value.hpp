// assay/json/value.hpp — a small DOM for untyped JSON (the `data` of unknown events, packs,
// schemas), built by the strict reader. Object members keep their input order; duplicate names
// are rejected while building.
#pragma once

#include "assay/error.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/reader.hpp"

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace assay::json {

class value;
struct member;
using array = std::vector<value>;
using object = std::vector<member>;

enum class kind : std::uint8_t { null, boolean, number, string, array, object };

constexpr std::string_view name(kind k) noexcept {
  switch (k) {
    case kind::null: return "null";
    case kind::boolean: return "boolean";
    case kind::number: return "number";
    case kind::string: return "string";
    case kind::array: return "array";
    case kind::object: return "object";
  }
  return "?";
}

class value {
 public:
  // The constructors are defined below, once `member` is complete (std::variant and
  // std::vector<member> need it).
  value() noexcept;
  value(std::nullptr_t) noexcept;
  value(bool b) noexcept;
  value(double d) noexcept;
  value(int i) noexcept;
  value(long i) noexcept;
  value(long long i) noexcept;
  value(unsigned i) noexcept;
  value(unsigned long i) noexcept;
  value(unsigned long long i) noexcept;
  value(std::string s) noexcept;
  value(std::string_view s);
  value(const char* s);
  value(json::array a) noexcept;
  value(json::object o) noexcept;

  json::kind kind() const noexcept { return static_cast<json::kind>(v_.index()); }
  bool is_null() const noexcept { return kind() == json::kind::null; }
  bool is_bool() const noexcept { return kind() == json::kind::boolean; }
  bool is_number() const noexcept { return kind() == json::kind::number; }
  bool is_string() const noexcept { return kind() == json::kind::string; }
  bool is_array() const noexcept { return kind() == json::kind::array; }
  bool is_object() const noexcept { return kind() == json::kind::object; }

  bool as_bool() const { return std::get<bool>(v_); }
  double as_number() const { return std::get<double>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  std::string& as_string() { return std::get<std::string>(v_); }
  const json::array& as_array() const { return std::get<json::array>(v_); }
  json::array& as_array() { return std::get<json::array>(v_); }
  const json::object& as_object() const { return std::get<json::object>(v_); }
  json::object& as_object() { return std::get<json::object>(v_); }

  // Member lookup on an object (nullptr when absent or when this is not an object).
  const value* find(std::string_view name) const noexcept;
  value* find(std::string_view name) noexcept;

  // Sets a member on an object (replacing an existing one of the same name).
  value& set(std::string_view name, value v);

  friend bool operator==(const value& a, const value& b) noexcept;

 private:
  std::variant<std::nullptr_t, bool, double, std::string, json::array, json::object> v_;
};

struct member {
  std::string name;
  json::value value;
  friend bool operator==(const member&, const member&) = default;
};

inline value::value() noexcept = default;
inline value::value(std::nullptr_t) noexcept {}
inline value::value(bool b) noexcept : v_(b) {}
inline value::value(double d) noexcept : v_(d) {}
inline value::value(int i) noexcept : v_(static_cast<double>(i)) {}
inline value::value(long i) noexcept : v_(static_cast<double>(i)) {}
inline value::value(long long i) noexcept : v_(static_cast<double>(i)) {}
inline value::value(unsigned i) noexcept : v_(static_cast<double>(i)) {}
inline value::value(unsigned long i) noexcept : v_(static_cast<double>(i)) {}
inline value::value(unsigned long long i) noexcept : v_(static_cast<double>(i)) {}
inline value::value(std::string s) noexcept : v_(std::move(s)) {}
inline value::value(std::string_view s) : v_(std::string(s)) {}
inline value::value(const char* s) : v_(std::string(s)) {}
inline value::value(json::array a) noexcept : v_(std::move(a)) {}
inline value::value(json::object o) noexcept : v_(std::move(o)) {}

inline const value* value::find(std::string_view name) const noexcept {
  if (!is_object()) return nullptr;
  for (const auto& m : as_object())
    if (m.name == name) return &m.value;
  return nullptr;
}
inline value* value::find(std::string_view name) noexcept {
  return const_cast<value*>(static_cast<const value*>(this)->find(name));
}
inline value& value::set(std::string_view name, value v) {
  if (!is_object()) v_ = json::object{};
  if (value* existing = find(name)) {
    *existing = std::move(v);
    return *existing;
  }
  auto& obj = as_object();
  obj.push_back(member{std::string(name), std::move(v)});
  return obj.back().value;
}

// Structural equality: objects compare as sets of members (order does not matter).
inline bool operator==(const value& a, const value& b) noexcept {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case kind::null: return true;
    case kind::boolean: return a.as_bool() == b.as_bool();
    case kind::number: return a.as_number() == b.as_number();
    case kind::string: return a.as_string() == b.as_string();
    case kind::array: return a.as_array() == b.as_array();
    case kind::object: {
      const auto& x = a.as_object();
      const auto& y = b.as_object();
      if (x.size() != y.size()) return false;
      for (const auto& m : x) {
        const value* other = b.find(m.name);
        if (other == nullptr || !(*other == m.value)) return false;
      }
      return true;
    }
  }
  return false;
}

namespace detail {

// Checks the member just appended to `obj` against the ones before it.
class duplicate_guard {
 public:
  explicit duplicate_guard(const json::object& obj) : obj_(obj) {}

  // True when obj_.back().name already occurs earlier.
  bool last_is_duplicate() {
    const std::size_t n = obj_.size() - 1;
    const std::string& name = obj_[n].name;
    if (n < linear_limit) {
      for (std::size_t i = 0; i < n; ++i)
        if (obj_[i].name == name) return true;
      return false;
    }
    if (set_.empty()) {
      set_ = index_set(64, hasher{&obj_}, equal{&obj_});
      for (std::size_t i = 0; i < n; ++i) set_.insert(i);
    }
    return !set_.insert(n).second;
  }

 private:
  static constexpr std::size_t linear_limit = 16;
  struct hasher {
    const json::object* o;
    std::size_t operator()(std::size_t i) const noexcept { return std::hash<std::string_view>{}((*o)[i].name); }
  };
  struct equal {
    const json::object* o;
    bool operator()(std::size_t a, std::size_t b) const noexcept { return (*o)[a].name == (*o)[b].name; }
  };
  using index_set = std::unordered_set<std::size_t, hasher, equal>;
  const json::object& obj_;
  index_set set_{0, hasher{nullptr}, equal{nullptr}};
};

inline std::string quoted_for_message(std::string_view s) {
  std::string out = "\"";
  std::size_t shown = 0;
  for (char c : s) {
    if (++shown > 64) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      out += '?';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace detail

// Reads one value at the cursor into `out`. On failure the cursor holds the error.
inline bool read_value(cursor& c, value& out) {
  switch (c.expect_value()) {
    case token::object: {
      if (!c.enter_object()) return false;
      json::object obj;
      detail::duplicate_guard guard(obj);
      std::string_view name;
      while (c.next_member(name)) {
        obj.push_back(member{std::string(name), value{}});
        if (guard.last_is_duplicate()) {
          return c.fail(c.make_error(errc::duplicate_member, c.name_offset(),
                                     "duplicate member name " + detail::quoted_for_message(name)));
        }
        if (!read_value(c, obj.back().value)) return false;
      }
      if (!c.ok()) return false;
      out = value(std::move(obj));
      return true;
    }
    case token::array: {
      if (!c.enter_array()) return false;
      json::array arr;
      while (c.next_element()) {
        arr.emplace_back();
        if (!read_value(c, arr.back())) return false;
      }
      if (!c.ok()) return false;
      out = value(std::move(arr));
      return true;
    }
    case token::string: {
      std::string_view s;
      if (!c.read_string(s)) return false;
      out = value(std::string(s));
      return true;
    }
    case token::number: {
      double d = 0;
      if (!c.read_number(d)) return false;
      out = value(d);
      return true;
    }
    case token::boolean: {
      bool b = false;
      if (!c.read_bool(b)) return false;
      out = value(b);
      return true;
    }
    case token::null:
      if (!c.read_null()) return false;
      out = value(nullptr);
      return true;
    case token::end:
    case token::error: return false;
  }
  return false;
}

// Validates and discards the value at the cursor (the same strict rules as reading it).
inline bool skip_value(cursor& c) {
  value ignored;
  return read_value(c, ignored);
}

// Parses a whole document.
inline result<value> parse(std::string_view text, const limits& lim = {}) {
  cursor c(text, lim);
  value v;
  if (!read_value(c, v) || !c.finish()) return c.error();
  return v;
}

// Resolves a pointer; nullptr when it does not resolve.
inline const value* find(const value& root, const pointer& ptr) noexcept {
  const value* cur = &root;
  for (const auto& token : ptr.tokens()) {
    if (cur->is_object()) {
      cur = cur->find(token);
    } else if (cur->is_array()) {
      std::size_t i = 0;
      if (!pointer::parse_index(token, i) || i >= cur->as_array().size()) return nullptr;
      cur = &cur->as_array()[i];
    } else {
      return nullptr;
    }
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

// Resolves a pointer given as text; errors name what is wrong.
inline result<const value*> find(const value& root, std::string_view ptr_text) {
  auto p = pointer::parse(ptr_text);
  if (!p) return p.error();
  const value* v = find(root, *p);
  if (v == nullptr) {
    return make_error(errc::no_such_value, "no value at " + std::string(ptr_text), std::string(ptr_text));
  }
  return v;
}

}  // namespace assay::json
