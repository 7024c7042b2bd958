// Policies of multi-node jobs in the elastic engine (model/node_policy.hpp, docs/elastic.md): how many spot
// and on-demand instances to hold.
#include <algorithm>
#include <cmath>
#include <memory>

#include "policies/policy_registry.hpp"

namespace spotsim {

namespace {

// Spot for every instance but a fixed on-demand core (the production pattern of a few reserved instances that
// keep training going while spot comes and goes); no deadline logic.
class SpotNodesPolicy final : public NodePolicy {
 public:
  explicit SpotNodesPolicy(int core) : core_(core) {}
  NodeRequest decide(const NodeObservation& obs) override {
    const int core = std::min(core_, obs.nodes);
    return {obs.nodes - core, core, kNever};
  }

 private:
  int core_;
};

class OnDemandNodesPolicy final : public NodePolicy {
 public:
  NodeRequest decide(const NodeObservation& obs) override { return {0, obs.nodes, kNever}; }
};

// spot-nodes plus a deadline safety net counted in instance-hours: the work left needs remaining_work x nodes
// instance-hours on the full set; once the full set, completed with on-demand instances, could only just supply
// them before the deadline (allowing for one interruption of the kind the mode suffers), the missing instances
// are filled with on-demand for good. In the restart mode (min_nodes == nodes) a stop then restarts all on
// on-demand; in the elastic mode on-demand fills what spot cannot give and spot instances already training stay.
class DeadlineNodesPolicy final : public NodePolicy {
 public:
  DeadlineNodesPolicy(int core, Millis margin) : core_(core), margin_(margin) {}
  void reset() override { safe_ = false; }

  NodeRequest decide(const NodeObservation& obs) override {
    const int core = std::min(core_, obs.nodes);
    if (!obs.has_deadline()) return {obs.nodes - core, core, kNever};
    const Millis slack =
        obs.time_to_deadline() - pending_pause(obs) - time_to_finish_on_full_set(obs) - allowance(obs) - margin_;
    if (slack <= 0) safe_ = true;
    if (safe_) {
      // A restart-mode job leaves spot at once (what it loses is within the allowance); an elastic job keeps the
      // spot instances that train and fills the rest with on-demand.
      const bool restart = obs.min_nodes == obs.nodes;
      const int keep_spot = restart ? 0 : obs.spot_held;
      return {keep_spot, std::max(core, obs.nodes - keep_spot), kNever};
    }
    // When the net would close if nothing changed: slack shrinks by (1 - rate) per ms of training at the current
    // size, by 1 per ms while nothing trains (stopped, starting, restoring, reconfiguring, writing).
    // At the full rate slack holds still, until the next checkpoint write pauses training: ask again when it is
    // due, so that the write's pause (slack shrinking at rate 1) is watched from its start.
    const double rate = obs.progressing ? obs.rate[static_cast<std::size_t>(obs.training)] : 0.0;
    const double shrink = 1.0 - rate;
    Millis review = kNever;
    if (shrink > 0.0) {
      review = obs.now + std::max<Millis>(1, static_cast<Millis>(static_cast<double>(slack) / shrink));
    } else if (obs.spot_checkpoint_interval != kNever) {
      review = obs.now + std::max<Millis>(1, obs.spot_checkpoint_interval - (obs.progress - obs.committed));
    }
    return {obs.nodes - core, core, review};
  }

 private:
  // The work left on the full set, with the periodic checkpoint writes it will make there: at the shorter of the
  // on-demand and spot intervals (an elastic job keeps training spot instances, and writes at their interval).
  // ceil(remaining / interval) writes bound those of a stretch already under way (floor would miss one while
  // the stretch since the last write plus the remaining work spans one more interval).
  static Millis time_to_finish_on_full_set(const NodeObservation& obs) {
    const Millis remaining = obs.remaining_work();
    const Millis interval = std::min(obs.checkpoint_interval, obs.spot_checkpoint_interval);
    const Millis writes = interval == kNever || interval <= 0 ? 0 : (remaining + interval - 1) / interval;
    return remaining + writes * obs.job->checkpoint_write;
  }

  // What interruptions can still cost once the net has closed: a restart pays start-up, restore, the work since
  // the last checkpoint and one write. An elastic job keeps its training spot instances: all of them going at once
  // (a pool that empties) is such a restart, and each of the up to `nodes` it can lose one by one costs two
  // reconfigurations (the loss, and the on-demand instance that fills in joining).
  static Millis allowance(const NodeObservation& obs) {
    // The most a stop can throw away: the training since the last write, at most one interval on spot (all the
    // work so far when nothing is ever written).
    const Millis interval = obs.spot_checkpoint_interval;
    const Millis unsaved = interval == kNever ? obs.job->work : std::max(interval, obs.progress - obs.committed);
    const Millis restart = obs.interruption + obs.job->checkpoint_write + std::max<Millis>(unsaved, 0);
    if (obs.min_nodes == obs.nodes) return restart;
    // Each loss also slows training until its on-demand replacement has started: at worst to the rate of
    // min_nodes, for one start-up.
    const double slowest = obs.rate.size() > static_cast<std::size_t>(obs.min_nodes)
                               ? obs.rate[static_cast<std::size_t>(obs.min_nodes)]
                               : 0.0;
    const auto slowed = static_cast<Millis>(std::ceil((1.0 - slowest) * static_cast<double>(obs.job->startup)));
    return restart + (2 * obs.reconfiguration + slowed) * obs.nodes;
  }

  // What the job must still go through before it trains again, when it is not training now: a stop's start-up
  // and restore, a reconfiguration's pause or a checkpoint write, whichever it is in (the observation does not
  // say which: the largest).
  static Millis pending_pause(const NodeObservation& obs) {
    if (obs.progressing) return 0;
    return std::max({obs.interruption, obs.reconfiguration, obs.job->checkpoint_write});
  }

  int core_;
  Millis margin_;
  bool safe_ = false;
};

}  // namespace

void register_node_policies(PolicyRegistry& registry) {
  registry.add(PolicyEntry<NodePolicy>{
      "spot-nodes", "multi-node: spot for all instances but a fixed on-demand core; no deadline logic",
      "core=0 (on-demand instances always held)", [](const PolicyParams& p) {
        return std::make_unique<SpotNodesPolicy>(p.integer("core", 0, 0, kMaxElasticNodes));
      }});
  registry.add(PolicyEntry<NodePolicy>{"on-demand-nodes", "multi-node: every instance on-demand", "",
                                       [](const PolicyParams&) { return std::make_unique<OnDemandNodesPolicy>(); }});
  registry.add(PolicyEntry<NodePolicy>{
      "deadline-nodes",
      "multi-node: spot-nodes plus a deadline safety net in instance-hours that fills the missing instances with "
      "on-demand once the full set could only just finish (docs/elastic.md)",
      "core=0 (on-demand instances always held), margin=0s (extra slack kept)", [](const PolicyParams& p) {
        return std::make_unique<DeadlineNodesPolicy>(p.integer("core", 0, 0, kMaxElasticNodes),
                                                     p.duration("margin", 0));
      }});
}

}  // namespace spotsim
