// Policies of multi-node jobs in the elastic engine (model/node_policy.hpp, docs/elastic.md): how many spot
// and on-demand instances to hold.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "policies/node_zone_choice.hpp"
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
    return {obs.nodes - core, core, kNever, node_zone_for_spot(obs, obs.nodes - core, core)};
  }

 private:
  int core_;
};

class OnDemandNodesPolicy final : public NodePolicy {
 public:
  NodeRequest decide(const NodeObservation& obs) override {
    return {0, obs.nodes, kNever, node_zone_for_on_demand(obs)};
  }
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
    if (!obs.has_deadline()) return {obs.nodes - core, core, kNever, node_zone_for_spot(obs, obs.nodes - core, core)};
    const Millis slack = slack_with(obs, terms_here(obs));
    if (slack <= 0) safe_ = true;
    if (safe_) {
      // A restart-mode job leaves spot at once (what it loses is within the allowance); an elastic job keeps the
      // spot instances that train and fills the rest with on-demand. A job that is not training goes back to its
      // saved state's zone (the net counts no transfer), all on on-demand: its spot instances stay behind.
      const bool restart = obs.min_nodes == obs.nodes;
      const int zone = node_zone_for_on_demand(obs);
      const int keep_spot = restart || zone >= 0 ? 0 : obs.spot_held;
      return {keep_spot, std::max(core, obs.nodes - keep_spot), kNever, zone};
    }
    const int zone = node_zone_for_spot(obs, obs.nodes - core, core, zones_open(obs));
    if (zone >= 0) {
      // A move: the job starts again there, nothing trains until then (slack shrinks at rate 1), and its slack is
      // that zone's (its intervals and transfer), open by zones_open.
      return {obs.nodes - core, core, obs.now + std::max<Millis>(1, slack_with(obs, terms_in(obs, zone))), zone};
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
    return {obs.nodes - core, core, review, -1};
  }

 private:
  // What the net counts in a zone: the interval its writes come at, the most training a loss there throws away,
  // and the transfer still to come before training there.
  struct ZoneTerms {
    Millis write_interval = kNever;
    Millis spot_interval = kNever;
    Millis move = 0;
  };

  // The job's own zone. A job that falls back to on-demand away from its saved state goes back to the state's zone
  // (node_zone_for_on_demand): its writes there count too.
  static ZoneTerms terms_here(const NodeObservation& obs) {
    ZoneTerms t;
    t.write_interval = std::min(obs.checkpoint_interval, obs.spot_checkpoint_interval);
    t.spot_interval = obs.spot_checkpoint_interval;
    if (away_from_state(obs, obs.zone)) {
      t.write_interval =
          std::min(t.write_interval, obs.zones[static_cast<std::size_t>(obs.data_zone)].checkpoint_interval);
      if (!obs.progressing) t.move = obs.zones[static_cast<std::size_t>(obs.zone)].move_time;
    }
    return t;
  }

  // Zone z, for a job that is not training and would launch there (the intervals may follow z's preemption rate).
  static ZoneTerms terms_in(const NodeObservation& obs, int z) {
    const NodeZoneView& view = obs.zones[static_cast<std::size_t>(z)];
    ZoneTerms t;
    t.write_interval = std::min(view.checkpoint_interval, view.spot_checkpoint_interval);
    t.spot_interval = view.spot_checkpoint_interval;
    if (away_from_state(obs, z)) {
      t.write_interval =
          std::min(t.write_interval, obs.zones[static_cast<std::size_t>(obs.data_zone)].checkpoint_interval);
      t.move = view.move_time;
    }
    return t;
  }

  static bool away_from_state(const NodeObservation& obs, int z) {
    return obs.data_zone >= 0 && obs.data_zone != z && !obs.zones.empty();
  }

  Millis slack_with(const NodeObservation& obs, const ZoneTerms& t) const {
    return obs.time_to_deadline() - pending_pause(obs) - t.move - time_to_finish_on_full_set(obs, t.write_interval) -
           allowance(obs, t.spot_interval) - margin_;
  }

  // The zones a move may go to: those where the net would still be open after the move (the job is not training:
  // node_zone_for_spot moves no other job).
  std::span<const std::uint8_t> zones_open(const NodeObservation& obs) {
    if (obs.zones.size() <= 1 || obs.running) return {};
    open_.assign(obs.zones.size(), 0);
    for (std::size_t z = 0; z < obs.zones.size(); ++z) {
      open_[z] = static_cast<int>(z) == obs.zone || slack_with(obs, terms_in(obs, static_cast<int>(z))) > 0;
    }
    return open_;
  }

  // The work left on the full set, with the periodic checkpoint writes it will make there: at the shorter of the
  // on-demand and spot intervals (an elastic job keeps training spot instances, and writes at their interval).
  // ceil(remaining / interval) writes bound those of a stretch already under way (floor would miss one while
  // the stretch since the last write plus the remaining work spans one more interval).
  static Millis time_to_finish_on_full_set(const NodeObservation& obs, Millis interval) {
    const Millis remaining = obs.remaining_work();
    const Millis writes = interval == kNever || interval <= 0 ? 0 : (remaining + interval - 1) / interval;
    return remaining + writes * obs.job->checkpoint_write;
  }

  // What interruptions can still cost once the net has closed: a restart pays start-up, restore, the work since
  // the last checkpoint and one write. An elastic job keeps its training spot instances: all of them going at once
  // (a pool that empties) is such a restart, and each of the up to `nodes` it can lose one by one costs two
  // reconfigurations (the loss, and the on-demand instance that fills in joining).
  static Millis allowance(const NodeObservation& obs, Millis spot_interval) {
    // The most a stop can throw away: the training since the last write, at most one interval on spot (all the
    // work so far when nothing is ever written).
    const Millis unsaved =
        spot_interval == kNever ? obs.job->work : std::max(spot_interval, obs.progress - obs.committed);
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
  // say which: the largest). A transfer of the saved state comes on top (ZoneTerms::move: the whole transfer, the
  // observation does not say how much of it is done).
  static Millis pending_pause(const NodeObservation& obs) {
    if (obs.progressing) return 0;
    return std::max({obs.interruption, obs.reconfiguration, obs.job->checkpoint_write});
  }

  int core_;
  Millis margin_;
  bool safe_ = false;
  std::vector<std::uint8_t> open_;
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
