#pragma once
// The deadline arithmetic shared by every deadline-aware selection policy (greedy, uniform progress, adaptive,
// zone failover): one safety net, so that all of them meet every deadline that on-demand alone could meet.
//
// The net rests on the worst-case time to finish on on-demand, T (on_demand_finish_time), and the time left to
// the deadline, R. A policy must commit to on-demand before R - T turns negative:
//  - on spot, it may hold on while R - T > 0 (spare_on_spot): T already assumes the unsaved work is lost, so a
//    preemption never makes the deadline unreachable;
//  - off spot (waiting, or on on-demand and thinking of leaving), it may stay off on-demand while
//    R - T > margin (spare_off_spot), where the margin is one changeover plus the checkpoint write a later move
//    off spot needs (Can't Be Late's T + 2d rule, Wu et al. NSDI'24, with d counted once in T).
// Off on-demand, R - T only shrinks with time (rate 1 while waiting, and on spot until a checkpoint lands), so
// asking the policy again `spare` from now never misses the last safe moment.
//
// In the Can't Be Late compatibility mode (obs.decision_tick = g > 0) the tests are those of the authors'
// simulator: T + margin rounded up and R rounded down to whole ticks.
#include "model/observation.hpp"

namespace spotsim {

// The changeover delay d: what moving to a new instance costs before training resumes (start-up, plus reading
// the checkpoint unless progress is lossless or nothing has been saved).
Millis changeover(const Observation& obs);

// Checkpoint writes on on-demand while doing `work` of compute from a fresh start (one every interval, none at
// the end).
Millis on_demand_checkpoint_time(const Observation& obs, Millis work);

// Worst-case wall time from now to finish if the job committed to on-demand now, from what it holds: on
// on-demand, what is left (pending start-up/restore/write, compute and its checkpoints); otherwise the work since
// the last checkpoint is lost (as a preemption at this moment would do), a job on spot may first spend one
// checkpoint write saving (the engine saves before it moves), then a changeover and the rest.
Millis on_demand_finish_time(const Observation& obs);

// The margin a job off spot keeps on top of on_demand_finish_time(): one changeover, plus the write a job on spot
// may need before it can move.
Millis off_spot_margin(const Observation& obs);

// Spare time on spot: > 0 means the job may keep its spot instance; kNever without a deadline.
Millis spare_on_spot(const Observation& obs);

// Spare time off spot: > 0 means the job may wait, or take spot, instead of committing to on-demand. On
// on-demand it is measured as if the job left now (saving first), so it also says whether leaving is safe.
// kNever without a deadline.
Millis spare_off_spot(const Observation& obs);

}  // namespace spotsim
