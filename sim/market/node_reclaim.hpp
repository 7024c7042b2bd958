#pragma once
// TEMPORARY stand-in (the count-model work replaces it): which of a pool's instances a drop of its count takes.
#include <cstdint>

#include "sim/market/step_series.hpp"
#include "sim/time.hpp"

namespace spotsim {

int instances_reclaimed(std::uint64_t seed, std::uint64_t replication, Millis at, int pool_before, int pool_after, int held);

struct Reclaim {
  Millis at = kNever;
  int lost = 0;
};

Reclaim next_reclaim(const StepSeries& available, Millis from, int held, std::uint64_t seed, std::uint64_t replication);

}  // namespace spotsim
