#pragma once
// `spotsim advise` as data (docs/advise.md): for every catalogue offer that passes the filters and every
// selection policy, predict the job's step time on the offer's GPU, simulate it with Monte Carlo on a one-zone
// market built from the offer, and rank the rows. Every offer runs the same seed, so offers and policies are
// compared on common random numbers.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/advise/advice_ranking.hpp"
#include "app/advise/advise_job.hpp"
#include "app/advise/break_even.hpp"
#include "app/advise/gpu_offer_catalogue.hpp"
#include "app/advise/managed_offer_catalogue.hpp"
#include "app/advise/spot_price_history.hpp"
#include "engine/replication_runner.hpp"

namespace spotsim {

struct OfferFilter {
  std::vector<std::string> clouds;   // empty = all; matched case-insensitively
  std::vector<std::string> gpus;     // any alias of the spec table
  std::vector<std::string> regions;  // a region or zone name
  bool allow_idle_gpus = false;      // offers whose instances would leave GPUs unused
};

struct AdviceRequest {
  AdviseJob job;
  GpuOfferCatalogue catalogue;
  std::vector<std::string> policies = {"on-demand", "spot-only", "adaptive"};
  std::string checkpoint = "young-daly";
  OfferFilter filter;
  RankingCriteria criteria;
  // Data-parallel scaling efficiency once the job spans several instances: Horovod measured about 90% on
  // 128 GPUs for ResNet-101 and Inception V3 (Sergeev & Del Balso, arXiv 1802.05799, §5).
  double cross_instance_efficiency = 0.9;
  // Recorded spot price paths replayed for the offers they match (--spot-prices); empty: catalogue prices only.
  SpotPriceHistories price_histories;
  // Managed training offers shown beside the DIY rows (docs/managed.md): each that passes the filters is one row,
  // simulated on the same seed with the policy that reproduces the service. Empty: none.
  ManagedOfferCatalogue managed;
  // Monthly engineering cost of running DIY (--engineering-cost): each DIY row then gets the monthly spend above
  // which it pays off against the best managed row (docs/managed.md#break-even).
  std::optional<double> engineering_cost_per_month;
  std::uint64_t seed = 1;
  std::uint64_t replications = 300;
  int threads = 0;
  // Optional: replications done of offers x policies x replications (an offer skipped counts as done), for a
  // progress line; run_advice sets progress->total. Never changes a result.
  ReplicationProgress* progress = nullptr;
};

struct AdviceRow {
  GpuOffer offer;
  std::string preemption_basis;   // of the offer's preemption source: "recorded", "fitted", "default"
  std::string preemption_origin;  // "us-west1.json:us-west1-b", "exponential mean 3.3 h"
  std::string policy;
  std::string spot_price_source;  // "catalogue" or the replayed history's label()
  int instances = 1;
  int idle_gpus = 0;
  double step_time_s = 0.0;
  std::string step_time_origin;  // "job file", "predicted from V100", "measured"
  double work_hours = 0.0;       // steps x step time (/ cross-instance efficiency)
  AdviceMetrics metrics;
  RankedEntry ranked;
  std::string managed_service;  // "vertex-ai", "sagemaker"; empty for a DIY row
  bool managed_spot = false;
  // DIY rows, when a managed row is ranked: the saving against the best one and, with an engineering cost, the
  // break-even monthly spend.
  std::optional<BreakEven> versus_managed;
};

struct SkippedOffer {
  GpuOffer offer;
  std::string reason;
};

struct AdviceReport {
  nlohmann::json manifest;      // version, revision, catalogue, job, policies, filters, seed, replications
  std::vector<AdviceRow> rows;  // best first (ranked, then excluded)
  std::vector<SkippedOffer> skipped;
  std::string recommendation;  // one line
  bool managed_shown = false;  // a managed catalogue was given or --engineering-cost: the report's managed columns
  std::optional<double> engineering_cost_per_month;
  std::string best_managed;  // the ranked managed row DIY rows are compared with ("" if none)
};

// InputError for bad policies, filters matching no offer, or a job no offer can run.
AdviceReport run_advice(const AdviceRequest& request);

}  // namespace spotsim
