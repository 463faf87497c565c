// assay/reflect/codec.hpp — encode reflected values to canonical JSON and decode them straight
// from bytes, with every constraint of their types enforced.
//
//   auto r = assay::decode<soak_report>(bytes);       // results<soak_report>: all violations
//   auto s = assay::encode(report);                   // results<std::string>: JCS bytes
//   assay::reflect::encode_to(sink, report);          // JCS bytes into any sink (a hash state)
//
// Decoding builds no DOM: the strict cursor feeds each member into its C++ field. Members are
// found through a compile-time table, required and duplicate members tracked with a bitset.
// Syntax errors stop decoding; constraint violations are collected (up to max_errors) with the
// JSON Pointer, offset, line and column of the offending value.
//
// Encoding writes members in JCS order fixed at compile time (their quoted names are
// precomputed) and checks each value against its type; maps are sorted at run time.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/number.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/checks.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/fields.hpp"

#include <algorithm>
#include <array>
#include <bitset>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace assay::reflect {

// ---------------------------------------------------------------------------------------------
// Type categories
// ---------------------------------------------------------------------------------------------

template <class T>
struct is_std_optional : std::false_type {};
template <class T>
struct is_std_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_nullable : std::false_type {};
template <class T>
struct is_nullable<nullable<T>> : std::true_type {};

template <class T>
struct is_bounded : std::false_type {};
template <class T, long long A, long long B>
struct is_bounded<bounded<T, A, B>> : std::true_type {};

template <class T>
struct is_const_string : std::false_type {};
template <fixed_string V>
struct is_const_string<const_string<V>> : std::true_type {};

template <class T>
struct is_one_of : std::false_type {};
template <fixed_string... Vs>
struct is_one_of<one_of<Vs...>> : std::true_type {};

template <class T>
struct is_extra_members : std::false_type {};
template <fixed_string P>
struct is_extra_members<extra_members<P>> : std::true_type {};

template <class T>
struct is_either : std::false_type {};
template <class A, class B>
struct is_either<either<A, B>> : std::true_type {};

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

template <class T>
struct is_string_map : std::false_type {};
template <class V, class C, class A>
struct is_string_map<std::map<std::string, V, C, A>> : std::true_type {};

template <class T>
concept vector_like = requires {
  typename T::value_type;
}
&&std::is_base_of_v<std::vector<typename T::value_type>, T> && !std::is_same_v<typename T::value_type, bool>;

// An array type whose items must all differ (unique_list: "uniqueItems": true).
template <class T>
concept unique_items_array = requires {
  requires T::unique_items;
};

enum class category {
  boolean,
  integer,
  number,
  bounded,
  const_string,
  one_of,
  string,
  nullable,
  either,
  fixed_array,
  array,
  map,
  any,
  object,
  unsupported
};

template <class T>
consteval category category_of() {
  if constexpr (std::is_same_v<T, bool>)
    return category::boolean;
  else if constexpr (std::is_integral_v<T>)
    return category::integer;
  else if constexpr (std::is_floating_point_v<T>)
    return category::number;
  else if constexpr (is_bounded<T>::value)
    return category::bounded;
  else if constexpr (is_const_string<T>::value)
    return category::const_string;
  else if constexpr (is_one_of<T>::value)
    return category::one_of;
  else if constexpr (std::is_base_of_v<std::string, T>)
    return category::string;
  else if constexpr (is_nullable<T>::value)
    return category::nullable;
  else if constexpr (is_extra_members<T>::value)
    return category::unsupported;  // only as a struct member, never as a value
  else if constexpr (is_either<T>::value)
    return category::either;
  else if constexpr (is_std_array<T>::value)
    return category::fixed_array;
  else if constexpr (vector_like<T>)
    return category::array;
  else if constexpr (is_string_map<T>::value)
    return category::map;
  else if constexpr (std::is_same_v<T, json::value>)
    return category::any;
  else if constexpr (reflectable<T>)
    return category::object;
  else
    return category::unsupported;
}

// The JSON type a C++ type encodes to (for messages and conformance checks).
enum class json_type { any, null, boolean, integer, number, string, array, object };

constexpr std::string_view name(json_type t) noexcept {
  switch (t) {
    case json_type::any:
      return "any value";
    case json_type::null:
      return "null";
    case json_type::boolean:
      return "a boolean";
    case json_type::integer:
      return "an integer";
    case json_type::number:
      return "a number";
    case json_type::string:
      return "a string";
    case json_type::array:
      return "an array";
    case json_type::object:
      return "an object";
  }
  return "?";
}

