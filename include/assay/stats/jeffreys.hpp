// assay/stats/jeffreys.hpp — the Jeffreys interval: the equal-tailed 95% interval of the Beta
// posterior Beta(successes + 1/2, failures + 1/2) (SPEC §12's alternative to Wilson), with
// Boost.Math's Beta quantiles.
#pragma once

#include "assay/stats/interval.hpp"

#include <boost/math/distributions/beta.hpp>

#include <cstdint>

namespace assay::stats {

// [0, 1] when there are no trials (as Wilson: no data, no information). Otherwise the 2.5% and
// 97.5% quantiles of Beta(successes + 1/2, trials - successes + 1/2), as Boost.Math computes
// them (it reports domain errors by throwing; the parameters here are always in its domain).
inline interval jeffreys(std::int64_t successes, std::int64_t trials) {
  if (trials <= 0)
    return {0, 1};
  const double a = static_cast<double>(successes) + 0.5;
  const double b = static_cast<double>(trials - successes) + 0.5;
  const boost::math::beta_distribution<double> posterior(a, b);
  return {boost::math::quantile(posterior, 0.025), boost::math::quantile(posterior, 0.975)};
}

}  // namespace assay::stats
