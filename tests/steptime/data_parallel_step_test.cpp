// The data-parallel step (steptime/data_parallel_step.hpp): host + compute + the all-reduce time that
// outlasts the backward compute it can hide behind.
#include "steptime/data_parallel_step.hpp"

#include <gtest/gtest.h>

namespace spotsim {
namespace {

InstanceLinks eight_gpu_instance() {
  InstanceLinks l;
  l.instance_type = "test-8g";
  l.gpus_per_instance = 8;
  l.intra_gbps = 100;  // 2 (7/8) 1 GB / 100 GB/s = 17.5 ms inside an instance
  l.inter_gbps = 10;   // 2 (m-1)/m 1 GB / 10 GB/s between instances: 100 ms for 2 instances
  return l;
}

DataParallelProfile profile(double overlap) {
  DataParallelProfile p;
  p.compute_ms = 90;
  p.host_ms = 10;
  p.backward_ms = 60;
  p.gradient_bytes = 1e9;
  p.overlap = overlap;
  return p;
}

TEST(DataParallelStep, OneGpuIsHostPlusCompute) {
  InstanceLinks one;
  one.gpus_per_instance = 1;
  EXPECT_DOUBLE_EQ(data_parallel_step_ms(profile(1.0), 1, one), 100.0);
}

TEST(DataParallelStep, AllReduceHiddenBehindBackward) {
  // 17.5 ms of all-reduce inside one instance, 60 ms of backward to hide it: nothing exposed.
  const DataParallelStep s = data_parallel_step(profile(1.0), 1, eight_gpu_instance());
  EXPECT_NEAR(s.allreduce_ms, 17.5, 1e-9);
  EXPECT_EQ(s.exposed_ms, 0.0);
  EXPECT_DOUBLE_EQ(s.step_ms, 100.0);
}

TEST(DataParallelStep, ExposedPartIsWhatOutlastsTheHideableBackward) {
  // Two instances: 17.5 + 100 ms of all-reduce; half of the 60 ms backward can hide it: 87.5 ms exposed.
  const DataParallelStep s = data_parallel_step(profile(0.5), 2, eight_gpu_instance());
  EXPECT_NEAR(s.allreduce_ms, 117.5, 1e-9);
  EXPECT_NEAR(s.exposed_ms, 87.5, 1e-9);
  EXPECT_NEAR(s.step_ms, 187.5, 1e-9);
  // No overlap (an all-reduce after backward): all of it is exposed.
  EXPECT_NEAR(data_parallel_step_ms(profile(0.0), 2, eight_gpu_instance()), 217.5, 1e-9);
}

// The input pipeline (steptime/input_pipeline.hpp): batch / (workers x rate x share), share = cores / workers
// on the instance when they outnumber its cores.
TEST(InputPipeline, WorkersWithACoreEachAndSharedCores) {
  InputPipeline input{100.0, 8, std::nullopt};
  // 256 samples from 8 workers of 100 samples/s: 320 ms, whatever the GPU count without a core limit.
  EXPECT_DOUBLE_EQ(input_ms_per_step(input, 256, 1), 320.0);
  EXPECT_DOUBLE_EQ(input_ms_per_step(input, 256, 8), 320.0);
  // 40 cores: one GPU's 8 workers have a core each; eight GPUs' 64 workers get 40/64 of one.
  input.cores = 40.0;
  EXPECT_DOUBLE_EQ(input_ms_per_step(input, 256, 1), 320.0);
  EXPECT_DOUBLE_EQ(input_ms_per_step(input, 256, 8), 320.0 * 64.0 / 40.0);
  // Exactly as many workers as cores: no slowdown.
  input.cores = 64.0;
  EXPECT_DOUBLE_EQ(input_ms_per_step(input, 256, 8), 320.0);
}

TEST(DataParallelStep, TheStepIsTheLongerOfTheGpuStepAndTheInput) {
  DataParallelProfile p = profile(1.0);
  p.batch_per_gpu = 256;
  p.input = InputPipeline{100.0, 8, 40.0};
  InstanceLinks one;
  one.gpus_per_instance = 1;
  // One GPU: 320 ms of input against 100 ms on the GPU: input-bound.
  const DataParallelStep alone = data_parallel_step(p, 1, one);
  EXPECT_DOUBLE_EQ(alone.gpu_ms, 100.0);
  EXPECT_DOUBLE_EQ(alone.step_ms, 320.0);
  EXPECT_TRUE(alone.input_bound());
  // Eight GPUs share 40 cores: 512 ms.
  EXPECT_DOUBLE_EQ(data_parallel_step(p, 1, eight_gpu_instance()).step_ms, 512.0);
  // Fast loaders: the GPU binds, and the step is the GPU's.
  p.input->samples_per_s_per_worker = 10000.0;
  const DataParallelStep fed = data_parallel_step(p, 1, eight_gpu_instance());
  EXPECT_FALSE(fed.input_bound());
  EXPECT_DOUBLE_EQ(fed.step_ms, fed.gpu_ms);
  EXPECT_DOUBLE_EQ(fed.step_ms, 100.0);
}

}  // namespace
}  // namespace spotsim
