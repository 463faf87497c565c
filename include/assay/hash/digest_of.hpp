// assay/hash/digest_of.hpp — digests of typed (reflected) values (docs/hashing.md).
//
//   auto d = assay::hash::digest_of<assay::hash::sha256>(report);   // result<digest<sha256>>
//
// The canonical bytes come from assay::reflect::encode_to and stream straight into the hash
// (hash_sink): the text is never built. Everything else is in hash.hpp, which needs no
// reflection.
#pragma once

#include "assay/hash/hash.hpp"
#include "assay/reflect/codec.hpp"

#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>

namespace assay::hash {

namespace detail {

// Types the DOM overload of digest_of (hash.hpp) takes: the DOM itself and the plain text and
// containers reflection has no use for. Everything else goes through reflection, so typed
// constraints (a non-empty string, a bounded number) are checked before anything is hashed.
template <class T, class... Us>
inline constexpr bool same_as_any = (std::is_same_v<T, Us> || ...);

template <class T>
inline constexpr bool dom_argument =
    same_as_any<std::decay_t<T>, json::value, json::object, json::array, std::string_view, char*, const char*>;

template <class T>
concept typed_argument = !dom_argument<T>;

}  // namespace detail

// The digest of the canonical (JCS) bytes of a typed value. Fails with the first constraint
// the value violates.
template <hash_policy P, detail::typed_argument T>
result<digest<P>> digest_of(const T& v, const sink_options& o = default_sink_options<P>) {
  hash_sink<P> sink(o);
  auto r = reflect::encode_to(sink, v);
  if (!r)
    return r.error();
  return sink.finish();
}

// "<alg>:<hex>" of the canonical bytes of a typed value, the algorithm named at run time.
template <detail::typed_argument T>
result<std::string> digest_string_of(std::string_view alg_name, const T& v) {
  result<std::string> out = std::string();
  const bool known = visit_algorithm(alg_name, [&]<class P>(std::type_identity<P>) {
    auto d = digest_of<P>(v);
    if (d) {
      out = d->to_string();
    } else {
      out = d.error();
    }
  });
  if (!known)
    return unknown_algorithm(alg_name);
  return out;
}

}  // namespace assay::hash
