// assay/hash/sha256_each.hpp — the SHA-256 of each of many short messages, two at a time.
//
//   std::vector<std::string_view> messages = ...;
//   std::vector<assay::hash::sha256_bytes> digests(messages.size());
//   assay::hash::sha256_each(messages.data(), messages.size(), digests.data());
//
// The verifier hashes one projection per event (content hash, docs/evidence.md): tens of thousands of
// messages of a few hundred bytes. One message at a time, the SHA extensions of x86 processors
// wait on themselves: each pair of rounds needs the state the pair before it left, and the
// instruction's latency, not the processor's width, sets the pace. Two independent messages
// interleaved instruction by instruction fill those waits where the latency is the bound:
// about 1.4 times the bytes a second of one message at a time, as measured on an Intel Xeon.
// On an AMD EPYC (Zen 3), whose rounds are bound by throughput instead, the two are even.
// `bench_hash --benchmark_filter=messages` prints the ratio on any machine.
//
// Each lane takes the next message as soon as its own is done, so messages of different lengths
// pair up as they come; the last one left runs alone. Padding is that of FIPS 180-4: a message's
// whole blocks are read where they are, its last one or two blocks from a small buffer.
//
// Without the SHA extensions (another processor, or a compiler other than GCC and Clang) each
// message goes through hash::sha256 (Botan) instead; the digests are the same.
#pragma once

#include "assay/hash/policy.hpp"
#include "assay/separate.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ASSAY_SHA256_LANES 1
#include <cpuid.h>
#include <smmintrin.h>  // SSE4.1 and SSSE3: not <immintrin.h>, whose AVX-512 headers cost half a second to parse
#endif

namespace assay::hash {

// A SHA-256 digest, as bytes.
using sha256_bytes = std::array<std::uint8_t, 32>;

namespace detail::sha256_lanes {

// The initial state and the round constants of FIPS 180-4, section 5.3.3 and 4.2.2.
inline constexpr std::uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
alignas(16) inline constexpr std::uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#if defined(ASSAY_SHA256_LANES)

// One message in a lane: its state, the blocks still to compress from where they are, then its
// padded end from `tail`.
struct lane {
  std::uint32_t state[8];
  const std::uint8_t* p;
  std::size_t blocks;
  bool in_tail;
  std::size_t tail_blocks;
  std::size_t index;  // of the message
  alignas(16) std::uint8_t tail[128];

  void start(std::string_view m, std::size_t i) noexcept {
    std::memcpy(state, initial, sizeof state);
    index = i;
    p = reinterpret_cast<const std::uint8_t*>(m.data());
    blocks = m.size() / 64;
    const std::size_t rest = m.size() % 64;
    tail_blocks = rest + 9 <= 64 ? 1 : 2;
    if (rest != 0)
      std::memcpy(tail, m.data() + 64 * blocks, rest);
    tail[rest] = 0x80;
    std::memset(tail + rest + 1, 0, 64 * tail_blocks - 9 - rest);  // (of a variable size: no rep stos)
    const std::uint64_t bits = static_cast<std::uint64_t>(m.size()) * 8;
    for (std::size_t k = 0; k < 8; ++k)
      tail[64 * tail_blocks - 1 - k] = static_cast<std::uint8_t>(bits >> (8 * k));
    in_tail = false;
    if (blocks == 0)
      to_tail();
  }
  void to_tail() noexcept {
    p = tail;
    blocks = tail_blocks;
    in_tail = true;
  }
  // Past k more blocks; true once the message is done.
  bool advance(std::size_t k) noexcept {
    p += 64 * k;
    blocks -= k;
    if (blocks != 0)
      return false;
    if (in_tail)
      return true;
    to_tail();
    return false;
  }
  void digest(sha256_bytes& out) const noexcept {
    for (std::size_t k = 0; k < 8; ++k) {
      const std::uint32_t big_endian = __builtin_bswap32(state[k]);
      std::memcpy(out.data() + 4 * k, &big_endian, 4);
    }
  }
};

// Whether this processor has the SHA extensions and the SSSE3 and SSE4.1 shuffles the rounds use.
inline bool available() noexcept {
  static const bool yes = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & (1u << 9)) == 0 || (c & (1u << 19)) == 0)
      return false;
    if (__get_cpuid_max(0, nullptr) < 7)
      return false;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 29)) != 0;
  }();
  return yes;
}

// The three SHA extensions instructions, as the compilers' builtins: their intrinsics header may
// only be included through <immintrin.h>.
__attribute__((target("sha"))) inline __m128i sha256msg1(__m128i a, __m128i b) {
  return reinterpret_cast<__m128i>(__builtin_ia32_sha256msg1(reinterpret_cast<__v4si>(a), reinterpret_cast<__v4si>(b)));
}
__attribute__((target("sha"))) inline __m128i sha256msg2(__m128i a, __m128i b) {
  return reinterpret_cast<__m128i>(__builtin_ia32_sha256msg2(reinterpret_cast<__v4si>(a), reinterpret_cast<__v4si>(b)));
}
__attribute__((target("sha"))) inline __m128i sha256rnds2(__m128i cdgh, __m128i abef, __m128i wk) {
  return reinterpret_cast<__m128i>(__builtin_ia32_sha256rnds2(
      reinterpret_cast<__v4si>(cdgh), reinterpret_cast<__v4si>(abef), reinterpret_cast<__v4si>(wk)));
}

