// assay/hash/policy.hpp — hash policies and digest strings (docs/hashing.md): sha256, sha512,
// blake2b_512 (Botan), xxh3_64, xxh3_128 (xxHash); digest<P> and evidence_digest<P>. hash.hpp
// includes it with the streaming sink and the digests of JSON values.
#pragma once

#include "assay/error.hpp"
#include "assay/json/lex.hpp"

#include <botan/hash.h>
#include <xxhash.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace assay::hash {

// ---------------------------------------------------------------------------------------------
// Concepts
// ---------------------------------------------------------------------------------------------

namespace detail {
template <class P>
concept policy_description = requires {
  { P::name } -> std::convertible_to<std::string_view>;
  { P::size } -> std::convertible_to<std::size_t>;
  { P::cryptographic } -> std::convertible_to<bool>;
  typename P::state;
  requires(P::size != 0);
};
template <class P>
concept policy_state = requires(typename P::state& s, const void* p, std::size_t n) {
  requires std::default_initializable<typename P::state>;
  s.update(p, n);
  { s.final() } -> std::same_as<std::array<std::uint8_t, P::size>>;
};
}  // namespace detail

// A hash policy: a name (the digest-string prefix), an output size in bytes, whether it is
// cryptographic, and a default-constructible `state` that absorbs bytes with update() and
// yields the digest with final(). final() returns the state to its initial (empty) condition.
template <class P>
concept hash_policy = detail::policy_description<P> && detail::policy_state<P>;

namespace detail {
// Spelled out so that a failed constraint names the reason.
template <class P>
inline constexpr bool policy_is_cryptographic = static_cast<bool>(P::cryptographic);
}  // namespace detail

// A policy fit for evidence integrity (docs/hashing.md): sha256, sha512, blake2b-512; never xxh3.
template <class P>
concept cryptographic_hash = hash_policy<P> && detail::policy_is_cryptographic<P>;

// xxh3-64, xxh3-128: deduplication and cache keys only.
template <class P>
concept non_cryptographic_hash = hash_policy<P> && !detail::policy_is_cryptographic<P>;

// ---------------------------------------------------------------------------------------------
// States
// ---------------------------------------------------------------------------------------------

namespace detail {

// A Botan hash. One prototype per algorithm is created by name on first use (and its output
// size checked); each state is a clone of it, which skips the name lookup.
template <class Policy>
class botan_state {
 public:
  botan_state() : h_(prototype().clone()) {}
  botan_state(botan_state&&) noexcept = default;
  botan_state& operator=(botan_state&&) noexcept = default;
  botan_state(const botan_state&) = delete;
  botan_state& operator=(const botan_state&) = delete;
  ~botan_state() = default;

  void update(const void* p, std::size_t n) { h_->update(static_cast<const std::uint8_t*>(p), n); }

  std::array<std::uint8_t, Policy::size> final() {
    std::array<std::uint8_t, Policy::size> out;
    h_->final(out.data());  // also resets the state
    return out;
  }

  // Botan's implementation in use, e.g. "shani" for SHA-256 on a CPU with the SHA extensions.
  std::string provider() const { return h_->provider(); }

 private:
  static const Botan::HashFunction& prototype() {
    static const std::unique_ptr<Botan::HashFunction> proto = [] {
      auto h = Botan::HashFunction::create_or_throw(std::string(Policy::botan_name));
      if (h->output_length() != Policy::size) {
        throw std::logic_error("assay::hash: Botan's " + std::string(Policy::botan_name) +
                               " has an unexpected output length");
      }
      return h;
    }();
    return *proto;
  }

  std::unique_ptr<Botan::HashFunction> h_;
};

struct xxh3_state_deleter {
  void operator()(XXH3_state_t* s) const noexcept { XXH3_freeState(s); }
};
using xxh3_state_ptr = std::unique_ptr<XXH3_state_t, xxh3_state_deleter>;

inline xxh3_state_ptr make_xxh3_state() {
  xxh3_state_ptr s(XXH3_createState());
  if (!s)
    throw std::bad_alloc();
  return s;
}

class xxh3_64_state {
 public:
  xxh3_64_state() : s_(make_xxh3_state()) { XXH3_64bits_reset(s_.get()); }

