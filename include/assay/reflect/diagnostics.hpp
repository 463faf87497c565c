// assay/reflect/diagnostics.hpp — compile-time errors that name the member.
//
// A static_assert can only print a fixed message. When a struct cannot be encoded, or does not
// conform to a contract, the library instead names a class template that is never defined, with
// the member's JSON Pointer and the reason as its arguments; the compiler's first error line then
// reads, with g++:
//
//   invalid application of 'sizeof' to incomplete type 'assay::does_not_conform<
//     assay::diagnostics::at<assay::diagnostics::path<10>{"/decision"}>,
//     assay::diagnostics::expected_but_found<assay::diagnostics::a_string, assay::diagnostics::an_integer> >'
//
// and with clang++ (which spells a string argument as character codes, so the pointer is a
// character pack there):
//
//   implicit instantiation of undefined template 'assay::does_not_conform<
//     assay::diagnostics::at<'/', 'd', 'e', 'c', 'i', 's', 'i', 'o', 'n'>,
//     assay::diagnostics::expected_but_found<assay::diagnostics::a_string, assay::diagnostics::an_integer>>'
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace assay {

// The errors. Never defined: naming one is the diagnostic.
template <class Where, class Reason>
struct does_not_conform;  // conforms: assert_conforms<U, C> (reflect/conform.hpp)
template <class Where, class MemberType>
struct member_has_no_json_form;  // a struct member whose type maps to no JSON (a pointer, say)

namespace diagnostics {

// Where: the member's JSON Pointer from the struct's root ("/a/b"; "/a/*" for items or values).
template <std::size_t N>
struct path {
  char text[N];
};
#if defined(__clang__)
template <char... Pointer>
struct at;
#else
template <path Pointer>
struct at;
#endif

// Why.
struct a_boolean;
struct an_integer;
struct a_number;
struct a_string;
struct an_array;
struct an_object;
struct null_value;
struct any_value;
struct no_json_form;
template <class Expected, class Found>
struct expected_but_found;               // the JSON types differ
struct member_missing_from_your_struct;  // the contract has it; your struct does not
struct member_not_in_the_contract;       // your struct has it; the contract does not
struct required_in_the_contract_optional_in_yours;
struct optional_in_the_contract_required_in_yours;
struct undeclared_members_kept_differently;  // extra_members<> in one only, or another prefix
struct not_a_plain_struct;                   // not an aggregate: a constructor, a base class, a virtual function

// A pointer of at most `capacity` characters built at compile time.
struct pointer_text {
  static constexpr std::size_t capacity = 240;
  char text[capacity]{};
  std::size_t size = 0;
  constexpr pointer_text() = default;
  constexpr pointer_text(const pointer_text& parent, std::string_view token) : pointer_text(parent) {
    append("/");
    append(token);
  }
  constexpr void append(std::string_view s) {
    for (char c : s)
      if (size + 1 < capacity)
        text[size++] = c;
  }
  constexpr std::string_view view() const { return {text, size}; }
};

// at<...> for the pointer `Holder::text` (a static constexpr pointer_text, or a reference to one).
template <class Holder, std::size_t... I>
auto spell(std::index_sequence<I...>) {
#if defined(__clang__)
  return static_cast<at<Holder::text.text[I]...>*>(nullptr);
#else
  return static_cast<at<path<sizeof...(I) + 1>{{Holder::text.text[I]..., '\0'}}>*>(nullptr);
#endif
}
template <class Holder>
using at_pointer = std::remove_pointer_t<decltype(spell<Holder>(std::make_index_sequence<Holder::text.size>{}))>;

}  // namespace diagnostics
}  // namespace assay
