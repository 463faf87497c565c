// Confidence intervals: Wilson (exact values are in tests/contracts/reports.cpp, where finding-v1
// checks them) and Jeffreys (computed by assay's own incomplete beta) against Boost.Math's Beta
// quantiles, called directly.
#include "support.hpp"

#include "assay/stats/interval.hpp"
#include "assay/stats/jeffreys.hpp"

#include <boost/math/distributions/beta.hpp>
#include <boost/math/special_functions/beta.hpp>

#include <cmath>
#include <limits>
#include <vector>

namespace stats = assay::stats;

TEST_CASE("Wilson: no trials, no successes, no failures") {
  CHECK(stats::wilson(0, 0) == stats::interval{0, 1});
  CHECK(stats::wilson(0, 5).low == 0);
  CHECK(stats::wilson(5, 5).high == 1);
  // Independently: the textbook formula in double, for 17 of 20.
  const double n = 20, p = 17.0 / 20, z = 1.959963984540054;
  const double c = (p + z * z / (2 * n)) / (1 + z * z / n);
  const double m = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  CHECK(std::fabs(stats::wilson(17, 20).low - (c - m)) <= 1e-15);
  CHECK(std::fabs(stats::wilson(17, 20).high - (c + m)) <= 1e-15);
}

TEST_CASE("Jeffreys: the equal-tailed Beta(s + 1/2, f + 1/2) interval") {
  CHECK(stats::jeffreys(0, 0) == stats::interval{0, 1});
  struct sf {
    std::int64_t s, n;
  };
  for (const sf c : {sf{0, 1}, sf{1, 1}, sf{0, 10}, sf{3, 10}, sf{10, 10}, sf{17, 20}, sf{500, 1000}, sf{1, 100000}}) {
    CAPTURE(c.s);
    CAPTURE(c.n);
    const double a = static_cast<double>(c.s) + 0.5, b = static_cast<double>(c.n - c.s) + 0.5;
    const stats::interval j = stats::jeffreys(c.s, c.n);
    CHECK(std::fabs(j.low - boost::math::ibeta_inv(a, b, 0.025)) <= 1e-12);
    CHECK(std::fabs(j.high - boost::math::ibeta_inv(a, b, 0.975)) <= 1e-12);
    CHECK(0 < j.low);
    CHECK(j.low < j.high);
    CHECK(j.high < 1);
    // The posterior puts 95% of its mass inside: the regularized incomplete beta at the bounds.
    CHECK(std::fabs(boost::math::ibeta(a, b, j.high) - boost::math::ibeta(a, b, j.low) - 0.95) <= 1e-12);
  }
}

TEST_CASE("Jeffreys: Boost.Math's Beta quantiles over a grid up to a million trials") {
  // Computed in long double and rounded once, the bounds are Boost.Math's to the last bit almost
  // everywhere (on x86-64 4549 of 4560 bounds of a denser grid; the others one unit in the last
  // place apart): a relative 1e-15 where long double is wider than double, 1e-12 where it is not.
  const double tolerance = std::numeric_limits<long double>::digits > 53 ? 1e-15 : 1e-12;
  int exact = 0, total = 0;
  for (const std::int64_t n : {1, 2, 3, 6, 7, 10, 20, 33, 100, 1000, 12345, 100000, 999999, 1000000}) {
    std::vector<std::int64_t> successes{0, 1, 2, 3, n / 3, n / 2, n - 3, n - 2, n - 1, n};
    for (std::int64_t k = 1; k < 13; ++k)
      successes.push_back(n * k / 13);
    for (const std::int64_t s : successes) {
      if (s < 0 || s > n)
        continue;
      CAPTURE(n);
      CAPTURE(s);
      const boost::math::beta_distribution<double> posterior(static_cast<double>(s) + 0.5,
                                                             static_cast<double>(n - s) + 0.5);
      const stats::interval j = stats::jeffreys(s, n);
      const double low = boost::math::quantile(posterior, 0.025), high = boost::math::quantile(posterior, 0.975);
      CHECK(std::fabs(j.low - low) <= tolerance * low);
      CHECK(std::fabs(j.high - high) <= tolerance * high);
      exact += (j.low == low) + (j.high == high);
      total += 2;
    }
  }
  if (std::numeric_limits<long double>::digits > 53)
    CHECK(exact >= total * 9 / 10);
}

