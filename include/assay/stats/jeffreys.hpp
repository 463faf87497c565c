// assay/stats/jeffreys.hpp — the Jeffreys interval: the equal-tailed 95% interval of the Beta
// posterior Beta(successes + 1/2, failures + 1/2) (docs/soak.md's alternative to Wilson).
//
// The bounds are quantiles of a Beta distribution: the x where the regularized incomplete beta
// function I_x(a, b) equals 0.025 and 0.975. They are computed here, in long double, then rounded
// once to double:
//   - the factor x^a (1-x)^b / B(a, b) without forming any large logarithm, as Loader's
//     saddle-point form of the binomial density does: sqrt(ab / 2πn) · exp(δ(n) - δ(a) - δ(b)
//     - bd0(a, nx) - bd0(b, n(1-x))) with n = a + b, δ the error of Stirling's formula and
//     bd0(k, m) = k log(k/m) + m - k summed as a series near k = m. Through std::lgamma the
//     factor would lose about 1e-10 of relative accuracy at a million trials; this way it keeps
//     nearly all digits of long double.
//   - I_x(a, b) by the continued fraction of the incomplete beta function (modified Lentz), on
//     the side of the mean where it converges fast (the other side by I_x(a, b) = 1 - I_{1-x}(b, a)).
//   - the quantile by Newton's method on I_x(a, b) - p inside a bracket that each step narrows,
//     bisecting whenever a Newton step would leave it.
// tests/stats/interval.cpp compares the bounds with Boost.Math's quantiles over a grid up to a
// million trials.
#pragma once

#include "assay/separate.hpp"
#include "assay/stats/interval.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

