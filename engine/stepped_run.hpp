#pragma once
// The one interface of every engine (the event engine, the Can't Be Late tick engine, the elastic engine): one
// replication of one job advanced event by event, in the spirit of SimGrid's Model::next_occurring_event. Whoever
// drives it asks next_event_time() and steps: the replication runner takes one job to its end (run()), a campaign
// (engine/campaign/) steps many jobs on one clock and takes the earliest each time. make_engine()
// (engine/engine_factory.hpp) picks the engine a scenario needs.
//
// An engine is reused across replications on one thread: begin() resets everything a replication changes.
#include <cstdint>

#include "base/time.hpp"
#include "model/run_result.hpp"

namespace spotsim {

class CampaignMember;
class EventObserver;

class SteppedRun {
 public:
  virtual ~SteppedRun() = default;

  // Where replication `replication` starts in the trace: the scenario's trace start, drawn per replication when it
  // is random (and on the engine's clock: the tick engine starts on a tick).
  virtual Millis window_start(std::uint64_t seed, std::uint64_t replication) const = 0;
  // Starts a replication at `start` (in the trace's frame) and makes the first decision.
  virtual void begin(std::uint64_t seed, std::uint64_t replication, Millis start) = 0;
  // The time of the next event; kNever once finished.
  virtual Millis next_event_time() = 0;
  // Processes the next event (nothing once finished).
  virtual void step() = 0;
  virtual bool finished() const = 0;
  // The replication's result: complete once finished().
  virtual const RunResult& result() const = 0;

  // One replication from its window's start to its end. Engines may override it with a tighter loop of the same
  // events (the event engine does); the result is the same.
  virtual RunResult run(std::uint64_t seed, std::uint64_t replication) {
    begin(seed, replication, window_start(seed, replication));
    while (!finished() && next_event_time() != kNever) step();
    return result();
  }

  // Reports the replications' events to `observer` (null: none), as `simulate --timeline` logs them; attached or
  // not, a run is the same run.
  virtual void set_observer(EventObserver* observer) = 0;

  // The engine's side of a campaign's shared capacity and rules, or null when the engine cannot join a campaign.
  virtual CampaignMember* campaign_member() { return nullptr; }
};

}  // namespace spotsim
