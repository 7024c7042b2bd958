#include "model/market/node_reclaim.hpp"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cmath>
#include <cstddef>

#include "model/random_streams.hpp"

namespace spotsim {

namespace {

// A counter-based uniform on [0, 1): no engine state, so the draw for one (drop, index) never depends on how many
// draws were taken before it, by this job or any other.
double keyed_uniform(std::uint64_t drop_key, std::uint64_t index) {
  return static_cast<double>(splitmix64(drop_key ^ splitmix64(index)) >> 11) * 0x1.0p-53;
}

// instances_reclaimed with the stream's prefix for (seed, replication) hashed once by the caller.
int reclaimed_with_prefix(std::uint64_t prefix, Millis at, int pool_before, int pool_after, int held) {
  assert(held >= 0 && held <= pool_before && pool_after >= 0);
  const std::int64_t removed = std::max(0, pool_before - pool_after);
  if (held == 0 || removed == 0) return 0;
  const std::uint64_t drop_key = stream_seed_from_prefix(prefix, static_cast<std::uint64_t>(at));
  std::int64_t lost = 0;
  if (removed <= held) {
    // Remove one instance after another; the k-th is one of the job's with probability held left / pool left.
    for (std::int64_t k = 0; k < removed; ++k) {
      const std::int64_t pool_left = pool_before - k, held_left = held - lost;
      if (held_left == 0) break;
      if (held_left == pool_left) return static_cast<int>(lost + (removed - k));  // only the job's are left
      if (keyed_uniform(drop_key, static_cast<std::uint64_t>(k)) * static_cast<double>(pool_left) <
          static_cast<double>(held_left))
        ++lost;
    }
  } else {
    // Fewer held than removed: ask of each held instance whether it is among the removed (the same law).
    for (std::int64_t j = 0; j < held; ++j) {
      const std::int64_t pool_left = pool_before - j, removed_left = removed - lost;
      if (removed_left == 0) break;
      if (removed_left == pool_left) return static_cast<int>(lost + (held - j));  // every one left goes
      if (keyed_uniform(drop_key, static_cast<std::uint64_t>(j)) * static_cast<double>(pool_left) <
          static_cast<double>(removed_left))
        ++lost;
    }
  }
  return static_cast<int>(lost);
}

}  // namespace

int whole_count(double value) {
  if (!(value > 0.0)) return 0;
  return value >= static_cast<double>(INT_MAX) ? INT_MAX : static_cast<int>(std::floor(value));
}

int instances_reclaimed(std::uint64_t seed, std::uint64_t replication, Millis at, int pool_before, int pool_after,
                        int held) {
  return reclaimed_with_prefix(stream_prefix(seed, replication, StreamPurpose::kNodeReclaim), at, pool_before,
                               pool_after, held);
}

double reclaim_probability(int pool_before, int pool_after, int held) {
  const std::int64_t removed = std::max(0, pool_before - pool_after);
  if (held <= 0 || removed == 0) return 0.0;
  // C(n - k, r) / C(n, r) = prod_{i < k} (n - r - i) / (n - i): min(k, r) factors by the symmetry of k and r.
  const std::int64_t n = std::max(pool_before, held), k = std::min<std::int64_t>(held, removed);
  const std::int64_t r = std::max<std::int64_t>(held, removed);
  double none = 1.0;
  for (std::int64_t i = 0; i < k && none > 1e-300; ++i) {
    if (n - r - i <= 0) return 1.0;
    none *= static_cast<double>(n - r - i) / static_cast<double>(n - i);
  }
  return 1.0 - none;
}

Reclaim next_reclaim(const StepSeries& available, Millis from, int held, std::uint64_t seed,
                     std::uint64_t replication) {
  const auto& times = available.times();
  const auto& values = available.values();
  const std::size_t n = times.size();
  if (held <= 0 || n < 2) return {};
  const bool periodic = available.span() != kNever;
  const Millis span = available.span();
  const Millis phase = !periodic ? from : ((from % span) + span) % span;
  const Millis period_start = from - phase;
  // The change point in force at `from` (the series starts at 0, so there is one whenever phase >= 0).
  if (phase < times.front()) return {};  // before a non-periodic series starts: nothing recorded
  const std::size_t start = available.index_in_force(from);
  const std::uint64_t prefix = stream_prefix(seed, replication, StreamPurpose::kNodeReclaim);
  std::int64_t drops = 0;
  std::size_t since_drop = 0;  // a whole period without a drop: the pool never shrinks
  // Walk the change points after `start`, wrapping into the next period of a periodic series (indices kept without
  // a modulo per step: this scan runs on every change of a job's spot count).
  std::size_t previous = start, i = start + 1;
  Millis wrap_offset = period_start;  // start of the period that change point i falls in
  for (;; previous = i, ++i) {
    if (i == n) {
      if (!periodic) return {};
      i = 0;
      wrap_offset += span;
    }
    if (since_drop >= n) return {};
    const int before = whole_count(values[previous]);
    const int after = whole_count(values[i]);
    if (after >= before) {
      ++since_drop;
      continue;
    }
    since_drop = 0;
    if (++drops > kMaxReclaimScan) return {};
    const Millis at = wrap_offset + times[i];
    // A count already below what the job holds means its instances are gone: the pool is at least the job's.
    const int lost = reclaimed_with_prefix(prefix, at, std::max(before, held), after, held);
    if (lost > 0) return {at, lost};
  }
}

}  // namespace spotsim
