// assay/reflect/decode.hpp — decode reflected values straight from bytes, with every constraint
// of their types enforced.
//
//   auto r = assay::decode<soak_report>(bytes);       // results<soak_report>: all violations
//   assay::reflect::decode_from(cursor, out);         // one value of a larger document
//
// Decoding builds no DOM: the strict cursor feeds each member into its C++ field. Members are
// found through a compile-time table, required and duplicate members tracked per object.
// Syntax errors stop decoding; constraint violations are collected (up to max_errors) with the
// JSON Pointer, offset, line and column of the offending value. A constrained type's check
// (constraints.hpp) runs on what was read. Only members of untyped JSON (json::value,
// extra_members) go through the DOM, in untyped.hpp.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/reader.hpp"
#include "assay/reflect/checks.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/fields.hpp"
#include "assay/reflect/metadata.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace assay::reflect {

// The state of one decoding: the cursor it reads (json::cursor over text, json::node_cursor over
// a parsed document's node) and the violations found so far.
template <class Cursor = json::cursor>
struct decode_context {
  Cursor& c;
  errors errs;
  std::size_t max_errors = 1000;
  bool truncated = false;
  bool keep_absent = false;  // a member the input leaves out keeps its value (decode_onto)

  void report_at(errc code, std::size_t at, std::string message, std::string pointer) {
    if (errs.size() >= max_errors) {
      truncated = true;
      return;
    }
    errs.items.push_back(c.make_error(code, at, std::move(message), std::move(pointer), true));
  }
  // An error about the value classified last (its offset and pointer).
  void report(errc code, std::string message) { report_at(code, c.value_offset(), std::move(message), c.pointer()); }
};

template <class T, class C>
bool decode_value(decode_context<C>& ctx, T& out);

namespace detail {

inline std::string_view found_name(json::token t) {
  switch (t) {
    case json::token::object:
      return "an object";
    case json::token::array:
      return "an array";
    case json::token::string:
      return "a string";
    case json::token::number:
      return "a number";
    case json::token::boolean:
      return "a boolean";
    case json::token::null:
      return "null";
    default:
      return "nothing";
  }
}

constexpr json::token expected_token(json_type t) {
  switch (t) {
    case json_type::boolean:
      return json::token::boolean;
    case json_type::integer:
    case json_type::number:
      return json::token::number;
    case json_type::string:
      return json::token::string;
    case json_type::array:
      return json::token::array;
    case json_type::object:
      return json::token::object;
    case json_type::null:
      return json::token::null;
    case json_type::any:
      break;
  }
  return json::token::error;
}

// Reports a value of the wrong JSON type and skips it: true unless the input is not JSON.
template <class C>
ASSAY_COLD bool mismatch(decode_context<C>& ctx, std::string expected, json::token found) {
  ctx.report(errc::type_mismatch, "expected " + expected + ", found " + std::string(found_name(found)));
  return ctx.c.skip();
}

// Checks the JSON type of the next value. On a mismatch reports it and skips the value.
// Returns: 1 = the type is right, 0 = mismatch handled, -1 = cursor failed.
template <class C>
int expect_type(decode_context<C>& ctx, json_type want) {
  const json::token t = ctx.c.expect_value();
  if (t == json::token::error)
    return -1;
  if (t == expected_token(want)) [[likely]]
    return 1;
  return mismatch(ctx, std::string(name(want)), t) ? 0 : -1;
}

// Where a constraint's check reports: at the value just read.
template <class C>
struct value_reporter {
  decode_context<C>& ctx;
  void operator()(errc code, std::string message) { ctx.report(code, std::move(message)); }
};

// --- numbers and strings -------------------------------------------------------------------

// --- integers: exact, from the number's digits --------------------------------------------

// The value of a number's text as an integer, exactly (never through a double).
struct exact_integer {
  std::uint64_t magnitude = 0;
  bool negative = false;
  bool integer = true;  // false: the number has a non-zero fractional part
  bool wide = false;    // the magnitude is beyond 2^64 - 1 (`magnitude` is then meaningless)
};

// Any number: digits, fraction and exponent (1.0, 1e2, 0.5e1, 1.00000000000000000001).
ASSAY_COLD inline exact_integer integer_of(const json::lex::number_shape& n) {
  exact_integer out;
  out.negative = n.negative;
  // The significant digits, and the power of ten they are multiplied by.
  const char* int_begin = n.begin + (n.negative ? 1 : 0);
  std::string digits(int_begin, n.int_digits);
  if (n.frac_digits != 0)
    digits.append(int_begin + n.int_digits + 1, n.frac_digits);
  long long exp10 = n.exponent_value() - static_cast<long long>(n.frac_digits);
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos)
    return out;  // zero
  const std::size_t last = digits.find_last_not_of('0');
  exp10 += static_cast<long long>(digits.size() - 1 - last);
  digits = digits.substr(first, last + 1 - first);
  if (exp10 < 0) {
    out.integer = false;
    return out;
  }
  if (static_cast<long long>(digits.size()) + exp10 > 20) {
    out.wide = true;
    return out;
  }
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  auto push = [&](unsigned d) {
    if (out.magnitude > (max - d) / 10)
      out.wide = true;
    else
      out.magnitude = out.magnitude * 10 + d;
  };
  for (const char c : digits)
    push(static_cast<unsigned>(c - '0'));
  for (long long i = 0; i < exp10; ++i)
    push(0);
  return out;
}

