#pragma once
// Reads a job description (docs/outputs.md#job-files): the work as hours or as steps x step time, the node count,
// checkpoint/restore/start-up times and an optional deadline.
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/json_fields.hpp"
#include "model/job.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

// A job whose step time depends on the GPU type ("step_time_s_by_gpu", written by `spotsim steptime
// --job-out`): its work is steps x the step time of the trace's GPU, resolved by work_on_gpu().
struct GpuStepTimes {
  std::string file;
  double steps = 0;
  std::map<std::string, double> step_time_s;  // canonical GPU name (steptime/gpu_spec_table.hpp) -> s
};

JobSpec read_job_file(const std::string& path);
// The fields of a job file (docs/outputs.md#job-files), for readers that take more (advise) to list in errors.
const std::vector<std::string>& job_file_fields();
// Applies the fields present in `document` on top of `job` (so a file can override defaults). A file with
// step_time_s_by_gpu fills `per_gpu` (and is rejected when `per_gpu` is null).
void apply_job_json(const nlohmann::json& document, const std::string& file, JobSpec& job,
                    std::optional<GpuStepTimes>* per_gpu = nullptr);
// The one GPU type of `market`'s zones, for a job with step_time_s_by_gpu; InputError naming `trace_path` and
// `job_file` if a zone names no GPU or the zones name different ones.
std::string single_gpu_of(const SpotMarket& market, const std::string& trace_path, const std::string& job_file);
// `job` with its work set to steps x the step time on `market`'s GPU when `per_gpu` is given; `job` as is otherwise.
JobSpec job_on_market(const JobSpec& job, const std::optional<GpuStepTimes>& per_gpu, const SpotMarket& market,
                      const std::string& trace_path);
// checkpoint_size_gb of a job file: a number of GB, or a size with its unit ("20GB", "18.6GiB"; base/data_size.hpp).
double checkpoint_size_field(const JsonFields& f);
// steps x step time on `gpu` (any alias); InputError naming the job file and the GPUs it has if absent.
Millis work_on_gpu(const GpuStepTimes& times, const std::string& gpu);

}  // namespace spotsim