template <class T>
consteval json_type json_type_of() {
  constexpr category c = category_of<T>();
  if constexpr (c == category::boolean)
    return json_type::boolean;
  else if constexpr (c == category::integer)
    return json_type::integer;
  else if constexpr (c == category::number)
    return json_type::number;
  else if constexpr (c == category::bounded)
    return json_type_of<typename T::value_type>();
  else if constexpr (c == category::const_string || c == category::one_of || c == category::string)
    return json_type::string;
  else if constexpr (c == category::nullable)
    return json_type_of<typename T::value_type>();
  else if constexpr (c == category::either)
    return json_type::any;  // one of two; see either_types_differ
  else if constexpr (c == category::fixed_array || c == category::array)
    return json_type::array;
  else if constexpr (c == category::map || c == category::object)
    return json_type::object;
  else
    return json_type::any;
}

// ---------------------------------------------------------------------------------------------
// Struct metadata, computed at compile time
// ---------------------------------------------------------------------------------------------

template <class T>
concept has_field_table = requires {
  T::assay_fields;
};
template <class T>
concept has_rules = requires(const T& t, rules& r) {
  t.check_rules(r);
};
template <class T>
concept has_schema_name = requires {
  T::schema_name;
};
template <class T>
concept has_schema_description = requires {
  T::schema_description;
};

template <class T>
struct struct_info {
  static constexpr std::size_t size = field_count<T>;
  static constexpr std::array<std::string_view, size> cpp_names = field_names<T>();

  static constexpr const field_info* find_info(std::string_view cpp) {
    if constexpr (has_field_table<T>) {
      for (const field_info& f : T::assay_fields)
        if (f.field == cpp)
          return &f;
    }
    return nullptr;
  }

  static constexpr bool field_table_is_valid() {
    if constexpr (has_field_table<T>) {
      for (const field_info& f : T::assay_fields) {
        bool found = false;
        for (auto n : cpp_names)
          found = found || n == f.field;
        if (!found)
          return false;
      }
    }
    return true;
  }
  static_assert(field_table_is_valid(), "assay_fields names a member the struct does not have");

  // (No pointer is compared with nullptr here: with -fsanitize=undefined, g++ does not treat
  // "address of a static member != nullptr" as a constant expression.)
  static constexpr std::array<std::string_view, size> make_json_names() {
    std::array<std::string_view, size> out{};
    for (std::size_t i = 0; i < size; ++i) {
      out[i] = cpp_names[i];
      if constexpr (has_field_table<T>) {
        for (const field_info& f : T::assay_fields)
          if (f.field == cpp_names[i] && !f.json_name.empty())
            out[i] = f.json_name;
      }
    }
    return out;
  }
  static constexpr std::array<std::string_view, size> json_names = make_json_names();

  // The privacy class of every field (SPEC §9; public unless the field table says otherwise).
  static constexpr std::array<privacy, size> make_privacy() {
    std::array<privacy, size> out{};
    for (std::size_t i = 0; i < size; ++i) {
      out[i] = privacy::public_;
      if constexpr (has_field_table<T>) {
        for (const field_info& f : T::assay_fields)
          if (f.field == cpp_names[i])
            out[i] = f.privacy;
      }
    }
    return out;
  }
  static constexpr std::array<privacy, size> privacy_classes = make_privacy();

  static constexpr bool names_need_no_escape() {
    for (auto n : json_names)
      for (char c : n)
        if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
          return false;
    for (std::size_t i = 0; i < size; ++i)
      for (std::size_t j = i + 1; j < size; ++j)
        if (json_names[i] == json_names[j])
          return false;
    return true;
  }
  static_assert(names_need_no_escape(),
                "JSON member names must be unique and need no escaping (no quote, backslash or control)");

  // false for the extra_members field: it holds undeclared members, it is not one itself.
  static constexpr std::array<bool, size> make_is_member() {
    std::array<bool, size> out{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((out[I] = !is_extra_members<field_type<T, I>>::value), ...);
    }
    (std::make_index_sequence<size>{});
    return out;
  }
  static constexpr std::array<bool, size> is_member = make_is_member();
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  static constexpr std::size_t make_extras_index() {
    std::size_t found = npos;
    for (std::size_t i = 0; i < size; ++i)
      if (!is_member[i])
        found = found == npos ? i : npos - 1;
    return found;
  }
  static constexpr std::size_t extras_index = make_extras_index();
  static_assert(extras_index != npos - 1, "a struct may have at most one extra_members member");
  static constexpr bool has_extras = extras_index != npos;
  static constexpr std::size_t member_count = has_extras ? size - 1 : size;