// A number's integer value into I: false when it has none that I holds.
template <class I>
bool integer_in(const exact_integer& v, I& out) {
  if (!v.integer || v.wide)
    return false;
  using U = std::make_unsigned_t<I>;
  const std::uint64_t m = v.magnitude;
  if (!v.negative) {
    if (m > static_cast<U>(std::numeric_limits<I>::max()))
      return false;
    out = static_cast<I>(m);
    return true;
  }
  if constexpr (std::is_unsigned_v<I>) {
    if (m != 0)
      return false;
    out = 0;  // -0
  } else {
    if (m > static_cast<std::uint64_t>(std::numeric_limits<I>::max()) + 1)
      return false;
    out = m == 0 ? I{0} : static_cast<I>(-static_cast<std::int64_t>(m - 1) - 1);
  }
  return true;
}

// A number as messages show it: its text, cut when long.
ASSAY_COLD inline std::string number_as_written(const json::lex::number_shape& n) {
  const std::string_view text(n.begin, static_cast<std::size_t>(n.end - n.begin));
  if (text.size() <= 40)
    return std::string(text);
  return std::string(text.substr(0, 24)) + "... (a number of " + std::to_string(text.size()) + " characters)";
}

// A number that T's integer type does not hold: not an integer, or out of its range; a whole
// number within 64 bits is first shown to T's constraint (its bounds are then named, with the
// exact value).
template <class T, class C>
ASSAY_COLD void report_integer(decode_context<C>& ctx, const json::lex::number_shape& n, const exact_integer& v) {
  if (!v.integer) {
    ctx.report(errc::not_an_integer, "expected an integer, found " + number_as_written(n));
    return;
  }
  if constexpr (constrained<T>) {
    value_reporter<C> report{ctx};
    std::uint64_t u = 0;
    std::int64_t s = 0;
    if (integer_in(v, u)) {
      if (!T::assay_check(u, report))
        return;
    } else if (integer_in(v, s)) {
      if (!T::assay_check(s, report))
        return;
    } else if (!v.wide && static_cast<double>(v.magnitude) < 18446744073709551616.0 &&
               static_cast<std::uint64_t>(static_cast<double>(v.magnitude)) == v.magnitude) {
      if (!T::assay_check(-static_cast<double>(v.magnitude), report))  // below -2^63, exactly a double
        return;
    }
  }
  ctx.report(errc::not_an_integer, number_as_written(n) + " is out of range for this member");
}

// An integer member: read from the number's digits, never rounded. A plain integer of up to 19
// digits (every integer an evidence document holds in practice) takes the short path.
template <class T, class C>
bool decode_integer(decode_context<C>& ctx, T& out) {
  using B = base_of_t<T>;
  json::lex::number_shape n;
  if (!ctx.c.read_number_token(n))
    return false;
  B v{};
  if (ctx.c.limits().integers_as_written && (n.frac_digits != 0 || n.exponent != nullptr || (n.negative && n.zero_int)))
      [[unlikely]] {
    ctx.report(errc::not_an_integer, "expected an integer written as one, found " + number_as_written(n));
    return true;
  }
  if (n.frac_digits == 0 && n.exponent == nullptr && n.int_digits <= 19) [[likely]] {
    exact_integer e;
    e.negative = n.negative;
    for (const char* p = n.begin + (n.negative ? 1 : 0); p != n.end; ++p)
      e.magnitude = e.magnitude * 10 + static_cast<unsigned>(*p - '0');
    if (!integer_in(e, v)) [[unlikely]] {
      report_integer<T>(ctx, n, e);
      return true;
    }
  } else {
    const exact_integer e = integer_of(n);
    if (!integer_in(e, v)) {
      report_integer<T>(ctx, n, e);
      return true;
    }
  }
  out = v;
  if constexpr (constrained<T>) {
    value_reporter<C> report{ctx};
    T::assay_check(v, report);
  }
  return true;
}

