#include "model/random_streams.hpp"

namespace spotsim {

std::uint64_t mt19937_64_first_output(std::uint64_t seed) {
  constexpr std::uint64_t kMultiplier = 6364136223846793005ULL;  // f, the seeding recurrence
  constexpr int kMiddle = 156;                                   // m
  constexpr std::uint64_t kUpper = ~std::uint64_t{0} << 31, kLower = ~kUpper;
  // Seeding: x[i] = f * (x[i-1] xor (x[i-1] >> 62)) + i. Only x[0], x[1] and x[m] enter the first output.
  std::uint64_t x = seed, x0 = seed, x1 = 0;
  for (int i = 1; i <= kMiddle; ++i) {
    x = kMultiplier * (x ^ (x >> 62)) + static_cast<std::uint64_t>(i);
    if (i == 1) x1 = x;
  }
  // The twist of word 0, then the tempering.
  const std::uint64_t y = (x0 & kUpper) | (x1 & kLower);
  std::uint64_t z = x ^ (y >> 1) ^ ((x1 & 1) ? 0xB5026F5AA96619E9ULL : 0);
  z ^= (z >> 29) & 0x5555555555555555ULL;
  z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
  z ^= (z << 37) & 0xFFF7EEE000000000ULL;
  z ^= z >> 43;
  return z;
}

double first_uniform01(std::uint64_t seed, std::uint64_t replication, StreamPurpose purpose, std::uint64_t entity) {
  return static_cast<double>(mt19937_64_first_output(stream_seed(seed, replication, purpose, entity)) >> 11) *
         0x1.0p-53;
}

}  // namespace spotsim
