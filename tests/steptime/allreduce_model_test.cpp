// The all-reduce cost model against its analytical formulas (steptime/allreduce_model.hpp): a ring of one
// rank costs nothing, two ranks move S bytes each way, the bandwidth term tends to 2 S / B for many ranks, and
// the hierarchical form reduces to a plain ring when all GPUs share one instance or each has its own.
#include "steptime/allreduce_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "base/errors.hpp"

namespace spotsim {
namespace {

constexpr double kBytes = 100e6;  // 100 MB of gradients

InstanceLinks links(int gpus, double intra_gbps, double inter_gbps, double intra_latency_us = 0,
                    double latency_us = 0) {
  InstanceLinks l;
  l.instance_type = "test";
  l.gpus_per_instance = gpus;
  l.intra_gbps = intra_gbps;
  l.inter_gbps = inter_gbps;
  l.intra_latency_us = intra_latency_us;
  l.latency_us = latency_us;
  return l;
}

TEST(AllReduceModel, OneRankCostsNothing) {
  EXPECT_EQ(ring_allreduce_seconds(kBytes, 1, 100.0, 5.0), 0.0);
  EXPECT_EQ(allreduce_time(kBytes, 1, links(1, 0, 10)).total_s(), 0.0);
  EXPECT_EQ(allreduce_time(kBytes, 1, links(1, 0, 10), AllReduceAlgorithm::Tree).total_s(), 0.0);
}

TEST(AllReduceModel, TwoRanksExchangeTheWholeBufferOnce) {
  // 2(p-1)/p = 1: S / B plus two latency steps.
  EXPECT_DOUBLE_EQ(ring_allreduce_seconds(kBytes, 2, 100.0, 0.0), kBytes / 100e9);
  EXPECT_DOUBLE_EQ(ring_allreduce_seconds(kBytes, 2, 100.0, 5.0), kBytes / 100e9 + 2 * 5e-6);
}

TEST(AllReduceModel, ManyRanksTendToTwiceTheBufferOverTheBandwidth) {
  const double limit = 2.0 * kBytes / 50e9;
  EXPECT_NEAR(ring_allreduce_seconds(kBytes, 1000, 50.0, 0.0) / limit, 1.0, 1e-3);
  EXPECT_DOUBLE_EQ(ring_allreduce_seconds(kBytes, 8, 50.0, 0.0), 2.0 * 7.0 / 8.0 * kBytes / 50e9);
  // The latency term grows linearly: 2 (p - 1) alpha.
  EXPECT_NEAR(ring_allreduce_seconds(0.0, 1000, 50.0, 10.0), 2.0 * 999 * 10e-6, 1e-12);
}

TEST(AllReduceModel, EveryCollectivePaysTheLatencyTheBytesArePaidOnce) {
  // Sent as k all-reduces, S bytes cost the same bandwidth terms and k times the latency terms.
  const InstanceLinks l = links(8, 300, 50, 5.7, 10);
  for (const AllReduceAlgorithm algorithm : {AllReduceAlgorithm::Ring, AllReduceAlgorithm::Tree}) {
    const AllReduceTime one = allreduce_time(kBytes, 4, l, algorithm);
    const AllReduceTime many = allreduce_time(kBytes, 4, l, algorithm, 404.0);
    const AllReduceTime no_bytes = allreduce_time(0.0, 4, l, algorithm);
    EXPECT_NEAR(many.total_s() - one.total_s(), 403.0 * no_bytes.total_s(), 1e-12);
    EXPECT_DOUBLE_EQ(no_bytes.intra_s, 2 * 7 * 5.7e-6);
  }
  // Inside one 8-GPU instance, 404 collectives at 5.7 us per hop: 404 x 14 x 5.7 us = 32.2 ms of latency alone.
  EXPECT_NEAR(allreduce_time(0.0, 1, l, AllReduceAlgorithm::Ring, 404.0).total_s(), 404 * 14 * 5.7e-6, 1e-12);
}

TEST(AllReduceModel, DdpBucketsOfTwentyFiveMiBAfterAFirstOfOne) {
  constexpr double kMiB = 1024.0 * 1024.0;
  EXPECT_EQ(ddp_bucket_count(0.0), 1.0);
  EXPECT_EQ(ddp_bucket_count(1.0 * kMiB), 1.0);
  EXPECT_EQ(ddp_bucket_count(1.0 * kMiB + 1), 2.0);
  EXPECT_EQ(ddp_bucket_count(26.0 * kMiB), 2.0);
  EXPECT_EQ(ddp_bucket_count(26.0 * kMiB + 1), 3.0);
  EXPECT_EQ(ddp_bucket_count(1.79e9), 1.0 + std::ceil((1.79e9 - kMiB) / (25 * kMiB)));
}

TEST(AllReduceModel, HierarchicalFormula) {
  // 2 instances of 8 GPUs: 2(g-1)/g S/B_intra + 2(m-1)/m S/B_net + 2(g-1) alpha_intra + 2(m-1) alpha_net.
  const AllReduceTime t = allreduce_time(kBytes, 2, links(8, 300, 50, 5.7, 10));
  EXPECT_DOUBLE_EQ(t.intra_s, 2.0 * 7.0 / 8.0 * kBytes / 300e9 + 14 * 5.7e-6);
  EXPECT_DOUBLE_EQ(t.inter_s, kBytes / 50e9 + 2 * 10e-6);
}

TEST(AllReduceModel, ReducesToAPlainRing) {
  // One instance: the ring over its GPUs. One GPU per instance: the ring over the network.
  EXPECT_DOUBLE_EQ(allreduce_time(kBytes, 1, links(8, 300, 50, 5.7, 10)).total_s(),
                   ring_allreduce_seconds(kBytes, 8, 300, 5.7));
  EXPECT_DOUBLE_EQ(allreduce_time(kBytes, 4, links(1, 0, 12.5, 0, 25)).total_s(),
                   ring_allreduce_seconds(kBytes, 4, 12.5, 25));
}

TEST(AllReduceModel, TreeBetweenInstances) {
  // 8 instances: 2 S / B_net and 2 ceil(log2 8) = 6 latency steps; 5 instances: ceil(log2 5) = 3.
  EXPECT_DOUBLE_EQ(allreduce_time(kBytes, 8, links(1, 0, 50, 0, 10), AllReduceAlgorithm::Tree).inter_s,
                   2.0 * kBytes / 50e9 + 6 * 10e-6);
  EXPECT_DOUBLE_EQ(allreduce_time(0.0, 5, links(1, 0, 50, 0, 10), AllReduceAlgorithm::Tree).inter_s, 6 * 10e-6);
  // For many instances and a small buffer the tree's log latency wins over the ring's linear one.
  const auto small = links(1, 0, 50, 0, 10);
  EXPECT_LT(allreduce_time(1e3, 256, small, AllReduceAlgorithm::Tree).total_s(),
            allreduce_time(1e3, 256, small).total_s());
}

TEST(AllReduceModel, MoreInstancesNeverFaster) {
  const auto l = links(4, 32, 6.25, 5.7, 25);
  double previous = 0;
  for (int m = 1; m <= 64; ++m) {
    const double t = allreduce_time(kBytes, m, l).total_s();
    EXPECT_GE(t, previous) << m;
    previous = t;
  }
}

TEST(AllReduceModel, AlgorithmNames) {
  EXPECT_EQ(allreduce_algorithm("ring"), AllReduceAlgorithm::Ring);
  EXPECT_EQ(allreduce_algorithm("tree"), AllReduceAlgorithm::Tree);
  EXPECT_THROW(allreduce_algorithm("butterfly"), InputError);
}

}  // namespace
}  // namespace spotsim
