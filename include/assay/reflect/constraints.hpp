// assay/reflect/constraints.hpp — value types that carry their JSON Schema constraints.
//
// A contract is a plain aggregate whose member types say what JSON is allowed:
//
//   const_string<"soak-report-v1">              "const": "soak-report-v1"
//   one_of<"info", "warning", "error">          "enum": [...]
//   bounded<std::int64_t, 1>                    "type": "integer", "minimum": 1
//   bounded<double, 0, 1>                       "type": "number", "minimum": 0, "maximum": 1
//   str<1>, str<0, "^[a-z]+$">, date_time       "minLength", "pattern", "format": "date-time"
//   list<T, 1>                                  "minItems": 1 (and an optional maximum)
//   unique_list<T>, unique_list<T, 1>           "uniqueItems": true (and the bounds of list)
//   std::array<T, 2>                            "minItems": 2, "maxItems": 2
//   std::map<std::string, V>                    "additionalProperties": <schema of V>
//   std::optional<T>                            member not required, omitted when absent
//   nullable<T>                                 "type": [..., "null"]
//   json::value                                 any JSON
//   extra_members<"x-">                         undeclared members (all, or by name prefix)
//   either<A, B>                                "anyOf": an A or a B (different JSON types)
//
// Member-level annotations that are not constraints (a JSON name that is not a C++ identifier,
// a description, a default) go in a static table on the struct:
//
//   static constexpr assay::field_info assay_fields[] = {
//     {.field = "x_assay", .json_name = "x-assay"},
//     {.field = "suite", .description = "Optional tier/name."},
//   };
//
// Type-level annotations are static members: `schema_name` (the type is emitted once under
// $defs and referenced), `schema_description`, and for a root contract `schema_id`,
// `schema_title`. Cross-field rules go in `void check_rules(assay::rules&) const`.
//
// Values built from constants are checked at compile time (a constexpr `bounded<int, 1>{0}` or
// a `one_of<"a","b">` made from "c" does not compile). Values set at run time are checked when
// encoded or validated: an encode of a value that breaks its type's constraints is an error.
//
// Each constraint type owns its rule, in one place, like reflect-cpp's validators; decoding,
// encoding and the schema call it without knowing which constraint it is:
//
//   using assay_base = B;       what it is read and written as, hence its JSON type: an
//                               arithmetic type, std::string or std::vector<T> (the type converts
//                               to B and is assignable from it, or derives from it)
//   assay_check(v, report)      true when v satisfies it; else report(code, message) (or
//                               report.item(i, code, message) for item i of an array) and false.
//                               Decoding calls it on what was read, encoding on what is written:
//                               a number, a std::string_view, or for an array a view of its
//                               items with size() (and keys() and canonical(i), the items' JSON
//                               forms, when assay_compares_items is set)
//   assay_schema(s)             its JSON Schema keywords: s.set(keyword, value)
//
// An enumeration (const_string, one_of) has no base: it is a string that must be one of its
// `values`, read with parse() and written as values[index()]; its check says why a string is
// not one of them. Adding a constraint is adding such a type; nothing else changes.
#pragma once

#include "assay/error.hpp"
#include "assay/reflect/checks.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace assay {

// A string usable as a template argument: const_string<"v1">.
template <std::size_t N>
struct fixed_string {
  char data[N]{};
  constexpr fixed_string(const char (&s)[N]) noexcept {  // NOLINT: implicit on purpose
    for (std::size_t i = 0; i < N; ++i)
      data[i] = s[i];
  }
  constexpr std::string_view view() const noexcept { return {data, N - 1}; }
  constexpr std::size_t size() const noexcept { return N - 1; }
  constexpr bool empty() const noexcept { return N <= 1; }
};

namespace detail {
// Called only when a compile-time check fails: not constexpr, so the constant evaluation stops
// here and the compiler names this function in its diagnostic.
inline void constraint_violated_in_constant_expression() {}
}  // namespace detail

// --- constant strings ----------------------------------------------------------------------

