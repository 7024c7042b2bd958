#pragma once
// What an engine tells an observer as a run unfolds: its timeline, one TimelineEvent per change of the run's
// state (in the spirit of SimGrid's engine signals). The engine stays free of output formats: it only fills the
// event; writing it anywhere (JSON lines for `simulate --timeline`, app/timeline_writer.hpp) is the
// observer's business. With no observer attached an engine pays one well-predicted null test where it would notify,
// and nothing else: no allocation, no virtual call, nothing in the policies.
#include <cstdint>
#include <string_view>

#include "base/time.hpp"
#include "model/observation.hpp"

namespace spotsim {

enum class TimelineEventKind : std::uint8_t {
  kInstanceAcquired,  // instances requested (`purchase`, `zone`); the start-up follows
  kInstanceReleased,  // the job gave them back, or lost them to a preemption; `purchase`, `zone`: those released
  kPhaseEntered,      // the job entered `phase`
  kPreemptionNotice,  // the provider announced a preemption of the held spot instances
  kPreemption,        // the held spot instances were taken; work since the last checkpoint is lost
  kCheckpointDone,    // a checkpoint write completed: `committed` is now saved
  kTransferDone,      // the saved state arrived in `zone`'s region (a migration)
  kNodesChanged,      // the training set now has `nodes` instances (multi-node engines)
  kReconfiguring,     // training pauses while the set of instances re-forms (multi-node engines)
  kFinished,          // the run ended: the work is done (`completed`) or the job gave up
};

struct TimelineEvent {
  Millis time = 0;  // since the job's start
  TimelineEventKind kind = TimelineEventKind::kPhaseEntered;
  Purchase purchase = Purchase::kNone;  // the instances held after the event (for a release: those released)
  int zone = -1;                        // their zone's index in the trace; -1 when none is held
  Phase phase = Phase::kIdle;           // the job's phase after the event
  Millis progress = 0;                  // work done so far (ms of compute)
  Millis committed = 0;                 // work saved by the last completed checkpoint
  double cost_booked = 0.0;             // USD billed so far: instances when released, egress when a transfer starts
  int nodes = 0;                        // instances held (0 when none)
  bool completed = false;               // kFinished: whether the work was done
  // Multi-node engines that hold spot and on-demand instances at once (the elastic engine) fill these; -1 = not
  // reported (the single-instance engine, whose `purchase` and `nodes` say it all).
  int spot_nodes = -1, on_demand_nodes = -1;  // held after the event: booting, idle or training
  int training_nodes = -1;                    // the training set's size after the event
  bool reconfiguring = false;                 // the set is re-forming (written as the phase "reconfiguring")
};

class EventObserver {
 public:
  virtual ~EventObserver() = default;
  virtual void on_event(const TimelineEvent& event) = 0;
};

// Stable names, as written in timeline files (docs/outputs.md#timeline).
inline std::string_view timeline_event_name(TimelineEventKind kind) {
  switch (kind) {
    case TimelineEventKind::kInstanceAcquired: return "instance_acquired";
    case TimelineEventKind::kInstanceReleased: return "instance_released";
    case TimelineEventKind::kPhaseEntered: return "phase";
    case TimelineEventKind::kPreemptionNotice: return "preemption_notice";
    case TimelineEventKind::kPreemption: return "preemption";
    case TimelineEventKind::kCheckpointDone: return "checkpoint_done";
    case TimelineEventKind::kTransferDone: return "transfer_done";
    case TimelineEventKind::kNodesChanged: return "nodes_changed";
    case TimelineEventKind::kReconfiguring: return "reconfiguring";
    case TimelineEventKind::kFinished: return "finished";
  }
  return "unknown";
}

inline std::string_view phase_name(Phase phase) {
  switch (phase) {
    case Phase::kIdle: return "idle";
    case Phase::kStarting: return "starting";
    case Phase::kRestoring: return "restoring";
    case Phase::kComputing: return "computing";
    case Phase::kCheckpointing: return "checkpointing";
    case Phase::kDraining: return "draining";
    case Phase::kDone: return "done";
    case Phase::kMigrating: return "migrating";
  }
  return "unknown";
}

inline std::string_view purchase_name(Purchase purchase) {
  switch (purchase) {
    case Purchase::kNone: return "none";
    case Purchase::kSpot: return "spot";
    case Purchase::kOnDemand: return "on-demand";
  }
  return "unknown";
}

}  // namespace spotsim
