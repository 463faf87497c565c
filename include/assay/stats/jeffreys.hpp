// assay/stats/jeffreys.hpp — the Jeffreys interval: the equal-tailed 95% interval of the Beta
// posterior Beta(successes + 1/2, failures + 1/2) (SPEC §12's alternative to Wilson), with
// Boost.Math's Beta quantiles.
#pragma once

#include "assay/stats/interval.hpp"

#include <boost/math/special_functions/beta.hpp>

#include <cstdint>

namespace assay::stats {

// [0, 1] when there are no trials (as Wilson: no data, no information). Otherwise the 2.5% and
// 97.5% quantiles of Beta(successes + 1/2, trials - successes + 1/2), as Boost.Math computes
// them: the inverse of the regularized incomplete beta function, which is what its
// beta_distribution's quantile computes (it reports domain errors by throwing; the parameters
// here are always in its domain). A template only so that a translation unit that never asks
// for the interval compiles none of Boost.Math.
template <class = void>
interval jeffreys(std::int64_t successes, std::int64_t trials) {
  if (trials <= 0)
    return {0, 1};
  const double a = static_cast<double>(successes) + 0.5;
  const double b = static_cast<double>(trials - successes) + 0.5;
  return {boost::math::ibeta_inv(a, b, 0.025), boost::math::ibeta_inv(a, b, 0.975)};
}

}  // namespace assay::stats
