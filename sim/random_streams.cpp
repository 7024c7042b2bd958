#include "sim/random_streams.hpp"

namespace spotsim {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t replication, StreamPurpose purpose,
                          std::uint64_t entity) {
  // Chained hashing: each component passes through the full avalanche, so keys differing in any one
  // component give unrelated seeds.
  std::uint64_t h = splitmix64(seed);
  h = splitmix64(h ^ replication);
  h = splitmix64(h ^ static_cast<std::uint64_t>(purpose));
  h = splitmix64(h ^ entity);
  return h;
}

}  // namespace spotsim