template <fixed_string V>
struct const_string {
  static constexpr std::string_view value = V.view();
  static constexpr std::array<std::string_view, 1> values{value};
  constexpr std::string_view get() const noexcept { return value; }
  constexpr std::size_t index() const noexcept { return 0; }
  constexpr operator std::string_view() const noexcept { return value; }  // NOLINT
  friend constexpr bool operator==(const_string, const_string) noexcept { return true; }
  friend constexpr bool operator==(const_string, std::string_view s) noexcept { return s == value; }

  static constexpr std::optional<const_string> parse(std::string_view s) noexcept {
    return s == value ? std::optional<const_string>(const_string{}) : std::nullopt;
  }
  template <class R>
  static bool assay_check(std::string_view s, R& report) {
    if (s == value)
      return true;
    report(errc::const_mismatch, reflect::detail::const_message(value, s));
    return false;
  }
  template <class S>
  static void assay_schema(S& s) {
    s.set("const", value);
  }
};

// --- enumerations of strings ---------------------------------------------------------------

template <fixed_string... Vs>
class one_of {
  static_assert(sizeof...(Vs) > 0, "one_of needs at least one allowed string");

 public:
  static constexpr std::array<std::string_view, sizeof...(Vs)> values{Vs.view()...};

  constexpr one_of() noexcept = default;  // the first allowed value

  // From a literal: checked at compile time.
  template <std::size_t N>
  consteval one_of(const char (&s)[N]) : index_(find_or_fail(std::string_view(s, N - 1))) {}  // NOLINT

  // From a run-time string: nullopt when not allowed.
  static constexpr std::optional<one_of> parse(std::string_view s) noexcept {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i] == s) {
        one_of r;
        r.index_ = static_cast<std::uint16_t>(i);
        return r;
      }
    }
    return std::nullopt;
  }

  // The allowed value named like the enumerator `e` (its `name(e)`, found by argument-dependent
  // lookup): an engine's own one-byte enumeration mapped to its contract's, with no string and no
  // failure path. Every one of the enumeration's 256 values must have a name allowed here: a
  // mismatch (an enumerator added or renamed on one side only) does not compile.
  template <class E>
  static constexpr one_of of(E e) noexcept {
    static_assert(std::is_enum_v<E> && sizeof(E) == 1, "one_of::of maps a one-byte enumeration");
    constexpr std::array<std::uint16_t, 256> index_of_each = names_of<E>();
    one_of r;
    r.index_ = index_of_each[static_cast<std::uint8_t>(e)];
    return r;
  }

  template <class R>
  static bool assay_check(std::string_view s, R& report) {
    if (parse(s))
      return true;
    report(errc::enum_mismatch, reflect::detail::enum_message(s, values));
    return false;
  }
  template <class S>
  static void assay_schema(S& s) {
    s.set("enum", values);
  }

  constexpr std::string_view value() const noexcept { return values[index_]; }
  constexpr std::size_t index() const noexcept { return index_; }
  constexpr operator std::string_view() const noexcept { return value(); }  // NOLINT

  friend constexpr bool operator==(one_of a, one_of b) noexcept { return a.index_ == b.index_; }
  friend constexpr bool operator==(one_of a, std::string_view s) noexcept { return a.value() == s; }
  // `v == "error"`: without this, the literal converts both to one_of and to std::string_view
  // and the comparison is ambiguous.
  template <std::size_t N>
  friend constexpr bool operator==(one_of a, const char (&s)[N]) noexcept {
    return a.value() == std::string_view(s);
  }

 private:
  static consteval std::uint16_t find_or_fail(std::string_view s) {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] == s)
        return static_cast<std::uint16_t>(i);
    detail::constraint_violated_in_constant_expression();  // the literal is not an allowed value
    return 0;
  }
  template <class E>
  static consteval std::array<std::uint16_t, 256> names_of() {
    std::array<std::uint16_t, 256> out{};
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = find_or_fail(name(static_cast<E>(i)));
    return out;
  }
  std::uint16_t index_ = 0;
};

// --- bounded numbers -------------------------------------------------------------------------

inline constexpr long long no_minimum = std::numeric_limits<long long>::min();
inline constexpr long long no_maximum = std::numeric_limits<long long>::max();

