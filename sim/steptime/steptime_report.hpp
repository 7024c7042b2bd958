#pragma once
// What `spotsim steptime` prints and writes: the per-step table, the steady-state summary, predictions per
// target GPU, and the job description that `spotsim simulate --job` reads (docs/outputs.md#job-files).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/steptime/checkpoint_cost.hpp"
#include "sim/steptime/gpu_spec_table.hpp"
#include "sim/steptime/step_profile.hpp"
#include "sim/steptime/step_time_predictor.hpp"

#include "sim/text_format.hpp"  // format_fixed, used by callers of this header

namespace spotsim {

std::string format_step_profile(const KinetoTrace& trace, const StepProfile& profile, double read_seconds);
std::string format_predictions(const std::string& measured_gpu, const std::vector<StepPrediction>& predictions);
std::string format_checkpoint(const CheckpointSetup& setup, const CheckpointCost& cost);

struct JobDescription {
  std::string name;
  double steps = 0;
  std::map<std::string, double> step_time_s_by_gpu;  // spec-table GPU name -> predicted seconds per step
  std::optional<CheckpointCost> checkpoint;
  std::string notes;
};

nlohmann::json job_description_json(const JobDescription& job);

}  // namespace spotsim
