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

#include "assay/reflect/diagnostics.hpp"
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

// --- the first difference, for the diagnostic of assert_conforms ------------------------------

namespace detail {

struct conform_problem {
  enum class kind {
    none,
    missing,
    not_in_contract,
    required_in_contract,
    optional_in_contract,
    type_differs,
    extras_differ,
    not_struct,
  };
  kind what = kind::none;
  json_type expected = json_type::any, found = json_type::any;
  bool no_json_form = false;  // found: a type that maps to no JSON
  diagnostics::pointer_text where;
};

template <class U, class C>
constexpr conform_problem struct_problem(const diagnostics::pointer_text& at);

template <class U, class C>
constexpr conform_problem value_problem(const diagnostics::pointer_text& at) {
  using P = conform_problem;
  constexpr category cu = category_of<U>();
  constexpr category cc = category_of<C>();
  P p;
  p.where = at;
  if constexpr (cc == category::any) {
    return {};
  } else if constexpr (cu == category::unsupported) {
    p.what = P::kind::type_differs;
    p.expected = json_type_of<C>();
    p.no_json_form = true;
    return p;
  } else if constexpr (cc == category::nullable && cu != category::nullable) {
    p.what = P::kind::type_differs;
    p.expected = json_type::null;
    p.found = json_type_of<U>();
    return p;
  } else if constexpr (cc == category::nullable) {
    return value_problem<typename U::value_type, typename C::value_type>(at);
  } else if constexpr (cu == category::nullable) {
    p.what = P::kind::type_differs;
    p.expected = json_type_of<C>();
    p.found = json_type::null;
    return p;
  } else if constexpr (cu == category::object && cc == category::object) {
    return struct_problem<U, C>(at);
  } else if constexpr ((cu == category::array || cu == category::fixed_array) &&
                       (cc == category::array || cc == category::fixed_array)) {
    return value_problem<typename U::value_type, typename C::value_type>(diagnostics::pointer_text(at, "*"));
  } else if constexpr (cu == category::map && cc == category::map) {
    return value_problem<typename U::mapped_type, typename C::mapped_type>(diagnostics::pointer_text(at, "*"));
  } else {
    if (value_compatible<U, C>())
      return {};
    p.what = P::kind::type_differs;
    p.expected = json_type_of<C>();
    p.found = json_type_of<U>();
    return p;
  }
}

template <class U, class C>
constexpr conform_problem struct_problem(const diagnostics::pointer_text& at) {
  using P = conform_problem;
  P p;
  p.where = at;
  if constexpr (category_of<U>() != category::object) {
    p.what = P::kind::not_struct;
    return p;
  } else {
    using cinfo = struct_info<C>;
    using uinfo = struct_info<U>;
    if (!extras_conform<U, C>()) {
      p.what = P::kind::extras_differ;
      return p;
    }
    P found;
    [&]<std::size_t... J>(std::index_sequence<J...>) {
      (
          [&] {
            if (found.what != P::kind::none || !cinfo::is_member[J])
              return;
            constexpr std::size_t i = uinfo::find_static(cinfo::json_names[J]);
            const diagnostics::pointer_text here(at, cinfo::json_names[J]);
            if constexpr (i == static_cast<std::size_t>(-1)) {
              found.what = P::kind::missing;
              found.where = here;
            } else {
              if (uinfo::required[i] != cinfo::required[J]) {
                found.what = cinfo::required[J] ? P::kind::required_in_contract : P::kind::optional_in_contract;
                found.where = here;
                return;
              }
              using UF = typename strip_optional<field_type<U, i>>::type;
              using CF = typename strip_optional<field_type<C, J>>::type;
              found = value_problem<UF, CF>(here);
            }
          }(),
          ...);
    }
    (std::make_index_sequence<cinfo::size>{});
    if (found.what != P::kind::none)
      return found;
    for (std::size_t i = 0; i < uinfo::size; ++i)
      if (uinfo::is_member[i] && cinfo::find_static(uinfo::json_names[i]) == static_cast<std::size_t>(-1)) {
        p.what = P::kind::not_in_contract;
        p.where = diagnostics::pointer_text(at, uinfo::json_names[i]);
        return p;
      }
    return {};
  }
}

template <class U, class C>
struct conform_problem_of {
  static constexpr conform_problem value = struct_problem<U, C>(diagnostics::pointer_text{});
  static constexpr const diagnostics::pointer_text& text = value.where;  // for diagnostics::at_pointer
};

template <json_type T>
using json_type_tag = std::conditional_t<
    T == json_type::boolean, diagnostics::a_boolean,
    std::conditional_t<
        T == json_type::integer, diagnostics::an_integer,
        std::conditional_t<
            T == json_type::number, diagnostics::a_number,
            std::conditional_t<
                T == json_type::string, diagnostics::a_string,
                std::conditional_t<T == json_type::array, diagnostics::an_array,
                                   std::conditional_t<T == json_type::object, diagnostics::an_object,
                                                      std::conditional_t<T == json_type::null, diagnostics::null_value,
                                                                         diagnostics::any_value>>>>>>>;

template <conform_problem::kind K, json_type E, json_type F, bool NoJsonForm>
using conform_reason = std::conditional_t<
    K == conform_problem::kind::missing, diagnostics::member_missing_from_your_struct,
    std::conditional_t<
        K == conform_problem::kind::not_in_contract, diagnostics::member_not_in_the_contract,
        std::conditional_t<
            K == conform_problem::kind::required_in_contract, diagnostics::required_in_the_contract_optional_in_yours,
            std::conditional_t<
                K == conform_problem::kind::optional_in_contract,
                diagnostics::optional_in_the_contract_required_in_yours,
                std::conditional_t<
                    K == conform_problem::kind::extras_differ, diagnostics::undeclared_members_kept_differently,
                    std::conditional_t<K == conform_problem::kind::not_struct, diagnostics::not_a_plain_struct,
                                       diagnostics::expected_but_found<
                                           json_type_tag<E>, std::conditional_t<NoJsonForm, diagnostics::no_json_form,
                                                                                json_type_tag<F>>>>>>>>>;

// True when U conforms to C; otherwise the error names the first member that does not.
template <class U, class C>
consteval bool diagnose_conformance() {
  using problem = conform_problem_of<U, C>;
  if constexpr (problem::value.what == conform_problem::kind::none) {
    return true;
  } else {
    using where = diagnostics::at_pointer<problem>;
    using reason =
        conform_reason<problem::value.what, problem::value.expected, problem::value.found, problem::value.no_json_form>;
    return sizeof(does_not_conform<where, reason>) != 0;
  }
}

}  // namespace detail

}  // namespace assay::reflect

namespace assay {

// True when struct U has exactly the JSON members of contract C, with the same required set and
// compatible JSON types.
template <class U, class C>
inline constexpr bool conforms_to = reflect::struct_conforms<U, C>();

// true when U conforms to C, else a compile error whose first line names the first member that
// does not, and why (diagnostics.hpp): static_assert(assay::assert_conforms<my_report, contract>).
template <class U, class C>
inline constexpr bool assert_conforms = reflect::detail::diagnose_conformance<U, C>();

}  // namespace assay
