// The Kineto reader on real shared traces (current and legacy schema, gzip) and on plain-JSON fixtures, plus
// every error a user can run into.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "base/errors.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "steptime/step_time_predictor.hpp"
#include "test_paths.hpp"

namespace spotsim {
namespace {

using test::fixture;
using test::hta_trace;

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string error_of(const std::string& path) {
  try {
    read_kineto_trace(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KinetoReader, PlainFixtureCurrentSchema) {
  const KinetoTrace t = read_kineto_trace(fixture("three_steps.json"));
  EXPECT_EQ(t.schema, TraceSchema::Current);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(t.devices[0].num_sms, 80);
  EXPECT_EQ(t.devices[0].vendor, GpuVendor::Nvidia);
  EXPECT_EQ(t.activities.size(), 9u);  // 7 kernels + 1 memcpy + 1 memset
  ASSERT_EQ(t.steps.size(), 3u);       // the gpu_user_annotation copy is not a step
  EXPECT_EQ(t.steps[1].name, "ProfilerStep#2");
  EXPECT_EQ(t.launch_time_us.size(), 8u);
  const GpuActivity& first = t.activities.front();
  EXPECT_EQ(t.name_of(first), "volta_sgemm_128x64_nn");
  EXPECT_EQ(first.grid_blocks, 160);
  EXPECT_EQ(first.block_threads, 256);
  EXPECT_EQ(first.registers_per_thread, 128);
  EXPECT_EQ(first.stream, 7);
  EXPECT_EQ(first.correlation, 1);
}

TEST(KinetoReader, PlainFixtureLegacySchema) {
  const KinetoTrace t = read_kineto_trace(fixture("legacy_no_steps.json"));
  EXPECT_EQ(t.schema, TraceSchema::Legacy);
  ASSERT_EQ(t.activities.size(), 3u);
  EXPECT_TRUE(t.steps.empty());
  // Sorted by start: the HtoD copy (990), the conv (1010), the ReLU on "stream 13" given only by its tid.
  EXPECT_TRUE(t.activities[0].host_transfer);
  EXPECT_EQ(t.activities[1].kind.family, KernelFamily::Convolution);
  EXPECT_EQ(t.activities[2].stream, 13);
  // Times are relative to the first timestamp (1000): the launch at 0, its kernel 10 us later.
  EXPECT_DOUBLE_EQ(t.launch_time_us.at(11), 0.0);
  EXPECT_DOUBLE_EQ(t.activities[1].start_us, 10.0);
}

TEST(KinetoReader, RealGzipCurrentSchema) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const KinetoTrace t = read_kineto_trace(hta_trace("v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz"));
  EXPECT_EQ(t.schema, TraceSchema::Current);
  EXPECT_EQ(t.steps.size(), 5u);
  // 4350 kernels + 1600 memcpy + 145 memset in the file (counted independently with Python's json module).
  EXPECT_EQ(t.activities.size(), 4350u + 1600u + 145u);
  ASSERT_NE(t.main_device(), nullptr);
  EXPECT_EQ(t.main_device()->name, "Tesla V100-SXM2-32GB");
  EXPECT_EQ(measured_gpu_of(t, "").name, "V100");
}

TEST(KinetoReader, RealGzipLegacySchema) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const KinetoTrace t = read_kineto_trace(test::legacy_trace());
  EXPECT_EQ(t.schema, TraceSchema::Legacy);
  EXPECT_EQ(t.steps.size(), 6u);  // ProfilerStep#5..#10, cat "Operator"
  EXPECT_EQ(t.activities.size(), 8772u + 312u + 12u);
  EXPECT_GT(t.launch_time_us.size(), 8000u);
}

TEST(KinetoReader, RocmTraceIsReadButNotScaled) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  const KinetoTrace t = read_kineto_trace(hta_trace("mi250_minitoy_train_rocm62_tiny.json.gz"));
  ASSERT_NE(t.main_device(), nullptr);
  EXPECT_EQ(t.main_device()->vendor, GpuVendor::Amd);
  EXPECT_EQ(t.main_device_id(), 2);  // kernels run on device 2; deviceProperties lists only device 0
  EXPECT_EQ(t.activities.size(), 16u);
  try {
    measured_gpu_of(t, "A100-40GB");
    FAIL() << "an AMD trace must not be scaled to NVIDIA GPUs";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("AMD"), std::string::npos) << e.what();
  }
}