// An integer or floating-point value with optional inclusive bounds (integral bounds: the
// schemas we model only need those, and every compiler we support takes them as template
// arguments).
template <class T, long long Min = no_minimum, long long Max = no_maximum>
class bounded {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "bounded<T> needs a number type");
  static_assert(Min <= Max, "bounded: minimum above maximum");

 public:
  using value_type = T;
  using assay_base = T;
  static constexpr bool has_minimum = Min != no_minimum;
  static constexpr bool has_maximum = Max != no_maximum;
  static constexpr long long minimum = Min;
  static constexpr long long maximum = Max;

  // `v`: a T, or the double read where an integer outside T was expected.
  template <class V>
  static constexpr bool in_range(V v) noexcept {
    if constexpr (std::is_floating_point_v<V>) {
      if (v != v)
        return false;  // NaN is in no range
    }
    return !below(v) && !above(v);
  }

  // Finite (a double bound has no JSON form otherwise) and within the bounds. Bounds are
  // reported as "less than the minimum" / "greater than the maximum" with the value as JSON
  // shows it.
  template <class V, class R>
  static bool assay_check(V v, R& report) {
    if constexpr (std::is_floating_point_v<V>) {
      if (!std::isfinite(v)) [[unlikely]] {  // before the range test: a range can hold infinity
        auto [code, message] = reflect::detail::non_finite_violation(v != v);
        report(code, std::move(message));
        return false;
      }
    }
    if (in_range(v)) [[likely]]
      return true;
    std::string shown;
    if constexpr (std::is_floating_point_v<V>) {
      shown = reflect::detail::number_text(static_cast<double>(v));
    } else {
      shown = std::to_string(v);
    }
    const bool low = below(v);
    auto [code, message] = reflect::detail::bound_violation(shown, low, low ? Min : Max);
    report(code, std::move(message));
    return false;
  }

  template <class S>
  static void assay_schema(S& s) {
    if constexpr (has_minimum)
      s.set("minimum", static_cast<double>(Min));
    if constexpr (has_maximum)
      s.set("maximum", static_cast<double>(Max));
  }

  constexpr bounded() noexcept = default;
  constexpr bounded(T v) : v_(v) {  // NOLINT: implicit on purpose
    if (std::is_constant_evaluated() && !in_range(v)) {
      detail::constraint_violated_in_constant_expression();  // constant out of bounds
    }
  }

  constexpr T value() const noexcept { return v_; }
  constexpr operator T() const noexcept { return v_; }  // NOLINT
  constexpr bounded& operator=(T v) noexcept {
    v_ = v;
    return *this;
  }

 private:
  template <class V>
  static constexpr bool below(V v) noexcept {
    if constexpr (!has_minimum) {
      return false;
    } else if constexpr (std::is_unsigned_v<V>) {
      return Min > 0 && v < static_cast<unsigned long long>(Min);
    } else if constexpr (std::is_floating_point_v<V> && std::is_integral_v<T>) {
      return v < static_cast<double>(Min);
    } else {
      return v < static_cast<V>(Min);
    }
  }
  template <class V>
  static constexpr bool above(V v) noexcept {
    if constexpr (!has_maximum) {
      return false;
    } else if constexpr (std::is_unsigned_v<V>) {
      return Max < 0 || v > static_cast<unsigned long long>(Max);
    } else if constexpr (std::is_floating_point_v<V> && std::is_integral_v<T>) {
      return v > static_cast<double>(Max);
    } else {
      return v > static_cast<V>(Max);
    }
  }

  T v_{};
};

// --- constrained strings ---------------------------------------------------------------------

// A string with a minimum length (in code points), an ECMA-262 pattern and a format
// ("date-time" is checked as RFC 3339). It is a std::string with that extra meaning.
template <std::size_t MinLength = 0, fixed_string Pattern = "", fixed_string Format = "">
struct str : std::string {
  using assay_base = std::string;
  static constexpr std::size_t min_length = MinLength;
  static constexpr std::string_view pattern = Pattern.view();
  static constexpr std::string_view format = Format.view();
  static_assert(Format.empty() || Format.view() == "date-time", "str: the only supported format is date-time");

