// `spotsim advise` end to end below the CLI: prices and step times flow into cost and time exactly, instance
// shapes give the documented instance counts and work, the ranking over the real catalogue never puts a row
// below one it dominates, and results do not depend on the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "advise_test_support.hpp"
#include "app/advise/advisor.hpp"
#include "app/advise/offer_scenario.hpp"
#include "base/errors.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {
namespace {

AdviseJob per_gpu_job(double steps, double step_time_s, int gpus) {
  const nlohmann::json doc = {{"steps", steps},  {"step_time_s_by_gpu", {{"A100-40GB", step_time_s}}},
                              {"gpus", gpus},    {"checkpoint_write_s", 10},
                              {"restore_s", 10}, {"startup_s", 300}};
  return read_advise_job(doc, "job.json");
}

AdviceRequest request_for(const std::string& catalogue, AdviseJob job, std::vector<std::string> policies) {
  AdviceRequest request;
  request.job = std::move(job);
  request.catalogue = read_gpu_offer_catalogue(catalogue);
  request.policies = std::move(policies);
  request.replications = 20;
  request.threads = 1;
  return request;
}

const AdviceRow& row_of(const AdviceReport& report, const std::string& policy) {
  const auto it =
      std::find_if(report.rows.begin(), report.rows.end(), [&](const AdviceRow& r) { return r.policy == policy; });
  if (it == report.rows.end()) throw std::logic_error("no row for " + policy);
  return *it;
}

// On-demand is never preempted and takes no periodic checkpoints: cost = price x instances x (start-up + work).
TEST(Advise, PricesAndStepTimesFlowThroughExactly) {
  test::AdviseTempDir dir("flow");
  const std::string catalogue = dir.write("c.json", test::one_offer_catalogue(3.0, 1.25, 1, 1e7));
  const AdviceReport one = run_advice(request_for(catalogue, per_gpu_job(1000, 0.9, 1), {"on-demand", "spot-only"}));
  const AdviceRow& od = row_of(one, "on-demand");
  EXPECT_EQ(od.step_time_s, 0.9);
  EXPECT_EQ(od.step_time_origin, "job file");
  EXPECT_DOUBLE_EQ(od.work_hours, 900.0 / 3600.0);
  EXPECT_EQ(od.instances, 1);
  EXPECT_DOUBLE_EQ(od.metrics.mean_cost, 3.0 * 1200.0 / 3600.0);
  EXPECT_DOUBLE_EQ(od.metrics.p95_cost, 3.0 * 1200.0 / 3600.0);
  EXPECT_DOUBLE_EQ(od.metrics.mean_hours, 1200.0 / 3600.0);
  EXPECT_EQ(od.metrics.mean_preemptions, 0.0);
  // Spot with a lifetime far beyond the job: the spot price, and nothing else, changes the cost.
  const AdviceRow& spot = row_of(one, "spot-only");
  EXPECT_EQ(spot.metrics.mean_preemptions, 0.0);
  EXPECT_NEAR(spot.metrics.mean_cost, 1.25 * 1200.0 / 3600.0, 1e-9);

  // Two GPUs on one-GPU instances: two instances, billed both, and the work stretched by the scaling efficiency.
  const AdviceReport two = run_advice(request_for(catalogue, per_gpu_job(1000, 0.9, 2), {"on-demand"}));
  const AdviceRow& od2 = row_of(two, "on-demand");
  EXPECT_EQ(od2.instances, 2);
  EXPECT_NEAR(od2.work_hours, 1000.0 / 3600.0, 1e-12);
  EXPECT_NEAR(od2.metrics.mean_cost, 3.0 * 2 * 1300.0 / 3600.0, 1e-9);
}

TEST(Advise, InstanceShapes) {
  EXPECT_EQ(offer_shape(8, 1).instances, 8);
  EXPECT_EQ(offer_shape(8, 8).instances, 1);
  EXPECT_EQ(offer_shape(8, 4).instances, 2);
  EXPECT_EQ(offer_shape(6, 4).idle_gpus, 2);
  EXPECT_EQ(offer_shape(1, 8).idle_gpus, 7);
  JobSpec base;
  base.work = 0;
  EXPECT_EQ(offer_job(base, 3600, 1.0, offer_shape(8, 8), 0.5, "t").work, kMillisPerHour);
  EXPECT_EQ(offer_job(base, 3600, 1.0, offer_shape(8, 1), 0.5, "t").work, 2 * kMillisPerHour);
  EXPECT_EQ(offer_job(base, 3600, 1.0, offer_shape(8, 1), 0.5, "t").nodes, 8);
}

// A single-instance availability recording scales to the instance count: all N obtainable or none, so a drop
// preempts every instance at once (all-or-nothing restarts).
TEST(Advise, AvailabilityRecordingScalesWithInstances) {
  const GpuOfferCatalogue c = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  const PreemptionSource& source = c.sources.at("aws-us-west-2a-p3-recorded");
  GpuOffer offer;
  offer.cloud = "aws";
  offer.region = "us-west-2";
  offer.instance_type = "p3.2xlarge";
  offer.spot_per_hour = 0.5;
  const SpotMarket m = offer_market(offer, source, 8);
  ASSERT_EQ(m.zones.size(), 1u);
  EXPECT_EQ(m.zones[0].spot.available->max_value(), 8.0);
  EXPECT_EQ(m.zones[0].spot.available->fraction_where([](double v) { return v >= 8.0; }),
            source.spot.available->fraction_where([](double v) { return v >= 1.0; }));
  EXPECT_EQ(m.zones[0].spot.price_per_hour.at(0), 0.5);
  EXPECT_EQ(m.span, source.span);
}

TEST(Advise, MeasuredStepTimeIsPredictedOnOtherGpus) {
  EXPECT_DOUBLE_EQ(predict_step_time_s(0.1, "V100", "V100", 0.63, Precision::FP32), 0.1);
  // All memory-bound: scales by the ratio of achieved elementwise bandwidth.
  const GpuSpec& v100 = *find_gpu_spec("V100");
  const GpuSpec& a100 = *find_gpu_spec("A100-40GB");
  const double expected = 0.1 * (v100.memory_bandwidth_gbps * v100.achieved.elementwise) /
                          (a100.memory_bandwidth_gbps * a100.achieved.elementwise);
  EXPECT_NEAR(predict_step_time_s(0.1, "V100", "A100-40GB", 0.0, Precision::FP32), expected, 1e-12);
  EXPECT_LT(predict_step_time_s(0.1, "V100", "H100", 0.63, Precision::FP32), 0.1);
  EXPECT_GT(predict_step_time_s(0.1, "V100", "T4", 0.63, Precision::FP32), 0.1);

  const AdviseJob job = read_advise_job({{"steps", 100}, {"step_time_s", 0.1}, {"measured_gpu", "v100-16gb"}}, "j");
  EXPECT_EQ(step_time_on(job, "V100").origin, "measured");
  EXPECT_EQ(*step_time_on(job, "A100").seconds, predict_step_time_s(0.1, "V100", "A100-40GB", 0.63, Precision::FP32));
  EXPECT_FALSE(step_time_on(job, "A10G").seconds);  // not in the spec table: skipped, with the reason
}

TEST(Advise, JobErrorsNameTheField) {
  const auto expect_error = [](const nlohmann::json& doc, const std::string& message) {
    try {
      read_advise_job(doc, "job.json");
      ADD_FAILURE() << "accepted: " << message;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  expect_error({{"steps", 100}, {"step_time_s", 0.1}}, "measured_gpu");
  expect_error({{"steps", 100}, {"step_time_s", 0.1}, {"measured_gpu", "K80"}}, "unknown GPU 'K80'");
  expect_error({{"steps", 100}, {"step_time_s", 0.1}, {"measured_gpu", "V100"}, {"nodes", 2}}, "'gpus'");
  expect_error({{"steps", 100}, {"step_time_s", 0.1}, {"measured_gpu", "V100"}, {"precision", "fp8"}}, "precision");
  expect_error({{"steps", 100}, {"step_time_s_by_gpu", {{"V100", 0.1}}}, {"measured_gpu", "V100"}}, "measured_gpu");
}

// The real catalogue, every policy row: a row that dominates another on every reported metric is ranked above
// it, ranks are 1..k over the ranked rows, and on-demand rows cost exactly price x instances x billed time.
TEST(Advise, RealCatalogueRankingIsConsistent) {
  AdviceRequest request;
  request.job = read_advise_job({{"steps", 20000},
                                 {"step_time_s", 0.0954},
                                 {"measured_gpu", "V100"},
                                 {"gpus", 1},
                                 {"checkpoint_write_s", 1},
                                 {"restore_s", 1}},
                                "resnet50.json");
  request.catalogue = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  request.filter.allow_idle_gpus = true;
  request.replications = 40;
  request.threads = 2;
  const AdviceReport report = run_advice(request);
  ASSERT_GE(report.rows.size(), 3 * 30u);
  int expected_rank = 1, dominated_pairs = 0;
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const AdviceRow& a = report.rows[i];
    if (a.ranked.rank > 0) {
      EXPECT_EQ(a.ranked.rank, expected_rank++);
    }
    for (std::size_t j = 0; j < i; ++j) {
      EXPECT_FALSE(dominates(a.metrics, report.rows[j].metrics))
          << a.offer.label() << " " << a.policy << " below " << report.rows[j].offer.label();
      dominated_pairs += dominates(report.rows[j].metrics, a.metrics) ? 1 : 0;
    }
    if (a.policy == "on-demand") {
      // Billed per second, rounded up: start-up + work.
      const double billed_s = std::ceil(a.work_hours * 3600.0 + 300.0 - 1e-6);
      EXPECT_NEAR(a.metrics.mean_cost, a.offer.on_demand_per_hour * a.instances * billed_s / 3600.0, 1e-6)
          << a.offer.label();
    }
  }
  EXPECT_GT(dominated_pairs, 100);
  EXPECT_NE(report.recommendation.find("Recommended: "), std::string::npos);
}

TEST(Advise, ResultsDoNotDependOnThreads) {
  AdviceRequest request;
  request.job = per_gpu_job(50000, 0.2, 1);
  request.catalogue = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  request.filter.gpus = {"A100-40GB"};
  request.replications = 30;
  request.threads = 1;
  const AdviceReport a = run_advice(request);
  request.threads = 2;
  const AdviceReport b = run_advice(request);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i].offer.label(), b.rows[i].offer.label());
    EXPECT_EQ(a.rows[i].metrics.mean_cost, b.rows[i].metrics.mean_cost);
    EXPECT_EQ(a.rows[i].metrics.p95_hours, b.rows[i].metrics.p95_hours);
  }
}

}  // namespace
}  // namespace spotsim
