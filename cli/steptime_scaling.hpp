#pragma once
// `spotsim steptime --instance TYPE --nodes N`: the data-parallel step time on 1..N instances of a type, the
// same GPU count laid out on other instance types with their prices, and the job-file fields
// `gpus_per_instance` and `step_time_s_by_nodes` (docs/step-time.md#data-parallel).
#include <boost/program_options.hpp>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "steptime/allreduce_model.hpp"
#include "steptime/input_pipeline.hpp"
#include "steptime/kineto_trace.hpp"
#include "steptime/step_profile.hpp"
#include "steptime/step_time_predictor.hpp"

namespace spotsim {

// The most instances `--nodes` accepts: the job file's step_time_s_by_nodes holds one entry per count.
inline constexpr int kMaxScalingNodes = 1024;

boost::program_options::options_description data_parallel_options();

struct DataParallelRequest {
  std::string instance_type;
  int max_nodes = 1;
  double parameters = 0;
  double bytes_per_gradient = 4;
  std::optional<double> overlap;       // --overlap: replaces the measured (or default) overlap
  std::optional<double> collectives;   // --collectives: all-reduces per step (default: measured, else DDP buckets)
  std::optional<InputPipeline> input;  // --loader-rate, --loader-workers, --host-cores
  AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring;
  std::string links_path;
};

// Empty when --instance is not given; InputError for an inconsistent or out-of-range option, checked before the
// trace is read. `parameters` is --params, already parsed (required with --instance).
std::optional<DataParallelRequest> data_parallel_request(const boost::program_options::variables_map& vm,
                                                         std::optional<double> parameters);

struct DataParallelScaling {
  int gpus_per_instance = 1;
  std::vector<double> step_s_by_nodes;  // [t_1, ..., t_N]
};

// Prints the scaling and layout tables to `out` and returns what the job file records.
DataParallelScaling report_data_parallel_scaling(const DataParallelRequest& request, const KinetoTrace& trace,
                                                 const StepProfile& profile, const GpuSpec& measured,
                                                 const PredictionOptions& options, std::ostream& out);

void add_scaling_to_job(nlohmann::json& job, const DataParallelScaling& scaling);

}  // namespace spotsim
