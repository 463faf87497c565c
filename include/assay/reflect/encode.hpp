// assay/reflect/encode.hpp — encode reflected values to canonical JSON (RFC 8785), with every
// constraint of their types checked.
//
//   auto s = assay::encode(report);                   // results<std::string>: JCS bytes
//   assay::reflect::encode_to(sink, report);          // JCS bytes into any sink (a hash state)
//   assay::validate(report);                          // every violation, nothing written
//
// Members are written in JCS order fixed at compile time (their quoted names are precomputed);
// maps are sorted at run time. A constrained type's check (constraints.hpp) runs on what is
// written. The first pass keeps no path; only when it finds a violation is the value encoded
// again, tracking where it is, to report each violation with its pointer.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/number.hpp"
#include "assay/reflect/checks.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/fields.hpp"
#include "assay/reflect/metadata.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace assay::reflect {

// What an encoding pass knows besides its writer: the violations found, and (when tracking)
// where it is, for their pointers.
struct encode_state {
  errors errs;
  struct segment {
    std::string_view name;
    std::size_t index;
    bool is_index;
  };
  std::vector<segment> path;
  // Off for a first, fast pass that only needs to know whether anything is wrong: no path is
  // kept and errors carry no pointer (the entry points then encode again, tracking, to report).
  bool track = true;

  void enter(const segment& s) {
    if (track)
      path.push_back(s);
  }
  void leave() noexcept {
    if (track)
      path.pop_back();
  }

  std::string pointer() const {
    std::string out;
    for (const auto& s : path) {
      out += '/';
      out += s.is_index ? std::to_string(s.index) : json::escape_pointer_token(s.name);
    }
    return out;
  }
  ASSAY_COLD void report(errc code, std::string message, std::string_view suffix = {}) {
    errs.items.push_back(make_error(code, std::move(message), track ? pointer() + std::string(suffix) : std::string()));
  }
};

template <class W>
struct encode_context : encode_state {
  W& w;
  explicit encode_context(W& writer) : w(writer) {}
};

template <class T, class W>
void encode_value(encode_context<W>& ctx, const T& v);

namespace detail {

// An integer member is written exactly or not at all: JSON numbers are doubles (docs/json.md), exact
// for integers up to 2^53 in magnitude, so a value beyond that is refused with its pointer
// rather than written as a neighbour (2^53 + 1 would read back as 2^53). Types narrower than 64
// bits always fit.
inline constexpr std::uint64_t max_exact_integer = 9007199254740992ULL;  // 2^53

template <class I>
constexpr bool integer_fits_json(I v) noexcept {
  if constexpr (sizeof(I) < 8) {
    return true;
  } else if constexpr (std::is_signed_v<I>) {
    return v >= -static_cast<std::int64_t>(max_exact_integer) && v <= static_cast<std::int64_t>(max_exact_integer);
  } else {
    return v <= max_exact_integer;
  }
}

template <class I>
ASSAY_COLD void report_inexact(encode_state& ctx, I v) {
  const bool negative = v < 0;
  ctx.report(negative ? errc::below_minimum : errc::above_maximum,
             std::to_string(v) + " cannot be written exactly: a JSON number holds integers only " +
                 (negative ? "down to -9007199254740992 (-2^53)" : "up to 9007199254740992 (2^53)"));
}

// The JSON forms of the allowed strings of an enumeration, computed at compile time: each
// quoted, padded to one stride, so writing one is a copy of a constant size. Only when no value
// needs escaping (otherwise `usable` is false and json::write_string is used).
template <class T>
struct string_literals {
  static constexpr auto list = T::values;
  static constexpr bool plain(std::string_view s) {
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\')
        return false;
    }
    return true;
  }
  static constexpr std::size_t stride = [] {
    std::size_t m = 0;
    for (auto v : list)
      m = std::max(m, v.size() + 2);
    return m;
  }();
  static constexpr bool usable = [] {
    for (auto v : list)
      if (!plain(v))
        return false;
    return stride <= 64;
  }();
  static constexpr std::array<char, stride * list.size()> table = [] {
    std::array<char, stride * list.size()> t{};
    for (std::size_t i = 0; i < list.size(); ++i) {
      char* p = t.data() + i * stride;
      p[0] = '"';
      for (std::size_t j = 0; j < list[i].size(); ++j)
        p[1 + j] = list[i][j];
      p[1 + list[i].size()] = '"';
    }
    return t;
  }();
};