  void update(const void* p, std::size_t n) {
    if (n != 0)
      XXH3_64bits_update(s_.get(), p, n);
  }

  std::array<std::uint8_t, 8> final() {
    XXH64_canonical_t c;
    XXH64_canonicalFromHash(&c, XXH3_64bits_digest(s_.get()));
    XXH3_64bits_reset(s_.get());
    std::array<std::uint8_t, 8> out;
    std::memcpy(out.data(), c.digest, out.size());
    return out;
  }

 private:
  xxh3_state_ptr s_;
};

class xxh3_128_state {
 public:
  xxh3_128_state() : s_(make_xxh3_state()) { XXH3_128bits_reset(s_.get()); }

  void update(const void* p, std::size_t n) {
    if (n != 0)
      XXH3_128bits_update(s_.get(), p, n);
  }

  std::array<std::uint8_t, 16> final() {
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits_digest(s_.get()));
    XXH3_128bits_reset(s_.get());
    std::array<std::uint8_t, 16> out;
    std::memcpy(out.data(), c.digest, out.size());
    return out;
  }

 private:
  xxh3_state_ptr s_;
};

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Policies
// ---------------------------------------------------------------------------------------------
//
// Besides what hash_policy requires, each policy offers `hash(p, n)`, a one-shot digest of
// contiguous bytes.

struct sha256 {
  static constexpr std::string_view name = "sha256";
  static constexpr std::size_t size = 32;
  static constexpr bool cryptographic = true;
  static constexpr std::string_view botan_name = "SHA-256";
  using state = detail::botan_state<sha256>;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    state s;
    s.update(p, n);
    return s.final();
  }
};

struct sha512 {
  static constexpr std::string_view name = "sha512";
  static constexpr std::size_t size = 64;
  static constexpr bool cryptographic = true;
  static constexpr std::string_view botan_name = "SHA-512";
  using state = detail::botan_state<sha512>;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    state s;
    s.update(p, n);
    return s.final();
  }
};

struct blake2b_512 {
  static constexpr std::string_view name = "blake2b-512";
  static constexpr std::size_t size = 64;
  static constexpr bool cryptographic = true;
  static constexpr std::string_view botan_name = "BLAKE2b(512)";
  using state = detail::botan_state<blake2b_512>;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    state s;
    s.update(p, n);
    return s.final();
  }
};

// Non-cryptographic: deduplication and cache keys only.
struct xxh3_64 {
  static constexpr std::string_view name = "xxh3-64";
  static constexpr std::size_t size = 8;
  static constexpr bool cryptographic = false;
  using state = detail::xxh3_64_state;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    XXH64_canonical_t c;
    XXH64_canonicalFromHash(&c, XXH3_64bits(n != 0 ? p : "", n));
    std::array<std::uint8_t, size> out;
    std::memcpy(out.data(), c.digest, size);
    return out;
  }
};

// Non-cryptographic: deduplication and cache keys only.
struct xxh3_128 {
  static constexpr std::string_view name = "xxh3-128";
  static constexpr std::size_t size = 16;
  static constexpr bool cryptographic = false;
  using state = detail::xxh3_128_state;
  static std::array<std::uint8_t, size> hash(const void* p, std::size_t n) {
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(n != 0 ? p : "", n));
    std::array<std::uint8_t, size> out;
    std::memcpy(out.data(), c.digest, size);
    return out;
  }
};

// Every policy, in the order the valid names are listed in messages.
using policies = std::tuple<sha256, sha512, blake2b_512, xxh3_64, xxh3_128>;
inline constexpr std::array<std::string_view, 5> algorithm_names = {sha256::name, sha512::name, blake2b_512::name,
                                                                    xxh3_64::name, xxh3_128::name};

// ---------------------------------------------------------------------------------------------
// digest<P>
// ---------------------------------------------------------------------------------------------

