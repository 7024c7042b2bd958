#pragma once
// The job `spotsim advise` places (docs/advise.md#job): a job file written by `spotsim steptime --job-out` (step
// times per GPU), or steps with a step time measured on one GPU, which is then predicted on every other GPU
// of the spec table. Either way the job also says how many GPUs it trains on at once and what a checkpoint
// costs; work and instance count are decided per offer.
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "model/job.hpp"
#include "steptime/kernel_classifier.hpp"

namespace spotsim {

struct AdviseJob {
  std::string file;  // where the job came from, for messages
  std::string name;
  // Start-up, checkpoint write/restore, deadline and give-up time; work and nodes are set per offer.
  JobSpec base;
  double steps = 0;
  int gpus = 1;  // GPUs trained on at once (data parallel); step times are per step at that degree
  std::map<std::string, double> step_time_s_by_gpu;  // canonical GPU name -> s (given, not predicted)
  // A step time measured on one GPU, predicted on the others (empty measured_gpu: none).
  std::string measured_gpu;
  double measured_step_time_s = 0;
  // Share of the measured step in matrix/convolution kernels; the rest scales with memory bandwidth. The default
  // is the ResNet-50 V100 trace's 63% (docs/step-time.md); `spotsim steptime` prints it for a trace of yours.
  double matrix_fraction = 0.63;
  Precision precision = Precision::FP32;
  std::optional<double> checkpoint_size_gb;
};

// Reads a job file: every field of docs/outputs.md#job-files except `nodes` (advise derives the instance count
// from `gpus`), plus `gpus`, `measured_gpu`, `parameters` (model size: checkpoint size at 14 B/param,
// mixed-precision Adam), `matrix_fraction` and `precision`. InputError naming the file and field otherwise.
AdviseJob read_advise_job(const nlohmann::json& document, const std::string& file);

// Sets write and restore times to size / bandwidth (GB/s) when the checkpoint size is known; InputError if not.
void apply_storage_bandwidth(AdviseJob& job, double gbps, const std::string& where);

struct StepTimeOnGpu {
  std::optional<double> seconds;
  std::string origin;  // "job file", "predicted from V100", or why there is none
};

// The job's step time on `gpu` (any alias): as given, else predicted from the measured GPU by the spec
// table's achieved rates (steptime/step_time_predictor.hpp), else none with the reason.
StepTimeOnGpu step_time_on(const AdviseJob& job, const std::string& gpu);

// The measured step split into one matrix and one memory-bound part, each rescaled like a kernel of that class.
double predict_step_time_s(double measured_s, const std::string& measured_gpu, const std::string& target_gpu,
                           double matrix_fraction, Precision precision);

}  // namespace spotsim