// A floating-point member: the nearest double (docs/json.md), converted to B.
template <class T, class C>
bool decode_number(decode_context<C>& ctx, T& out) {
  using B = base_of_t<T>;
  double d = 0;
  if (!ctx.c.read_number(d))
    return false;
  const B v = static_cast<B>(d);
  out = v;
  if constexpr (constrained<T>) {
    value_reporter<C> report{ctx};
    T::assay_check(v, report);
  }
  return true;
}

template <class T, class C>
bool decode_string(decode_context<C>& ctx, T& out) {
  std::string_view s;
  if (!ctx.c.read_string(s))
    return false;
  value_reporter<C> report{ctx};
  if constexpr (enumeration<T>) {
    if (auto v = T::parse(s)) {
      out = *v;
    } else {
      T::assay_check(s, report);
    }
  } else {
    out.assign(s.data(), s.size());
    if constexpr (constrained<T>)
      T::assay_check(std::string_view(out), report);
  }
  return true;
}

// --- arrays --------------------------------------------------------------------------------

// Where each item of an array starts and ends in the input.
using item_spans = std::vector<std::pair<std::size_t, std::size_t>>;

// The items of an array of type T as a unique_list's check sees them: each item's canonical
// JSON, from the input (items are compared as JSON, whatever they decoded to: an item of the
// wrong type too). A string without escapes and a literal are already canonical and are not
// copied.
template <class T>
class decoded_items {
 public:
  // Over a document's node: each item's span starts at its node, which writes its canonical text.
  template <class Cursor>
  decoded_items(const Cursor& c, const item_spans& spans) : owned_(spans.size()) {
    keys_.reserve(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
      owned_[i] = c.canonical_at(spans[i].first);
      keys_.push_back(owned_[i]);
    }
  }
  decoded_items(const json::cursor& c, const item_spans& spans) : owned_(spans.size()) {
    keys_.reserve(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) {
      std::string_view text = c.input().substr(spans[i].first, spans[i].second - spans[i].first);
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
        text.remove_suffix(1);
      const char first = text.empty() ? '\0' : text.front();
      const bool plain =
          (first == '"' && text.find('\\') == std::string_view::npos) || first == 't' || first == 'f' || first == 'n';
      if (!plain && canonical_text(text, c.limits(), owned_[i]))
        text = owned_[i];
      keys_.push_back(text);
    }
  }
  std::size_t size() const noexcept { return keys_.size(); }
  const std::vector<std::string_view>& keys() const noexcept { return keys_; }
  std::string_view canonical(std::size_t i) const noexcept { return keys_[i]; }

 private:
  // Writes the canonical (JCS) form of the one JSON value in `text` to `out`, building no DOM:
  // each open container keeps its members (objects: sorted when closed) as text. False if `text`
  // is not one JSON value.
  static bool canonical_text(std::string_view text, const json::limits& lim, std::string& out) {
    struct frame {
      explicit frame(bool is_object) : object(is_object) {}
      bool object;
      std::size_t count = 0;
      std::string text;                                          // an array's items so far
      std::string name;                                          // an object's member being read
      std::vector<std::pair<std::string, std::string>> members;  // an object's members so far
    };
    json::cursor c(text, lim);
    std::vector<frame> open;
    std::string value;  // the value completed last
    for (;;) {
      bool done = true;
      value.clear();
      json::string_writer w{&value};
      switch (c.expect_value()) {
        case json::token::object:
          if (!c.enter_object())
            return false;
          open.emplace_back(true);
          done = false;
          break;
        case json::token::array:
          if (!c.enter_array())
            return false;
          open.emplace_back(false);
          done = false;
          break;
        case json::token::string: {
          std::string_view s;
          if (!c.read_string(s) || !json::write_string(w, s))
            return false;
          break;
        }
        case json::token::number: {
          double d = 0;
          if (!c.read_number(d) || !json::write_number(w, d))
            return false;
          break;
        }
        case json::token::boolean: {
          bool b = false;
          if (!c.read_bool(b))
            return false;
          value = b ? "true" : "false";
          break;
        }
        case json::token::null:
          if (!c.read_null())
            return false;
          value = "null";
          break;
        default:
          return false;
      }
      // Hand completed values to their containers, and close the containers that end here.
      for (;;) {
        if (done) {
          if (open.empty()) {
            out += value;
            return true;
          }
          frame& f = open.back();
          if (f.object) {
            f.members.emplace_back(std::move(f.name), std::move(value));
          } else {
            if (f.count++ != 0)
              f.text += ',';
            f.text += value;
          }
        }
        frame& f = open.back();
        std::string_view name;
        if (f.object ? c.next_member(name) : c.next_element()) {
          if (f.object)
            f.name = name;
          break;  // read the next value
        }
        if (!c.ok())
          return false;
        value.clear();
        json::string_writer cw{&value};
        if (f.object) {
          std::sort(f.members.begin(), f.members.end(),
                    [](const auto& a, const auto& b) { return json::utf16_less(a.first, b.first); });
          cw.put('{');
          for (std::size_t i = 0; i < f.members.size(); ++i) {
            if (i != 0)
              cw.put(',');
            json::write_string(cw, f.members[i].first);
            cw.put(':');
            cw.write(f.members[i].second);
          }
          cw.put('}');
        } else {
          cw.put('[');
          cw.write(f.text);
          cw.put(']');
        }
        open.pop_back();
        done = true;
      }
    }
  }

