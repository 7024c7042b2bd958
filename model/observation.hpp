#pragma once
// What a policy sees: a read-only snapshot of the run at a decision point. Policies never touch the event queue,
// so each can be unit-tested with a hand-built Observation (Batsim's "events in, decisions out").
#include <cstdint>
#include <span>

#include "base/time.hpp"
#include "model/job.hpp"

namespace spotsim {

class LifetimeDistribution;

enum class Purchase : std::uint8_t { kNone, kSpot, kOnDemand };

enum class Phase : std::uint8_t {
  kIdle,           // no instance held
  kStarting,       // instances requested, booting
  kRestoring,      // reading the last checkpoint
  kComputing,      // training
  kCheckpointing,  // writing a checkpoint (training paused)
  kDraining,       // emergency checkpoint done, waiting for the announced preemption
  kDone,
  kMigrating,  // moving the saved state into this zone's region (after the start-up, before the restore);
               // last so that the values above keep their meaning
};

struct ZoneView {
  bool spot_available = false;       // can `nodes` spot instances be obtained now?
  double spot_price_per_hour = 0.0;  // per instance
  double on_demand_price_per_hour = 0.0;
  Millis spot_mtbf = kNever;       // expected time between preemptions of the job's spot nodes
  double spot_availability = 1.0;  // long-run fraction of time spot can be obtained (1 without a recording)
  Millis notice = 0;
  const LifetimeDistribution* lifetime = nullptr;  // null when preemptions come only from a recording
  int region = 0;                                  // index of the zone's region (zones of one region share it)
  // Moving the saved state here from Observation::data_zone: transfer time after the start-up, and egress (USD).
  Millis migration_time = 0;
  double migration_cost = 0.0;
};

struct Observation {
  Millis now = 0;        // wall-clock time in the trace's frame
  Millis elapsed = 0;    // since the job started
  Millis progress = 0;   // work done so far (ms of compute)
  Millis committed = 0;  // work saved by the last completed checkpoint
  Phase phase = Phase::kIdle;
  Purchase purchase = Purchase::kNone;
  int zone = -1;
  int data_zone = -1;       // the zone whose region holds the saved state (-1: nothing saved yet)
  Millis instance_age = 0;  // since the current instance was requested
  int preemptions = 0;
  std::span<const Millis> recent_preemptions;  // elapsed times of the latest preemptions, oldest first
  Millis spot_time = 0;                        // total time spot instances have been held so far
  Millis wait_time = 0;                        // total time with no instance held so far
  bool lossless = false;                       // progress is never lost and needs no restore (continuous checkpointing)
  bool can_checkpoint = true;  // a move off an instance saves progress first (false for checkpoint policy "none")
  // Compute between periodic checkpoints on on-demand (what the checkpoint policy asks for there); kNever = none.
  Millis on_demand_checkpoint_interval = kNever;
  // > 0 in the Can't Be Late compatibility mode: the policy is asked only at multiples of this tick and rounds its
  // deadline tests to whole ticks as the authors' simulator does (docs/validation.md#compatibility-mode).
  Millis decision_tick = 0;
  const JobSpec* job = nullptr;
  std::span<const ZoneView> zones;

  Millis remaining_work() const { return job->work - progress; }
  bool has_deadline() const { return job->deadline != kNever; }
  Millis time_to_deadline() const { return job->deadline - elapsed; }
};

struct SelectionDecision {
  Purchase purchase = Purchase::kNone;  // kNone = hold nothing and wait
  int zone = 0;
  Millis review_at = kNever;  // absolute time at which to ask the policy again; kNever = on the next event
  // Ask again as soon as spot can be obtained in some zone. Always the case while waiting; a policy on on-demand
  // sets it when it would leave on-demand for spot (e.g. uniform progress once its hysteresis holds).
  bool wake_on_spot = false;

  static SelectionDecision wait(Millis review_at = kNever) { return {Purchase::kNone, 0, review_at, true}; }
  static SelectionDecision spot(int zone, Millis review_at = kNever) {
    return {Purchase::kSpot, zone, review_at, false};
  }
  static SelectionDecision on_demand(int zone, Millis review_at = kNever, bool wake_on_spot = false) {
    return {Purchase::kOnDemand, zone, review_at, wake_on_spot};
  }
};

}  // namespace spotsim
