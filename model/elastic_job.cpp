#include "model/elastic_job.hpp"

#include <cmath>

#include "base/errors.hpp"
#include "model/job.hpp"

namespace spotsim {

std::vector<double> relative_throughput(const JobSpec& job) {
  const int n = job.nodes;
  const auto& steps = job.elastic.step_time_s_by_nodes;
  std::vector<double> rate(static_cast<std::size_t>(n) + 1, 0.0);
  // Throughput of k instances is k / t_k (each trains one per-instance batch per step).
  const auto throughput = [&](int k) { return steps.empty() ? double(k) : k / steps[static_cast<std::size_t>(k) - 1]; };
  const double all = throughput(n);
  for (int k = 1; k <= n; ++k) rate[static_cast<std::size_t>(k)] = throughput(k) / all;
  rate[static_cast<std::size_t>(n)] = 1.0;  // exact, so that a run on all nodes is the restart engine's to the ms
  return rate;
}

double single_instance_speedup(const JobSpec& job) {
  const auto& steps = job.elastic.step_time_s_by_nodes;
  return steps.empty() ? double(job.nodes) : job.nodes * steps.front() / steps.back();
}

Millis reconfiguration_time(const JobSpec& job) {
  const double transfer_s = job.checkpoint_size_gb * 8.0 / job.elastic.network_gbps;
  return job.elastic.reconfigure + static_cast<Millis>(std::ceil(transfer_s * 1000.0));
}

void validate_elastic(const JobSpec& job, const std::string& where) {
  const ElasticSpec& e = job.elastic;
  auto fail = [&where](const std::string& field, const std::string& expected) {
    throw InputError(where + ": field '" + field + "': expected " + expected);
  };
  if (job.nodes == 0) return;  // a job given in GPUs: checked once the trace sets its instance count
  if (e.min_nodes < 0 || e.min_nodes > job.nodes) {
    fail("min_nodes", "an instance count between 1 and nodes (" + std::to_string(job.nodes) + ")");
  }
  if (e.active() && job.nodes > kMaxElasticNodes) {
    fail("nodes", "at most " + std::to_string(kMaxElasticNodes) + " instances for a job with min_nodes");
  }
  if (!e.step_time_s_by_nodes.empty()) {
    if (e.step_time_s_by_nodes.size() != static_cast<std::size_t>(job.nodes)) {
      fail("step_time_s_by_nodes", "one step time per instance count 1.." + std::to_string(job.nodes) + " (" +
                                       std::to_string(job.nodes) + " values), got " +
                                       std::to_string(e.step_time_s_by_nodes.size()));
    }
    for (double t : e.step_time_s_by_nodes) {
      if (!(t > 0.0 && t <= 1e6)) fail("step_time_s_by_nodes", "step times in seconds in (0, 1e6]");
    }
    // Throughput k / t_k need not rise everywhere: going from one instance to two adds the whole all-reduce over
    // the network, which can cost more than a step's compute (docs/elastic.md); the engine takes the table as given.
  }
  if (e.reconfigure < 0 || e.reconfigure > 7 * kMillisPerDay) fail("reconfigure", "a duration between 0 and 7 days");
  if (!(e.network_gbps >= 1e-3 && e.network_gbps <= 1e6)) fail("network_gbps", "a bandwidth in Gbit/s in [0.001, 1e6]");
}

}  // namespace spotsim