  std::vector<std::string> owned_;  // one per item, never resized: the views stay valid
  std::vector<std::string_view> keys_;
};

// Where a constraint's check on an array reports: the array itself (at its start), or one of
// its items.
template <class C>
struct array_reporter {
  decode_context<C>& ctx;
  std::size_t at;
  const item_spans& spans;
  std::string array_pointer = {};

  void operator()(errc code, std::string message) { ctx.report_at(code, at, std::move(message), ctx.c.pointer()); }
  void item(std::size_t i, errc code, std::string message) {
    if (array_pointer.empty())
      array_pointer = ctx.c.pointer() + "/";
    ctx.report_at(code, spans[i].first, std::move(message), array_pointer + std::to_string(i));
  }
};

template <class T, class C>
bool decode_array(decode_context<C>& ctx, T& out) {
  auto& c = ctx.c;
  const std::size_t at = c.value_offset();
  if (!c.enter_array())
    return false;
  std::size_t n = 0;
  [[maybe_unused]] item_spans spans;
  if constexpr (!is_std_array<T>::value)
    out.clear();
  while (c.next_element()) {
    if constexpr (compares_items<T>)
      spans.emplace_back(c.offset(), 0);
    if constexpr (is_std_array<T>::value) {
      if (n < out.size()) {
        if (!decode_value(ctx, out[n]))
          return false;
      } else if (!c.skip()) {
        return false;
      }
    } else {
      out.emplace_back();
      if (!decode_value(ctx, out.back()))
        return false;
    }
    if constexpr (compares_items<T>)
      spans.back().second = c.offset();
    ++n;
  }
  if (!c.ok())
    return false;
  array_reporter<C> report{ctx, at, spans};
  if constexpr (is_std_array<T>::value) {
    constexpr std::size_t size = std::tuple_size_v<T>;
    if (n != size)
      report(n < size ? errc::too_few_items : errc::too_many_items, item_count_message(n, n < size, size));
  } else if constexpr (compares_items<T>) {
    T::assay_check(decoded_items<T>(c, spans), report);
  } else if constexpr (constrained<T>) {
    T::assay_check(counted_items{n}, report);
  }
  return true;
}

// --- objects -------------------------------------------------------------------------------

template <class Cursor>
ASSAY_COLD bool duplicate_member(Cursor& c, std::string_view name) {
  return c.fail(c.make_error(errc::duplicate_member, c.name_offset(), "duplicate member name " + quoted(name)));
}

// A member the type does not declare: reported and skipped; the cursor's keyed name set finds
// it repeated (names the type declares never reach it: a bitset tracks those). False when
// decoding stops.
template <class C>
ASSAY_COLD bool unknown_member(decode_context<C>& ctx, std::string_view name) {
  auto& c = ctx.c;
  if (!c.check_unique_name(name))
    return false;
  ctx.report_at(errc::unknown_member, c.name_offset(), "unknown member " + quoted(name) + " (not allowed here)",
                c.pointer());
  return c.skip();
}

