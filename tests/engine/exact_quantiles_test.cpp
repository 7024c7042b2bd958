// Exact order statistics in bounded memory (base/exact_quantiles.hpp) and the streaming summary built on them
// (base/streaming_summary.hpp) against a full sort and summarize(): the same bits, whichever mode the values end in.
#include "base/exact_quantiles.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "base/statistics.hpp"
#include "base/streaming_summary.hpp"

namespace spotsim {
namespace {

// Limits small enough that a few thousand values go through every mode and every level of the radix selection.
QuantileLimits tiny_limits() {
  QuantileLimits limits;
  limits.distinct_values = 8;
  limits.memory_values = 500;
  limits.spill_block_values = 128;
  limits.select_values = 40;
  return limits;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

void expect_same_summary(const Summary& expected, const Summary& actual) {
  EXPECT_EQ(expected.n, actual.n);
  const double e[] = {expected.mean, expected.sd,  expected.min,    expected.max,    expected.p50,
                      expected.p95,  expected.p99, expected.ci_low, expected.ci_high};
  const double a[] = {actual.mean, actual.sd,  actual.min,    actual.max,    actual.p50,
                      actual.p95,  actual.p99, actual.ci_low, actual.ci_high};
  const char* names[] = {"mean", "sd", "min", "max", "p50", "p95", "p99", "ci_low", "ci_high"};
  for (int i = 0; i < 9; ++i) {
    EXPECT_TRUE(same_bits(e[i], a[i]) || (std::isnan(e[i]) && std::isnan(a[i])))
        << names[i] << ": expected " << e[i] << ", got " << a[i];
  }
}

Summary streamed(const std::vector<double>& values, const QuantileLimits& limits, bool* spilled = nullptr) {
  StreamingSummary s(limits);
  for (double v : values) s.add(v);
  if (spilled) *spilled = s.spilled();
  return s.finish();
}

// Samples that stress the selection: continuous values, values sharing their top 32 and 48 bits (refinement on the
// next 16 bits), exact ties, negatives and zeros, and NaN (left out, as summarize() leaves it out).
std::vector<std::vector<double>> samples() {
  std::mt19937_64 rng(7);
  std::vector<std::vector<double>> out;
  std::vector<double> continuous, close, ties, mixed;
  std::normal_distribution<double> normal(50.0, 3.0);
  for (int i = 0; i < 5000; ++i) continuous.push_back(normal(rng));
  for (int i = 0; i < 5000; ++i) close.push_back(50.0 + static_cast<double>(rng() % 2000) * 1e-13);
  for (int i = 0; i < 5000; ++i) ties.push_back(static_cast<double>(rng() % 3) * 0.5 + (i % 499 == 0 ? 1e-9 * i : 0));
  for (int i = 0; i < 5000; ++i) {
    const int k = static_cast<int>(rng() % 10);
    mixed.push_back(k == 0 ? NAN : k == 1 ? 0.0 : k == 2 ? -normal(rng) : normal(rng) * 1e-300);
  }
  out = {continuous, close, ties, mixed};
  out.push_back(std::vector<double>(3000, 2.5));  // one value: the selection ends with the whole key known
  return out;
}

TEST(ExactQuantiles, SpilledSummaryHasTheBitsOfSummarize) {
  for (const auto& values : samples()) {
    bool spilled = false;
    const Summary s = streamed(values, tiny_limits(), &spilled);
    EXPECT_TRUE(spilled || values.size() == 3000) << "the limits should force a spill";
    expect_same_summary(summarize(values), s);
  }
}

TEST(ExactQuantiles, InMemorySummaryHasTheBitsOfSummarize) {
  for (const auto& values : samples()) expect_same_summary(summarize(values), streamed(values, QuantileLimits{}));
}

TEST(ExactQuantiles, EveryRankMatchesAFullSortInEveryMode) {
  std::mt19937_64 rng(11);
  for (const std::size_t distinct : {std::size_t{3}, std::size_t{50}, std::size_t{100000}}) {
    std::vector<double> values;
    for (int i = 0; i < 2000; ++i) values.push_back(static_cast<double>(rng() % distinct) / 7.0 - 3.0);
    ExactQuantiles q(tiny_limits());
    QuantileLimits roomy;
    roomy.distinct_values = 64;
    ExactQuantiles kept(roomy);  // distinct table for 3 and 50 values, memory for the rest
    for (double v : values) {
      q.add(v);
      kept.add(v);
    }
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint64_t> ranks(sorted.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = (i * 7919) % ranks.size();  // every rank, shuffled
    const std::vector<double> from_spill = q.order_statistics(ranks);
    const std::vector<double> from_memory = kept.order_statistics(ranks);
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      ASSERT_EQ(from_spill[i], sorted[ranks[i]]) << "rank " << ranks[i] << " of " << distinct << " distinct";
      ASSERT_EQ(from_memory[i], sorted[ranks[i]]) << "rank " << ranks[i] << " of " << distinct << " distinct";
    }
  }
}

TEST(ExactQuantiles, FewDistinctValuesNeverSpill) {
  StreamingSummary s(tiny_limits());
  std::vector<double> values;
  for (int i = 0; i < 100000; ++i) values.push_back(static_cast<double>(i % 5));  // a count metric
  for (double v : values) s.add(v);
  EXPECT_FALSE(s.spilled());
  expect_same_summary(summarize(values), s.finish());
}

TEST(ExactQuantiles, AnUnusableSpillDirectoryIsAClearError) {
  QuantileLimits limits = tiny_limits();
  limits.spill_directory = "/nonexistent-spotsim-dir";
  ExactQuantiles q(limits);
  try {
    for (int i = 0; i < 1000; ++i) q.add(i);
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-spotsim-dir"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("TMPDIR"), std::string::npos) << e.what();
  }
}

TEST(ExactQuantiles, EmptyIsNaNAsSummarize) {
  StreamingSummary s;
  s.add(NAN);
  expect_same_summary(summarize(std::vector<double>{NAN}), s.finish());
}

}  // namespace
}  // namespace spotsim
