#include "app/advise/offer_scenario.hpp"

#include <algorithm>

namespace spotsim {

OfferShape offer_shape(int job_gpus, int gpus_per_instance) {
  OfferShape shape;
  shape.instances = (job_gpus + gpus_per_instance - 1) / gpus_per_instance;
  shape.idle_gpus = shape.instances * gpus_per_instance - job_gpus;
  return shape;
}

SpotMarket offer_market(const GpuOffer& offer, const PreemptionSource& source, int instances,
                        const SpotPriceHistory* history) {
  Zone zone;
  zone.name = offer.zone.empty() ? offer.region : offer.zone;
  zone.instance_type = offer.instance_type;
  zone.gpu = offer.gpu;
  zone.gpus_per_instance = offer.gpus_per_instance;
  zone.on_demand_price_per_hour = offer.on_demand_per_hour;
  zone.spot = source.spot;
  zone.spot.price_per_hour = history ? history->prices : StepSeries::constant(offer.spot_per_hour);
  if (zone.spot.available && instances > 1 && zone.spot.available->max_value() <= 1.0) {
    const StepSeries& recorded = *zone.spot.available;
    std::vector<double> counts = recorded.values();
    for (double& c : counts) c *= instances;
    zone.spot.available = StepSeries(recorded.times(), std::move(counts), recorded.span());
  }
  SpotMarket market;
  market.name = offer.label();
  market.description = "catalogue offer; preemptions from " + source.origin;
  market.span = source.span;
  // A lifetime model has no clock of its own: replications then start at random points of the price recording
  // (a recorded preemption source keeps its span; the price path repeats with its own).
  if (history && market.span == kNever) market.span = history->prices.span();
  market.zones.push_back(std::move(zone));
  return market;
}

JobSpec offer_job(const JobSpec& base, double steps, double step_time_s, const OfferShape& shape,
                  double cross_instance_efficiency, const std::string& where) {
  JobSpec job = base;
  const double efficiency = shape.instances > 1 ? cross_instance_efficiency : 1.0;
  job.work = std::max<Millis>(1, millis_from_seconds(steps * step_time_s / efficiency));
  job.nodes = shape.instances;
  validate_job(job, where);
  return job;
}

}  // namespace spotsim
