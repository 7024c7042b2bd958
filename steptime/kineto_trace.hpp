#pragma once
// What spotsim keeps of a PyTorch profiler (Kineto) Chrome trace: the GPUs, every GPU activity (kernel, memcpy,
// memset) with its interval and launch geometry, the CPU-side launch time of each correlation id, and the
// ProfilerStep#N annotations. Names are interned so a 20,000-kernel trace costs a few MB, not the whole JSON.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "steptime/kernel_classifier.hpp"
#include "steptime/op_shape.hpp"
#include "steptime/skipped_trace_events.hpp"

namespace spotsim {

enum class TraceSchema { Current, Legacy };  // `cat` "kernel" + numeric tid, or "Kernel" + tid "stream N" (2021)
enum class GpuVendor { Nvidia, Amd, Unknown };

struct TraceDevice {
  int id = 0;
  std::string name;
  int num_sms = 0;  // 0 when the trace does not say
  double total_memory_bytes = 0.0;
  int compute_major = 0;
  int compute_minor = 0;
  GpuVendor vendor = GpuVendor::Unknown;
};

// Times are microseconds relative to the first timestamp in the file (Kineto writes epoch-based microseconds,
// ~1.7e15, which a double would hold only to 0.25 us).
struct GpuActivity {
  double start_us = 0.0;
  double duration_us = 0.0;
  std::int64_t correlation = -1;  // links to the CPU-side launch (cudaLaunchKernel, ...); -1 if absent
  std::int32_t device = 0;
  std::int32_t stream = 0;
  std::uint32_t name_id = 0;  // index into KinetoTrace::names
  KernelKind kind;
  std::int64_t grid_blocks = 0;    // product of grid[x,y,z]; 0 when unknown (memcpy, ROCm)
  std::int32_t block_threads = 0;  // product of block[x,y,z]
  std::int32_t registers_per_thread = 0;
  std::int32_t shared_memory_bytes = 0;
  bool host_transfer = false;  // memcpy touching host memory or a peer GPU: not scaled by HBM bandwidth
  std::int32_t op = -1;        // index into KinetoTrace::ops: the operator with recorded dimensions that
                               // launched it (record_shapes=True), or -1
  bool on_gradients = false;   // launched inside a DistributedDataParallel reducer scope (its record_function
                               // names contain "reducer::": copy_bucket_to_grad, mul_out): work on the FP32
                               // gradients, proportional to the parameters, not the batch (precision_model.hpp)
};

struct StepAnnotation {
  std::string name;  // "ProfilerStep#12"
  double start_us = 0.0;
  double duration_us = 0.0;
  std::int64_t thread = -1;  // the CPU thread (tid) that ran the step; -1 when the trace does not say
};

struct KinetoTrace {
  std::string path;
  TraceSchema schema = TraceSchema::Current;
  std::vector<TraceDevice> devices;
  std::vector<GpuActivity> activities;                      // sorted by start time
  std::unordered_map<std::int64_t, double> launch_time_us;  // correlation id -> CPU launch timestamp
  // correlation id -> CPU thread (tid) of the launch, where the trace gives one: PyTorch's autograd engine
  // launches the backward pass from its own thread, so this separates backward kernels (data_parallel_trace.hpp).
  std::unordered_map<std::int64_t, std::int64_t> launch_thread;
  std::vector<StepAnnotation> steps;  // CPU-side ProfilerStep#N, sorted by start
  std::vector<std::string> names;     // interned activity names
  std::vector<OpShape> ops;           // one per launching operator invocation with usable recorded dimensions
  std::size_t events_read = 0;
  SkippedTraceEvents skipped;  // events dropped for unusable time fields (few enough to only warn about)

  const std::string& name_of(const GpuActivity& a) const { return names[a.name_id]; }
  // The device the trace is about: the one with the most kernel time (a rank's own GPU).
  const TraceDevice* main_device() const;
  int main_device_id() const;
};

}  // namespace spotsim
