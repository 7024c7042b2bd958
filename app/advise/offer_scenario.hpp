#pragma once
// Turns one catalogue offer and the job into what the engine runs (docs/advise.md#method): a one-zone market
// with the offer's prices and its preemption source, and a job whose work is steps x the step time on the
// offer's GPU, spread over as many instances as the job's GPUs need.
#include <string>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "app/advise/spot_price_history.hpp"
#include "model/job.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

struct OfferShape {
  int instances = 1;  // ceil(job GPUs / GPUs per instance): all needed at once
  int idle_gpus = 0;  // GPUs paid for but not used
};

OfferShape offer_shape(int job_gpus, int gpus_per_instance);

// The market of one offer: one zone with the offer's on-demand and (constant) spot price, and the preemption
// source's availability, recorded preemptions, lifetime model and notice. A 0/1 availability recording (one
// instance could be launched, or none) is read as "the zone's capacity is there or not" and scaled to the
// instance count, so an N-instance job is not refused spot for ever; a drop still preempts all N at once.
// `history`, when given, replaces the catalogue's constant spot price by the recorded price path
// (app/advise/spot_price_history.hpp).
SpotMarket offer_market(const GpuOffer& offer, const PreemptionSource& source, int instances,
                        const SpotPriceHistory* history = nullptr);

// The job on one offer: work = steps x step time, divided by `cross_instance_efficiency` when the job spans
// more than one instance (gradients then cross the network instead of NVLink/PCIe inside one machine).
JobSpec offer_job(const JobSpec& base, double steps, double step_time_s, const OfferShape& shape,
                  double cross_instance_efficiency, const std::string& where);

}  // namespace spotsim