// Compresses `blocks` blocks into each of L states, lane l reading from p[l]. The state is kept as
// the instructions want it, (a, b, e, f) and (c, d, g, h), between blocks; the L lanes' steps are
// interleaved so that one lane's rounds run while another's wait.
template <std::size_t L>
__attribute__((target("sha,sse4.1,ssse3"))) inline void compress(std::uint32_t* const* state,
                                                                 const std::uint8_t* const* p, std::size_t blocks) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i abef[L], cdgh[L];
  for (std::size_t l = 0; l < L; ++l) {
    const __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state[l])), 0xB1);
    const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(state[l] + 4)), 0x1B);
    abef[l] = _mm_alignr_epi8(dcba, efgh, 8);
    cdgh[l] = _mm_blend_epi16(efgh, dcba, 0xF0);
  }
  for (std::size_t b = 0; b < blocks; ++b) {
    __m128i w[L][4], abef0[L], cdgh0[L];
    for (std::size_t l = 0; l < L; ++l) {
      abef0[l] = abef[l];
      cdgh0[l] = cdgh[l];
    }
#pragma GCC unroll 16
    for (int g = 0; g < 16; ++g) {  // four rounds each
      const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(round_constants + 4 * g));
      for (std::size_t l = 0; l < L; ++l) {
        __m128i m;
        if (g < 4) {
          m = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p[l] + 64 * b + 16 * g));
          m = _mm_shuffle_epi8(m, byte_swap);
        } else {  // the message schedule: W[t] from W[t-16], W[t-15], W[t-7], W[t-2]
          m = sha256msg1(w[l][g & 3], w[l][(g + 1) & 3]);
          m = _mm_add_epi32(m, _mm_alignr_epi8(w[l][(g + 3) & 3], w[l][(g + 2) & 3], 4));
          m = sha256msg2(m, w[l][(g + 3) & 3]);
        }
        w[l][g & 3] = m;
        const __m128i wk = _mm_add_epi32(m, k);
        cdgh[l] = sha256rnds2(cdgh[l], abef[l], wk);
        abef[l] = sha256rnds2(abef[l], cdgh[l], _mm_shuffle_epi32(wk, 0x0E));
      }
    }
    for (std::size_t l = 0; l < L; ++l) {
      abef[l] = _mm_add_epi32(abef[l], abef0[l]);
      cdgh[l] = _mm_add_epi32(cdgh[l], cdgh0[l]);
    }
  }
  for (std::size_t l = 0; l < L; ++l) {
    const __m128i feba = _mm_shuffle_epi32(abef[l], 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(cdgh[l], 0xB1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state[l]), _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(state[l] + 4), _mm_alignr_epi8(dchg, feba, 8));
  }
}

// Two lanes while two messages are left, then one.
inline void each_in_lanes(const std::string_view* m, std::size_t n, sha256_bytes* out) noexcept {
  lane a, b;
  std::size_t next = 0;
  bool busy_a = false, busy_b = false;
  if (next < n) {
    a.start(m[next], next);
    ++next;
    busy_a = true;
  }
  if (next < n) {
    b.start(m[next], next);
    ++next;
    busy_b = true;
  }
  while (busy_a && busy_b) {
    const std::size_t k = a.blocks < b.blocks ? a.blocks : b.blocks;
    std::uint32_t* const states[2] = {a.state, b.state};
    const std::uint8_t* const from[2] = {a.p, b.p};
    compress<2>(states, from, k);
    for (lane* x : {&a, &b}) {
      if (!x->advance(k))
        continue;
      x->digest(out[x->index]);
      if (next < n) {
        x->start(m[next], next);
        ++next;
      } else {
        (x == &a ? busy_a : busy_b) = false;
      }
    }
  }
  if (busy_a || busy_b) {
    lane& x = busy_a ? a : b;
    do {
      std::uint32_t* const states[1] = {x.state};
      const std::uint8_t* const from[1] = {x.p};
      compress<1>(states, from, x.blocks);
    } while (!x.advance(x.blocks));
    x.digest(out[x.index]);
  }
}

#else

inline bool available() noexcept {
  return false;
}
inline void each_in_lanes(const std::string_view*, std::size_t, sha256_bytes*) noexcept {}

#endif

// One message at a time, with hash::sha256 (Botan): where the lanes are not available.
inline void each_alone(const std::string_view* m, std::size_t n, sha256_bytes* out) {
  sha256::state s;
  for (std::size_t i = 0; i < n; ++i) {
    s.update(m[i].data(), m[i].size());
    out[i] = s.final();  // final() also starts the state afresh
  }
}

}  // namespace detail::sha256_lanes

// out[i] = SHA-256(m[i]) for i < n.
template <class = void>
void sha256_each(const std::string_view* m, std::size_t n, sha256_bytes* out) {
  if (detail::sha256_lanes::available())
    detail::sha256_lanes::each_in_lanes(m, n, out);
  else
    detail::sha256_lanes::each_alone(m, n, out);
}

}  // namespace assay::hash

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::hash {
ASSAY_EXTERN_TEMPLATE void sha256_each<void>(const std::string_view*, std::size_t, sha256_bytes*);
}  // namespace assay::hash
#endif
