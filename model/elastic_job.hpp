#pragma once
// What a multi-node job needs beyond JobSpec to train on fewer instances than it asked for (docs/elastic.md).
#include <string>
#include <vector>

#include "base/time.hpp"

namespace spotsim {

struct JobSpec;

// Instances are tracked one by one in the elastic engine; beyond this a job is a cluster scheduler's problem.
inline constexpr int kMaxElasticNodes = 4096;

struct ElasticSpec {
  // The fewest instances the job trains on. 0 = not an elastic-engine job (the single-instance engine of
  // engine/job_simulation.hpp runs it); == nodes = the restart mode (all N or nothing); below = the elastic mode.
  int min_nodes = 0;
  // Step time (s) when k instances train, k = 1..nodes, per-instance batch fixed (data parallelism: `spotsim
  // steptime --job-out` writes it). Empty = linear scaling. Only ratios matter: the job's work is its time on all
  // `nodes`.
  std::vector<double> step_time_s_by_nodes;
  // A change of the training set (a loss the job survives, or instances joining) pauses training for this fixed
  // part (re-forming the collective groups) plus one copy of the model state (JobSpec::checkpoint_size_gb) over
  // the instance network at `network_gbps`.
  Millis reconfigure = 30 * kMillisPerSecond;
  double network_gbps = 10.0;
  // The instance shape step_time_s_by_nodes was computed for (`spotsim steptime --instance`); 0 = not stated. A
  // trace whose zones hold another number of GPUs per instance is refused.
  int gpus_per_instance = 0;

  bool active() const { return min_nodes > 0; }
};

// Throughput of k instances relative to all `nodes` (index k = 0..nodes; [0] = 0, [nodes] = 1).
std::vector<double> relative_throughput(const JobSpec& job);

// How much faster all `nodes` train than one instance (nodes x t_1 / t_nodes; nodes with linear scaling).
double single_instance_speedup(const JobSpec& job);

// The pause of one reconfiguration: the fixed part plus the state transfer.
Millis reconfiguration_time(const JobSpec& job);

// Throws InputError naming `where` and the field.
void validate_elastic(const JobSpec& job, const std::string& where);

}  // namespace spotsim