// Writes allowed string number `i` of the enumeration T as JSON.
template <class T, class W>
void write_literal(W& w, std::size_t i) {
  using L = string_literals<T>;
  if constexpr (L::usable && L::stride <= json::max_reserve<W>) {
    char* p = w.reserve(L::stride);
    std::memcpy(p, L::table.data() + i * L::stride, L::stride);
    w.advance(L::list[i].size() + 2);
  } else {
    json::write_string(w, L::list[i]);
  }
}

template <class W, class I>
void write_integer(W& w, I v) {
  using wide = std::conditional_t<std::is_signed_v<I>, std::int64_t, std::uint64_t>;
  char* p = w.reserve(json::max_number_chars);
  w.advance(static_cast<std::size_t>(json::format_integer(static_cast<wide>(v), p) - p));
}

// Where a constraint's check reports: the value being written, or one of its items.
struct encode_reporter {
  encode_state& ctx;
  void operator()(errc code, std::string message) { ctx.report(code, std::move(message)); }
  void item(std::size_t i, errc code, std::string message) {
    std::string at = "/";
    at += std::to_string(i);
    ctx.report(code, std::move(message), at);
  }
};

// A number (T: an arithmetic type or a constraint on one): the constraint first; a value that
// breaks it reports that alone (not also that JSON cannot hold it).
template <class T, class W>
void encode_number(encode_context<W>& ctx, const T& v) {
  using B = base_of_t<T>;
  const B x = static_cast<B>(v);
  bool ok = true;
  if constexpr (constrained<T>) {
    encode_reporter report{ctx};
    ok = T::assay_check(x, report);
  }
  auto& w = ctx.w;
  if constexpr (std::is_integral_v<B>) {
    if (!integer_fits_json(x) && ok) [[unlikely]]
      report_inexact(ctx, x);
    write_integer(w, x);
  } else if (!json::write_number(w, static_cast<double>(x))) [[unlikely]] {
    if (ok)
      ctx.report(errc::not_finite, "NaN and infinity have no JSON form");
    w.put('0');
  }
}

// The items of an array as a unique_list's check sees them: strings as they are (shown as their
// JSON form), any other item by its canonical bytes.
template <class T>
class encoded_items {
 public:
  explicit encoded_items(const T& v) {
    using I = typename T::value_type;
    constexpr category item_cat = category_of<I>();
    keys_.reserve(v.size());
    if constexpr (item_cat == category::string || item_cat == category::enumeration) {
      strings_ = true;
      for (const auto& item : v)
        keys_.push_back(std::string_view(item));
    } else {
      encoded_.resize(v.size());
      for (std::size_t i = 0; i < v.size(); ++i) {
        json::string_writer sw{&encoded_[i]};
        encode_context<json::string_writer> item_ctx{sw};
        item_ctx.track = false;  // its violations are reported where it is written
        encode_value(item_ctx, v[i]);
        keys_.push_back(encoded_[i]);
      }
    }
  }
  std::size_t size() const noexcept { return keys_.size(); }
  const std::vector<std::string_view>& keys() const noexcept { return keys_; }
  std::string canonical(std::size_t i) const {
    if (!strings_)
      return std::string(keys_[i]);
    std::string out;
    json::string_writer sw{&out};
    if (!json::write_string(sw, keys_[i]))
      out = quoted(keys_[i]);  // not UTF-8 (reported as such too)
    return out;
  }

 private:
  bool strings_ = false;
  std::vector<std::string> encoded_;  // the canonical bytes of non-string items
  std::vector<std::string_view> keys_;
};

// Writes member I of obj (preceded by ',' unless it is the first); absent optionals write nothing.
template <class T, std::size_t I, class W>
void encode_member(encode_context<W>& ctx, const T& obj, bool& first) {
  using info = struct_info<T>;
  using F = field_type<T, I>;
  auto& w = ctx.w;
  const auto& field = get<I>(obj);
  if constexpr (is_extra_members<F>::value) {
    return;  // written by encode_struct, merged in order
  } else {
    if constexpr (is_std_optional<F>::value) {
      if (!field.has_value())
        return;
    }
    // The separator and the quoted name with its colon, in one copy of a known size.
    constexpr std::string_view k = info::key(I);
    if constexpr (k.size() < json::max_reserve<W>) {
      char* p = w.reserve(k.size() + 1);
      const std::size_t comma = first ? 0 : 1;
      *p = ',';
      std::memcpy(p + comma, k.data(), k.size());
      w.advance(k.size() + comma);
    } else {
      if (!first)
        w.put(',');
      w.write(k.data(), k.size());
    }
    first = false;
    ctx.enter({info::json_names[I], 0, false});
    if constexpr (is_std_optional<F>::value) {
      encode_value(ctx, *field);
    } else {
      encode_value(ctx, field);
    }
    ctx.leave();
  }
}

