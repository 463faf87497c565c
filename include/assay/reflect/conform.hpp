// assay/reflect/conform.hpp — compile-time proof that a consumer's own struct matches a contract.
//
//   struct my_report { ... };
//   static_assert(assay::conforms_to<my_report, assay::contracts::soak_report>);
//
// Conformance means: the same JSON member names, the same required set, and compatible JSON
// types member by member (recursively through arrays, maps, nullables and nested objects). An
// integer member may stand where the contract has a number; "any" in the contract takes any
// type. Constraints (bounds, patterns, item counts, unique items) are not compared: they are
// checked when the value is encoded through the contract type, so a plain std::vector stands
// where the contract has a list or a unique_list.
#pragma once

#include "assay/reflect/metadata.hpp"

#include <optional>

#include <string_view>
#include <type_traits>

namespace assay::reflect {

template <class U, class C>
consteval bool struct_conforms();

template <class U, class C>
consteval bool value_compatible() {
  constexpr category cu = category_of<U>();
  constexpr category cc = category_of<C>();
  if constexpr (cu == category::unsupported || cc == category::unsupported) {
    return false;
  } else if constexpr (cc == category::any) {
    return true;
  } else if constexpr ((cu == category::nullable) != (cc == category::nullable)) {
    return false;
  } else if constexpr (cc == category::nullable) {
    return value_compatible<typename U::value_type, typename C::value_type>();
  } else if constexpr (cc == category::either) {
    // Either side of the contract's alternatives; or the same two alternatives.
    if constexpr (cu == category::either) {
      return value_compatible<typename U::first_type, typename C::first_type>() &&
             value_compatible<typename U::second_type, typename C::second_type>();
    } else {
      return value_compatible<U, typename C::first_type>() || value_compatible<U, typename C::second_type>();
    }
  } else if constexpr (cu == category::object && cc == category::object) {
    return struct_conforms<U, C>();
  } else if constexpr ((cu == category::array || cu == category::fixed_array) &&
                       (cc == category::array || cc == category::fixed_array)) {
    return value_compatible<typename U::value_type, typename C::value_type>();
  } else if constexpr (cu == category::map && cc == category::map) {
    return value_compatible<typename U::mapped_type, typename C::mapped_type>();
  } else {
    constexpr json_type tu = json_type_of<U>();
    constexpr json_type tc = json_type_of<C>();
    if constexpr (tu == json_type::object || tu == json_type::array || tc == json_type::object ||
                  tc == json_type::array) {
      return false;  // one side is a container the other does not match
    } else {
      return tu == tc || (tu == json_type::integer && tc == json_type::number);
    }
  }
}

namespace detail {

template <class F>
struct strip_optional {
  using type = F;
};
template <class F>
struct strip_optional<std::optional<F>> {
  using type = F;
};

// Both have undeclared members under the same prefix, or neither has any.
template <class U, class C>
consteval bool extras_conform() {
  using cinfo = struct_info<C>;
  using uinfo = struct_info<U>;
  if constexpr (cinfo::has_extras != uinfo::has_extras) {
    return false;
  } else if constexpr (cinfo::has_extras) {
    return field_type<C, cinfo::extras_index>::prefix == field_type<U, uinfo::extras_index>::prefix;
  } else {
    return true;
  }
}

template <class U, class C, std::size_t J>
consteval bool member_conforms() {
  using cinfo = struct_info<C>;
  using uinfo = struct_info<U>;
  constexpr std::string_view name = cinfo::json_names[J];
  constexpr std::size_t i = uinfo::find_static(name);
  if constexpr (!cinfo::is_member[J]) {
    return true;  // the extra members: compared by extras_conform
  } else if constexpr (i == static_cast<std::size_t>(-1)) {
    return false;
  } else {
    if (uinfo::required[i] != cinfo::required[J])
      return false;
    using UF = typename strip_optional<field_type<U, i>>::type;
    using CF = typename strip_optional<field_type<C, J>>::type;
    return value_compatible<UF, CF>();
  }
}

}  // namespace detail

template <class U, class C>
consteval bool struct_conforms() {
  if constexpr (category_of<U>() != category::object || category_of<C>() != category::object) {
    return false;
  } else {
    if (struct_info<U>::member_count != struct_info<C>::member_count || !detail::extras_conform<U, C>())
      return false;  // same names, none extra
    return []<std::size_t... J>(std::index_sequence<J...>) {
      return (detail::member_conforms<U, C, J>() && ...);
    }
    (std::make_index_sequence<struct_info<C>::size>{});
  }
}

}  // namespace assay::reflect

namespace assay {

// True when struct U has exactly the JSON members of contract C, with the same required set and
// compatible JSON types.
template <class U, class C>
inline constexpr bool conforms_to = reflect::struct_conforms<U, C>();

}  // namespace assay
