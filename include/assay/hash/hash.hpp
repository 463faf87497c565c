// assay/hash/hash.hpp — hash policies, digest strings, and hashing canonical JSON (docs/hashing.md).
//
//   using namespace assay::hash;
//   auto d = digest_of<sha256>(dom);            // result<digest<sha256>>: hash of the JCS bytes
//   d->to_string();                             // "sha256:e3b0c442…"
//   auto p = digest<sha256>::parse(text);       // exact: uppercase hex is an error
//   evidence_digest<> e = *d;                   // only cryptographic policies may form one
//   auto k = digest_bytes<xxh3_64>(raw);        // raw bytes, no canonicalization
//   auto s = digest_string_of("sha512", dom);   // algorithm chosen at run time (the CLI)
//
// Policies: sha256, sha512, blake2b_512 (Botan) and xxh3_64, xxh3_128 (xxHash; printed
// big-endian, xxHash's canonical form). The xxh3 policies are not cryptographic: they serve
// deduplication and cache keys, and `evidence_digest` refuses them at compile time.
//
// `hash_sink<P>` is a JSON sink (json/canonical.hpp) that streams bytes into a hash state.
// Once a stream grows past a threshold (64 KiB by default) hashing moves to a helper thread
// that consumes filled buffers while the caller keeps serializing into the next one; shorter
// streams never start a thread. The digest is the same either way.
//
// For typed (reflected) values include "assay/hash/digest_of.hpp".
#pragma once

#include "assay/error.hpp"
#include "assay/hash/policy.hpp"
#include "assay/hash/sink.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"
#include "assay/separate.hpp"

#include <string>
#include <string_view>

namespace assay::hash {

// ---------------------------------------------------------------------------------------------
// Digests of bytes and of DOM values
// ---------------------------------------------------------------------------------------------

// The digest of raw bytes, as they are (no canonicalization).
template <hash_policy P>
digest<P> digest_bytes(const void* p, std::size_t n) {
  if constexpr (requires {
                  { P::hash(p, n) } -> std::same_as<std::array<std::uint8_t, P::size>>;
                }) {
    return digest<P>(P::hash(p, n));
  } else {
    typename P::state s;
    s.update(p, n);
    return digest<P>(s.final());
  }
}
template <hash_policy P>
digest<P> digest_bytes(std::string_view bytes) {
  return digest_bytes<P>(bytes.data(), bytes.size());
}

// The digest of the canonical (JCS) bytes of `v`, streamed into the hash (docs/hashing.md). Fails
// when `v` has no canonical form (NaN/infinity: not_finite; invalid UTF-8: invalid_utf8).
template <hash_policy P>
result<digest<P>> digest_of(const json::value& v, const sink_options& o = default_sink_options<P>) {
  hash_sink<P> sink(o);
  auto r = json::to_sink(sink, v);
  if (!r)
    return r.error();
  return sink.finish();
}

// ---------------------------------------------------------------------------------------------
// Algorithms chosen at run time
// ---------------------------------------------------------------------------------------------

// Calls f(std::type_identity<P>{}) for the policy named `name`; false when there is none.
template <class F>
bool visit_algorithm(std::string_view name, F&& f) {
  return std::apply(
      [&]<class... Ps>(Ps...) {
        return ((name == Ps::name ? (static_cast<void>(f(std::type_identity<Ps>{})), true) : false) || ...);
      },
      policies{});
}

inline bool is_algorithm(std::string_view name) noexcept {
  for (auto n : algorithm_names) {
    if (n == name)
      return true;
  }
  return false;
}

inline error unknown_algorithm(std::string_view name) {
  std::string valid;
  for (auto n : algorithm_names) {
    if (!valid.empty())
      valid += ", ";
    valid += n;
  }
  return make_error(errc::invalid_argument,
                    "unknown digest algorithm " + detail::shown(name) + " (valid: " + valid + ")");
}

// "<alg>:<hex>" of the canonical bytes of `v` under the algorithm named `alg_name`. (A template
// only so that the digest code of every algorithm is compiled where this is called, not in
// every translation unit that includes the header.)
template <class = void>
result<std::string> digest_string_of(std::string_view alg_name, const json::value& v) {
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

// "<alg>:<hex>" of raw bytes under the algorithm named `alg_name`.
template <class = void>  // as digest_string_of
result<std::string> digest_bytes_string(std::string_view alg_name, std::string_view bytes) {
  std::string out;
  const bool known =
      visit_algorithm(alg_name, [&]<class P>(std::type_identity<P>) { out = digest_bytes<P>(bytes).to_string(); });
  if (!known)
    return unknown_algorithm(alg_name);
  return out;
}

}  // namespace assay::hash

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::hash {
ASSAY_EXTERN_TEMPLATE result<std::string> digest_string_of<void>(std::string_view, const json::value&);
ASSAY_EXTERN_TEMPLATE result<std::string> digest_bytes_string<void>(std::string_view, std::string_view);
}  // namespace assay::hash
#endif
