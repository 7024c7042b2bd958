#pragma once
// Keyed random-number streams: stream(seed, replication, purpose, entity).
//
// Every consumer of randomness draws from its own stream, identified by what it is for (purpose) and which
// thing it belongs to (entity, e.g. a zone). Changing the policy therefore never changes the preemption sample
// path of a replication (common random numbers; cf. ns-3's per-object streams, OMNeT++'s seed-set). The key is
// hashed with SplitMix64 (Steele, Lea & Flood, OOPSLA'14) into the 64-bit seed of a Boost.Random mt19937_64.
#include <boost/random/mersenne_twister.hpp>
#include <cstdint>

namespace spotsim {

enum class StreamPurpose : std::uint32_t {
  kSpotLifetime = 1,  // lifetimes of spot instances, entity = zone
  kTraceWindow = 2,   // where in a recorded trace a replication starts
  kPolicy = 3,        // randomised policies, entity = policy-defined
  kGenerator = 4,     // synthetic trace generation
  kNodeReclaim =
      5,  // which instances a shrinking pool removes, entity = time of the drop (model/market/node_reclaim.hpp)
  kNodeChoice = 6,       // which of a multi-node job's instances a pool reclaim takes (engine/elastic), entity = key
  kCampaignJob = 7,      // campaigns (engine/campaign): each job's seed, entity = job
  kTrialScore = 8,       // campaigns: a trial's drawn score, entity = job
  kCampaignReclaim = 9,  // campaigns: which jobs a pool's excess reclaim takes, entity = (zone, drop, job) hashed
};

// Inline: counter-based draws (node reclaims, node choice) hash per draw in the engines' hot paths.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Chained hashing: each component passes through the full avalanche, so keys differing in any one component give
// unrelated seeds. The prefix (seed, replication, purpose) is fixed for a replication: a caller drawing many keyed
// values hashes it once (stream_seed_from_prefix(stream_prefix(s, r, p), e) == stream_seed(s, r, p, e)).
constexpr std::uint64_t stream_prefix(std::uint64_t seed, std::uint64_t replication, StreamPurpose purpose) {
  return splitmix64(splitmix64(splitmix64(seed) ^ replication) ^ static_cast<std::uint64_t>(purpose));
}
constexpr std::uint64_t stream_seed_from_prefix(std::uint64_t prefix, std::uint64_t entity) {
  return splitmix64(prefix ^ entity);
}
constexpr std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t replication, StreamPurpose purpose,
                                    std::uint64_t entity) {
  return stream_seed_from_prefix(stream_prefix(seed, replication, purpose), entity);
}

// The first output of boost::random::mt19937_64 seeded with `seed`, without building the engine: seeding fills 312
// words and the first draw twists all of them, about a microsecond, while the first output depends only on words 0,
// 1 and 156 (Matsumoto & Nishimura 1998; the 64-bit parameters of Nishimura 2000). Bit-identical to the engine's
// (tested against it), for streams that draw once per replication, such as the trace window.
std::uint64_t mt19937_64_first_output(std::uint64_t seed);
// What RandomStream(seed, replication, purpose, entity).uniform01() returns as its first value.
double first_uniform01(std::uint64_t seed, std::uint64_t replication, StreamPurpose purpose, std::uint64_t entity);

class RandomStream {
 public:
  RandomStream(std::uint64_t seed, std::uint64_t replication, StreamPurpose purpose, std::uint64_t entity)
      : engine_(stream_seed(seed, replication, purpose, entity)) {}

  // Uniform on [0, 1): 53 random bits, so the value is exactly reproducible on every platform.
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform on (0, 1): never 0, for inverse-CDF sampling through logarithms.
  double uniform_open01() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53; }
  std::uint64_t next_u64() { return engine_(); }

 private:
  boost::random::mt19937_64 engine_;
};

}  // namespace spotsim
