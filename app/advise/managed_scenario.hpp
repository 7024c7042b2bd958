#pragma once
// A managed training offer mapped onto what the engine already simulates (docs/managed.md#mapping), so that a
// managed row and a DIY row of the same job run on the same seeds (common random numbers):
//   - market: one zone at the service's price, with the billing increment and minimum of the service and, for a
//     spot offer, the preemption source of the cloud's spot for that GPU;
//   - job: the caller's job with the service's per-start overhead as its start-up, and its give-up time capped at
//     the service's max_wait where the offer has one;
//   - selection policy: "on-demand" for an on-demand offer; "spot-only" for managed spot, which is what the
//     services do: wait for spot capacity, and after every preemption restart from the last checkpoint;
// then apply_managed_billing() corrects each run's bill for what the service bills differently (SageMaker does not
// bill the instance start-up: its billing starts at TrainingStartTime).
//
// For the campaign command, per job:
//   const ManagedScenario s = managed_scenario(offer, job, gpu_offers);
//   const Scenario scenario(s.market, s.job);   // s must outlive it: Scenario keeps a pointer to the market
//   auto runs = run_replications(scenario, {registry.selection_factory(s.selection_policy), checkpoint}, plan);
//   for (RunResult& r : runs) apply_managed_billing(offer, r);
#include <string>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "app/advise/managed_offer_catalogue.hpp"
#include "model/job.hpp"
#include "model/market/spot_market.hpp"
#include "model/run_result.hpp"

namespace spotsim {

struct ManagedScenario {
  SpotMarket market;
  JobSpec job;
  std::string selection_policy;  // "on-demand" or "spot-only"
};

// `job` is the job as it runs on this offer's instances: work and nodes set (e.g. by offer_job()); its start-up is
// replaced by the service's. InputError if the offer's preemption source is not in `gpu_offers`.
ManagedScenario managed_scenario(const ManagedOffer& offer, const JobSpec& job, const GpuOfferCatalogue& gpu_offers);

// The offer as a GPU offer (the same price on demand and on spot), for offer_market() and for reports.
GpuOffer managed_as_gpu_offer(const ManagedOffer& offer);

// What the service bills differently from the engine's instance-time bill: with startup_billed = false, the start-up
// share of the ledger (every start, restarts included) is taken off the total and off the spot or on-demand cost it
// was part of. Idempotent on a run whose start-up share is already 0.
void apply_managed_billing(const ManagedOffer& offer, RunResult& run);

}  // namespace spotsim