TEST(KinetoReader, GemmKernelsOfConvolutionOpsAreConvolutions) {
  // The kernel's "External id" names the CPU operator that launched it: a cuBLAS GEMM launched by a cuDNN
  // convolution is a convolution (TF32 by default on Ampere), one launched by aten::mm stays a GEMM.
  test::TempDir dir("launching_op");
  write_text(dir.file("ops.json"), R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::cudnn_convolution", "pid": 1, "tid": 1, "ts": 0, "dur": 50, "args": {"External id": 5}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 60, "dur": 20, "args": {"External id": 6}},
    {"ph": "X", "cat": "kernel", "name": "volta_sgemm_64x64_nn", "pid": 0, "tid": 7, "ts": 100, "dur": 30, "args": {"External id": 5, "correlation": 1}},
    {"ph": "X", "cat": "Kernel", "name": "volta_sgemm_64x64_nt", "pid": 0, "tid": "stream 7", "ts": 140, "dur": 30, "args": {"external id": 5, "correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x32_nt", "pid": 0, "tid": 7, "ts": 180, "dur": 30, "args": {"External id": 6, "correlation": 3}}]})");
  const KinetoTrace t = read_kineto_trace(dir.file("ops.json"));
  ASSERT_EQ(t.activities.size(), 3u);
  EXPECT_EQ(t.activities[0].kind.family, KernelFamily::Convolution);
  EXPECT_EQ(t.activities[1].kind.family, KernelFamily::Convolution);  // 2021 schema key "external id"
  EXPECT_EQ(t.activities[2].kind.family, KernelFamily::Gemm);
  EXPECT_EQ(t.activities[0].kind.kernel_class, KernelClass::Matrix);
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  // V100 ResNet-50: cuDNN runs the 1x1 convolutions as volta_sgemm kernels; only the FC layer is a GEMM.
  const KinetoTrace v100 = read_kineto_trace(hta_trace("v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz"));
  int conv_sgemm = 0, gemm_sgemm = 0;
  for (const GpuActivity& a : v100.activities) {
    if (v100.name_of(a).find("sgemm") == std::string::npos) continue;
    (a.kind.family == KernelFamily::Convolution ? conv_sgemm : gemm_sgemm) += 1;
  }
  EXPECT_EQ(conv_sgemm, 405);
  EXPECT_EQ(gemm_sgemm, 15);  // aten::addmm and aten::mm of the classifier layer, 5 steps
}

TEST(KinetoReader, KernelsLaunchedInsideDdpReducerScopesWorkOnGradients) {
  // DDP's reducer wraps its gradient-bucket copies and averaging in record_function scopes; the kernel's own
  // "External id" names only aten::copy_ / aten::mul, so the scope is found by launch time on the launching thread.
  test::TempDir dir("reducer");
  write_text(dir.file("ddp.json"), R"json({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "torch.distributed.ddp.reducer::copy_bucket_to_grad", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
    {"ph": "X", "cat": "cpu_op", "name": "torch::distributed::reducer::mul_out", "pid": 1, "tid": 2, "ts": 60, "dur": 20},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 10, "dur": 2, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 70, "dur": 2, "args": {"correlation": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 70, "dur": 2, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 90, "dur": 2, "args": {"correlation": 4}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7, "ts": 100, "dur": 5, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, mul>", "pid": 0, "tid": 7, "ts": 110, "dur": 5, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, relu>", "pid": 0, "tid": 7, "ts": 120, "dur": 5, "args": {"correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, add>", "pid": 0, "tid": 7, "ts": 130, "dur": 5, "args": {"correlation": 4}}]})json");
  const KinetoTrace t = read_kineto_trace(dir.file("ddp.json"));
  ASSERT_EQ(t.activities.size(), 4u);
  EXPECT_TRUE(t.activities[0].on_gradients);   // copy_bucket_to_grad, thread 1
  EXPECT_TRUE(t.activities[1].on_gradients);   // mul_out, thread 2
  EXPECT_FALSE(t.activities[2].on_gradients);  // launched at 70 on thread 1, after its scope ended at 50
  EXPECT_FALSE(t.activities[3].on_gradients);  // thread 2 at 90, after mul_out ended at 80
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  // V100 ResNet-50 (DDP, one rank): 161 parameters, so per step 161 bucket-to-grad copies and 161 averaging
  // multiplications; 5 steps.
  const KinetoTrace v100 = read_kineto_trace(hta_trace("v100_resnet50_ddp1_fp32_rank0.pt.trace.json.gz"));
  const auto on_gradients = std::count_if(v100.activities.begin(), v100.activities.end(),
                                          [](const GpuActivity& a) { return a.on_gradients; });
  EXPECT_EQ(on_gradients, 5 * 2 * 161);
}

