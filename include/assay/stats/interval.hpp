// assay/stats/interval.hpp — 95% confidence intervals for a success rate (docs/soak.md, docs/findings.md).
//
//   auto w = assay::stats::wilson(17, 20);     // {0.6396..., 0.9476...}
//   auto j = assay::stats::jeffreys(17, 20);   // assay/stats/jeffreys.hpp
//   auto d = assay::stats::newcombe(91, 100, 97, 100);   // -0.06, [-0.1349..., 0.0088...]
//
// The Wilson score interval is the default of soak reports and the one of findings; the
// Jeffreys interval (an equal-tailed Beta posterior) is the documented alternative and lives in
// its own header (the incomplete beta function and its inverse). Both give [0, 1] for no trials.
// This header needs nothing but std.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace assay::stats {

struct interval {
  double low = 0;
  double high = 1;
  friend bool operator==(const interval&, const interval&) = default;
};

// z of the two-sided 95% interval as docs/soak.md writes it.
inline constexpr long double z95 = 1.959963984540054L;

// How far a written bound may be from the bound computed here when a document's bounds are
// checked. The exact bound is a real number; a producer writes a double near it (the correctly
// rounded one at best), and `wilson` computes one too (in long double, then rounded: on x86-64
// and AArch64 the correctly rounded double; where long double is double, within a few units in
// the last place, about 1e-16 for bounds in [0, 1]). 1e-12 accepts the correctly rounded bound
// and any careful double computation, and refuses a bound rounded to a few decimals.
inline constexpr double bound_tolerance = 1e-12;

// The Wilson score interval for `successes` of `trials` (0 <= successes <= trials), clamped to
// [0, 1]; exactly 0 below with no success, exactly 1 above with no failure; [0, 1] when there
// are no trials.
inline interval wilson(std::int64_t successes, std::int64_t trials) noexcept {
  if (trials <= 0)
    return {0, 1};
  using real = long double;
  const real z = z95;  // the published decimal in long double, closer than its nearest double
  const real n = static_cast<real>(trials);
  const real p = static_cast<real>(successes) / n;
  const real z2 = z * z;
  const real denominator = 1 + z2 / n;
  const real center = p + z2 / (2 * n);
  const real margin = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  interval w;
  w.low = successes <= 0 ? 0.0 : std::clamp(static_cast<double>((center - margin) / denominator), 0.0, 1.0);
  w.high = successes >= trials ? 1.0 : std::clamp(static_cast<double>((center + margin) / denominator), 0.0, 1.0);
  return w;
}

// A difference of two independent rates, p1 − p2, and its 95% interval (bounds in [−1, 1]).
struct difference {
  double estimate = 0;
  double low = -1;
  double high = 1;
  friend bool operator==(const difference&, const difference&) = default;
};

// The difference of `s1` of `n1` and `s2` of `n2` with Newcombe's hybrid score interval (his
// method 10, Statistics in Medicine 17, 1998), from the two Wilson intervals (l1, u1), (l2, u2):
// d = p1 − p2, low = d − √((p1 − l1)² + (u2 − p2)²), high = d + √((u1 − p1)² + (p2 − l2)²),
// clamped to [−1, 1] (the bounds computed in long double; the estimate is the difference of the
// two rates as doubles, what a reader recomputes from a report). No trials on a side: that side's rate is taken as 0
// with the interval [0, 1], so the difference is uncertain by the whole of it.
inline difference newcombe(std::int64_t s1, std::int64_t n1, std::int64_t s2, std::int64_t n2) noexcept {
  using real = long double;
  const interval w1 = wilson(s1, n1), w2 = wilson(s2, n2);
  const real p1 = n1 > 0 ? static_cast<real>(s1) / static_cast<real>(n1) : 0;
  const real p2 = n2 > 0 ? static_cast<real>(s2) / static_cast<real>(n2) : 0;
  const real d = p1 - p2;
  auto sq = [](real x) { return x * x; };
  difference out;
  // The estimate as a reader recomputes it from the two rates written as doubles.
  out.estimate = static_cast<double>(p1) - static_cast<double>(p2);
  out.low = std::clamp(static_cast<double>(d - std::sqrt(sq(p1 - w1.low) + sq(w2.high - p2))), -1.0, 1.0);
  out.high = std::clamp(static_cast<double>(d + std::sqrt(sq(w1.high - p1) + sq(p2 - w2.low))), -1.0, 1.0);
  return out;
}

}  // namespace assay::stats
