#include "model/random_streams.hpp"

#include <gtest/gtest.h>

namespace spotsim {
namespace {

// Golden values: these pin the exact draws of the keyed streams. If they change, every published result of
// spotsim changes with them, so a change here must be deliberate (and the version bumped).
TEST(RandomStreams, GoldenDraws) {
  EXPECT_EQ(splitmix64(0), 0xe220a8397b1dcdafULL);  // the reference SplitMix64 output for state 0
  EXPECT_EQ(stream_seed(1, 0, StreamPurpose::kSpotLifetime, 0), 0x91df2b1652002e2dULL);
  RandomStream s(1, 0, StreamPurpose::kSpotLifetime, 0);
  EXPECT_EQ(s.next_u64(), 0xa61b3590d769a5f6ULL);
  EXPECT_DOUBLE_EQ(s.uniform01(), 0x1.c79bd211f32cfp-1);
}

// The shortcut for streams drawn once must be the engine's own first output, for any seed.
TEST(RandomStreams, FirstOutputShortcutMatchesTheEngine) {
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const std::uint64_t seed = i < 10 ? i : splitmix64(i);
    boost::random::mt19937_64 engine(seed);
    ASSERT_EQ(mt19937_64_first_output(seed), engine()) << "seed " << seed;
  }
  for (std::uint64_t rep = 0; rep < 1000; ++rep) {
    RandomStream stream(2024, rep, StreamPurpose::kTraceWindow, 0);
    ASSERT_EQ(first_uniform01(2024, rep, StreamPurpose::kTraceWindow, 0), stream.uniform01());
  }
}

TEST(RandomStreams, SameKeySameSequence) {
  RandomStream a(42, 7, StreamPurpose::kSpotLifetime, 3), b(42, 7, StreamPurpose::kSpotLifetime, 3);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next_u64(), b.next_u64());
}

TEST(RandomStreams, AnyKeyComponentChangesTheSequence) {
  const auto first = [](std::uint64_t seed, std::uint64_t rep, StreamPurpose p, std::uint64_t entity) {
    return RandomStream(seed, rep, p, entity).next_u64();
  };
  const auto base = first(42, 7, StreamPurpose::kSpotLifetime, 3);
  EXPECT_NE(base, first(43, 7, StreamPurpose::kSpotLifetime, 3));
  EXPECT_NE(base, first(42, 8, StreamPurpose::kSpotLifetime, 3));
  EXPECT_NE(base, first(42, 7, StreamPurpose::kTraceWindow, 3));
  EXPECT_NE(base, first(42, 7, StreamPurpose::kSpotLifetime, 4));
}

TEST(RandomStreams, UniformsStayInRange) {
  RandomStream s(5, 0, StreamPurpose::kPolicy, 0);
  double sum = 0;
  constexpr int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double u = s.uniform01(), v = s.uniform_open01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    ASSERT_GT(v, 0.0);
    ASSERT_LT(v, 1.0);
    sum += u;
  }
  // Mean of n uniforms: sd = sqrt(1/12/n) ~ 0.0009; 5 sd.
  EXPECT_NEAR(sum / n, 0.5, 0.0046);
}

}  // namespace
}  // namespace spotsim
