#include "app/advise/advise_job.hpp"

#include <array>
#include <nlohmann/json.hpp>

#include "app/job_reader.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "steptime/checkpoint_cost.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "steptime/step_time_predictor.hpp"

namespace spotsim {

namespace {

// Fields only `advise` knows; the rest go through the shared job reader, so both commands read them alike.
constexpr std::array<const char*, 5> kAdviseOnlyFields = {"gpus", "measured_gpu", "parameters", "matrix_fraction",
                                                          "precision"};

Precision parse_precision(const JsonFields& f) {
  const std::string text = f.string("precision");
  for (Precision p : {Precision::FP32, Precision::TF32, Precision::FP16, Precision::BF16}) {
    if (to_string(p) == text) return p;
  }
  f.fail_value("precision", "\"fp32\", \"tf32\", \"fp16\" or \"bf16\"", f.raw("precision"));
}

// The checkpointed bytes of mixed-precision Adam (14 B/param, docs/step-time.md#checkpoint-cost).
double checkpoint_gb_of_parameters(double parameters) {
  return parameters * training_state_layout("adam-mixed", "parameters").checkpoint_bytes() / 1e9;
}

}  // namespace

AdviseJob read_advise_job(const nlohmann::json& document, const std::string& file) {
  const JsonFields f(document, file, "");
  if (f.has("nodes")) f.fail("nodes", "'gpus' instead (advise derives the instance count from each offer's shape)");
  // Listed here, with the advise-only fields, so that an unknown field's message names every field advise reads.
  std::vector<std::string> known;
  for (const std::string& field : job_file_fields()) {
    if (field != "nodes") known.push_back(field);
  }
  known.insert(known.end(), kAdviseOnlyFields.begin(), kAdviseOnlyFields.end());
  f.reject_unknown(known);
  nlohmann::json shared = document;
  for (const char* field : kAdviseOnlyFields) shared.erase(field);

  AdviseJob job;
  job.file = file;
  job.name = f.optional_string("name");
  std::optional<GpuStepTimes> per_gpu;
  apply_job_json(shared, file, job.base, &per_gpu);
  if (f.has("gpus")) job.gpus = static_cast<int>(f.integer("gpus", 1, 4096));
  if (f.has("matrix_fraction")) job.matrix_fraction = f.number("matrix_fraction", 0.0, 1.0);
  if (f.has("precision")) job.precision = parse_precision(f);
  if (f.has("checkpoint_size_gb")) job.checkpoint_size_gb = checkpoint_size_field(f);
  if (f.has("parameters")) {
    if (job.checkpoint_size_gb) f.fail("parameters", "either parameters or checkpoint_size_gb, not both");
    job.checkpoint_size_gb = checkpoint_gb_of_parameters(f.number("parameters", 1.0, 1e15));
  }
  if (per_gpu) {
    if (f.has("measured_gpu"))
      f.fail("measured_gpu", "no measured_gpu with step_time_s_by_gpu (its GPUs say where each was taken)");
    job.steps = per_gpu->steps;
    job.step_time_s_by_gpu = per_gpu->step_time_s;
  } else {
    if (!f.has("measured_gpu")) {
      f.fail("measured_gpu",
             "the GPU the step time (or work_hours) was measured on, e.g. \"V100\", or a "
             "step_time_s_by_gpu map from spotsim steptime --job-out");
    }
    job.measured_gpu = one_gpu_or_throw(f.string("measured_gpu"), file + ": field 'measured_gpu'").name;
    if (f.has("steps")) {
      job.steps = f.number("steps", 1.0, 1e15);
      job.measured_step_time_s = f.number("step_time_s", 1e-6, 1e6);
    } else {
      if (!f.has("work_hours")) f.fail("steps", "steps with step_time_s (or work_hours) measured on measured_gpu");
      // work_hours measured on one GPU: one "step" of that length scales the same way.
      job.steps = 1.0;
      job.measured_step_time_s = to_seconds(job.base.work);
    }
  }
  if (f.has("parameters") && !f.has("checkpoint_write_s") && !f.has("restore_s")) {
    apply_storage_bandwidth(job, 1.0, file);  // the steptime command's default: 1 GB/s for both
  }
  return job;  // work and nodes are set, and the whole job validated, per offer
}

void apply_storage_bandwidth(AdviseJob& job, double gbps, const std::string& where) {
  if (!job.checkpoint_size_gb) {
    throw InputError(where +
                     ": a storage bandwidth needs the checkpoint size: give checkpoint_size_gb or "
                     "parameters in the job, or --params");
  }
  if (!(gbps > 0.0 && gbps <= 1e4)) throw InputError(where + ": expected a storage bandwidth in (0, 10000] GB/s");
  const Millis seconds = millis_from_seconds(*job.checkpoint_size_gb / gbps);
  job.base.checkpoint_write = seconds;
  job.base.restore = seconds;
}

double predict_step_time_s(double measured_s, const std::string& measured_gpu, const std::string& target_gpu,
                           double matrix_fraction, Precision precision) {
  const GpuSpec& from = gpu_spec_or_throw(measured_gpu, "measured GPU");
  const GpuSpec& to = gpu_spec_or_throw(target_gpu, "target GPU");
  GpuActivity matrix;
  matrix.duration_us = measured_s * 1e6 * matrix_fraction;
  matrix.kind = KernelKind{KernelClass::Matrix, KernelFamily::Gemm, precision};
  GpuActivity memory;
  memory.duration_us = measured_s * 1e6 * (1.0 - matrix_fraction);
  memory.kind = KernelKind{KernelClass::MemoryBound, KernelFamily::Elementwise, Precision::FP32};
  // The precision is the job's choice: no implicit TF32 on top of it. Grids are unknown (grid_blocks 0), so no
  // wave correction applies.
  PredictionOptions options;
  options.tf32 = Tf32Policy::Off;
  return (predict_kernel_time_us(matrix, from, to, options) + predict_kernel_time_us(memory, from, to, options)) / 1e6;
}

StepTimeOnGpu step_time_on(const AdviseJob& job, const std::string& gpu) {
  const std::string name = canonical_gpu_name(gpu);
  if (const auto it = job.step_time_s_by_gpu.find(name); it != job.step_time_s_by_gpu.end()) {
    return {it->second, "job file"};
  }
  if (find_gpu_spec(name) == nullptr) {
    return {std::nullopt,
            "not in the GPU spec table, so no prediction; give its step time in the job's step_time_s_by_gpu"};
  }
  if (job.measured_gpu.empty())
    return {std::nullopt, "no step time in the job (rerun spotsim steptime with --target " + name + ")"};
  if (name == job.measured_gpu) return {job.measured_step_time_s, "measured"};
  return {predict_step_time_s(job.measured_step_time_s, job.measured_gpu, name, job.matrix_fraction, job.precision),
          "predicted from " + job.measured_gpu};
}

}  // namespace spotsim
