// Jobs given in GPUs on instances with several GPUs: the instance count is ceil(gpus / gpus_per_instance) of the
// trace (model/job.hpp resolve_job_instances), prices stay per instance.
#include <gtest/gtest.h>

#include "base/errors.hpp"
#include "engine/replication_runner.hpp"
#include "policies/policy_registry.hpp"
#include "trace_test_paths.hpp"

namespace spotsim {
namespace {

using testing::error_of;

// One zone of `gpus_per_instance`-GPU instances at `spot` / `on_demand` USD per instance-hour whose pool of spot
// instances is `pool` for 10 h, then 0 for 2 h (a 30 h recording, repeated).
SpotMarket pool_market(int gpus_per_instance, double spot, double on_demand, int pool) {
  SpotMarket market;
  market.name = "shape-" + std::to_string(gpus_per_instance);
  market.billing = Billing{kMillisPerMinute, kMillisPerSecond};
  market.span = 30 * kMillisPerHour;
  Zone zone;
  zone.name = "z";
  zone.gpus_per_instance = gpus_per_instance;
  zone.on_demand_price_per_hour = on_demand;
  zone.spot.price_per_hour = StepSeries::constant(spot);
  zone.spot.available = StepSeries({0, 10 * kMillisPerHour, 12 * kMillisPerHour, 25 * kMillisPerHour},
                                   {static_cast<double>(pool), 0, static_cast<double>(pool), 0}, market.span);
  market.zones.push_back(std::move(zone));
  return market;
}

JobSpec gpu_job(int gpus) {
  JobSpec job;
  job.work = 20 * kMillisPerHour;
  job.gpus = gpus;
  job.nodes = 0;
  job.deadline = 40 * kMillisPerHour;
  return job;
}

TEST(GpuInstances, InstanceCountIsTheCeilingOfGpusOverGpusPerInstance) {
  EXPECT_EQ(resolve_job_instances(gpu_job(8), pool_market(1, 1, 3, 8), "job").nodes, 8);
  EXPECT_EQ(resolve_job_instances(gpu_job(8), pool_market(4, 1, 3, 2), "job").nodes, 2);
  EXPECT_EQ(resolve_job_instances(gpu_job(8), pool_market(8, 1, 3, 1), "job").nodes, 1);
  EXPECT_EQ(resolve_job_instances(gpu_job(6), pool_market(4, 1, 3, 2), "job").nodes, 2);  // 2 GPUs idle, billed
  EXPECT_EQ(resolve_job_instances(gpu_job(1), pool_market(8, 1, 3, 1), "job").nodes, 1);
  JobSpec by_nodes;
  by_nodes.nodes = 3;  // gpus = 0: counted in instances, whatever the shape
  EXPECT_EQ(resolve_job_instances(by_nodes, pool_market(8, 1, 3, 1), "job").nodes, 3);
  JobSpec both = gpu_job(8);
  both.nodes = 2;  // stated as well, and consistent
  EXPECT_EQ(resolve_job_instances(both, pool_market(4, 1, 3, 2), "job").nodes, 2);
}

TEST(GpuInstances, InconsistentOrAmbiguousSizesAreRefused) {
  JobSpec both = gpu_job(8);
  both.nodes = 3;
  const std::string disagree = error_of([&] { resolve_job_instances(both, pool_market(4, 1, 3, 2), "job.json"); });
  EXPECT_NE(disagree.find("job.json: fields 'gpus' and 'nodes'"), std::string::npos) << disagree;
  EXPECT_NE(disagree.find("= 2"), std::string::npos) << disagree;
  SpotMarket mixed = pool_market(1, 1, 3, 8);
  mixed.zones.push_back(pool_market(8, 8, 24, 1).zones.front());
  mixed.zones.back().name = "z8";
  const std::string shapes = error_of([&] { Scenario(mixed, gpu_job(8)); });
  EXPECT_NE(shapes.find("mixes instance shapes"), std::string::npos) << shapes;
  // A job counted in instances runs on mixed shapes as before.
  JobSpec by_nodes;
  by_nodes.work = kMillisPerHour;
  EXPECT_EQ(error_of([&] { Scenario(mixed, by_nodes); }), "");
  JobSpec no_count = gpu_job(0);
  no_count.nodes = 0;
  EXPECT_NE(error_of([&] { validate_job(no_count, "job.json"); }).find("'nodes'"), std::string::npos);
}

// The example: 8 GPUs as eight 1-GPU instances at p, or one 8-GPU instance at 8p, with the same availability
// (the pool is the job's whole size in both, so every drop preempts it in both): the same runs, the same bill.
TEST(GpuInstances, EightOneGpuInstancesCostWhatOneEightGpuInstanceCosts) {
  const double p = 0.9, q = 3.06;
  const SpotMarket ones = pool_market(1, p, q, 8);
  const SpotMarket eight = pool_market(8, 8 * p, 8 * q, 1);
  const PolicyRegistry registry = builtin_policy_registry();
  for (const char* policy : {"spot-only", "uniform-progress", "adaptive"}) {
    const PolicyFactories factories{registry.selection_factory(policy), registry.checkpoint_factory("young-daly")};
    ReplicationPlan plan;
    plan.count = 40;
    plan.threads = 1;
    const auto a = run_replications(Scenario(ones, gpu_job(8)), factories, plan);
    const auto b = run_replications(Scenario(eight, gpu_job(8)), factories, plan);
    ASSERT_EQ(a.size(), b.size());
    double spot_cost = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_NEAR(a[i].cost_total, b[i].cost_total, 1e-9 * (1 + a[i].cost_total)) << policy << " replication " << i;
      EXPECT_EQ(a[i].preemptions, b[i].preemptions) << policy;
      EXPECT_EQ(a[i].fingerprint, b[i].fingerprint) << policy;
      spot_cost += a[i].cost_spot;
    }
    if (std::string(policy) == "spot-only") {
      EXPECT_GT(spot_cost, 0.0);
    }
  }
}

}  // namespace
}  // namespace spotsim