namespace {
// Newcombe's method 10, written here from his paper's definition in double (the library's runs in
// long double): the difference and the hybrid score bounds from the two Wilson intervals.
stats::difference newcombe_here(double s1, double n1, double s2, double n2) {
  const double z = 1.959963984540054;
  auto wilson = [&](double s, double n) {
    const double p = s / n, den = 1 + z * z / n, c = p + z * z / (2 * n);
    const double m = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
    return std::pair<double, double>{s == 0 ? 0.0 : (c - m) / den, s == n ? 1.0 : (c + m) / den};
  };
  const auto [l1, u1] = wilson(s1, n1);
  const auto [l2, u2] = wilson(s2, n2);
  const double p1 = s1 / n1, p2 = s2 / n2, d = p1 - p2;
  return {d, d - std::sqrt((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2)),
          d + std::sqrt((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2))};
}
}  // namespace

TEST_CASE("Newcombe's hybrid score interval: his worked examples, to the four decimals printed") {
  // Newcombe (1998), "Interval estimation for the difference between independent proportions:
  // comparison of eleven methods", Statistics in Medicine 17:873-890, Table II, method 10.
  struct example {
    int s1, n1, s2, n2;
    double low, high;
  };
  for (const example& e : std::vector<example>{{56, 70, 48, 80, 0.0524, 0.3339},
                                               {9, 10, 3, 10, 0.1705, 0.8090},
                                               {5, 56, 0, 29, -0.0381, 0.1926},
                                               {0, 10, 0, 20, -0.1611, 0.2775},
                                               {0, 10, 0, 10, -0.2775, 0.2775},
                                               {10, 10, 0, 20, 0.6791, 1.0},
                                               {10, 10, 0, 10, 0.6075, 1.0}}) {
    CAPTURE(e.s1);
    CAPTURE(e.n1);
    CAPTURE(e.s2);
    CAPTURE(e.n2);
    const stats::difference d = stats::newcombe(e.s1, e.n1, e.s2, e.n2);
    CHECK(std::fabs(d.low - e.low) < 5e-5);
    CHECK(std::fabs(d.high - e.high) < 5e-5);
    CHECK(d.estimate == static_cast<double>(e.s1) / e.n1 - static_cast<double>(e.s2) / e.n2);
  }
}

TEST_CASE("Newcombe's hybrid score interval: the definition computed independently, to 1e-12") {
  for (int n1 : {1, 2, 7, 20, 100, 1000})
    for (int n2 : {1, 3, 20, 250})
      for (int s1 = 0; s1 <= n1; s1 += std::max(1, n1 / 7))
        for (int s2 = 0; s2 <= n2; s2 += std::max(1, n2 / 5)) {
          CAPTURE(s1);
          CAPTURE(n1);
          CAPTURE(s2);
          CAPTURE(n2);
          const stats::difference got = stats::newcombe(s1, n1, s2, n2);
          const stats::difference want = newcombe_here(s1, n1, s2, n2);
          CHECK(std::fabs(got.estimate - want.estimate) <= 1e-12);
          CHECK(std::fabs(got.low - std::max(-1.0, want.low)) <= 1e-12);
          CHECK(std::fabs(got.high - std::min(1.0, want.high)) <= 1e-12);
          CHECK(got.low <= got.estimate);
          CHECK(got.estimate <= got.high);
        }
  // No runs on a side: its rate is 0 with the interval [0, 1].
  CHECK(stats::newcombe(0, 0, 0, 0) == stats::difference{0, -1, 1});
}