TEST(KinetoReader, NotAChromeTrace) {
  test::TempDir dir("notchrome");
  write_text(dir.file("job.json"), R"({"name": "job", "work_hours": 3})");
  EXPECT_NE(error_of(dir.file("job.json")).find("not a Chrome trace"), std::string::npos);
  write_text(dir.file("broken.json"), R"({"traceEvents": [ {"ph": "X", )");
  const std::string broken = error_of(dir.file("broken.json"));
  EXPECT_NE(broken.find("not valid JSON"), std::string::npos) << broken;
  EXPECT_NE(broken.find("broken.json"), std::string::npos) << broken;
  EXPECT_NE(error_of(dir.file("missing.json")).find("cannot open"), std::string::npos);
}

TEST(KinetoReader, NoKernelEvents) {
  test::TempDir dir("nokernels");
  write_text(
      dir.file("cpu_only.json"),
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 0, "dur": 3}]})");
  EXPECT_NE(error_of(dir.file("cpu_only.json")).find("no GPU kernel events"), std::string::npos);
}

// Numbers the reader keeps as integers: a value no integer type holds is an error naming the file and the field
// (found by tests/fuzz/kineto_trace_fuzzer.cpp: a 112-digit computeMajor was converted to int unchecked).
TEST(KinetoReader, OutOfRangeIntegerFields) {
  test::TempDir dir("ranges");
  const std::string kernel =
      R"({"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 5, "dur": 3,)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"deviceProperties": [{"id": 0, "computeMajor": 5e111}], "traceEvents": [)" + kernel + R"( "args": {}}]})",
       "field 'deviceProperties.computeMajor'"},
      {R"({"traceEvents": [)" + kernel + R"( "args": {"grid": [1e9, 1e9, 1e9], "block": [128, 1, 1]}}]})",
       "field 'args.grid'"},
      {R"({"traceEvents": [)" + kernel + R"( "args": {"correlation": 1e30}}]})", "field 'args.correlation'"},
      {R"({"traceEvents": [{"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": "stream 99999999999", "ts": 5, "dur": 3}]})",
       "field 'tid'"},
      {R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": -9000000000000000000, "dur": 1},)" +
           kernel + R"( "ts": 9000000000000000000, "args": {}}]})",
       "1 with an absurd ts"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string path = dir.file("case" + std::to_string(i) + ".json");
    write_text(path, cases[i].first);
    const std::string error = error_of(path);
    EXPECT_NE(error.find(cases[i].second), std::string::npos) << i << ": " << error;
    EXPECT_NE(error.find(path), std::string::npos) << error;
  }
}

TEST(KinetoReader, TruncatedGzip) {
  if (!test::have_shared_data()) GTEST_SKIP() << "no shared data";
  test::TempDir dir("truncated");
  std::ifstream in(hta_trace("a100_alexnet_benchmark_small.json.gz"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  write_text(dir.file("cut.json.gz"), bytes.substr(0, bytes.size() / 2));
  const std::string message = error_of(dir.file("cut.json.gz"));
  EXPECT_NE(message.find("truncated or corrupt"), std::string::npos) << message;
  EXPECT_NE(message.find("cut.json.gz"), std::string::npos) << message;
}

}  // namespace
}  // namespace spotsim