inline constexpr char hex_digits[] = "0123456789abcdef";  // lowercase, as digests are written

namespace detail {
// The two hex digits of every byte, in order: one load per byte instead of two.
inline constexpr auto hex_pairs = [] {
  std::array<char, 512> t{};
  for (std::size_t b = 0; b < 256; ++b) {
    t[2 * b] = hex_digits[b >> 4];
    t[2 * b + 1] = hex_digits[b & 15];
  }
  return t;
}();
}  // namespace detail

// `n` bytes at `p` as lowercase hex, 2 * n characters at `out`. With SSE2, 16 bytes at a time:
// each byte's two nibbles side by side, '0' added to each and 'a' - '0' - 10 more to those above 9.
inline void write_hex(char* out, const std::uint8_t* p, std::size_t n) noexcept {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i low_nibble = _mm_set1_epi8(0x0f), zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9),
                letters = _mm_set1_epi8('a' - '0' - 10);
  auto digits = [&](__m128i nibbles) {
    const __m128i above_nine = _mm_cmpgt_epi8(nibbles, nine);
    return _mm_add_epi8(_mm_add_epi8(nibbles, zero), _mm_and_si128(above_nine, letters));
  };
  for (; i + 16 <= n; i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i high = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibble);
    const __m128i low = _mm_and_si128(bytes, low_nibble);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i), digits(_mm_unpacklo_epi8(high, low)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i + 16), digits(_mm_unpackhi_epi8(high, low)));
  }
#endif
  out += 2 * i;
  for (const std::uint8_t *at = p + i, *end = p + n; at != end; ++at, out += 2)
    std::memcpy(out, detail::hex_pairs.data() + 2 * *at, 2);
}

// `n` bytes at `p` appended to `out` as lowercase hex.
inline void append_hex(std::string& out, const std::uint8_t* p, std::size_t n) {
  const std::size_t base = out.size();
  out.resize(base + 2 * n);
  write_hex(out.data() + base, p, n);
}

namespace detail {

// Lowercase hex digit value, or -1 (uppercase included: docs/hashing.md compares digests exactly).
constexpr int lower_hex_value(char c) noexcept {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

// A short, printable rendering of untrusted text for a message.
inline std::string shown(std::string_view s) {
  constexpr std::size_t max = 80;
  std::string out = json::quote_for_message(s.substr(0, max));
  if (s.size() > max)
    out += "...";
  return out;
}

}  // namespace detail

// The digest of some bytes under policy P. Digests of different policies are different types
// and never compare. The string form is "<P::name>:<lowercase hex>".
template <hash_policy P>
class digest {
 public:
  using policy = P;
  using bytes_type = std::array<std::uint8_t, P::size>;
  static constexpr std::string_view algorithm = P::name;
  static constexpr std::size_t size = P::size;
  static constexpr std::size_t hex_size = 2 * P::size;
  static constexpr std::size_t string_size = algorithm.size() + 1 + hex_size;

  constexpr digest() noexcept = default;  // all zero bytes
  constexpr explicit digest(const bytes_type& b) noexcept : bytes_(b) {}

  constexpr const bytes_type& bytes() const noexcept { return bytes_; }

  // Lowercase hex, 2 * size characters.
  std::string hex() const {
    std::string out;
    out.reserve(hex_size);
    append_hex(out, bytes_.data(), bytes_.size());
    return out;
  }

  // "<name>:<lowercase hex>".
  std::string to_string() const {
    std::string out;
    out.reserve(string_size);
    out.append(algorithm);
    out += ':';
    append_hex(out, bytes_.data(), bytes_.size());
    return out;
  }

  // True when `text` is exactly this digest's string (no case folding, no whitespace).
  bool matches(std::string_view text) const noexcept {
    if (text.size() != string_size || text.substr(0, algorithm.size()) != algorithm || text[algorithm.size()] != ':') {
      return false;
    }
    const char* h = text.data() + algorithm.size() + 1;
    for (std::size_t i = 0; i < size; ++i) {
      if (h[2 * i] != hex_digits[bytes_[i] >> 4] || h[2 * i + 1] != hex_digits[bytes_[i] & 15]) {
        return false;
      }
    }
    return true;
  }

