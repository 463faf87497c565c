// assay/reflect/metadata.hpp — what decoding, encoding, the schema and conformance know about a
// C++ type before touching a value: its category (how it maps to JSON), its JSON type, and for a
// struct its members (JSON names, JCS order, required set, privacy classes), all computed at
// compile time.
#pragma once

#include "assay/json/canonical.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/diagnostics.hpp"
#include "assay/reflect/fields.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace assay::json {
class value;
}  // namespace assay::json

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

// A type with a constraint of constraints.hpp: read and written as its assay_base.
template <class T>
concept constrained = requires {
  typename T::assay_base;
};

// What T is read and written as: its assay_base, or T itself.
template <class T>
struct base_of {
  using type = T;
};
template <constrained T>
struct base_of<T> {
  using type = typename T::assay_base;
};
template <class T>
using base_of_t = typename base_of<T>::type;

// A string that must be one of a fixed list (const_string, one_of).
template <class T>
concept enumeration = requires(const T& v, std::string_view s) {
  T::values;
  v.index();
  T::parse(s);
};

// An array constraint that compares the items with each other (unique_list).
template <class T>
concept compares_items = requires {
  requires T::assay_compares_items;
};

template <class T>
concept vector_like = requires {
  typename T::value_type;
}
&&std::is_base_of_v<std::vector<typename T::value_type>, T> && !std::is_same_v<typename T::value_type, bool>;

// A map with string keys kept in order (std::map<std::string, V>).
template <class T>
concept string_map = requires(T& m, std::string k) {
  typename T::key_compare;
  typename T::mapped_type;
  m.try_emplace(std::move(k));
}
&&std::is_same_v<typename T::key_type, std::string>;

enum class category {
  boolean,
  integer,
  number,
  string,
  enumeration,
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
  else if constexpr (constrained<T>)
    return category_of<typename T::assay_base>();
  else if constexpr (enumeration<T>)
    return category::enumeration;
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
  else if constexpr (string_map<T>)
    return category::map;
  else if constexpr (std::is_same_v<T, json::value>)
    return category::any;
  else if constexpr (reflectable<T>)
    return category::object;
  else
    return category::unsupported;
}

namespace detail {
// An array as a list's check sees it: how many items it has.
struct counted_items {
  std::size_t n;
  std::size_t size() const noexcept { return n; }
};
}  // namespace detail

// The codec of untyped JSON values (json::value): reflect/untyped.hpp defines it, so that only
// code with untyped members needs the DOM.
template <class T>
struct untyped_codec;

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
  else if constexpr (c == category::string || c == category::enumeration)
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

// Whether a member's type maps to JSON: through std::optional, nullable, either, arrays and maps
// to the values, each of a known category (a nested struct is checked by its own struct_info).
template <class T>
consteval bool has_json_form() {
  if constexpr (is_std_optional<T>::value) {
    return has_json_form<typename T::value_type>();
  } else {
    constexpr category c = category_of<T>();
    if constexpr (c == category::unsupported)
      return false;
    else if constexpr (c == category::nullable || c == category::array || c == category::fixed_array)
      return has_json_form<typename T::value_type>();
    else if constexpr (c == category::map)
      return has_json_form<typename T::mapped_type>();
    else if constexpr (c == category::either)
      return has_json_form<typename T::first_type>() && has_json_form<typename T::second_type>();
    else
      return true;
  }
}

template <class T>
struct struct_info;

namespace detail {
// The first declared member of T whose type maps to no JSON: its pointer, for the diagnostic.
template <class T>
struct unmappable_member {
  static constexpr std::size_t index = [] {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      std::size_t found = static_cast<std::size_t>(-1);
      ((found == static_cast<std::size_t>(-1) && !is_extra_members<field_type<T, I>>::value &&
                !has_json_form<field_type<T, I>>()
            ? (void)(found = I)
            : (void)0),
       ...);
      return found;
    }
    (std::make_index_sequence<field_count<T>>{});
  }();
  static constexpr diagnostics::pointer_text text = [] {
    diagnostics::pointer_text t;
    if constexpr (index != static_cast<std::size_t>(-1))
      t = diagnostics::pointer_text(t, struct_info<T>::json_names[index]);
    return t;
  }();
};

// True when every member of T maps to JSON; otherwise the error names the first that does not
// (member_has_no_json_form, diagnostics.hpp).
template <class T>
consteval bool members_have_json_form() {
  using m = unmappable_member<T>;
  if constexpr (m::index == static_cast<std::size_t>(-1))
    return true;
  else
    return sizeof(member_has_no_json_form<diagnostics::at_pointer<m>, field_type<T, m::index>>) != 0;
}
}  // namespace detail

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

  // The privacy class of every field (docs/privacy.md; public unless the field table says otherwise).
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

  // Field indices in JCS member order (an insertion sort: a few names, cheaper to compile than
  // std::sort).
  static constexpr std::array<std::size_t, size> make_order() {
    std::array<std::size_t, size> out{};
    for (std::size_t i = 0; i < size; ++i) {
      out[i] = i;
      for (std::size_t j = i; j > 0 && json::utf16_less(json_names[out[j]], json_names[out[j - 1]]); --j)
        std::swap(out[j], out[j - 1]);
    }
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

  static_assert(detail::members_have_json_form<T>(), "assay: a member's type maps to no JSON");
};

}  // namespace assay::reflect
