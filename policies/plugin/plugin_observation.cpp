#include "policies/plugin/plugin_observation.hpp"

#include <type_traits>

namespace spotsim {

static_assert(std::is_same_v<Millis, int64_t>, "the ABI passes recent preemptions as int64 milliseconds in place");
static_assert(kNever == SPOTSIM_NEVER, "the ABI's 'never' must be the engine's");
static_assert(static_cast<int>(Phase::kMigrating) == SPOTSIM_PHASE_MIGRATING &&
                  static_cast<int>(Phase::kDone) == SPOTSIM_PHASE_DONE,
              "the ABI's phase numbers must be the engine's");
static_assert(static_cast<int>(Purchase::kOnDemand) == SPOTSIM_PURCHASE_ON_DEMAND &&
                  static_cast<int>(Purchase::kSpot) == SPOTSIM_PURCHASE_SPOT,
              "the ABI's purchase numbers must be the engine's");

spotsim_observation plugin_observation(const Observation& obs, std::vector<spotsim_zone_view>& zones) {
  zones.resize(obs.zones.size());
  for (std::size_t z = 0; z < obs.zones.size(); ++z) {
    const ZoneView& v = obs.zones[z];
    zones[z] = spotsim_zone_view{v.spot_available ? 1 : 0,
                                 v.region,
                                 v.spot_price_per_hour,
                                 v.on_demand_price_per_hour,
                                 v.spot_mtbf,
                                 v.spot_availability,
                                 v.notice,
                                 v.migration_time,
                                 v.migration_cost};
  }
  spotsim_observation out{};
  out.now_ms = obs.now;
  out.elapsed_ms = obs.elapsed;
  out.progress_ms = obs.progress;
  out.committed_ms = obs.committed;
  out.phase = static_cast<int32_t>(obs.phase);
  out.purchase = static_cast<int32_t>(obs.purchase);
  out.zone = obs.zone;
  out.data_zone = obs.data_zone;
  out.instance_age_ms = obs.instance_age;
  out.preemptions = obs.preemptions;
  out.recent_preemption_count = static_cast<int32_t>(obs.recent_preemptions.size());
  out.recent_preemptions_ms = obs.recent_preemptions.data();
  out.spot_time_ms = obs.spot_time;
  out.wait_time_ms = obs.wait_time;
  out.lossless = obs.lossless ? 1 : 0;
  out.can_checkpoint = obs.can_checkpoint ? 1 : 0;
  out.on_demand_checkpoint_interval_ms = obs.on_demand_checkpoint_interval;
  out.decision_tick_ms = obs.decision_tick;
  if (obs.job != nullptr) {
    const JobSpec& job = *obs.job;
    out.job = spotsim_job_view{
        job.work, job.deadline, job.checkpoint_write, job.restore, job.startup, job.nodes, 0, job.checkpoint_size_gb};
  }
  out.zone_count = static_cast<int32_t>(zones.size());
  out.zones = zones.data();
  return out;
}

}  // namespace spotsim