  // Parses "<name>:<hex>": the prefix must be this policy's name, the hex exactly 2 * size
  // lowercase digits. Errors are errc::format_mismatch.
  static result<digest> parse(std::string_view text) {
    const std::string_view name = algorithm;
    if (text.size() <= name.size() || text.substr(0, name.size()) != name || text[name.size()] != ':') {
      return make_error(errc::format_mismatch,
                        "digest " + detail::shown(text) + " does not start with \"" + std::string(name) + ":\"");
    }
    return from_hex(text.substr(name.size() + 1));
  }

  // Parses the bare hex part (exactly 2 * size lowercase hex digits).
  static result<digest> from_hex(std::string_view hex) {
    if (hex.size() != hex_size) {
      return make_error(errc::format_mismatch, std::string(algorithm) + " digest needs " + std::to_string(hex_size) +
                                                   " hex digits, found " + std::to_string(hex.size()));
    }
    bytes_type b{};
    for (std::size_t i = 0; i < hex_size; ++i) {
      const int v = detail::lower_hex_value(hex[i]);
      if (v < 0) {
        const char c = hex[i];
        const bool upper = c >= 'A' && c <= 'F';
        return make_error(errc::format_mismatch,
                          upper ? "uppercase hex digit " + detail::shown(std::string_view(&c, 1)) + " at index " +
                                      std::to_string(i) + " of the digest: digests are lowercase and compared exactly"
                                : "character " + detail::shown(std::string_view(&c, 1)) + " at index " +
                                      std::to_string(i) + " of the digest is not a hex digit");
      }
      b[i / 2] = static_cast<std::uint8_t>(b[i / 2] | (v << ((i % 2 == 0) ? 4 : 0)));
    }
    return digest(b);
  }

  friend constexpr bool operator==(const digest&, const digest&) noexcept = default;
  friend constexpr std::strong_ordering operator<=>(const digest&, const digest&) noexcept = default;

  // A template so that this header needs <iosfwd> only: <ostream> is the caller's.
  template <class Char, class Traits>
  friend std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& os, const digest& d) {
    return os << d.to_string();
  }

 private:
  bytes_type bytes_{};
};

// A digest fit for evidence integrity. It can only be formed from a cryptographic policy:
// `evidence_digest<xxh3_64>` does not satisfy its constraint, and a digest<xxh3_…> does not
// convert to any evidence_digest. Evidence uses the default, sha256 (docs/hashing.md).
template <cryptographic_hash P = sha256>
class evidence_digest : public digest<P> {
 public:
  using digest<P>::digest;
  constexpr evidence_digest() noexcept = default;
  constexpr evidence_digest(const digest<P>& d) noexcept : digest<P>(d) {}  // NOLINT: implicit on purpose

  // Non-cryptographic digests (xxh3) are never evidence.
  template <non_cryptographic_hash Q>
  evidence_digest(const digest<Q>&) = delete;  // a non-cryptographic digest is never evidence

  static result<evidence_digest> parse(std::string_view text) {
    auto r = digest<P>::parse(text);
    if (!r)
      return r.error();
    return evidence_digest(*r);
  }
  static result<evidence_digest> from_hex(std::string_view hex) {
    auto r = digest<P>::from_hex(hex);
    if (!r)
      return r.error();
    return evidence_digest(*r);
  }
};

}  // namespace assay::hash

namespace std {
template <assay::hash::hash_policy P>
struct hash<assay::hash::digest<P>> {
  std::size_t operator()(const assay::hash::digest<P>& d) const noexcept {
    std::size_t h = 0;
    const auto& b = d.bytes();
    std::memcpy(&h, b.data(), b.size() < sizeof h ? b.size() : sizeof h);
    return h;
  }
};
template <assay::hash::cryptographic_hash P>
struct hash<assay::hash::evidence_digest<P>> : hash<assay::hash::digest<P>> {};
}  // namespace std
