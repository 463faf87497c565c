// assay/json/value.hpp — a small DOM for untyped JSON (the `data` of unknown events, packs,
// schemas), built by the strict reader. Object members keep their input order; duplicate names
// are rejected while building.
#pragma once

#include "assay/error.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/reader.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace assay::json {

class value;
struct member;
using array = std::vector<value>;
using object = std::vector<member>;

// The enumerators `array` and `object` name the same things as the aliases above; g++'s -Wshadow
// calls that shadowing (clang does not), so it is silenced here, for this one declaration.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif
enum class kind : std::uint8_t { null, boolean, number, string, array, object };
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

constexpr std::string_view name(kind k) noexcept {
  switch (k) {
    case kind::null:
      return "null";
    case kind::boolean:
      return "boolean";
    case kind::number:
      return "number";
    case kind::string:
      return "string";
    case kind::array:
      return "array";
    case kind::object:
      return "object";
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

  // Copying, comparing (operator==) and destroying follow nested containers with a worklist
  // instead of recursion, so a very deep document (limits::max_depth raised far above the
  // default) cannot exhaust the stack.
  value(const value&);
  value(value&&) noexcept;
  value& operator=(const value&);
  value& operator=(value&&) noexcept;
  ~value();

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
inline value::value(value&&) noexcept = default;
inline value& value::operator=(value&&) noexcept = default;

inline value::value(const value& o) {
  auto is_container = [](const value& x) { return x.is_array() || x.is_object(); };
  if (!is_container(o)) {
    v_ = o.v_;
    return;
  }
  // Containers still to fill: (source, copy), each copy already in its final place.
  std::vector<std::pair<const value*, value*>> pending{{&o, this}};
  while (!pending.empty()) {
    const auto [from, to] = pending.back();
    pending.pop_back();
    auto copy = [&](const value& x, value& y) {
      if (is_container(x)) {
        pending.emplace_back(&x, &y);
      } else {
        y.v_ = x.v_;
      }
    };
    if (from->is_array()) {
      const json::array& src = from->as_array();
      to->v_ = json::array(src.size());
      json::array& dst = to->as_array();
      for (std::size_t i = 0; i < src.size(); ++i)
        copy(src[i], dst[i]);
    } else {
      const json::object& src = from->as_object();
      json::object dst;
      dst.reserve(src.size());
      for (const member& m : src)
        dst.push_back(member{m.name, value()});
      to->v_ = std::move(dst);
      json::object& placed = to->as_object();
      for (std::size_t i = 0; i < src.size(); ++i)
        copy(src[i].value, placed[i].value);
    }
  }
}

inline value& value::operator=(const value& o) {
  if (this != &o) {
    value copy(o);
    *this = std::move(copy);
  }
  return *this;
}

namespace detail {
// Moves the non-empty containers directly inside `v` to `out`, leaving empty ones behind.
inline void take_nested(value& v, std::vector<value>& out) {
  auto take = [&](value& child) {
    if ((child.is_array() && !child.as_array().empty()) || (child.is_object() && !child.as_object().empty())) {
      out.push_back(std::move(child));
    }
  };
  if (v.is_array()) {
    for (auto& e : v.as_array())
      take(e);
  } else if (v.is_object()) {
    for (auto& m : v.as_object())
      take(m.value);
  }
}
}  // namespace detail

inline value::~value() {
  if (is_array() ? as_array().empty() : !is_object() || as_object().empty())
    return;
  // Containers being destroyed on this thread's stack. The first levels recurse, as usual;
  // past them the rest of the tree is taken apart with a worklist.
  thread_local std::size_t depth = 0;
  if (depth < 128) {
    ++depth;
    v_ = nullptr;  // destroys the children here
    --depth;
    return;
  }
  std::vector<value> pending;
  detail::take_nested(*this, pending);
  while (!pending.empty()) {
    value v = std::move(pending.back());
    pending.pop_back();
    detail::take_nested(v, pending);
  }  // each `v` dies holding only scalars and empty containers: no deeper recursion
}

inline const value* value::find(std::string_view name) const noexcept {
  if (!is_object())
    return nullptr;
  for (const auto& m : as_object())
    if (m.name == name)
      return &m.value;
  return nullptr;
}
inline value* value::find(std::string_view name) noexcept {
  return const_cast<value*>(static_cast<const value*>(this)->find(name));
}
inline value& value::set(std::string_view name, value v) {
  if (!is_object())
    v_ = json::object{};
  if (value* existing = find(name)) {
    *existing = std::move(v);
    return *existing;
  }
  auto& obj = as_object();
  obj.push_back(member{std::string(name), std::move(v)});
  return obj.back().value;
}

namespace detail {

// Pairs of values still to compare, for operator==.
using compare_list = std::vector<std::pair<const value*, const value*>>;

// Objects compare as multisets of members: the same (name, value) pairs, in any order. When
// every name has one partner of that name on the other side (always, for parsed objects), the
// pairs of values are left in `pending`; where names repeat (only hand-built objects), the
// values of the repeated names are matched here with full comparisons. Small objects are matched
// directly; larger ones are sorted by name first, so the cost stays O(n log n) rather than
// quadratic.
inline bool members_equal(const json::object& x, const json::object& y, compare_list& pending) noexcept {
  const std::size_t n = x.size();
  if (n != y.size())
    return false;
  // Matches runs of members of one repeated name by value, in full: `a` and `b` list them.
  auto match_values = [](const member* const* a, const member* const* b, std::size_t k) {
    std::vector<bool> used(k, false);
    for (std::size_t i = 0; i < k; ++i) {
      bool found = false;
      for (std::size_t j = 0; j < k && !found; ++j) {
        if (!used[j] && a[i]->value == b[j]->value) {
          used[j] = true;
          found = true;
        }
      }
      if (!found)
        return false;
    }
    return true;
  };
  std::vector<const member*> xs;
  std::vector<const member*> ys;
  if (n <= 32) {
    // Each name of x finds its partner in y; a name met twice sends the object to the sorted
    // path below, which matches repeated names.
    std::uint32_t used = 0;
    bool repeats = false;
    const std::size_t mark = pending.size();
    for (std::size_t i = 0; i < n && !repeats; ++i) {
      std::size_t partner = n;
      for (std::size_t j = 0; j < n; ++j) {
        if ((used >> j & 1u) == 0 && y[j].name == x[i].name) {
          if (partner != n) {
            repeats = true;
            break;
          }
          partner = j;
        }
      }
      if (repeats)
        break;
      if (partner == n)
        return false;
      used |= std::uint32_t{1} << partner;
      pending.emplace_back(&x[i].value, &y[partner].value);
    }
    if (!repeats)
      return true;
    pending.resize(mark);
  }
  xs.reserve(n);
  ys.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs.push_back(&x[i]);
    ys.push_back(&y[i]);
  }
  auto by_name = [](const member* a, const member* b) { return a->name < b->name; };
  std::sort(xs.begin(), xs.end(), by_name);
  std::sort(ys.begin(), ys.end(), by_name);
  for (std::size_t i = 0; i < n; ++i)
    if (xs[i]->name != ys[i]->name)
      return false;
  // Runs of equal names line up.
  for (std::size_t i = 0; i < n;) {
    std::size_t e = i + 1;
    while (e < n && xs[e]->name == xs[i]->name)
      ++e;
    if (e == i + 1) {
      pending.emplace_back(&xs[i]->value, &ys[i]->value);
    } else if (!match_values(xs.data() + i, ys.data() + i, e - i)) {
      return false;
    }
    i = e;
  }
  return true;
}

}  // namespace detail

// Structural equality: objects compare as sets of members (order does not matter).
inline bool operator==(const value& a, const value& b) noexcept {
  detail::compare_list pending;
  const value* x = &a;
  const value* y = &b;
  for (;;) {
    if (x->kind() != y->kind())
      return false;
    switch (x->kind()) {
      case kind::null:
        break;
      case kind::boolean:
        if (x->as_bool() != y->as_bool())
          return false;
        break;
      case kind::number:
        if (x->as_number() != y->as_number())
          return false;
        break;
      case kind::string:
        if (x->as_string() != y->as_string())
          return false;
        break;
      case kind::array: {
        const json::array& xa = x->as_array();
        const json::array& ya = y->as_array();
        if (xa.size() != ya.size())
          return false;
        for (std::size_t i = xa.size(); i-- > 0;)
          pending.emplace_back(&xa[i], &ya[i]);
        break;
      }
      case kind::object:
        if (!detail::members_equal(x->as_object(), y->as_object(), pending))
          return false;
        break;
    }
    if (pending.empty())
      return true;
    x = pending.back().first;
    y = pending.back().second;
    pending.pop_back();
  }
}

// Reads one value at the cursor into `out`. On failure the cursor holds the error. Open
// containers are kept on a heap-allocated stack, not by recursion: the depth is
// limits::max_depth, whatever it is set to.
inline bool read_value(cursor& c, value& out) {
  struct level {
    bool is_object = false;
    json::array arr;
    json::object obj;
  };
  // levels[0, depth) are open; the ones above are kept for reuse (their containers are empty).
  std::vector<level> levels;
  std::size_t depth = 0;
  // Puts a scalar where it goes: `out`, the last member of the innermost object, or a new
  // element of the innermost array.
  auto put = [&](auto&& x) {
    if (depth == 0) {
      out = value(std::forward<decltype(x)>(x));
    } else if (levels[depth - 1].is_object) {
      levels[depth - 1].obj.back().value = value(std::forward<decltype(x)>(x));
    } else {
      levels[depth - 1].arr.emplace_back(std::forward<decltype(x)>(x));
    }
  };
  for (;;) {
    const token t = c.expect_value();
    switch (t) {
      case token::object:
      case token::array: {
        const bool is_object = t == token::object;
        if (!(is_object ? c.enter_object() : c.enter_array()))
          return false;
        if (depth != 0 && !levels[depth - 1].is_object)
          levels[depth - 1].arr.emplace_back();  // its place
        if (depth == levels.size())
          levels.emplace_back();
        level& l = levels[depth++];
        l.is_object = is_object;
        break;
      }
      case token::string: {
        std::string_view s;
        if (!c.read_string(s))
          return false;
        put(std::string(s));
        break;
      }
      case token::number: {
        double d = 0;
        if (!c.read_number(d))
          return false;
        put(d);
        break;
      }
      case token::boolean: {
        bool b = false;
        if (!c.read_bool(b))
          return false;
        put(b);
        break;
      }
      case token::null:
        if (!c.read_null())
          return false;
        put(nullptr);
        break;
      case token::end:
      case token::error:
        return false;
    }
    // Move on to the next value to read, closing every container that ends here.
    for (;;) {
      if (depth == 0)
        return true;
      level& top = levels[depth - 1];
      if (top.is_object) {
        std::string_view name;
        if (c.next_member(name)) {
          if (!c.check_unique_name(name))
            return false;
          top.obj.push_back(member{std::string(name), value{}});
          break;
        }
      } else if (c.next_element()) {
        break;
      }
      if (!c.ok())
        return false;
      --depth;
      // Its place: `out`, the parent's last member, or the element reserved when it opened.
      value& dest = depth == 0                    ? out
                    : levels[depth - 1].is_object ? levels[depth - 1].obj.back().value
                                                  : levels[depth - 1].arr.back();
      if (top.is_object) {
        dest = value(std::move(top.obj));
        top.obj = json::object();
      } else {
        dest = value(std::move(top.arr));
        top.arr = json::array();
      }
    }
  }
}

// Parses a whole document.
inline result<value> parse(std::string_view text, const limits& lim = {}) {
  cursor c(text, lim);
  value v;
  if (!read_value(c, v) || !c.finish())
    return c.error();
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
      if (!pointer::parse_index(token, i) || i >= cur->as_array().size())
        return nullptr;
      cur = &cur->as_array()[i];
    } else {
      return nullptr;
    }
    if (cur == nullptr)
      return nullptr;
  }
  return cur;
}

// Resolves a pointer given as text; errors name what is wrong.
inline result<const value*> find(const value& root, std::string_view ptr_text) {
  auto p = pointer::parse(ptr_text);
  if (!p)
    return p.error();
  const value* v = find(root, *p);
  if (v == nullptr) {
    return make_error(errc::no_such_value, "no value at " + std::string(ptr_text), std::string(ptr_text));
  }
  return v;
}

}  // namespace assay::json