  static constexpr std::array<bool, size> make_required() {
    std::array<bool, size> out{};
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((out[I] = !is_std_optional<field_type<T, I>>::value && is_member[I]), ...);
    }
    (std::make_index_sequence<size>{});
    return out;
  }
  static constexpr std::array<bool, size> required = make_required();

  // Field indices in JCS member order.
  static constexpr std::array<std::size_t, size> make_order() {
    std::array<std::size_t, size> out{};
    for (std::size_t i = 0; i < size; ++i)
      out[i] = i;
    std::sort(out.begin(), out.end(),
              [](std::size_t a, std::size_t b) { return json::utf16_less(json_names[a], json_names[b]); });
    return out;
  }
  static constexpr std::array<std::size_t, size> order = make_order();

  // "\"name\":" for every field, in one buffer.
  static constexpr std::size_t key_chars() {
    std::size_t n = 0;
    for (auto s : json_names)
      n += s.size() + 3;
    return n;
  }
  static constexpr std::array<char, key_chars() + 1> make_keys() {
    std::array<char, key_chars() + 1> out{};
    std::size_t p = 0;
    for (auto s : json_names) {
      out[p++] = '"';
      for (char c : s)
        out[p++] = c;
      out[p++] = '"';
      out[p++] = ':';
    }
    return out;
  }
  static constexpr std::array<char, key_chars() + 1> keys = make_keys();
  static constexpr std::array<std::size_t, size + 1> make_key_offsets() {
    std::array<std::size_t, size + 1> out{};
    for (std::size_t i = 0; i < size; ++i)
      out[i + 1] = out[i] + json_names[i].size() + 3;
    return out;
  }
  static constexpr std::array<std::size_t, size + 1> key_offsets = make_key_offsets();
  static constexpr std::string_view key(std::size_t i) {
    return std::string_view(keys.data() + key_offsets[i], key_offsets[i + 1] - key_offsets[i]);
  }

  static constexpr std::size_t find_static(std::string_view name) noexcept {
    for (std::size_t i = 0; i < size; ++i)
      if (json_names[i] == name && is_member[i])
        return i;
    return npos;
  }
  static std::size_t find(std::string_view name) noexcept { return find_static(name); }
};

// ---------------------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------------------

