#pragma once
// The outcome of one replication of a campaign (docs/campaign.md#outputs).
#include <cstdint>
#include <vector>

#include "model/run_result.hpp"

namespace spotsim {

enum class JobStatus : std::uint8_t { kCompleted, kStoppedEarly, kFailed };

struct CampaignJobOutcome {
  JobStatus status = JobStatus::kFailed;
  double finish_hours = 0.0;  // campaign start -> the job's end (completion, early stop, give-up or budget stop)
  bool deadline_met = false;  // completed (or stopped early) by its deadline
  double cost = 0.0;          // USD: the job's own bill (0 when it never started)
};

struct CampaignRun {
  std::uint64_t replication = 0;
  double makespan_hours = 0.0;  // campaign start -> the last job's end
  int completed = 0, stopped_early = 0, failed = 0;
  bool all_done = false;      // no job failed (completed or stopped early)
  bool deadline_met = false;  // all done, each by its deadline
  bool budget_exhausted = false;
  double cost_total = 0.0, cost_spot = 0.0, cost_on_demand = 0.0, cost_egress = 0.0;
  // What the instances were paid for while not training (start-up, restore, checkpoint writes, transfers, idle,
  // billing rounding, reconfiguration), and compute thrown away by preemptions: parts of the spot + on-demand cost.
  double cost_idle = 0.0;
  double cost_lost_work = 0.0;
  int preemptions = 0;
  int capacity_reclaims = 0;  // jobs preempted because the pool fell below what the campaign held
  double spot_instance_hours = 0.0, on_demand_instance_hours = 0.0;
  double capacity_instance_hours = 0.0;  // the zones' obtainable counts integrated over the makespan
  double trace_start_hours = 0.0;
  std::vector<double> held_by_hour;      // mean spot instances held in each hour after the start
  std::vector<double> capacity_by_hour;  // mean obtainable (sum of zone counts) in each hour
  std::vector<CampaignJobOutcome> jobs;
  // Each job's own run (times relative to its arrival), in job order; left empty when the caller wants only the
  // summary (a RunResult per job and replication is what made 100,000 queued jobs take gigabytes).
  std::vector<RunResult> job_runs;
  std::uint64_t events = 0;

  // Share of the obtainable spot capacity the campaign held, over the makespan (0 when nothing is obtainable).
  double capacity_utilisation() const {
    return capacity_instance_hours > 0.0 ? spot_instance_hours / capacity_instance_hours : 0.0;
  }
};

// Adds a job's bill to a campaign's: the cost split, the part paid while not training (start-up, restore, checkpoint
// writes, transfers, idle, billing rounding, reconfiguration), compute thrown away, and preemptions.
inline void add_job_costs(CampaignRun& out, const RunResult& r) {
  out.cost_total += r.cost_total;
  out.cost_spot += r.cost_spot;
  out.cost_on_demand += r.cost_on_demand;
  out.cost_egress += r.cost_egress;
  out.cost_idle += r.ledger_startup + r.ledger_restore + r.ledger_checkpoint + r.ledger_transfer + r.ledger_idle +
                   r.ledger_rounding + r.ledger_reconfigure;
  out.cost_lost_work += r.ledger_lost_work;
  out.preemptions += r.preemptions;
}

}  // namespace spotsim
