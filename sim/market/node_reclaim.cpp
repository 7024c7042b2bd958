#include "sim/market/node_reclaim.hpp"

#include "sim/random_streams.hpp"

namespace spotsim {

int instances_reclaimed(std::uint64_t seed, std::uint64_t replication, Millis at, int pool_before, int pool_after, int held) {
  int lost = 0;
  for (int j = 0; j < pool_before - pool_after && held > 0; ++j) {
    const std::uint64_t key = splitmix64(static_cast<std::uint64_t>(at)) + static_cast<std::uint64_t>(j);
    const double u = static_cast<double>(stream_seed(seed, replication, StreamPurpose::kSpotLifetime, key) >> 11) * 0x1.0p-53;
    if (u * (pool_before - j) < held) {
      ++lost;
      --held;
    }
  }
  return lost;
}

Reclaim next_reclaim(const StepSeries& available, Millis from, int held, std::uint64_t seed, std::uint64_t replication) {
  if (held <= 0 || available.times().size() <= 1) return {};
  Millis t = from;
  double before = available.at(t);
  for (int guard = 0; guard < 1000000; ++guard) {
    const Millis next = available.next_time_where(t, [](double) { return true; });
    if (next == kNever) return {};
    const double after = available.at(next);
    if (after < before) {
      const int lost = instances_reclaimed(seed, replication, next, static_cast<int>(before), static_cast<int>(after), held);
      if (lost > 0) return {next, lost};
    }
    before = after;
    t = next;
  }
  return {};
}

}  // namespace spotsim
