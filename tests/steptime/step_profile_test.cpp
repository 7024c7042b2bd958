// Per-step statistics: kernels belong to the step that launched them; busy time is the union per step;
// warm-up steps are dropped by the documented rule.
#include "steptime/step_profile.hpp"

#include <gtest/gtest.h>

#include "steptime/kineto_trace_reader.hpp"
#include "test_paths.hpp"

namespace spotsim {
namespace {

std::size_t cls(KernelClass c) { return static_cast<std::size_t>(c); }

TEST(StepProfile, HandComputedFixture) {
  const KinetoTrace t = read_kineto_trace(test::fixture("three_steps.json"));
  const StepProfile p = build_step_profile(t);
  ASSERT_EQ(p.steps.size(), 3u);
  // Step 1: sgemm [15,45) and add [30,60) overlap -> 45; NCCL [95,115) was launched at 90 (step 1) though it
  // ends inside step 2's window -> 45 + 20 = 65.
  EXPECT_DOUBLE_EQ(p.steps[0].gpu_busy_us, 65.0);
  EXPECT_EQ(p.steps[0].by_class[cls(KernelClass::Communication)].count, 1);
  // Step 2: memcpy [115,123), batch norm [120,160), reduce [150,170) -> [115,170) = 55.
  EXPECT_DOUBLE_EQ(p.steps[1].gpu_busy_us, 55.0);
  EXPECT_DOUBLE_EQ(p.steps[1].by_class[cls(KernelClass::MemoryBound)].time_us, 60.0);
  // Step 3: a kernel without correlation id goes by its start (205), + sgemm 30 + memset 5 -> 38.
  EXPECT_DOUBLE_EQ(p.steps[2].gpu_busy_us, 38.0);
  EXPECT_EQ(p.steps[2].by_class[cls(KernelClass::Other)].count, 1);
  EXPECT_DOUBLE_EQ(p.steps[2].gpu_span_us, 50.0);  // 205 .. 255
  // Warm-up: with 3 steps only the first is dropped.
  EXPECT_TRUE(p.steps[0].warmup);
  EXPECT_FALSE(p.steps[1].warmup);
  EXPECT_EQ(p.gpu_busy.n, 2u);
  EXPECT_DOUBLE_EQ(p.gpu_busy.mean, (55.0 + 38.0) / 2);
  EXPECT_DOUBLE_EQ(p.step.mean, 100.0);  // max(wall 100, busy)
  EXPECT_DOUBLE_EQ(p.mean_by_class[cls(KernelClass::Matrix)].time_us, 15.0);
  EXPECT_DOUBLE_EQ(p.mean_by_class[cls(KernelClass::MemcpyMemset)].time_us, 6.5);
}

TEST(StepProfile, WholeTraceIsOneStepWithoutAnnotations) {
  const KinetoTrace t = read_kineto_trace(test::fixture("legacy_no_steps.json"));
  const StepProfile p = build_step_profile(t);
  EXPECT_TRUE(p.whole_trace_is_one_step);
  ASSERT_EQ(p.steps.size(), 1u);
  // HtoD [990,1000), conv [1010,1060), relu [1040,1080) -> 10 + 70 = 80; span 990..1080 = 90.
  EXPECT_DOUBLE_EQ(p.steps[0].gpu_busy_us, 80.0);
  EXPECT_DOUBLE_EQ(p.steps[0].wall_us, 90.0);
  EXPECT_FALSE(p.steps[0].warmup);
}

TEST(StepProfile, WarmupRule) {
  EXPECT_EQ(warmup_steps({50, 60}), (std::vector<bool>{false, false}));
  EXPECT_EQ(warmup_steps({50, 100, 101, 99}), (std::vector<bool>{true, false, false, false}));
  // A second slow step (200 vs median 100 of the later ones) is warm-up too; the scan stops at the first normal one.
  EXPECT_EQ(warmup_steps({300, 200, 100, 101, 99, 180}), (std::vector<bool>{true, true, false, false, false, false}));
}

TEST(StepProfile, RealV100ResNetSteadyState) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const KinetoTrace t = read_kineto_trace(test::hta_trace("v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz"));
  const StepProfile p = build_step_profile(t);
  ASSERT_EQ(p.steps.size(), 5u);
  EXPECT_EQ(p.gpu_busy.n, 4u);
  // Every step launches the same 1219 GPU activities; busy ~94.5 ms (the GPU is saturated: 95.6 ms steps).
  for (const auto& s : p.steps) EXPECT_EQ(s.activities.size(), 1219u);
  EXPECT_NEAR(p.gpu_busy.mean / 1000.0, 94.5, 0.3);
  EXPECT_NEAR(p.step.p50 / 1000.0, 95.6, 0.3);
  // Streams overlap little here, so the union is at most the sum of durations.
  double sum = 0.0;
  for (const auto& c : p.mean_by_class) sum += c.time_us;
  EXPECT_LE(p.gpu_busy.mean, sum + 1e-6);
}

}  // namespace
}  // namespace spotsim
