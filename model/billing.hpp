#pragma once
// Billing of a held instance: every second it is held is paid for (start-up, restores, checkpoint writes and idle
// time included), rounded up to the billing increment with a minimum charge (GCP and AWS: 1 minute, then per
// second). A spot price that changes over time is integrated over the billed interval.
#include "base/time.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

inline Millis billed_duration(Millis held, const Billing& billing) {
  const Millis increments = (held + billing.increment - 1) / billing.increment;
  const Millis rounded = increments * billing.increment;
  return rounded < billing.minimum ? billing.minimum : rounded;
}

// USD for one instance held from `from` for `held`, at a (possibly time-varying) hourly price.
inline double instance_cost(const StepSeries& price_per_hour, Millis from, Millis held, const Billing& billing) {
  const Millis billed = billed_duration(held, billing);
  if (price_per_hour.times().size() == 1) return price_per_hour.values().front() * to_hours(billed);
  return price_per_hour.integrate_hours(from, from + billed);
}

}  // namespace spotsim
