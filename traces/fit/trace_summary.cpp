#include "traces/fit/trace_summary.hpp"

#include <algorithm>

#include "traces/fit/uptime_records.hpp"

namespace spotsim {

namespace {

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Instances lost per instance-hour held, over one period of a count series (a drop from 3 to 1 loses two).
double loss_rate(const StepSeries& available) {
  const auto& v = available.values();
  double lost = 0.0;
  for (std::size_t i = 0; i + 1 < v.size(); ++i) lost += std::max(0.0, v[i] - v[i + 1]);
  const double instance_hours = available.integrate_hours(0, available.span());
  return instance_hours > 0.0 ? lost / instance_hours : 0.0;
}

}  // namespace

TraceSummary summarize_trace(const SpotMarket& market, int nodes) {
  TraceSummary summary;
  summary.name = market.name;
  summary.span_hours = market.span == kNever ? 0.0 : to_hours(market.span);
  summary.nodes = nodes;
  for (const Zone& zone : market.zones) {
    ZoneSummary z;
    z.name = zone.name;
    z.instance_type = zone.instance_type;
    z.on_demand_price_per_hour = zone.on_demand_price_per_hour;
    const SpotOffer& spot = zone.spot;
    const auto records = uptime_records(zone, market.span, nodes);
    std::vector<double> hours;
    for (const auto& r : records) hours.push_back(r.hours);
    z.uptimes = hours.size();
    if (!hours.empty()) {
      double total = 0.0;
      for (double h : hours) total += h;
      z.mean_uptime_hours = total / static_cast<double>(hours.size());
      z.median_uptime_hours = median(hours);
    }
    if (spot.available && !spot.available->is_constant()) {
      z.preemption_source = "availability";
      z.availability_fraction = spot.available->fraction_where([nodes](double v) { return v >= nodes; });
      z.preemptions_per_instance_hour = loss_rate(*spot.available);
    } else if (!spot.preemption_times.empty() && market.span != kNever) {
      z.preemption_source = "recorded preemptions";
      z.preemptions_per_instance_hour = static_cast<double>(spot.preemption_times.size()) / to_hours(market.span);
    } else if (spot.lifetime) {
      z.preemption_source = "lifetime model " + spot.lifetime->name();
      z.preemptions_per_instance_hour = 1.0 / spot.lifetime->mean();
      z.mean_uptime_hours = spot.lifetime->mean();
      z.median_uptime_hours = spot.lifetime->quantile(0.5);
    } else {
      z.preemption_source = "none";
    }
    const StepSeries& price = spot.price_per_hour;
    z.spot_price_min = price.min_value();
    z.spot_price_max = price.max_value();
    z.spot_price_mean = price.is_constant() || price.span() == kNever
                            ? price.values().front()
                            : price.integrate_hours(0, price.span()) / to_hours(price.span());
    summary.zones.push_back(std::move(z));
  }
  return summary;
}

}  // namespace spotsim
