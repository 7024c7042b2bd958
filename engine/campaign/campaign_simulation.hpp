#pragma once
// One replication of a campaign: every job's engine (the event engine, or the Can't Be Late tick engine in that mode;
// engine/campaign_member.hpp) stepped on one clock, sharing each zone's spot capacity (docs/campaign.md#model).
//
// - A job sees spot as obtainable in a zone when the zone's count leaves room for its instances after what the
//   other jobs hold; when a job releases spot, waiting jobs are woken in scheduling order.
// - Each job's spot instances are reclaimed as they would be if it were alone in the pool (its own draws, as in
//   `simulate`). When a drop would still leave the campaign holding more than the count, the excess is reclaimed
//   by the reclaim rule, announced with the zone's notice (instances taken within the notice go at once).
// - Simultaneous events: capacity checks first, then arrivals, then jobs in scheduling order.
// A CampaignSimulation is reused across replications on one thread.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/campaign/campaign_result.hpp"
#include "engine/campaign/next_event_index.hpp"
#include "engine/campaign/zone_mapped_capacity.hpp"
#include "engine/campaign_member.hpp"
#include "engine/engine_factory.hpp"
#include "engine/replication_runner.hpp"
#include "engine/shared_capacity.hpp"
#include "model/campaign_spec.hpp"
#include "model/scenario.hpp"

namespace spotsim {

class CampaignSimulation final : public SharedCapacity {
 public:
  // `market` and `spec` must outlive it. TraceStart as for simulate: where replication r starts in a recording.
  CampaignSimulation(const SpotMarket& market, const CampaignSpec& spec, const PolicyFactories& policies,
                     TraceStart start = {});
  CampaignSimulation(const CampaignSimulation&) = delete;
  CampaignSimulation& operator=(const CampaignSimulation&) = delete;

  CampaignRun run(std::uint64_t seed, std::uint64_t replication);
  // Adds 1 to `counter` as each job of a replication ends (and the rest when it ends), so that a progress line over
  // a long campaign moves job by job, not once per replication (null: no counting). Never changes a result.
  void count_jobs_in(std::atomic<std::uint64_t>* counter) { jobs_counter_ = counter; }
  // Whether each run carries every job's own RunResult (CampaignRun::job_runs); on by default.
  void keep_job_runs(bool keep) { keep_job_runs_ = keep; }

  void on_spot_acquired(int job, int zone, int nodes, Millis at) override;
  void on_spot_released(int job, int zone, int nodes, Millis at) override;
  bool on_milestone(int job, int index, Millis at) override;

 private:
  std::atomic<std::uint64_t>* jobs_counter_ = nullptr;
  std::uint64_t jobs_counted_ = 0;  // in this replication
  bool keep_job_runs_ = true;
  struct Drop {
    Millis offset;  // within the count series' period
    int after;
  };
  struct ZoneDrops {
    std::vector<Drop> drops;  // the count's decreases, in order
    Millis span = kNever;
    std::size_t next = 0;  // next drop to check
    Millis period_start = 0;
    bool at_drop = false;  // the next check is the one at the drop itself (the notice's is done)
    Millis check_time(Millis notice) const;
    Millis drop_time() const { return period_start + drops[next].offset; }
  };

  // The jobs limited to one set of the trace's zones (one instance shape): their market and their capacity view.
  struct ZoneSubset {
    SpotMarket market;
    ZoneMappedCapacity capacity;
  };
  // The subset of `zones`, one per distinct set (nullptr: every zone).
  ZoneSubset* subset_of(const std::vector<int>& zones);
  int global_zone(std::size_t job, int zone) const;  // the campaign's number of job's zone `zone`
  bool may_use(std::size_t job, int zone) const;     // whether job runs in the campaign's zone `zone`

  void reset_drops(Millis start);
  void check_drop(int zone);
  void reclaim_excess(int zone, Millis drop_at, bool at_drop);
  void track_held(Millis at);
  void update_budget_time();
  void stop_everything(Millis at);
  void finish_run(CampaignRun& out);

  const SpotMarket& market_;
  const CampaignSpec& spec_;
  TraceStart trace_start_;
  std::vector<std::unique_ptr<ZoneSubset>> subsets_;  // per distinct zone set; its jobs' scenarios point into it
  std::vector<const ZoneSubset*> job_zones_;          // per job; nullptr = every zone
  std::vector<std::unique_ptr<Scenario>> scenarios_;
  std::vector<std::unique_ptr<CheckpointPolicy>> checkpoints_;
  std::vector<EngineInstance> engines_;
  std::vector<CampaignMember*> jobs_;  // engines_[j]'s engine as a campaign member
  std::vector<int> order_;             // jobs in scheduling order
  std::vector<Millis> notice_;         // per zone
  std::vector<ZoneDrops> zone_drops_;

  // Per replication.
  std::uint64_t seed_ = 0, replication_ = 0;
  Millis start_ = 0, now_ = 0;
  std::vector<bool> started_;
  NextEventIndex next_events_;  // the running jobs' next events, refreshed for the jobs touched since
  std::vector<double> scores_;
  std::vector<std::vector<double>> rung_scores_;
  std::size_t next_arrival_ = 0;  // index into arrival_order_
  std::vector<int> arrival_order_;
  bool budget_dirty_ = true, budget_hit_ = false;
  Millis budget_time_ = kNever;
  int capacity_reclaims_ = 0;
  int total_held_ = 0;
  Millis held_since_ = 0;
  double spot_held_ms_ = 0.0;  // instance-ms held, all zones
  std::vector<double> held_by_hour_;
};

}  // namespace spotsim
