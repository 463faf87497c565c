// assay/json/number.hpp — ECMAScript Number.prototype.toString for doubles (RFC 8785 §3.2.2.3).
//
// The shortest round-trip digits come from std::to_chars; only the layout is ours.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace assay::json {

// Enough for any double in ECMAScript form: "-" + 17 digits + up to 20 zeros or "0." + 6 zeros.
inline constexpr std::size_t max_number_chars = 32;

namespace detail {

inline constexpr char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// The digits of v < 10000, without leading zeros.
inline char* up_to_4_digits(unsigned v, char* out) noexcept {
  if (v < 10) {
    *out = static_cast<char>('0' + v);
    return out + 1;
  }
  if (v < 100) {
    std::memcpy(out, digit_pairs + 2 * v, 2);
    return out + 2;
  }
  const unsigned hi = v / 100, lo = v % 100;
  if (v < 1000) {
    *out = static_cast<char>('0' + hi);
    std::memcpy(out + 1, digit_pairs + 2 * lo, 2);
    return out + 3;
  }
  std::memcpy(out, digit_pairs + 2 * hi, 2);
  std::memcpy(out + 2, digit_pairs + 2 * lo, 2);
  return out + 4;
}

// Exactly four digits of v < 10000 (leading zeros kept).
inline void four_digits(unsigned v, char* out) noexcept {
  std::memcpy(out, digit_pairs + 2 * (v / 100), 2);
  std::memcpy(out + 2, digit_pairs + 2 * (v % 100), 2);
}

inline void eight_digits(unsigned v, char* out) noexcept {
  four_digits(v / 10000, out);
  four_digits(v % 10000, out + 4);
}

}  // namespace detail

// Writes the decimal digits of `v` at `out` (at most 20 bytes) and returns the end: what
// std::to_chars writes, in about half the instructions (integers are most of the numbers in
// evidence: sequence numbers, counts, durations).
inline char* format_integer(std::uint64_t v, char* out) noexcept {
  if (v < 10000)
    return detail::up_to_4_digits(static_cast<unsigned>(v), out);
  if (v < 100000000) {
    out = detail::up_to_4_digits(static_cast<unsigned>(v / 10000), out);
    detail::four_digits(static_cast<unsigned>(v % 10000), out);
    return out + 4;
  }
  if (v < 10000000000000000ULL) {
    out = format_integer(v / 100000000, out);
    detail::eight_digits(static_cast<unsigned>(v % 100000000), out);
    return out + 8;
  }
  const std::uint64_t low16 = v % 10000000000000000ULL;
  out = detail::up_to_4_digits(static_cast<unsigned>(v / 10000000000000000ULL), out);
  detail::eight_digits(static_cast<unsigned>(low16 / 100000000), out);
  detail::eight_digits(static_cast<unsigned>(low16 % 100000000), out + 8);
  return out + 16;
}

// The same with a '-' for negative values (at most 20 bytes).
inline char* format_integer(std::int64_t v, char* out) noexcept {
  if (v < 0) {
    *out++ = '-';
    return format_integer(static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(v), out);
  }
  return format_integer(static_cast<std::uint64_t>(v), out);
}

// Writes the ECMAScript form of a finite `v` at `out` and returns the end. `v` must be finite
// (callers check std::isfinite first: NaN and infinity have no JSON form).
inline char* format_number(double v, char* out) noexcept {
  if (v == 0) {  // +0 and -0 both print "0"
    *out++ = '0';
    return out;
  }
  // Integers that a double holds exactly and that print without exponent: the common case.
  if (v >= -9007199254740992.0 && v <= 9007199254740992.0) {
    const auto i = static_cast<std::int64_t>(v);
    if (static_cast<double>(i) == v)
      return format_integer(i, out);
  }
  // Non-integers in [1e-6, 2^53): std::to_chars' shortest form is ECMAScript's whenever it comes
  // out fixed (the same shortest round-trip digits, laid out the same way); it chooses the
  // exponent form only where that is shorter, and then the layout below applies. (From 2^53 on,
  // every double is an integer, which to_chars prints with all its exact digits where
  // ECMAScript pads the shortest digits with zeros.)
  const double magnitude = v < 0 ? -v : v;
  if (magnitude >= 1e-6 && magnitude < 9007199254740992.0) {
    const auto r = std::to_chars(out, out + max_number_chars, v);
    // From 1 on the fixed form of a non-integer is the shorter one (its point falls among
    // the digits); below, to_chars may have chosen the exponent.
    if (magnitude >= 1 || std::find(out, r.ptr, 'e') == r.ptr)
      return r.ptr;
  }
  if (v < 0) {
    *out++ = '-';
    v = -v;
  }
  // Shortest round-trip digits in scientific form: d[.ddd]e±XX
  char sci[40];
  const auto r = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  const char* p = sci;
  char digits[20];
  int k = 0;
  while (p < r.ptr && *p != 'e') {
    if (*p != '.')
      digits[k++] = *p;
    ++p;
  }
  int exp10 = 0;  // value = d1.d2..dk × 10^exp10
  {
    ++p;  // 'e'
    bool neg = false;
    if (*p == '-' || *p == '+')
      neg = (*p++ == '-');
    while (p < r.ptr)
      exp10 = exp10 * 10 + (*p++ - '0');
    if (neg)
      exp10 = -exp10;
  }
  const int n = exp10 + 1;  // value = 0.d1..dk × 10^n
  if (k <= n && n <= 21) {
    std::memcpy(out, digits, static_cast<std::size_t>(k));
    out += k;
    for (int i = k; i < n; ++i)
      *out++ = '0';
  } else if (0 < n && n <= 21) {
    std::memcpy(out, digits, static_cast<std::size_t>(n));
    out += n;
    *out++ = '.';
    std::memcpy(out, digits + n, static_cast<std::size_t>(k - n));
    out += k - n;
  } else if (-6 < n && n <= 0) {
    *out++ = '0';
    *out++ = '.';
    for (int i = 0; i < -n; ++i)
      *out++ = '0';
    std::memcpy(out, digits, static_cast<std::size_t>(k));
    out += k;
  } else {
    *out++ = digits[0];
    if (k > 1) {
      *out++ = '.';
      std::memcpy(out, digits + 1, static_cast<std::size_t>(k - 1));
      out += k - 1;
    }
    *out++ = 'e';
    const int e = n - 1;
    *out++ = e < 0 ? '-' : '+';
    out = std::to_chars(out, out + 8, e < 0 ? -e : e).ptr;
  }
  return out;
}

// The ECMAScript form as a string; an empty string for NaN or infinity.
inline std::string number_to_string(double v) {
  if (!std::isfinite(v))
    return {};
  char buf[max_number_chars];
  return std::string(buf, format_number(v, buf));
}

}  // namespace assay::json