// The object just read, for the errors about it as a whole: where it starts, and its pointer
// (taken after leaving it, on first use).
template <class C>
struct object_site {
  decode_context<C>& ctx;
  std::size_t at;
  std::string pointer = {};
  bool known = false;

  const std::string& get() {
    if (!known) {
      pointer = ctx.c.pointer();
      known = true;
    }
    return pointer;
  }
};

template <class C>
ASSAY_COLD void report_missing(object_site<C>& site, std::string_view name) {
  site.ctx.report_at(errc::missing_member, site.at, "required member " + quoted(name) + " is missing",
                     site.get() + "/" + json::escape_pointer_token(name));
}

// Cross-field rules need every member present and valid: a member that failed to decode holds a
// default value, and a rule over it would report a violation that is not there. (A nested
// object's rule violation leaves its values intact, so it does not count.)
template <class C>
bool members_valid(const decode_context<C>& ctx, std::size_t errors_before) {
  if (ctx.truncated)
    return false;
  for (std::size_t k = errors_before; k < ctx.errs.size(); ++k)
    if (ctx.errs.items[k].code != errc::rule_violation)
      return false;
  return true;
}

template <class C>
ASSAY_COLD void report_rules(object_site<C>& site, const rules& r) {
  for (const auto& v : r.violations())
    site.ctx.report_at(errc::rule_violation, site.at, v.message, site.get() + v.member);
}

template <class T, std::size_t I, class C>
bool decode_field(decode_context<C>& ctx, T& obj) {
  using F = field_type<T, I>;
  auto& field = get<I>(obj);
  if constexpr (is_extra_members<F>::value) {
    return true;  // never reached: find() does not return the extras field
  } else if constexpr (is_std_optional<F>::value) {
    field.emplace();
    return decode_value(ctx, *field);
  } else {
    return decode_value(ctx, field);
  }
}

template <class T, class C>
using field_decoder = bool (*)(decode_context<C>&, T&);

template <class T, class C>
constexpr auto field_decoders() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<field_decoder<T, C>, sizeof...(I)>{&decode_field<T, I, C>...};
  }
  (std::make_index_sequence<field_count<T>>{});
}

// An undeclared member that the struct's extra_members takes: read as untyped JSON.
template <class T, class Cursor>
bool extra_member(Cursor& c, T& out, std::string_view name) {
  using info = struct_info<T>;
  using X = field_type<T, info::extras_index>;
  auto [it, inserted] = get<info::extras_index>(out).try_emplace(std::string(name));
  if (!inserted)
    return duplicate_member(c, name);
  return untyped_codec<typename X::mapped_type>::read(c, it->second);
}

template <class T, class C>
bool decode_struct(decode_context<C>& ctx, T& out) {
  using info = struct_info<T>;
  auto& c = ctx.c;
  object_site<C> site{ctx, c.value_offset()};
  if (!c.enter_object())
    return false;
  static constexpr auto decoders = field_decoders<T, C>();
  const std::size_t errors_before = ctx.errs.size();
  std::array<bool, info::size> seen{};
  std::string_view name;
  while (c.next_member(name)) {
    const std::size_t i = info::find(name);
    if (i == info::npos) [[unlikely]] {
      if constexpr (info::has_extras) {
        if (field_type<T, info::extras_index>::accepts(name)) {
          if (!extra_member(c, out, name))
            return false;
          continue;
        }
      }
      if (!unknown_member(ctx, name))
        return false;
      continue;
    }
    if (seen[i]) [[unlikely]]
      return duplicate_member(c, name);
    seen[i] = true;
    if (!decoders[i](ctx, out))
      return false;
  }
  if (!c.ok())
    return false;
  bool complete = true;
  for (std::size_t i = 0; i < info::size; ++i) {
    if (info::required[i] && !seen[i] && !ctx.keep_absent) [[unlikely]] {
      complete = false;
      report_missing(site, info::json_names[i]);
    }
  }
  if constexpr (has_rules<T>) {
    if (complete && members_valid(ctx, errors_before)) {
      rules r;
      out.check_rules(r);
      if (!r.violations().empty())
        report_rules(site, r);
    }
  }
  return true;
}

template <class C>
ASSAY_COLD bool either_mismatch(decode_context<C>& ctx, json_type a, json_type b, json::token t) {
  return mismatch(ctx, std::string(name(a)) + " or " + std::string(name(b)), t);
}

}  // namespace detail