ASSAY_COLD inline void report_extra_name(encode_state& ctx, std::string_view name, std::string_view prefix,
                                         bool declared) {
  ctx.report(declared ? errc::duplicate_member : errc::unknown_member,
             declared ? "extra member " + quoted(name) + " repeats a declared member"
                      : "extra member " + quoted(name) + " does not start with " + quoted(prefix),
             "/" + json::escape_pointer_token(name));
}

// The undeclared members of obj, checked and in canonical order.
template <class T>
auto sorted_extras(encode_state& ctx, const T& obj) {
  using info = struct_info<T>;
  using X = field_type<T, info::extras_index>;
  const X& extras = get<info::extras_index>(obj);
  std::vector<typename X::const_iterator> order;
  order.reserve(extras.size());
  for (auto it = extras.begin(); it != extras.end(); ++it) {
    if (!X::accepts(it->first)) {
      report_extra_name(ctx, it->first, X::prefix, false);
    } else if (info::find_static(it->first) != info::npos) {
      report_extra_name(ctx, it->first, X::prefix, true);
    }
    order.push_back(it);
  }
  auto less = [](const auto& a, const auto& b) { return json::utf16_less(a->first, b->first); };
  if (!std::is_sorted(order.begin(), order.end(), less))
    std::sort(order.begin(), order.end(), less);
  return order;
}

ASSAY_COLD inline void report_rules(encode_state& ctx, const rules& r) {
  for (const auto& v : r.violations())
    ctx.report(errc::rule_violation, v.message, v.member);
}

template <class T, class W>
void encode_struct(encode_context<W>& ctx, const T& obj) {
  using info = struct_info<T>;
  auto& w = ctx.w;
  w.put('{');
  bool first = true;
  if constexpr (!info::has_extras) {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (encode_member<T, info::order[K]>(ctx, obj, first), ...);
    }
    (std::make_index_sequence<info::size>{});
  } else {
    // Declared members in their compile-time order, the extras merged in between.
    using X = field_type<T, info::extras_index>;
    const auto extras = sorted_extras(ctx, obj);
    std::size_t e = 0;
    auto write_extras_before = [&](std::string_view name, bool all) {
      for (; e < extras.size() && (all || json::utf16_less(extras[e]->first, name)); ++e) {
        if (!first)
          w.put(',');
        first = false;
        ctx.enter({extras[e]->first, 0, false});
        if (!json::write_string(w, extras[e]->first))
          ctx.report(errc::invalid_utf8, "member name is not valid UTF-8");
        w.put(':');
        auto r = untyped_codec<typename X::mapped_type>::write(w, extras[e]->second);
        if (!r)
          ctx.report(r.error().code, r.error().message, r.error().pointer);
        ctx.leave();
      }
    };
    [&]<std::size_t... K>(std::index_sequence<K...>) {  // (no call while no extra is left: the usual case)
      ((e < extras.size() ? write_extras_before(info::json_names[info::order[K]], false) : void(),
        encode_member<T, info::order[K]>(ctx, obj, first)),
       ...);
    }
    (std::make_index_sequence<info::size>{});
    write_extras_before({}, true);
  }
  w.put('}');
  if constexpr (has_rules<T>) {
    rules r;
    obj.check_rules(r);
    if (!r.violations().empty())
      report_rules(ctx, r);
  }
}

}  // namespace detail

