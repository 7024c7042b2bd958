// `optimal-dp`: the checkpoint schedule of Kadupitiya et al. (HPDC'20) computed by dynamic programming from the
// zone's lifetime model (see checkpoint_schedule_dp.hpp). The table is built once per zone and job, on first use,
// and reused across replications.
#include <map>
#include <memory>
#include <tuple>

#include "model/market/lifetime_distribution.hpp"
#include "policies/checkpoint_schedule_dp.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

namespace {

class OptimalDpCheckpointPolicy final : public CheckpointPolicy {
 public:
  OptimalDpCheckpointPolicy(std::size_t grid, bool on_notice) : grid_(grid), on_notice_(on_notice) {}

  Millis next_interval(const Observation& obs) override {
    if (obs.purchase != Purchase::kSpot) return kNever;
    const ZoneView& zone = obs.zones[static_cast<std::size_t>(obs.zone)];
    const LifetimeDistribution* lifetime = zone.lifetime;
    if (!lifetime) {
      // Recorded traces: an exponential model with the trace's mean time between preemptions.
      if (zone.spot_mtbf == kNever) return kNever;
      auto& fallback = exponential_[obs.zone];
      if (!fallback) fallback = std::make_unique<LifetimeDistribution>(ExponentialLifetime{to_hours(zone.spot_mtbf)});
      lifetime = fallback.get();
    }
    const Key key{lifetime, obs.job->work, obs.job->checkpoint_write, obs.job->startup + obs.job->restore,
                  obs.job->nodes};
    auto it = tables_.find(key);
    if (it == tables_.end()) {
      CheckpointScheduleInput in;
      in.lifetime = lifetime;
      in.nodes = obs.job->nodes;
      in.work = obs.job->work;
      in.checkpoint_write = obs.job->checkpoint_write;
      in.restart = obs.job->startup + obs.job->restore;
      in.age_points = grid_;
      it = tables_.emplace(key, std::make_unique<CheckpointScheduleDp>(in)).first;
    }
    return it->second->next_interval(obs.remaining_work(), obs.instance_age);
  }
  bool varies_within_instance() const override { return true; }
  bool checkpoint_on_notice() const override { return on_notice_; }

 private:
  struct Key {
    const LifetimeDistribution* lifetime;
    Millis work, write, restart;
    int nodes;
    bool operator<(const Key& o) const {
      return std::tie(lifetime, work, write, restart, nodes) <
             std::tie(o.lifetime, o.work, o.write, o.restart, o.nodes);
    }
  };
  std::size_t grid_;
  bool on_notice_;
  std::map<Key, std::unique_ptr<CheckpointScheduleDp>> tables_;
  std::map<int, std::unique_ptr<LifetimeDistribution>> exponential_;
};

}  // namespace

void register_optimal_dp_checkpoint(PolicyRegistry& registry) {
  registry.add(PolicyEntry<CheckpointPolicy>{
      "optimal-dp",
      "checkpoint schedule minimising expected makespan for the lifetime model, by dynamic programming over "
      "(remaining work, VM age) (Kadupitiya, Jadhao & Sharma, HPDC'20)",
      "grid=300 (age points over the longest lifetime), on_notice=false", [](const PolicyParams& p) {
        return std::make_unique<OptimalDpCheckpointPolicy>(static_cast<std::size_t>(p.integer("grid", 300, 20, 2000)),
                                                           p.flag("on_notice", false));
      }});
}

}  // namespace spotsim
