#pragma once
// What `spotsim steptime` prints and writes: the per-step table, the steady-state summary, predictions per
// target GPU, and the job description that `spotsim simulate --job` reads (docs/outputs.md#job-files).
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/text_format.hpp"  // format_fixed, used by callers of this header
#include "steptime/checkpoint_cost.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "steptime/host_time.hpp"
#include "steptime/step_profile.hpp"
#include "steptime/step_time_predictor.hpp"

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
// `--breakdown-out`: the measured per-step breakdown (host_time.hpp) and, per target, the predicted step split
// into compute, communication and host gap, with the precision and batch scale it was predicted for.
nlohmann::json breakdown_document(const std::string& trace_path, const HostTimeBreakdown& breakdown,
                                  const std::vector<StepPrediction>& predictions);

}  // namespace spotsim
