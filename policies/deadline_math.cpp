#include "policies/deadline_math.hpp"

namespace spotsim {

namespace {

Millis floor_div(Millis a, Millis b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }
Millis round_down(Millis t, Millis tick) { return tick > 0 ? floor_div(t, tick) * tick : t; }
Millis round_up(Millis t, Millis tick) { return tick > 0 ? -floor_div(-t, tick) * tick : t; }

// The write a job on spot may need before it can move (the engine saves unsaved work before a switch).
Millis save_before_move(const Observation& obs) {
  return obs.can_checkpoint && !obs.lossless ? obs.job->checkpoint_write : 0;
}

// Periodic checkpoints while doing `work` on on-demand when the current compute stretch has already begun: at
// most ceil(work / interval), one more than from a fresh start.
Millis on_demand_checkpoint_time_mid_stretch(const Observation& obs, Millis work) {
  const Millis interval = obs.on_demand_checkpoint_interval;
  if (interval == kNever || interval <= 0 || work <= 0) return 0;
  return on_demand_checkpoint_time(obs, work + interval);
}

// The transfer still ahead of the instance held: its zone's move from the state's region, before it is done.
Millis pending_transfer(const Observation& obs) {
  if (obs.zone < 0 || obs.zone >= static_cast<int>(obs.zones.size())) return 0;
  if (obs.phase != Phase::kStarting && obs.phase != Phase::kMigrating) return 0;
  return obs.zones[static_cast<std::size_t>(obs.zone)].migration_time;
}

}  // namespace

Millis changeover(const Observation& obs) {
  const bool needs_restore = !obs.lossless && obs.committed > 0;
  return obs.job->startup + (needs_restore ? obs.job->restore : 0);
}

Millis on_demand_checkpoint_time(const Observation& obs, Millis work) {
  const Millis interval = obs.on_demand_checkpoint_interval;
  if (!obs.can_checkpoint || obs.lossless || interval == kNever || interval <= 0 || work <= interval) return 0;
  return ((work + interval - 1) / interval - 1) * obs.job->checkpoint_write;
}

Millis on_demand_finish_time(const Observation& obs) {
  const JobSpec& job = *obs.job;
  if (obs.purchase == Purchase::kOnDemand) {
    const Millis remaining = obs.remaining_work();
    const Millis restore = !obs.lossless && obs.committed > 0 ? job.restore : 0;
    // An instance in another region than the saved state moves it after the start-up: the whole transfer is
    // counted until it is done (an upper bound while it runs).
    const Millis transfer = pending_transfer(obs);
    switch (obs.phase) {
      case Phase::kStarting:
        return job.startup + transfer + restore + remaining + on_demand_checkpoint_time(obs, remaining);
      case Phase::kMigrating: return transfer + restore + remaining + on_demand_checkpoint_time(obs, remaining);
      case Phase::kRestoring: return restore + remaining + on_demand_checkpoint_time(obs, remaining);
      case Phase::kCheckpointing:
        return job.checkpoint_write + remaining + on_demand_checkpoint_time_mid_stretch(obs, remaining);
      default: return remaining + on_demand_checkpoint_time_mid_stretch(obs, remaining);
    }
  }
  if (obs.lossless) return job.startup + obs.remaining_work();
  // Worst case: a preemption now (or during the save before the move) loses everything since the last
  // checkpoint. Planning on the best case would let unsaved work pile up until a preemption makes the deadline
  // unreachable.
  const Millis save = obs.purchase == Purchase::kSpot ? save_before_move(obs) : 0;
  const bool restore = obs.committed > 0 || save > 0;
  const Millis lost_to = job.work - obs.committed;
  return save + job.startup + (restore ? job.restore : 0) + lost_to + on_demand_checkpoint_time(obs, lost_to);
}

Millis off_spot_margin(const Observation& obs) {
  const bool restore = !obs.lossless && (obs.committed > 0 || obs.can_checkpoint);
  return obs.job->startup + (restore ? obs.job->restore : 0) + save_before_move(obs);
}

Millis spare_on_spot(const Observation& obs) {
  if (!obs.has_deadline()) return kNever;
  const Millis tick = obs.decision_tick;
  return round_down(obs.time_to_deadline(), tick) - round_up(on_demand_finish_time(obs), tick);
}

Millis spare_off_spot(const Observation& obs) {
  if (!obs.has_deadline()) return kNever;
  const JobSpec& job = *obs.job;
  Millis finish = 0;
  if (obs.purchase == Purchase::kOnDemand) {
    // Leaving now: save unsaved work (or finish the write under way), then start afresh from it.
    const bool unsaved =
        !obs.lossless && obs.can_checkpoint && (obs.progress > obs.committed || obs.phase == Phase::kCheckpointing);
    const Millis save = unsaved ? job.checkpoint_write : 0;
    const Millis from = obs.lossless || obs.can_checkpoint ? obs.progress : 0;
    const bool restore = !obs.lossless && (obs.committed > 0 || save > 0);
    finish = save + job.startup + (restore ? job.restore : 0) + (job.work - from) +
             on_demand_checkpoint_time(obs, job.work - from);
  } else {
    finish = on_demand_finish_time(obs);
  }
  const Millis tick = obs.decision_tick;
  return round_down(obs.time_to_deadline(), tick) - round_up(finish + off_spot_margin(obs), tick);
}

}  // namespace spotsim
