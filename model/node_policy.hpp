#pragma once
// The narrow interface through which a policy steers a multi-node job in the elastic engine
// (engine/elastic/elastic_simulation.hpp): how many spot and how many on-demand instances to hold. Like
// SelectionPolicy, it sees a read-only snapshot and never the future of the trace.
#include <climits>
#include <span>

#include "base/time.hpp"
#include "model/job.hpp"

namespace spotsim {

// One zone the job may hold its instances in, as it is now. A job's instances are all in one zone at a time (a
// training set spans no regions: its all-reduce would cross them); moving means releasing them all and starting
// again there, after the saved state has followed (docs/elastic.md#zones).
struct NodeZoneView {
  int spot_obtainable = INT_MAX;  // spot instances the job could add there now (its own there count as held)
  double spot_price_per_hour = 0.0;
  double on_demand_price_per_hour = 0.0;
  Millis move_time = 0;    // moving the saved state there from data_zone: the transfer after the start-up
  double move_cost = 0.0;  // ... and its egress bill (USD), once per move
  // The checkpoint policy's intervals on a training set there (they may follow the zone's preemption rate).
  Millis checkpoint_interval = kNever;
  Millis spot_checkpoint_interval = kNever;
};

struct NodeObservation {
  Millis now = 0;        // wall-clock time in the trace's frame
  Millis elapsed = 0;    // since the job started
  Millis progress = 0;   // work done (ms of training on all `nodes`)
  Millis committed = 0;  // saved by the last checkpoint
  int nodes = 1;         // the job's full size
  int min_nodes = 1;     // the fewest it trains on (== nodes: the restart mode)
  int spot_held = 0;     // requested and not lost (booting or ready)
  int spot_ready = 0;
  int on_demand_held = 0;
  int on_demand_ready = 0;
  int training = 0;          // instances in the current training set (0 while stopped)
  bool running = false;      // the job holds a training set of >= min_nodes (training, or pausing to reconfigure)
  bool progressing = false;  // training right now (not restoring, reconfiguring or writing a checkpoint)
  // Spot instances that could be added now; INT_MAX when the zone's availability is not limited by a count.
  int spot_obtainable = INT_MAX;
  int preemptions = 0;                  // events that took spot instances from the job
  Millis interruption = 0;              // a stop's cost: start-up + restore (what a restart pays before training again)
  Millis reconfiguration = 0;           // one reconfiguration's pause
  Millis checkpoint_interval = kNever;  // the checkpoint policy's interval on on-demand (compute between writes)
  Millis spot_checkpoint_interval = kNever;  // ... and on spot: the most training a preemption can throw away
  double spot_price_per_hour = 0.0;          // per instance, now
  double on_demand_price_per_hour = 0.0;
  std::span<const double> rate;  // rate[k]: throughput of k instances relative to all `nodes`
  const JobSpec* job = nullptr;
  // Zones (the scenario's, in its order; one on a single-zone trace). The fields above describe `zone`.
  int zone = 0;        // where the job holds, or will launch, its instances
  int data_zone = -1;  // where its saved state lies (-1: nothing saved yet; moving is then free)
  std::span<const NodeZoneView> zones;

  Millis remaining_work() const { return job->work - progress; }
  bool has_deadline() const { return job->deadline != kNever; }
  Millis time_to_deadline() const { return job->deadline - elapsed; }
};

struct NodeRequest {
  int spot = 0;               // spot instances to hold (the engine adds them as they become obtainable)
  int on_demand = 0;          // on-demand instances to hold; spot + on_demand is capped at nodes
  Millis review_at = kNever;  // absolute time to be asked again; kNever = at the next event
  // Where to hold them: -1 = where the job is (NodeObservation::zone). Another zone releases every instance (a
  // stop: training since the last checkpoint is lost) and launches the targets there.
  int zone = -1;
};

class NodePolicy {
 public:
  virtual ~NodePolicy() = default;
  virtual void reset() {}
  // Asked at the start, after every loss of instances, when spot instances become obtainable while the job wants
  // more, when a training set forms, and at the review time it asked for.
  virtual NodeRequest decide(const NodeObservation& obs) = 0;
};

}  // namespace spotsim
