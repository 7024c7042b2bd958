#pragma once
// Which of a job's instances a shrinking pool takes away (docs/model.md, "Multi-node availability").
//
// A recorded count of obtainable instances (an autoscaling group's size, a Can't Be Late multi-node file) says how
// many instances the pool holds, not which. A job holding `held` of them loses one whenever a removed instance is
// one of its own: with removals drawn uniformly from the pool the loss is hypergeometric, HG(pool_before, held,
// pool_before - pool_after). Preempting only when the count drops below `held` (the earlier rule) misses every
// reclaim of a job that holds part of a larger pool: an 8-node job on Bamboo's 32-node p3 log, whose pool never
// falls below 10, saw no preemption at all.
#include <cstdint>

#include "base/time.hpp"
#include "model/market/step_series.hpp"

namespace spotsim {

// How many of the `held` instances a job holds in a pool of `pool_before` are reclaimed when the pool's count drops to
// `pool_after` at time `at`: each removed instance is drawn uniformly without replacement from the pool, with
// counter-based uniforms keyed by (seed, replication, at, index of the removed instance), so every job mode and
// policy holding the same count sees the same reclaims (common random numbers). held <= pool_before required.
// (When the job holds fewer instances than are removed, the draws go over the held instances instead, keyed by
// their index: the same hypergeometric law in min(held, removed) draws.)
int instances_reclaimed(std::uint64_t seed, std::uint64_t replication, Millis at, int pool_before, int pool_after,
                        int held);

// Whole instances in a recorded count (the trace reader accepts only whole counts; floor keeps "count >= nodes"
// intact for any other in-memory series), clamped to [0, INT_MAX].
int whole_count(double value);

struct Reclaim {
  Millis at = kNever;
  int lost = 0;
};

// The first drop of `available` strictly after `from` that reclaims at least one of `held` instances (kNever if none).
// The pool before a drop is the count in force just before it (at least `held` while the job holds them: a job
// starts only when the count allows). A drop below `held` always reclaims. The scan gives up after
// kMaxReclaimScan drops without a reclaim and returns kNever (documented limit: a job reclaimed with probability
// held / pool >= 1e-4 per drop reaches it with probability below e^-400).
Reclaim next_reclaim(const StepSeries& available, Millis from, int held, std::uint64_t seed, std::uint64_t replication);

// P(at least one of `held` is among the pool_before - pool_after removed) = 1 - C(pool_before - held, removed) /
// C(pool_before, removed): 1 when the job holds the pool or the pool falls below `held`. For the expected time
// between preemptions (spot_mean_time_between_preemptions).
double reclaim_probability(int pool_before, int pool_after, int held);

inline constexpr std::int64_t kMaxReclaimScan = std::int64_t{1} << 22;

}  // namespace spotsim
