// assay/json/detail/eisel_lemire.hpp — the double nearest a decimal w × 10^q, in a few multiplications.
//
// std::from_chars was half of the time of reading a document of numbers: it parses the text
// again, digit by digit, that the number grammar has just checked. The lexer already holds the
// significand as an integer and the exponent, and for up to 19 significant digits the nearest
// double follows from one 64 × 128-bit product with a table of powers of five (Eisel and Lemire;
// Lemire, "Number Parsing at a Gigabyte per Second", 2021):
//
//   w × 10^q = w × 5^q × 2^q, and 5^q ≈ T[q] × 2^(L - 127) with T[q] the first 128 bits of 5^q
//   (pow5_table.hpp) and L = floor(log2 5^q). The top 54 bits of w × T[q] are the double's
//   53-bit significand and a rounding bit; the exponent is floor(q log2 10) and the count of
//   leading zeros of w.
//
// The product is at most two units (of its 128th bit) below the exact one: the table is rounded
// down and the low half of w × T's low word is dropped. It is therefore wrong only when the
// exact value sits within those units of a tie between two doubles. That case, and results that
// are not normal doubles (zero, subnormal, infinite), return false: the caller converts the text
// the slow, exact way. Everything else returns the correctly rounded double, which the tests
// hold to std::from_chars over millions of numbers and every exponent of the table.
#pragma once

#include "assay/json/inline.hpp"
#include "assay/json/detail/pow5_table.hpp"

#include <cstdint>
#include <cstring>

namespace assay::json::detail::eisel_lemire {

#if defined(__SIZEOF_INT128__)
inline constexpr bool available = true;

// The double nearest w × 10^q (w > 0), with the sign given; false when this cannot tell it
// without doubt or it is not a normal double.
ASSAY_ALWAYS_INLINE inline bool to_double(std::uint64_t w, int q, bool negative, double& out) noexcept {
  if (w == 0 || q < pow5_min || q > pow5_max)
    return false;
  const int lz = __builtin_clzll(w);
  w <<= lz;
  const auto i = static_cast<std::size_t>(q - pow5_min) * 2;
  const std::uint64_t t_hi = pow5_table[i];
  const std::uint64_t t_lo = pow5_table[i + 1];
  __extension__ typedef unsigned __int128 u128;  // (__extension__: no -Wpedantic warning)
  // w × T, to 128 bits: the full product with T's high word, plus the high word of the product
  // with its low word.
  const u128 first = static_cast<u128>(w) * t_hi;
  const u128 product = first + static_cast<std::uint64_t>((static_cast<u128>(w) * t_lo) >> 64);
  const auto hi = static_cast<std::uint64_t>(product >> 64);
  const auto lo = static_cast<std::uint64_t>(product);
  // hi is in [2^62, 2^64): its top bit decides where the 54 bits start.
  const unsigned upper = static_cast<unsigned>(hi >> 63);
  const unsigned shift = 9 + upper;  // bits of hi below the rounding bit
  const std::uint64_t below = hi & ((std::uint64_t{1} << shift) - 1);
  const bool round_bit = ((hi >> shift) & 1) != 0;
  // Within a few units of a tie (rounding bit set and nothing below it, or just under that):
  // the dropped bits cannot decide.
  constexpr std::uint64_t slack = 4;
  if (round_bit && below == 0 && lo <= slack)
    return false;
  if (!round_bit && below == (std::uint64_t{1} << shift) - 1 && lo >= ~slack)
    return false;
  std::uint64_t mantissa = (hi >> shift) >> 1;  // 53 bits
  mantissa += round_bit ? 1 : 0;
  // floor(q × log2 10) as (q × 217706) >> 16 (the tests check every q of the table).
  int exponent = ((q * 217706) >> 16) + static_cast<int>(upper) - lz + 1086;
  if (mantissa == std::uint64_t{1} << 53) {  // rounding carried into a new bit
    mantissa >>= 1;
    ++exponent;
  }
  if (exponent <= 0 || exponent >= 2047)
    return false;
  const std::uint64_t bits = (mantissa & ((std::uint64_t{1} << 52) - 1)) |
                             (static_cast<std::uint64_t>(exponent) << 52) | (negative ? std::uint64_t{1} << 63 : 0);
  std::memcpy(&out, &bits, sizeof out);
  return true;
}
#else
inline constexpr bool available = false;
inline bool to_double(std::uint64_t, int, bool, double&) noexcept {
  return false;
}
#endif

}  // namespace assay::json::detail::eisel_lemire
