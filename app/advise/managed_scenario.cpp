#include "app/advise/managed_scenario.hpp"

#include <algorithm>

#include "app/advise/offer_scenario.hpp"
#include "base/errors.hpp"

namespace spotsim {

GpuOffer managed_as_gpu_offer(const ManagedOffer& offer) {
  GpuOffer g;
  g.cloud = offer.cloud;
  g.region = offer.region;
  g.instance_type = offer.instance_type;
  g.gpu = offer.gpu;
  g.gpus_per_instance = offer.gpus_per_instance;
  // One price: the engine charges the mode's policy at it (on-demand rows never hold spot and spot rows never
  // hold on-demand).
  g.on_demand_per_hour = offer.price_per_hour;
  g.spot_per_hour = offer.price_per_hour;
  g.spot_price_estimated = offer.price_estimated;
  g.date = offer.date;
  g.source = offer.source;
  g.preemption = offer.preemption;
  g.notes = offer.notes;
  return g;
}

ManagedScenario managed_scenario(const ManagedOffer& offer, const JobSpec& job, const GpuOfferCatalogue& gpu_offers) {
  ManagedScenario s;
  PreemptionSource never_preempted;  // on-demand: the spot side is never used
  const PreemptionSource* source = &never_preempted;
  if (offer.mode == ManagedMode::kSpot) {
    const auto it = gpu_offers.sources.find(offer.preemption);
    if (it == gpu_offers.sources.end()) {
      throw InputError(offer.label() + ": preemption source '" + offer.preemption + "' is not in " + gpu_offers.path);
    }
    source = &it->second;
  }
  s.market = offer_market(managed_as_gpu_offer(offer), *source, std::max(1, job.nodes), nullptr);
  s.market.name = offer.label();
  s.market.description = "managed training offer" +
                         (offer.mode == ManagedMode::kSpot ? "; preemptions from " + source->origin : std::string());
  s.market.billing.increment = offer.billing_increment;
  s.market.billing.minimum = offer.billing_minimum;
  s.job = job;
  s.job.startup = offer.startup;
  if (offer.max_wait) s.job.give_up_after = std::min(s.job.give_up_after, *offer.max_wait);
  s.selection_policy = offer.mode == ManagedMode::kSpot ? "spot-only" : "on-demand";
  return s;
}

void apply_managed_billing(const ManagedOffer& offer, RunResult& run) {
  if (offer.startup_billed || run.ledger_startup == 0.0) return;
  const double startup = run.ledger_startup;
  // A managed row holds one kind of instance, so the start-up was paid at that kind's price; split it by share
  // should both ever be present.
  const double held = run.cost_spot + run.cost_on_demand;
  const double spot_share = held > 0.0 ? run.cost_spot / held : 0.0;
  run.cost_spot -= startup * spot_share;
  run.cost_on_demand -= startup * (1.0 - spot_share);
  run.cost_total -= startup;
  run.ledger_startup = 0.0;
}

}  // namespace spotsim
