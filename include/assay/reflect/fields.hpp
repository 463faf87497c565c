// assay/reflect/fields.hpp — compile-time field count, access and names of an aggregate.
//
// Count and access are Boost.PFR's. Names come from boost::pfr::get_name where Boost >= 1.84
// provides it; otherwise from the same technique done here: the compiler's pretty function
// name for a template instantiated with a pointer to the field of an object that is never
// constructed, from which the field's identifier is cut.
#pragma once

#include <boost/version.hpp>

// Only the parts of PFR used here (all of <boost/pfr.hpp> costs twice as much to compile).
#include <boost/pfr/core.hpp>
#include <boost/pfr/tuple_size.hpp>
#if BOOST_VERSION >= 108400
#include <boost/pfr/core_name.hpp>
#endif

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#if BOOST_VERSION >= 108400
#define ASSAY_PFR_HAS_NAMES 1
#else
#define ASSAY_PFR_HAS_NAMES 0
#endif

namespace assay::reflect {

// A reflectable type: a plain aggregate struct (no base classes, no user constructors).
template <class T>
concept reflectable = std::is_aggregate_v<T> && std::is_class_v<T> && !std::is_union_v<T>;

template <class T>
inline constexpr std::size_t field_count = boost::pfr::tuple_size_v<T>;

template <std::size_t I, class T>
constexpr decltype(auto) get(T&& t) noexcept {
  return boost::pfr::get<I>(std::forward<T>(t));
}

template <class T, std::size_t I>
using field_type = boost::pfr::tuple_element_t<I, T>;

namespace detail {

#if !ASSAY_PFR_HAS_NAMES

template <class T>
struct field_pointer {
  const T* p;
};

// Storage for a T that is never constructed: only addresses of its members are formed, in
// constant expressions. It is a definition (not an extern declaration), so types without
// linkage, declared in an anonymous namespace or inside a function, work too; an undefined
// extern variable of such a type is a hard error on both compilers.
template <class T>
union never_constructed {
  char unused;
  T object;
  constexpr never_constructed() noexcept : unused() {}
  ~never_constructed() {}
};

template <class T>
inline never_constructed<T> never_constructed_object{};

template <auto P>
consteval std::string_view pretty_name_of() {
  return __PRETTY_FUNCTION__;
}

// From "...{((const int*)(& never_constructed_object<S>.never_constructed<S>::object.S::alpha))}..."
// (gcc) or "...{&never_constructed_object.object.alpha}]" (clang): the identifier before the
// closing brace.
consteval std::string_view cut_field_name(std::string_view s) {
  std::size_t end = s.rfind('}');
  while (end > 0 && (s[end - 1] == ')' || s[end - 1] == ' '))
    --end;
  std::size_t begin = end;
  while (begin > 0) {
    const char c = s[begin - 1];
    const bool ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ident)
      break;
    --begin;
  }
  return s.substr(begin, end - begin);
}

template <class T, std::size_t I>
consteval std::string_view field_name_impl() {
  using F = std::remove_cvref_t<decltype(boost::pfr::get<I>(never_constructed_object<T>.object))>;
  return cut_field_name(pretty_name_of<field_pointer<F>{&boost::pfr::get<I>(never_constructed_object<T>.object)}>());
}

#endif

}  // namespace detail

// The C++ identifier of field I of T.
template <class T, std::size_t I>
inline constexpr std::string_view field_name =
#if ASSAY_PFR_HAS_NAMES
    boost::pfr::get_name<I, T>();
#else
    detail::field_name_impl<T, I>();
#endif

template <class T>
constexpr auto field_names() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<std::string_view, sizeof...(I)>{field_name<T, I>...};
  }
  (std::make_index_sequence<field_count<T>>{});
}

// Calls f(std::integral_constant<std::size_t, I>{}) for each field index in order.
template <class T, class F>
constexpr void for_each_index(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, I>{}), ...);
  }
  (std::make_index_sequence<field_count<T>>{});
}

}  // namespace assay::reflect