template <class T, class C>
bool decode_value(decode_context<C>& ctx, T& out) {
  constexpr category cat = category_of<T>();
  static_assert(cat != category::unsupported, "assay: this type cannot be mapped to JSON");
  auto& c = ctx.c;
  if constexpr (cat == category::any) {
    return untyped_codec<T>::read(c, out);
  } else if constexpr (cat == category::either) {
    using A = typename T::first_type;
    using B = typename T::second_type;
    constexpr json::token a = detail::expected_token(json_type_of<A>());
    constexpr json::token b = detail::expected_token(json_type_of<B>());
    static_assert(a != b && category_of<A>() != category::any && category_of<B>() != category::any,
                  "either<A, B>: A and B must have different JSON types");
    const json::token t = c.expect_value();
    if (t == json::token::error)
      return false;
    if (t == b) {
      out.template emplace<1>();
      return decode_value(ctx, std::get<1>(out));
    }
    if (t != a)
      return detail::either_mismatch(ctx, json_type_of<A>(), json_type_of<B>(), t);
    out.template emplace<0>();
    return decode_value(ctx, std::get<0>(out));
  } else if constexpr (cat == category::nullable) {
    const json::token t = c.expect_value();
    if (t == json::token::error)
      return false;
    if (t == json::token::null) {
      out.reset();
      return c.read_null();
    }
    out.emplace();
    return decode_value(ctx, *out);
  } else {
    const int r = detail::expect_type(ctx, json_type_of<T>());
    if (r <= 0)
      return r == 0;
    if constexpr (cat == category::boolean) {
      return c.read_bool(out);
    } else if constexpr (cat == category::integer) {
      return detail::decode_integer(ctx, out);
    } else if constexpr (cat == category::number) {
      return detail::decode_number(ctx, out);
    } else if constexpr (cat == category::string || cat == category::enumeration) {
      return detail::decode_string(ctx, out);
    } else if constexpr (cat == category::fixed_array || cat == category::array) {
      return detail::decode_array(ctx, out);
    } else if constexpr (cat == category::map) {
      if (!c.enter_object())
        return false;
      out.clear();
      std::string_view name;
      while (c.next_member(name)) {
        auto [it, inserted] = out.try_emplace(std::string(name));
        if (!inserted)
          return detail::duplicate_member(c, name);
        if (!decode_value(ctx, it->second))
          return false;
      }
      return c.ok();
    } else if constexpr (cat == category::object) {
      return detail::decode_struct(ctx, out);
    }
  }
}

// Decodes into `out` from a cursor positioned before a value (does not check for trailing
// content: callers reading one value of a larger document use this).
template <class T, class Cursor>
results<void> decode_from(Cursor& c, T& out, std::size_t max_errors = 1000, bool keep_absent = false) {
  decode_context<Cursor> ctx{c, {}, max_errors};
  ctx.keep_absent = keep_absent;
  if (!decode_value(ctx, out)) {
    // The input is not JSON: its syntax error is the one thing to say about it (violations
    // found before it are about a document that does not exist).
    return errors(c.error());
  }
  if (ctx.truncated) {
    ctx.errs.items.push_back(make_error(errc::invalid_argument, "more errors were found; only the first " +
                                                                    std::to_string(max_errors) + " are reported"));
  }
  if (!ctx.errs.empty())
    return std::move(ctx.errs);
  return {};
}

}  // namespace assay::reflect

namespace assay {

// Decodes a whole document into T: every violation, or the value.
template <class T>
results<T> decode(std::string_view text, const json::limits& lim = {}) {
  json::cursor c(text, lim);
  T out{};
  if (!c.ok())
    return errors(c.error());
  auto r = reflect::decode_from(c, out);
  // Content after the value makes the whole input something other than JSON: report that alone.
  if (c.ok() && !c.finish())
    return errors(c.error());
  if (!r)
    return r.error();
  return out;
}

// Decodes a document over `out`: a member the document leaves out, at any depth, keeps the value
// `out` has (a few limits over their defaults); everything it has is read and checked as
// decode() does, unknown members included. On failure `out` is not meaningful.
template <class T>
results<void> decode_onto(std::string_view text, T& out, const json::limits& lim = {}) {
  json::cursor c(text, lim);
  if (!c.ok())
    return errors(c.error());
  auto r = reflect::decode_from(c, out, 1000, true);
  if (c.ok() && !c.finish())
    return errors(c.error());
  return r;
}

template <class T>
T decode_or_throw(std::string_view text, const json::limits& lim = {}) {
  return decode<T>(text, lim).value();
}

}  // namespace assay