template <class T, class W>
void encode_value(encode_context<W>& ctx, const T& v) {
  constexpr category cat = category_of<T>();
  static_assert(cat != category::unsupported, "assay: this type cannot be mapped to JSON");
  auto& w = ctx.w;
  if constexpr (cat == category::any) {
    auto r = untyped_codec<T>::write(w, v);
    if (!r)
      ctx.report(r.error().code, r.error().message, r.error().pointer);
  } else if constexpr (cat == category::boolean) {
    if (v) {
      w.write("true", 4);
    } else {
      w.write("false", 5);
    }
  } else if constexpr (cat == category::integer || cat == category::number) {
    detail::encode_number(ctx, v);
  } else if constexpr (cat == category::enumeration) {
    detail::write_literal<T>(w, v.index());
  } else if constexpr (cat == category::string) {
    if (!json::write_string(w, v)) [[unlikely]] {
      ctx.report(errc::invalid_utf8, "string is not valid UTF-8");
      w.put('"');
      return;
    }
    if constexpr (constrained<T>) {
      detail::encode_reporter report{ctx};
      T::assay_check(std::string_view(v), report);
    }
  } else if constexpr (cat == category::either) {
    std::visit([&](const auto& alt) { encode_value(ctx, alt); },
               static_cast<const std::variant<typename T::first_type, typename T::second_type>&>(v));
  } else if constexpr (cat == category::nullable) {
    if (v.has_value()) {
      encode_value(ctx, *v);
    } else {
      w.write("null", 4);
    }
  } else if constexpr (cat == category::fixed_array || cat == category::array) {
    w.put('[');
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i != 0)
        w.put(',');
      ctx.enter({{}, i, true});
      encode_value(ctx, v[i]);
      ctx.leave();
    }
    w.put(']');
    if constexpr (constrained<T>) {
      detail::encode_reporter report{ctx};
      if constexpr (compares_items<T>) {
        T::assay_check(detail::encoded_items<T>(v), report);
      } else {
        T::assay_check(detail::counted_items{v.size()}, report);
      }
    }
  } else if constexpr (cat == category::map) {
    std::vector<typename T::const_iterator> order;
    order.reserve(v.size());
    for (auto it = v.begin(); it != v.end(); ++it)
      order.push_back(it);
    auto less = [](const auto& a, const auto& b) { return json::utf16_less(a->first, b->first); };
    if (!std::is_sorted(order.begin(), order.end(), less))
      std::sort(order.begin(), order.end(), less);
    w.put('{');
    bool first = true;
    for (const auto& it : order) {
      if (!first)
        w.put(',');
      first = false;
      ctx.enter({it->first, 0, false});
      if (!json::write_string(w, it->first))
        ctx.report(errc::invalid_utf8, "member name is not valid UTF-8");
      w.put(':');
      encode_value(ctx, it->second);
      ctx.leave();
    }
    w.put('}');
  } else if constexpr (cat == category::object) {
    detail::encode_struct(ctx, v);
  }
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

namespace detail {

// The writer of every pass that reports violations: encode()'s, so that a program that encodes
// does not instantiate the encoder twice.
using checking_writer = json::writer<json::string_sink>;

// Every constraint `v` violates, each with its pointer (when tracking): an encoding pass into a
// scratch string.
template <class T>
errors violations_of(const T& v, bool track = true) {
  std::string scratch;
  json::string_sink s{&scratch};
  checking_writer w(s);
  encode_context<checking_writer> ctx{w};
  ctx.track = track;
  if (track)
    ctx.path.reserve(16);
  encode_value(ctx, v);
  return std::move(ctx.errs);
}

// The errors of an untracked pass, replaced by the same errors with their pointers.
template <class T>
errors located(const T& v, errors&& untracked) {
  errors e = violations_of(v);
  return e.empty() ? std::move(untracked) : e;
}

}  // namespace detail

// Writes the JCS bytes of `v` into `sink`. On a constraint violation returns the first error
// (bytes already written to the sink are then not meaningful).
template <class T, json::sink S>
result<void> encode_to(S& sink, const T& v) {
  return json::with_writer(sink, [&]<class W>(W& w) -> result<void> {
    encode_context<W> ctx{w};
    ctx.track = false;
    encode_value(ctx, v);
    if (!ctx.errs.empty())
      return detail::located(v, std::move(ctx.errs)).front();
    return {};
  });
}

}  // namespace assay::reflect

namespace assay {

namespace reflect::detail {
// The JCS bytes of `v` appended to `out`; the constraints it violates returned, located.
template <class T>
errors encode_judged(const T& v, std::string& out) {
  json::string_sink s{&out};
  checking_writer w(s);
  encode_context<checking_writer> ctx{w};
  ctx.track = false;
  encode_value(ctx, v);
  return ctx.errs.empty() ? errors{} : located(v, std::move(ctx.errs));
}
}  // namespace reflect::detail

// The JCS bytes of `v`, or every constraint it violates.
template <class T>
results<std::string> encode(const T& v) {
  std::string out;
  if (errors e = reflect::detail::encode_judged(v, out); !e.empty())
    return e;
  return out;
}

// The JCS bytes of `v` as it is, its constraints not judged: how a document that may break its
// contract is shown as it was said (a finding compared with the one computed from its ledger).
template <class T>
std::string encode_as_is(const T& v) {
  std::string out;
  (void)reflect::detail::encode_judged(v, out);
  return out;
}

// Every constraint `v` violates (nothing is written anywhere).
template <class T>
results<void> validate(const T& v) {
  errors untracked = reflect::detail::violations_of(v, false);
  if (!untracked.empty())
    return reflect::detail::located(v, std::move(untracked));
  return {};
}

template <class T>
std::string encode_or_throw(const T& v) {
  return encode(v).value();
}

}  // namespace assay