  // The first of: too short, not matching the pattern, not of the format.
  template <class R>
  static bool assay_check(std::string_view s, R& report) {
    if constexpr (MinLength > 0) {
      if (!reflect::has_code_points(s, MinLength)) {
        report(errc::too_short, reflect::detail::too_short_message(MinLength));
        return false;
      }
    }
    if constexpr (!Pattern.empty()) {
      const reflect::pattern_result m = reflect::match_static_pattern<str>(s);
      if (m != reflect::pattern_result::match) {
        report(errc::pattern_mismatch, reflect::detail::pattern_message(m, s, pattern));
        return false;
      }
    }
    if constexpr (!Format.empty()) {
      if (!reflect::is_date_time(s)) {
        report(errc::format_mismatch, reflect::detail::date_time_message(s));
        return false;
      }
    }
    return true;
  }

  template <class S>
  static void assay_schema(S& s) {
    if constexpr (MinLength > 0)
      s.set("minLength", static_cast<double>(MinLength));
    if constexpr (!Pattern.empty())
      s.set("pattern", pattern);
    if constexpr (!Format.empty())
      s.set("format", format);
  }

  using std::string::string;
  str() = default;
  str(const std::string& s) : std::string(s) {}        // NOLINT
  str(std::string&& s) : std::string(std::move(s)) {}  // NOLINT
  str(std::string_view s) : std::string(s) {}          // NOLINT
  using std::string::operator=;
};

using non_empty = str<1>;
template <fixed_string P>
using pattern = str<0, P>;
using date_time = str<0, "", "date-time">;

// --- setting a string member at run time -------------------------------------------------------

namespace reflect::detail {
// F, or the F of a std::optional<F>.
template <class F>
struct strip_optional {
  using type = F;
};
template <class F>
struct strip_optional<std::optional<F>> {
  using type = F;
};
}  // namespace reflect::detail

// Sets a string-valued member — std::string, a constrained string (str, pattern, non_empty), an
// enumeration (one_of, const_string), or an optional of one — from run-time text, checked
// against its type's constraints: on failure the member is unchanged and the error carries the
// constraint's code and message. The one setter of such members (a constrained string is
// ambiguous to assign from a std::string, both its own and its base's operator= taking one).
template <class T>
result<void> assign(T& field, std::string_view text) {
  using held = typename reflect::detail::strip_optional<T>::type;
  if constexpr (!std::is_same_v<held, T>) {
    held v{};
    if (result<void> r = assign(v, text); !r)
      return r;
    field = std::move(v);
    return {};
  } else if constexpr (std::is_same_v<T, std::string>) {
    field.assign(text);
    return {};
  } else {
    std::optional<error> refused;
    auto report = [&](errc code, std::string message) { refused = make_error(code, std::move(message)); };
    if (!T::assay_check(text, report))
      return refused ? *refused : make_error(errc::invalid_argument, "not a valid value");
    if constexpr (requires { T::parse(text); })
      field = *T::parse(text);
    else
      static_cast<std::string&>(field).assign(text);
    return {};
  }
}

// --- arrays ------------------------------------------------------------------------------------

inline constexpr std::size_t unbounded = static_cast<std::size_t>(-1);

template <class T, std::size_t MinItems = 0, std::size_t MaxItems = unbounded>
struct list : std::vector<T> {
  static_assert(MinItems <= MaxItems, "list: minimum above maximum");
  using assay_base = std::vector<T>;
  static constexpr std::size_t min_items = MinItems;
  static constexpr std::size_t max_items = MaxItems;

  template <class Items, class R>
  static bool assay_check(const Items& items, R& report) {
    const std::size_t n = items.size();
    if (n < MinItems) {
      report(errc::too_few_items, reflect::detail::item_count_message(n, true, MinItems));
      return false;
    }
    if (n > MaxItems) {
      report(errc::too_many_items, reflect::detail::item_count_message(n, false, MaxItems));
      return false;
    }
    return true;
  }

  template <class S>
  static void assay_schema(S& s) {
    if constexpr (MinItems > 0)
      s.set("minItems", static_cast<double>(MinItems));
    if constexpr (MaxItems != unbounded)
      s.set("maxItems", static_cast<double>(MaxItems));
  }

  using std::vector<T>::vector;
  list() = default;
  list(const std::vector<T>& v) : std::vector<T>(v) {}        // NOLINT
  list(std::vector<T>&& v) : std::vector<T>(std::move(v)) {}  // NOLINT
};

