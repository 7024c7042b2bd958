#pragma once
// An experiment spec (docs/experiments.md): traces x selection policies x checkpoint policies x job parameter
// sets x replications, with one base seed. Parsing validates everything a user can get wrong — unknown fields,
// policy specs, job fields, durations — and names the file and the field, before any simulation starts.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/job_reader.hpp"
#include "app/sweep/trace_entries.hpp"
#include "model/job.hpp"
#include "model/scenario.hpp"

namespace spotsim {

// One job parameter set of the spec: the base `job` with one combination of `job_grid` values applied.
struct JobVariant {
  std::string label;  // "deadline_hours=52,startup_s=180", or the job's name when there is no grid
  JobSpec job;
  // A job from `spotsim steptime --job-out` (step_time_s_by_gpu): its work on each trace is steps x the step time
  // of that trace's GPU (job_on_market()); `job.work` is then unused.
  std::optional<GpuStepTimes> gpu_step_times;
};

struct ExperimentSpec {
  std::string name;
  std::string description;
  std::uint64_t seed = 1;
  std::uint64_t replications = 0;
  std::vector<std::string> traces;        // paths or names of shipped traces, as written
  std::vector<TraceEntry> trace_entries;  // the same, with any region or zone selection (empty = all zones)
  std::vector<std::string> policies;      // selection policy specs "name:key=value,..."
  std::vector<std::string> checkpoints;   // checkpoint policy specs, then one "fixed:interval=D" per interval
  std::vector<Millis> checkpoint_intervals;
  bool checkpoint_on_notice = false;           // applies to the generated fixed-interval specs
  std::optional<std::string> baseline_policy;  // one of `policies`: paired differences are taken against it
  std::vector<JobVariant> jobs;
  TraceStart trace_start;
  bool cant_be_late_mode = false;  // "mode": "cant-be-late" (engine/tick_simulation.hpp) instead of "event"
  bool regret = false;             // "regret": true computes each window's offline optimum

  std::uint64_t chunk_runs = 1000;  // runs per result chunk: the unit of resumption and of sharding
  std::string tuning_metric = "cost_total";
  // The spec with every default filled in, keys sorted: what manifests record and what the spec hash covers.
  nlohmann::json canonical;
};

// `file` names the document in error messages.
ExperimentSpec parse_experiment_spec(const nlohmann::json& document, const std::string& file);
ExperimentSpec read_experiment_spec(const std::string& path);

// The spec string of the fixed-interval checkpoint policy generated for `interval`.
std::string fixed_interval_checkpoint(Millis interval, bool on_notice);

// 64-bit FNV-1a (Fowler, Noll & Vo): a stable, platform-independent hash for spec and trace fingerprints.
std::uint64_t fnv1a64(const std::string& bytes);
std::string hex64(std::uint64_t value);

}  // namespace spotsim