namespace assay::stats {

namespace detail {

using real = long double;

// δ(z) = log Γ(z + 1) - log(sqrt(2πz) (z/e)^z): directly for small z, where the terms are small
// and lgamma is accurate; by Stirling's series beyond (eight terms: the next is below 1e-19 at 15).
inline real stirling_error(real z) {
  constexpr real ln_sqrt_2pi = 0.918938533204672741780329736405617639861L;
  if (z <= 15)
    return std::lgamma(z + 1) - (z + real(0.5)) * std::log(z) + z - ln_sqrt_2pi;
  constexpr real c[] = {real(1) / 12,   real(-1) / 360,      real(1) / 1260, real(-1) / 1680,
                        real(1) / 1188, real(-691) / 360360, real(1) / 156,  real(-3617) / 122400};
  const real w = 1 / (z * z);
  real s = 0;
  for (int i = 7; i >= 0; --i)
    s = c[i] + s * w;
  return s / z;
}

// bd0(k, m) = k log(k/m) + m - k >= 0, summed as a series in v = (k - m) / (k + m) when k is near
// m, where the closed form would cancel.
inline real deviance(real k, real m) {
  if (std::fabs(k - m) < real(0.1) * (k + m)) {
    const real v = (k - m) / (k + m), v2 = v * v;
    real s = (k - m) * v, term = 2 * k * v;
    for (int j = 1; j < 1000; ++j) {
      term *= v2;
      const real next = s + term / (2 * j + 1);
      if (next == s)
        return next;
      s = next;
    }
    return s;
  }
  return k * std::log(k / m) + m - k;
}

// x^a y^b / B(a, b) with y = 1 - x (both given, so that a y near 0 keeps its digits).
inline real beta_factor(real a, real b, real x, real y) {
  constexpr real two_pi = 6.283185307179586476925286766559005768394L;
  const real n = a + b;
  return std::sqrt(a * b / (two_pi * n)) *
         std::exp(stirling_error(n) - stirling_error(a) - stirling_error(b) - deviance(a, n * x) - deviance(b, n * y));
}

// The continued fraction of I_x(a, b) · a B(a, b) / (x^a y^b), converging fast for
// x < (a + 1) / (a + b + 2) (modified Lentz).
inline real beta_fraction(real a, real b, real x) {
  constexpr real tiny = 1e-300L;
  constexpr real eps = 1e-21L;
  const real ab = a + b, ap = a + 1, am = a - 1;
  real c = 1, d = 1 - ab * x / ap;
  if (std::fabs(d) < tiny)
    d = tiny;
  d = 1 / d;
  real f = d;
  for (int m = 1; m < 100000; ++m) {
    const real m2 = 2 * m;
    real t = m * (b - m) * x / ((am + m2) * (a + m2));  // the even step
    d = 1 + t * d;
    d = std::fabs(d) < tiny ? 1 / tiny : 1 / d;
    c = 1 + t / c;
    if (std::fabs(c) < tiny)
      c = tiny;
    f *= d * c;
    t = -(a + m) * (ab + m) * x / ((a + m2) * (ap + m2));  // the odd step
    d = 1 + t * d;
    d = std::fabs(d) < tiny ? 1 / tiny : 1 / d;
    c = 1 + t / c;
    if (std::fabs(c) < tiny)
      c = tiny;
    const real delta = d * c;
    f *= delta;
    if (std::fabs(delta - 1) < eps)
      break;
  }
  return f;
}

// I_x(a, b) - p for 0 < x < 1, from the tail the continued fraction converges on fast (below
// the mean I_x(a, b) itself, above it 1 - I_{1-x}(b, a)), so that neither side cancels. With a
// small a and a small x, the fraction in 1 - x loses digits (its terms cancel to about x, a
// relative error of about epsilon / x) where the upper quantile lies, a little above the mean;
// there the fraction in x, which still converges well that close to the mean, is summed instead.
inline real incomplete_beta_minus(real a, real b, real x, real p) {
  const real y = 1 - x;
  const real factor = beta_factor(a, b, x, y);
  const real scaled = x * (a + b + 2);
  if (scaled < a + 1 || (a < 64 && x < real(1) / 16 && scaled < 4 * (a + 1)))
    return factor * beta_fraction(a, b, x) / a - p;
  return (1 - p) - factor * beta_fraction(b, a, y) / b;
}

// The x in (0, 1) with I_x(a, b) = p, 0 < p < 1.
inline real beta_quantile(real a, real b, real p) {
  const real n = a + b;
  // A start: the normal approximation, or beyond it in the tail the small-x form
  // I_x ≈ x^a / (a B(a, b)) (or its mirror 1 - I_x ≈ (1-x)^b / (b B(a, b))).
  const real mean = a / n, sd = std::sqrt(a * b / (n * n * (n + 1)));
  const real log_beta = std::lgamma(a) + std::lgamma(b) - std::lgamma(n);
  real x = mean + (p < real(0.5) ? -1 : 1) * real(1.959963984540054L) * sd;
  if (p < real(0.5)) {
    const real tail = std::exp((std::log(p * a) + log_beta) / a);
    if (!(x > 0) || tail < x)
      x = tail;
  } else {
    const real tail = 1 - std::exp((std::log((1 - p) * b) + log_beta) / b);
    if (!(x < 1) || tail > x)
      x = tail;
  }
  if (!(x > 0 && x < 1))
    x = mean;
  real lo = 0, hi = 1;
  for (int i = 0; i < 400; ++i) {
    const real f = incomplete_beta_minus(a, b, x, p);
    if (f == 0)
      return x;
    (f < 0 ? lo : hi) = x;
    const real y = 1 - x;
    real next = x - f * x * y / beta_factor(a, b, x, y);  // Newton: the density is factor / xy
    if (!(next > lo && next < hi))                        // bisect instead, geometrically while hi / lo is large
      next = lo == 0 ? hi / 2 : hi > 4 * lo ? std::sqrt(lo * hi) : lo + (hi - lo) / 2;
    if (!(next > lo && next < hi))
      return x;
    if (std::fabs(next - x) <= 2 * std::numeric_limits<real>::epsilon() * x)
      return next;
    x = next;
  }
  return x;
}

}  // namespace detail

// [0, 1] when there are no trials (as Wilson: no data, no information). Otherwise the 2.5% and
// 97.5% quantiles of Beta(successes + 1/2, trials - successes + 1/2). A template only so that a
// translation unit that never asks for the interval generates none of its code.
template <class = void>
interval jeffreys(std::int64_t successes, std::int64_t trials) {
  if (trials <= 0)
    return {0, 1};
  const detail::real a = static_cast<detail::real>(successes) + detail::real(0.5);
  const detail::real b = static_cast<detail::real>(trials - successes) + detail::real(0.5);
  return {static_cast<double>(detail::beta_quantile(a, b, detail::real(0.025))),
          static_cast<double>(detail::beta_quantile(a, b, detail::real(0.975)))};
}

}  // namespace assay::stats

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::stats {
ASSAY_EXTERN_TEMPLATE interval jeffreys<void>(std::int64_t, std::int64_t);
}  // namespace assay::stats
#endif
