#pragma once
// A campaign: many training jobs sharing one spot market whose capacity is limited (docs/campaign.md). Each job
// has its own job model (work, instances, checkpoints, deadline) and arrives at its own time; the campaign adds
// what only exists across jobs: the order in which jobs get contested capacity, which instances a shrinking pool
// takes, early stopping of hyperparameter trials, a budget cap and a deadline for the whole campaign.
#include <cmath>
#include <string>
#include <vector>

#include "base/time.hpp"
#include "model/job.hpp"

namespace spotsim {

// A job's data-parallel training as the job stream states it (columns params, step_time, gradient_bytes, overlap;
// docs/campaign.md#communication): what the step-time model's all-reduce (docs/step-time.md#data-parallel) needs
// to price the job's communication on whatever shape it lands on. params = 0: not stated (the flat
// --cross-instance-efficiency applies).
struct DataParallelTraining {
  double params = 0;          // gradient values per step (the model's parameters)
  double step_ms = 0;         // one step on one GPU of the job's instance type, without communication
  double gradient_bytes = 4;  // bytes per gradient value: 4 for fp32 gradients, 2 for bf16/fp16
  double overlap = 1;         // share of the backward pass the all-reduce hides behind (1: PyTorch DDP)
  bool stated() const { return params > 0; }
};

struct CampaignJob {
  std::string name;
  JobSpec job;
  Millis arrival = 0;  // after the campaign's start
  int priority = 0;    // higher first (scheduling "priority")
  double score = NAN;  // a trial's quality for early stopping (higher is better); NaN = drawn per replication
  // The instance type the job asks for ("" = the trace's): the DIY rows check the trace offers it, the managed rows
  // rent that hardware (docs/campaign.md#instance-types).
  std::string instance_type;
  // The trace's zones (indices, ascending) the job runs in; empty = every zone. Set where a trace holds several
  // instance shapes: the zones of the job's shape.
  std::vector<int> zones;
  DataParallelTraining training;
  // The step-time model's scaling efficiency on the job's layout (one-GPU compute / step there), set by the app
  // from `training` where it is stated: the job needs work / this on any instance count. NaN: the spec's flat rule.
  double scaling_efficiency = NAN;
};

// Who goes first when jobs contend for the same spot capacity at the same moment (and who is woken first when
// another job releases some).
enum class SchedulingRule { kFifo, kPriority, kEarliestDeadline, kShortestFirst };

// Which of the campaign's spot instances a zone takes back when its count falls below what the campaign holds.
enum class ReclaimRule { kRandom, kNewestFirst };

// Asynchronous successive halving (Li et al., "A System for Massively Parallel Hyperparameter Tuning", MLSys'20;
// the early stopping of Ray Tune's ASHA scheduler): when a trial reaches a rung (a fraction of its work), it goes on
// only if its score is among the best `keep_fraction` of the scores recorded at that rung so far, itself included.
struct EarlyStopping {
  std::vector<double> rungs;   // increasing fractions of the work in (0, 1); empty = no early stopping
  double keep_fraction = 1.0;  // 1/eta; 1 keeps every trial
  bool enabled() const { return !rungs.empty(); }
};

// Rungs at min_fraction * eta^k below 1 (Hyperband's geometric budgets): eta = 3, min 1/9 gives 1/9 and 1/3.
EarlyStopping successive_halving(double eta, double min_fraction);

// The largest budget taken (USD): far beyond any real spend, and small enough that times derived from it stay exact.
inline constexpr double kMaxBudgetUsd = 1e15;

struct CampaignSpec {
  std::vector<CampaignJob> jobs;
  SchedulingRule scheduling = SchedulingRule::kFifo;
  ReclaimRule reclaim = ReclaimRule::kRandom;
  EarlyStopping early_stopping;
  double budget_usd = INFINITY;  // every job stops when the campaign's spend reaches it
  Millis deadline = kNever;      // after the campaign's start, for every job (with its own, the earlier counts)
  // Every job in the Can't Be Late tick engine (engine/tick_simulation.hpp) instead of the event engine, on ticks of
  // `tick` counted from its arrival (0: the trace's tick).
  bool cant_be_late_mode = false;
  Millis tick = 0;
  // Data-parallel scaling efficiency across instances: a restart-mode job on more than one instance needs
  // work / this (campaign_job_work; advise's rule, docs/advise.md#method). 1 = perfect scaling.
  double cross_instance_efficiency = 1.0;
};

// The compute a campaign job needs on `instances` instances: its work / its modelled scaling efficiency where it has
// one (docs/campaign.md#communication); else, in restart mode on more than one instance, its work / the spec's
// cross-instance efficiency, as advise's offer_job does; an elastic job (min_nodes) without a modelled efficiency
// keeps its own scaling model (docs/elastic.md).
JobSpec campaign_job_work(const CampaignSpec& spec, const CampaignJob& job, int instances);
// The efficiency campaign_job_work divides the work by (1: none).
double campaign_job_efficiency(const CampaignSpec& spec, const CampaignJob& job, int instances);

// InputError naming `where` and the field for anything invalid (no job, a bad job, rungs out of order...).
void validate_campaign(const CampaignSpec& spec, const std::string& where);

// The job's deadline relative to its own start once the campaign's deadline is applied.
Millis campaign_job_deadline(const CampaignSpec& spec, const CampaignJob& job);

// Random streams of job j: job 0 uses the campaign's seed (a campaign of one job replays `simulate` with that
// seed), job j > 0 a seed derived from (seed, j).
std::uint64_t campaign_job_seed(std::uint64_t seed, std::size_t job);

const char* scheduling_rule_name(SchedulingRule rule);
const char* reclaim_rule_name(ReclaimRule rule);

}  // namespace spotsim