// A list whose items are all different ("uniqueItems": true): no two items have the same JSON
// value, compared by their canonical (JCS) forms, so 1 and 1.0 are the same item, as are two
// objects with their members in another order. A repeated item is reported at its later place.
template <class T, std::size_t MinItems = 0, std::size_t MaxItems = unbounded>
struct unique_list : list<T, MinItems, MaxItems> {
  static constexpr bool unique_items = true;
  static constexpr bool assay_compares_items = true;

  // Every repeated item at its place (naming the first equal item), then the bounds of list.
  template <class Items, class R>
  static bool assay_check(const Items& items, R& report) {
    const auto repeats = reflect::repeated_items(items.keys());
    for (const auto& [item, first] : repeats)
      report.item(item, errc::duplicate_item, reflect::repeated_item_message(item, first, items.canonical(item)));
    return list<T, MinItems, MaxItems>::assay_check(items, report) && repeats.empty();
  }

  template <class S>
  static void assay_schema(S& s) {
    list<T, MinItems, MaxItems>::assay_schema(s);
    s.set("uniqueItems", true);
  }

  using list<T, MinItems, MaxItems>::list;
  unique_list() = default;
  unique_list(const std::vector<T>& v) : list<T, MinItems, MaxItems>(v) {}        // NOLINT
  unique_list(std::vector<T>&& v) : list<T, MinItems, MaxItems>(std::move(v)) {}  // NOLINT
};

// --- null --------------------------------------------------------------------------------------

// A required member whose value may be null (an std::optional that is written as null).
template <class T>
struct nullable : std::optional<T> {
  using std::optional<T>::optional;
  using std::optional<T>::operator=;
  nullable() = default;
};

// --- one of two JSON types ----------------------------------------------------------------------

// A value that is either an A or a B, told apart by their JSON types (which must differ): a
// string or a redaction commitment object, say. The schema says "anyOf".
template <class A, class B>
struct either : std::variant<A, B> {
  using first_type = A;
  using second_type = B;
  using std::variant<A, B>::variant;
  using std::variant<A, B>::operator=;
  either() = default;
};

// --- members a struct does not declare -----------------------------------------------------------

// A struct may have one member of this type. Decoding keeps there every member the struct does not
// declare whose name starts with `Prefix` (any name when `Prefix` is empty) instead of rejecting
// it; encoding writes them among the declared members, in canonical order. The schema says
// "patternProperties" for a prefix, "additionalProperties": true without one. Its values are untyped
// JSON: it is defined in reflect/untyped.hpp (which reflect/codec.hpp includes).
//
//   struct pack { ...; extra_members<"x-"> extensions; };        // only x-… members
//   struct fs_access { ...; extra_members<> extra; };             // anything else too
template <fixed_string Prefix = "">
struct extra_members;

// --- member annotations ------------------------------------------------------------------------

// The privacy class of a member (docs/privacy.md): what redaction does with it.
enum class privacy : std::uint8_t {
  public_,           // kept
  sensitive,         // generalized: home paths, secret-bearing arguments
  forbidden_secret,  // dropped (or replaced by a commitment); the event's assaysecrets is set
  forbidden_pii,     // dropped (or replaced by a commitment); the event's assaypii is set
};

struct field_info {
  std::string_view field;                     // the C++ member name
  std::string_view json_name = {};            // the JSON member name when it is not the C++ name
  std::string_view description = {};          // schema "description"
  std::string_view default_json = {};         // schema "default", as JSON text
  assay::privacy privacy = privacy::public_;  // docs/privacy.md
};

// --- cross-field rules -------------------------------------------------------------------------

// Collects the violations of a contract's cross-field rules. `member` is a JSON Pointer relative
// to the object the rule belongs to ("" for the object itself).
class rules {
 public:
  void fail(std::string_view member, std::string message) {
    violations_.push_back({std::string(member), std::move(message)});
  }
  struct violation {
    std::string member;
    std::string message;
  };
  const std::vector<violation>& violations() const noexcept { return violations_; }

 private:
  std::vector<violation> violations_;
};

}  // namespace assay