struct decode_context {
  json::cursor& c;
  errors errs;
  std::size_t max_errors = 1000;
  bool truncated = false;

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

namespace detail {

inline std::string quoted(std::string_view s) {
  return json::detail::quoted_for_message(s);
}

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

// Checks the JSON type of the next value. On a mismatch reports it and skips the value.
// Returns: 1 = the type is right, 0 = mismatch handled, -1 = cursor failed.
inline int expect_type(decode_context& ctx, json_type want) {
  const json::token t = ctx.c.expect_value();
  if (t == json::token::error)
    return -1;
  if (t == expected_token(want))
    return 1;
  ctx.report(errc::type_mismatch, "expected " + std::string(name(want)) + ", found " + std::string(found_name(t)));
  return json::skip_value(ctx.c) ? 0 : -1;
}

template <class I>
bool integer_from_double(double d, I& out) {
  if (d != std::trunc(d))
    return false;
  if constexpr (std::is_signed_v<I>) {
    if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
      return false;
    const auto v = static_cast<long long>(d);
    if (v < static_cast<long long>(std::numeric_limits<I>::min()) ||
        v > static_cast<long long>(std::numeric_limits<I>::max()))
      return false;
    out = static_cast<I>(v);
  } else {
    if (d < 0 || d >= 18446744073709551616.0)
      return false;
    const auto v = static_cast<unsigned long long>(d);
    if (v > static_cast<unsigned long long>(std::numeric_limits<I>::max()))
      return false;
    out = static_cast<I>(v);
  }
  return true;
}

inline std::string number_text(double d) {
  return json::number_to_string(d);
}

template <class T>
std::string bound_text(long long b) {
  return std::to_string(b);
}

// String constraint checks shared by decode and encode; returns "" when fine.
template <class T>
std::string string_violation(std::string_view s, errc& code) {
  if constexpr (requires { T::min_length; }) {
    if (T::min_length > 0 && !has_code_points(s, T::min_length)) {
      code = errc::too_short;
      return "string is shorter than the minimum length " + std::to_string(T::min_length);
    }
  }
  if constexpr (requires { T::pattern; }) {
    if (!T::pattern.empty()) {
      const auto m = match_pattern<T>(T::pattern, s);
      if (m != pattern_result::match) {
        code = errc::pattern_mismatch;
        return m == pattern_result::too_complex
                   ? "string is too costly to match against the pattern " + std::string(T::pattern)
                   : quoted(s) + " does not match the pattern " + std::string(T::pattern);
      }
    }
  }
  if constexpr (requires { T::format; }) {
    if (T::format == "date-time" && !is_date_time(s)) {
      code = errc::format_mismatch;
      return quoted(s) + " is not an RFC 3339 date-time";
    }
  }
  return {};
}

template <class V>
constexpr bool is_finite_number(V v) noexcept {
  if constexpr (std::is_floating_point_v<V>) {
    return std::isfinite(v);
  } else {
    static_cast<void>(v);
    return true;
  }
}

template <class T>
std::string bounds_violation(typename T::value_type v, errc& code) {
  if constexpr (std::is_floating_point_v<typename T::value_type>) {
    // Before the range test: infinity can be inside a one-sided range, and has no JSON form.
    if (!std::isfinite(v)) {
      code = errc::not_finite;
      return v != v ? "NaN is not a number JSON can hold" : "infinity is not a number JSON can hold";
    }
  }
  if (T::in_range(v))
    return {};
  const std::string shown =
      std::is_floating_point_v<typename T::value_type> ? number_text(static_cast<double>(v)) : std::to_string(v);
  if constexpr (T::has_minimum) {
    bool below = false;
    if constexpr (std::is_unsigned_v<typename T::value_type>) {
      below = T::minimum > 0 && v < static_cast<unsigned long long>(T::minimum);
    } else {
      below = v < static_cast<typename T::value_type>(T::minimum);
    }
    if (below) {
      code = errc::below_minimum;
      return shown + " is less than the minimum " + std::to_string(T::minimum);
    }
  }
  code = errc::above_maximum;
  return shown + " is greater than the maximum " + std::to_string(T::maximum);
}

// --- unique items ------------------------------------------------------------------------------

// Given the canonical JSON form of every item of an array, the pairs {i, j} where item i repeats
// item j, the first item equal to it; in the order of i. Sorting, not hashing: O(n log n)
// comparisons whatever the items are.
inline std::vector<std::pair<std::size_t, std::size_t>> repeated_items(const std::vector<std::string_view>& keys) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  if (keys.size() < 2)
    return out;
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::size_t first = order[0];
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (keys[order[k]] == keys[first]) {
      out.emplace_back(order[k], first);
    } else {
      first = order[k];
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// `item 2 repeats item 0 ("foo")`: the item shown as its canonical JSON, cut after 128 bytes
// (long enough for a whole sha256 digest string).
inline std::string repeated_item_message(std::size_t item, std::size_t first, std::string_view canonical) {
  constexpr std::size_t max_shown = 128;
  std::string shown;
  if (canonical.size() <= max_shown) {
    shown = canonical;
  } else {
    std::size_t cut = max_shown;
    while (cut > 0 && (static_cast<unsigned char>(canonical[cut]) & 0xC0) == 0x80)
      --cut;  // not inside a UTF-8 sequence
    shown = std::string(canonical.substr(0, cut)) + "...";
    if (canonical.front() == '"')
      shown += '"';
  }
  // Appended piece by piece: g++ 12 warns (-Wrestrict, wrongly) on "literal" + std::to_string().
  std::string out = "item ";
  out += std::to_string(item);
  out += " repeats item ";
  out += std::to_string(first);
  out += " (";
  out += shown;
  out += ')';
  return out;
}

// The canonical JSON form of an item read from `text` (the item's bytes in the input). A string
// without escapes and a literal are already canonical; anything else is parsed and rewritten
// (kept in `owned`, whose elements do not move).
inline std::string_view canonical_item(std::string_view text, const json::limits& lim, std::deque<std::string>& owned) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  if (text.empty())
    return text;
  const char c = text.front();
  if ((c == '"' && text.find('\\') == std::string_view::npos) || c == 't' || c == 'f' || c == 'n')
    return text;
  auto canonical = json::canonicalize(text, lim);
  if (!canonical)
    return text;  // cannot happen for an item the cursor read; then compared byte for byte
  return owned.emplace_back(std::move(*canonical));
}

}  // namespace detail

template <class T>
bool decode_value(decode_context& ctx, T& out);

namespace detail {

template <class T, std::size_t I>
bool decode_field(decode_context& ctx, T& obj) {
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

template <class T>
using field_decoder = bool (*)(decode_context&, T&);

template <class T>
constexpr auto field_decoders() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<field_decoder<T>, sizeof...(I)>{&decode_field<T, I>...};
  }
  (std::make_index_sequence<field_count<T>>{});
}

template <class T>
bool decode_struct(decode_context& ctx, T& out) {
  using info = struct_info<T>;
  json::cursor& c = ctx.c;
  const std::size_t at = c.value_offset();
  if (!c.enter_object())
    return false;
  static constexpr auto decoders = field_decoders<T>();
  const std::size_t errors_before = ctx.errs.size();
  std::bitset<info::size == 0 ? 1 : info::size> seen;
  std::unordered_set<std::string> unknown;  // names of unknown members, for duplicate detection
  std::string_view name;
  while (c.next_member(name)) {
    const std::size_t i = info::find(name);
    if (i == info::npos) {
      if constexpr (info::has_extras) {
        using X = field_type<T, info::extras_index>;
        if (X::accepts(name)) {
          auto [it, inserted] = get<info::extras_index>(out).try_emplace(std::string(name));
          if (!inserted) {
            return c.fail(
                c.make_error(errc::duplicate_member, c.name_offset(), "duplicate member name " + quoted(name)));
          }
          if (!json::read_value(c, it->second))
            return false;
          continue;
        }
      }
      if (!unknown.emplace(name).second) {
        return c.fail(c.make_error(errc::duplicate_member, c.name_offset(), "duplicate member name " + quoted(name)));
      }
      ctx.report_at(errc::unknown_member, c.name_offset(), "unknown member " + quoted(name) + " (not allowed here)",
                    c.pointer());
      if (!json::skip_value(c))
        return false;
      continue;
    }
    if (seen[i]) {
      return c.fail(c.make_error(errc::duplicate_member, c.name_offset(), "duplicate member name " + quoted(name)));
    }
    seen.set(i);
    if (!decoders[i](ctx, out))
      return false;
  }
  if (!c.ok())
    return false;
  bool complete = true;
  std::string here;
  bool here_known = false;
  auto object_pointer = [&]() -> const std::string& {
    if (!here_known) {
      here = c.pointer();  // after leaving the object: the pointer of the object itself
      here_known = true;
    }
    return here;
  };
  for (std::size_t i = 0; i < info::size; ++i) {
    if (info::required[i] && !seen[i]) {
      complete = false;
      ctx.report_at(errc::missing_member, at, "required member " + quoted(info::json_names[i]) + " is missing",
                    object_pointer() + "/" + json::escape_pointer_token(info::json_names[i]));
    }
  }
  if constexpr (has_rules<T>) {
    // Cross-field rules need every member present and valid: a member that failed to decode
    // holds a default value, and a rule over it would report a violation that is not there.
    // (A nested object's rule violation leaves its values intact, so it does not count.)
    bool members_valid = complete && !ctx.truncated;
    for (std::size_t k = errors_before; members_valid && k < ctx.errs.size(); ++k)
      members_valid = ctx.errs.items[k].code == errc::rule_violation;
    if (members_valid) {
      rules r;
      out.check_rules(r);
      for (const auto& v : r.violations())
        ctx.report_at(errc::rule_violation, at, v.message, object_pointer() + v.member);
    }
  }
  return true;
}

}  // namespace detail

template <class T>
bool decode_value(decode_context& ctx, T& out) {
  constexpr category cat = category_of<T>();
  static_assert(cat != category::unsupported, "assay: this type cannot be mapped to JSON");
  json::cursor& c = ctx.c;
  if constexpr (cat == category::any) {
    return json::read_value(c, out);
  } else if constexpr (cat == category::either) {
    using A = typename T::first_type;
    using B = typename T::second_type;
    static_assert(detail::expected_token(json_type_of<A>()) != detail::expected_token(json_type_of<B>()) &&
                      category_of<A>() != category::any && category_of<B>() != category::any,
                  "either<A, B>: A and B must have different JSON types");
    const json::token t = c.expect_value();
    if (t == json::token::error)
      return false;
    if (t == detail::expected_token(json_type_of<B>())) {
      out.template emplace<1>();
      return decode_value(ctx, std::get<1>(out));
    }
    if (t != detail::expected_token(json_type_of<A>())) {
      ctx.report(errc::type_mismatch, "expected " + std::string(name(json_type_of<A>())) + " or " +
                                          std::string(name(json_type_of<B>())) + ", found " +
                                          std::string(detail::found_name(t)));
      return json::skip_value(c);
    }
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
      double d = 0;
      if (!c.read_number(d))
        return false;
      if (!detail::integer_from_double(d, out)) {
        ctx.report(errc::not_an_integer, d == std::trunc(d)
                                             ? detail::number_text(d) + " is out of range for this member"
                                             : "expected an integer, found " + detail::number_text(d));
      }
      return true;
    } else if constexpr (cat == category::number) {
      double d = 0;
      if (!c.read_number(d))
        return false;
      out = static_cast<T>(d);
      return true;
    } else if constexpr (cat == category::bounded) {
      typename T::value_type v{};
      if constexpr (std::is_integral_v<typename T::value_type>) {
        double d = 0;
        if (!c.read_number(d))
          return false;
        if (!detail::integer_from_double(d, v)) {
          if (d == std::trunc(d) && T::has_minimum && d < static_cast<double>(T::minimum)) {
            ctx.report(errc::below_minimum,
                       detail::number_text(d) + " is less than the minimum " + std::to_string(T::minimum));
          } else if (d == std::trunc(d) && T::has_maximum && d > static_cast<double>(T::maximum)) {
            ctx.report(errc::above_maximum,
                       detail::number_text(d) + " is greater than the maximum " + std::to_string(T::maximum));
          } else {
            ctx.report(errc::not_an_integer, d == std::trunc(d)
                                                 ? detail::number_text(d) + " is out of range for this member"
                                                 : "expected an integer, found " + detail::number_text(d));
          }
          return true;
        }
      } else {
        double d = 0;
        if (!c.read_number(d))
          return false;
        v = static_cast<typename T::value_type>(d);
      }
      out = v;
      errc code{};
      std::string msg = detail::bounds_violation<T>(v, code);
      if (!msg.empty())
        ctx.report(code, std::move(msg));
      return true;
    } else if constexpr (cat == category::const_string) {
      std::string_view s;
      if (!c.read_string(s))
        return false;
      if (s != T::value) {
        ctx.report(errc::const_mismatch, "expected " + detail::quoted(T::value) + ", found " + detail::quoted(s));
      }
      return true;
    } else if constexpr (cat == category::one_of) {
      std::string_view s;
      if (!c.read_string(s))
        return false;
      if (auto v = T::parse(s)) {
        out = *v;
      } else {
        std::string allowed;
        for (auto a : T::values)
          allowed += (allowed.empty() ? "" : ", ") + detail::quoted(a);
        ctx.report(errc::enum_mismatch, detail::quoted(s) + " is not one of " + allowed);
      }
      return true;
    } else if constexpr (cat == category::string) {
      std::string_view s;
      if (!c.read_string(s))
        return false;
      out.assign(s.data(), s.size());
      errc code{};
      std::string msg = detail::string_violation<T>(out, code);
      if (!msg.empty())
        ctx.report(code, std::move(msg));
      return true;
    } else if constexpr (cat == category::fixed_array || cat == category::array) {
      const std::size_t at = c.value_offset();
      if (!c.enter_array())
        return false;
      std::size_t n = 0;
      if constexpr (cat == category::array)
        out.clear();
      // For unique items: where each item starts and ends in the input.
      [[maybe_unused]] std::vector<std::pair<std::size_t, std::size_t>> spans;
      while (c.next_element()) {
        if constexpr (unique_items_array<T>) {
          spans.emplace_back(c.offset(), 0);
        }
        if constexpr (cat == category::fixed_array) {
          if (n < out.size()) {
            if (!decode_value(ctx, out[n]))
              return false;
          } else if (!json::skip_value(c)) {
            return false;
          }
        } else {
          out.emplace_back();
          if (!decode_value(ctx, out.back()))
            return false;
        }
        if constexpr (unique_items_array<T>) {
          spans.back().second = c.offset();
        }
        ++n;
      }
      if (!c.ok())
        return false;
      if constexpr (unique_items_array<T>) {
        // Items are compared as JSON, whatever they decoded to (an item of the wrong type too).
        std::deque<std::string> owned;
        std::vector<std::string_view> keys;
        keys.reserve(spans.size());
        for (const auto& [begin, end] : spans)
          keys.push_back(detail::canonical_item(c.input().substr(begin, end - begin), c.limits(), owned));
        const std::vector<std::pair<std::size_t, std::size_t>> repeats = detail::repeated_items(keys);
        if (!repeats.empty()) {
          const std::string array_pointer = c.pointer();
          for (const auto& [item, first] : repeats) {
            ctx.report_at(errc::duplicate_item, spans[item].first,
                          detail::repeated_item_message(item, first, keys[item]),
                          array_pointer + "/" + std::to_string(item));
          }
        }
      }
      std::size_t min_items = 0, max_items = unbounded;
      if constexpr (cat == category::fixed_array) {
        min_items = max_items = std::tuple_size_v<T>;
      } else if constexpr (requires { T::min_items; }) {
        min_items = T::min_items;
        max_items = T::max_items;
      }
      if (n < min_items) {
        ctx.report_at(errc::too_few_items, at,
                      "array has " + std::to_string(n) + " items, fewer than the minimum " + std::to_string(min_items),
                      c.pointer());
      } else if (n > max_items) {
        ctx.report_at(errc::too_many_items, at,
                      "array has " + std::to_string(n) + " items, more than the maximum " + std::to_string(max_items),
                      c.pointer());
      }
      return true;
    } else if constexpr (cat == category::map) {
      if (!c.enter_object())
        return false;
      out.clear();
      std::string_view name;
      while (c.next_member(name)) {
        auto [it, inserted] = out.try_emplace(std::string(name));
        if (!inserted) {
          return c.fail(
              c.make_error(errc::duplicate_member, c.name_offset(), "duplicate member name " + detail::quoted(name)));
        }
        if (!decode_value(ctx, it->second))
          return false;
      }
      return c.ok();
    } else if constexpr (cat == category::object) {
      return detail::decode_struct(ctx, out);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------

template <class W>
struct encode_context {
  W& w;
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
  void report(errc code, std::string message, std::string_view suffix = {}) {
    errs.items.push_back(make_error(code, std::move(message), track ? pointer() + std::string(suffix) : std::string()));
  }
};

template <class T, class W>
void encode_value(encode_context<W>& ctx, const T& v);

namespace detail {

// Every JSON number is a double (SPEC §2): an integer beyond 2^53 is written as the double it
// rounds to. Returns false when that double is outside I, so that decoding the bytes would fail
// (2^64 - 1 rounds to 2^64): such a value cannot be encoded faithfully and is refused.
template <class I>
bool integer_survives_json(I v) {
  const double d = static_cast<double>(v);
  if constexpr (std::is_signed_v<I>) {
    return d >= static_cast<double>(std::numeric_limits<I>::min()) &&
           d < -static_cast<double>(std::numeric_limits<I>::min());
  } else {
    return d < 2.0 * (static_cast<double>(std::numeric_limits<I>::max() / 2) + 1.0);
  }
}

// The JSON forms of the allowed strings of a const_string or one_of, computed at compile time:
// each quoted, padded to one stride, so writing one is a copy of a constant size. Only when no
// value needs escaping (otherwise `usable` is false and json::write_string is used).
template <class T>
struct string_literals {
  static constexpr auto values() {
    if constexpr (requires { T::values; }) {
      return T::values;
    } else {
      return std::array<std::string_view, 1>{T::value};
    }
  }
  static constexpr auto list = values();
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

// Writes allowed string number `i` of T (a const_string or one_of) as JSON.
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
  constexpr long long limit = 9007199254740992LL;
  bool exact = false;
  if constexpr (std::is_signed_v<I>) {
    exact = static_cast<long long>(v) >= -limit && static_cast<long long>(v) <= limit;
  } else {
    exact = static_cast<unsigned long long>(v) <= static_cast<unsigned long long>(limit);
  }
  char* p = w.reserve(json::max_number_chars);
  if (exact) {
    using wide = std::conditional_t<std::is_signed_v<I>, std::int64_t, std::uint64_t>;
    w.advance(static_cast<std::size_t>(json::format_integer(static_cast<wide>(v), p) - p));
  } else {
    w.advance(static_cast<std::size_t>(json::format_number(static_cast<double>(v), p) - p));
  }
}

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

// The undeclared members of obj, checked and in canonical order.
template <class T, class W>
auto sorted_extras(encode_context<W>& ctx, const T& obj) {
  using info = struct_info<T>;
  using X = field_type<T, info::extras_index>;
  const X& extras = get<info::extras_index>(obj);
  std::vector<typename X::const_iterator> order;
  order.reserve(extras.size());
  for (auto it = extras.begin(); it != extras.end(); ++it) {
    if (!X::accepts(it->first)) {
      ctx.report(errc::unknown_member,
                 "extra member " + detail::quoted(it->first) + " does not start with " + detail::quoted(X::prefix),
                 "/" + json::escape_pointer_token(it->first));
    } else if (info::find_static(it->first) != info::npos) {
      ctx.report(errc::duplicate_member, "extra member " + detail::quoted(it->first) + " repeats a declared member",
                 "/" + json::escape_pointer_token(it->first));
    }
    order.push_back(it);
  }
  auto less = [](const auto& a, const auto& b) { return json::utf16_less(a->first, b->first); };
  if (!std::is_sorted(order.begin(), order.end(), less))
    std::sort(order.begin(), order.end(), less);
  return order;
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
        auto r = json::write_canonical(w, extras[e]->second);
        if (!r)
          ctx.report(r.error().code, r.error().message, r.error().pointer);
        ctx.leave();
      }
    };
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      ((write_extras_before(info::json_names[info::order[K]], false),
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
    for (const auto& v : r.violations())
      ctx.report(errc::rule_violation, v.message, v.member);
  }
}

// The items of a unique_list that repeat an earlier one, each reported at its own index.
// Strings are compared as they are; any other item by its canonical bytes.
template <class T, class W>
void report_repeated_items(encode_context<W>& ctx, const T& v) {
  using I = typename T::value_type;
  constexpr category item_cat = category_of<I>();
  constexpr bool strings = item_cat == category::string || item_cat == category::one_of;
  std::vector<std::string> encoded;  // the canonical bytes of non-string items
  std::vector<std::string_view> keys;
  keys.reserve(v.size());
  if constexpr (strings) {
    for (const auto& item : v)
      keys.push_back(std::string_view(item));
  } else {
    encoded.resize(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      json::detail::string_writer sw{&encoded[i]};
      encode_context<json::detail::string_writer> item_ctx{sw, {}, {}};
      item_ctx.track = false;  // its violations are reported where it is written
      encode_value(item_ctx, v[i]);
      keys.push_back(encoded[i]);
    }
  }
  for (const auto& [item, first] : repeated_items(keys)) {
    std::string canonical;
    if constexpr (strings) {
      json::detail::string_writer sw{&canonical};
      if (!json::write_string(sw, keys[item]))
        canonical = detail::quoted(keys[item]);  // not UTF-8 (reported as such too)
    } else {
      canonical = keys[item];
    }
    std::string at = "/";
    at += std::to_string(item);
    ctx.report(errc::duplicate_item, repeated_item_message(item, first, canonical), at);
  }
}

}  // namespace detail

template <class T, class W>
void encode_value(encode_context<W>& ctx, const T& v) {
  constexpr category cat = category_of<T>();
  static_assert(cat != category::unsupported, "assay: this type cannot be mapped to JSON");
  auto& w = ctx.w;
  if constexpr (cat == category::any) {
    auto r = json::write_canonical(w, v);
    if (!r)
      ctx.report(r.error().code, r.error().message, r.error().pointer);
  } else if constexpr (cat == category::boolean) {
    if (v) {
      w.write("true", 4);
    } else {
      w.write("false", 5);
    }
  } else if constexpr (cat == category::integer) {
    if (!detail::integer_survives_json(v)) {
      ctx.report(errc::above_maximum, std::to_string(v) + " rounds to a JSON number outside this member's type");
    }
    detail::write_integer(w, v);
  } else if constexpr (cat == category::number) {
    if (!json::write_number(w, static_cast<double>(v))) {
      ctx.report(errc::not_finite, "NaN and infinity have no JSON form");
      w.put('0');
    }
  } else if constexpr (cat == category::bounded) {
    bool violated = false;
    if (!T::in_range(v.value()) || !detail::is_finite_number(v.value())) [[unlikely]] {
      errc code{};
      std::string msg = detail::bounds_violation<T>(v.value(), code);
      violated = !msg.empty();
      if (violated)
        ctx.report(code, std::move(msg));
    }
    if constexpr (std::is_integral_v<typename T::value_type>) {
      if (!violated && !detail::integer_survives_json(v.value())) {
        ctx.report(errc::above_maximum,
                   std::to_string(v.value()) + " rounds to a JSON number outside this member's type");
      }
      detail::write_integer(w, v.value());
    } else if (!json::write_number(w, static_cast<double>(v.value()))) {
      if (!violated)
        ctx.report(errc::not_finite, "NaN and infinity have no JSON form");
      w.put('0');
    }
  } else if constexpr (cat == category::const_string) {
    detail::write_literal<T>(w, 0);
  } else if constexpr (cat == category::one_of) {
    detail::write_literal<T>(w, v.index());
  } else if constexpr (cat == category::string) {
    if (!json::write_string(w, v)) {
      ctx.report(errc::invalid_utf8, "string is not valid UTF-8");
      w.put('"');
      return;
    }
    errc code{};
    std::string msg = detail::string_violation<T>(v, code);
    if (!msg.empty())
      ctx.report(code, std::move(msg));
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
    if constexpr (unique_items_array<T>) {
      detail::report_repeated_items(ctx, v);
    }
    if constexpr (requires { T::min_items; }) {
      if (v.size() < T::min_items) {
        ctx.report(errc::too_few_items, "array has " + std::to_string(v.size()) + " items, fewer than the minimum " +
                                            std::to_string(T::min_items));
      } else if (v.size() > T::max_items) {
        ctx.report(errc::too_many_items, "array has " + std::to_string(v.size()) + " items, more than the maximum " +
                                             std::to_string(T::max_items));
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

// Writes the JCS bytes of `v` into `sink`. On a constraint violation returns the first error
// (bytes already written to the sink are then not meaningful).
namespace detail {

// Every constraint `v` violates, each with its pointer: an encoding pass that tracks where it
// is, into no sink. The entry points encode without tracking and call this only when that
// pass found something.
template <class T>
errors violations_of(const T& v, bool track = true) {
  json::counting_sink s;
  json::writer<json::counting_sink> w(s);
  encode_context<json::writer<json::counting_sink>> ctx{w, {}, {}};
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

template <class T, json::sink S>
result<void> encode_to(S& sink, const T& v) {
  return json::with_writer(sink, [&]<class W>(W& w) -> result<void> {
    encode_context<W> ctx{w, {}, {}};
    ctx.track = false;
    encode_value(ctx, v);
    if (!ctx.errs.empty())
      return detail::located(v, std::move(ctx.errs)).front();
    return {};
  });
}

// Decodes into `out` from a cursor positioned before a value (does not check for trailing
// content: callers reading one value of a larger document use this).
template <class T>
results<void> decode_from(json::cursor& c, T& out, std::size_t max_errors = 1000) {
  decode_context ctx{c, {}, max_errors};
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

// Decodes a DOM value into T (through its canonical bytes).
template <class T>
results<T> from_value(const json::value& v) {
  auto text = json::to_canonical(v);
  if (!text)
    return errors(text.error());
  return decode<T>(*text);
}

// The JCS bytes of `v`, or every constraint it violates.
template <class T>
results<std::string> encode(const T& v) {
  std::string out;
  json::string_sink s{&out};
  {
    json::writer<json::string_sink> w(s);
    reflect::encode_context<json::writer<json::string_sink>> ctx{w, {}, {}};
    ctx.track = false;
    reflect::encode_value(ctx, v);
    if (!ctx.errs.empty())
      return reflect::detail::located(v, std::move(ctx.errs));
  }
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

// Indented JSON for people (members in canonical order).
template <class T>
results<std::string> encode_pretty(const T& v) {
  auto c = encode(v);
  if (!c)
    return c.error();
  auto dom = json::parse(*c);
  if (!dom)
    return errors(dom.error());
  return json::to_pretty(*dom);
}

// Throwing conveniences.
template <class T>
T decode_or_throw(std::string_view text, const json::limits& lim = {}) {
  return decode<T>(text, lim).value();
}
template <class T>
std::string encode_or_throw(const T& v) {
  return encode(v).value();
}

}  // namespace assay
