#include "app/simulation_request.hpp"

#include <algorithm>

#include "app/optimum_grid_report.hpp"
#include "app/options/command_line.hpp"
#include "app/run_metrics.hpp"
#include "app/simulation_resources.hpp"
#include "app/timeline_writer.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/shipped_library.hpp"
#include "base/streaming_summary.hpp"
#include "engine/replication_stream.hpp"
#include "optimum/window_optimum.hpp"
#include "policies/policy_registry.hpp"
#include "spotsim/version.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace {
nlohmann::json job_to_json(const JobSpec& job) {
  nlohmann::json j = {{"work_hours", to_hours(job.work)},
                      {"nodes", job.nodes},
                      {"checkpoint_write_s", to_seconds(job.checkpoint_write)},
                      {"restore_s", to_seconds(job.restore)},
                      {"startup_s", to_seconds(job.startup)},
                      {"give_up_after_hours", to_hours(job.effective_give_up())}};
  j["deadline_hours"] = job.deadline == kNever ? nlohmann::json(nullptr) : nlohmann::json(to_hours(job.deadline));
  if (job.elastic.active()) {
    j["min_nodes"] = job.elastic.min_nodes;
    j["reconfigure_s"] = to_seconds(job.elastic.reconfigure);
    j["network_gbps"] = job.elastic.network_gbps;
    j["checkpoint_size_gb"] = job.checkpoint_size_gb;
    j["reconfiguration_s"] = to_seconds(reconfiguration_time(job));
    j["relative_throughput"] = relative_throughput(job);
  }
  if (job.gpus > 0) j["gpus"] = job.gpus;  // `nodes` is then the instance count they took on this trace
  return j;
}

}  // namespace

bool is_cant_be_late_mode(const std::string& mode) {
  if (mode != "event" && mode != "cant-be-late")
    throw InputError("--mode: expected event or cant-be-late, got '" + mode + "'");
  return mode == "cant-be-late";
}

PreparedSimulation prepare_simulation(const SimulationRequest& request) {
  const std::string trace_path = locate_trace(request.trace);
  PreparedSimulation prepared;
  prepared.market = std::make_unique<SpotMarket>(
      select_zones(read_trace_file(trace_path), request.zones, zone_selection_option_name(request.zones)));
  const SpotMarket& market = *prepared.market;
  const PolicyRegistry registry = policy_registry();
  PolicyFactories& factories = prepared.factories;
  const std::string policy_name = request.policy.substr(0, request.policy.find(':'));
  const bool custom_selection = static_cast<bool>(request.custom_policies.selection);
  if (custom_selection && request.job.elastic.active()) {
    throw InputError("--policy '" + policy_name + "': a policy object selects for one-node jobs, not --min-nodes");
  }
  if (!custom_selection && !request.job.elastic.active() && registry.is_node_policy(request.policy)) {
    throw InputError("--policy '" + policy_name +
                     "' is a multi-node policy: give the job --min-nodes (docs/elastic.md)");
  }
  if (!custom_selection && request.job.elastic.active() && !registry.is_node_policy(request.policy)) {
    throw InputError("--policy '" + policy_name +
                     "': with --min-nodes (the elastic engine) expected a multi-node policy: " +
                     "spot-nodes, deadline-nodes or on-demand-nodes (docs/elastic.md)");
  }
  if (custom_selection) {
    factories.selection = request.custom_policies.selection;
  } else if (request.job.elastic.active()) {
    factories.nodes = registry.node_factory(request.policy);
  } else {
    factories.selection = registry.selection_factory(request.policy);
  }
  factories.checkpoint = request.custom_policies.checkpoint ? request.custom_policies.checkpoint
                                                            : registry.checkpoint_factory(request.checkpoint);
  JobSpec job = resolve_job_instances(request.job, market, "job on " + trace_path);
  std::string job_gpu;
  if (request.gpu_step_times) {
    job_gpu = single_gpu_of(market, trace_path, request.gpu_step_times->file);
    job.work = work_on_gpu(*request.gpu_step_times, job_gpu);
    validate_job(job, request.gpu_step_times->file);
  }
  prepared.scenario = std::make_unique<Scenario>(market, job, request.trace_start);
  Scenario& scenario = *prepared.scenario;
  if (request.cant_be_late_mode) scenario.use_cant_be_late_mode(request.tick);
  scenario.compute_optimum(request.regret);

  // Thread count is deliberately absent: it never changes a result.
  nlohmann::json& manifest = prepared.manifest;
  manifest = {
      {"tool", "spotsim"},
      {"version", kVersion},
      {"git_revision", kGitRevision},
      {"command", "simulate"},
      {"trace", {{"path", trace_path}, {"name", market.name}, {"zones", market.zones.size()}}},
      {"policy", request.policy},
      {"checkpoint", request.checkpoint},
      {"job", job_to_json(scenario.job())},
      {"seed", request.seed},
      {"replications", request.replications},
      {"trace_start", request.trace_start.random ? nlohmann::json("random")
                                                 : nlohmann::json(format_duration(request.trace_start.offset))},
      {"mode", request.cant_be_late_mode ? "cant-be-late" : "event"},
      {"regret", request.regret},
  };
  if (!request.zones.selects_all()) {
    manifest["trace"][request.zones.by == ZoneSelection::By::kRegions ? "regions" : "selected_zones"] =
        request.zones.names;
  }
  if (request.cant_be_late_mode) {
    manifest["tick"] = format_duration(request.tick > 0 ? request.tick : market.tick);
  }
  if (request.regret) manifest["optimum"] = optimum_grid_json(window_optimum_grid(scenario));
  if (request.gpu_step_times) {
    manifest["job"]["gpu"] = canonical_gpu_name(job_gpu);
    manifest["job"]["steps"] = request.gpu_step_times->steps;
    manifest["job"]["step_time_s_by_gpu"] = request.gpu_step_times->step_time_s;
  }
  return prepared;
}

SimulationReport run_simulation(const SimulationRequest& request, RunConsumer* consumer, const QuantileLimits& limits) {
  const PreparedSimulation prepared = prepare_simulation(request);
  const Scenario& scenario = *prepared.scenario;
  SimulationReport report;
  report.manifest = prepared.manifest;

  // Each metric's values in replication order, as summarize() would see them; the runs themselves are not kept.
  const auto metrics = run_metrics();
  // All metrics together keep at most 17 x 2^18 values in memory before spilling (34 MB: what simulate held before
  // the migration metrics and the cost ledger joined the 17), so peak memory does not grow with the metric count.
  constexpr std::size_t kSummaryMemoryValues = 17u << 18;
  QuantileLimits per_metric = limits;
  per_metric.memory_values =
      std::min(limits.memory_values, std::max(limits.spill_block_values, kSummaryMemoryValues / metrics.size()));
  check_spill_fits(request.replications, metrics.size(), per_metric, free_disk_bytes(spill_directory(per_metric)));
  std::vector<StreamingSummary> summaries;
  for (std::size_t m = 0; m < metrics.size(); ++m) summaries.emplace_back(per_metric);
  bool begun = false;
  stream_replications(scenario, prepared.factories,
                      ReplicationPlan{request.seed, 0, request.replications, request.threads, request.progress},
                      [&](std::span<const RunResult> runs) {
                        for (std::size_t m = 0; m < metrics.size(); ++m) {
                          for (const RunResult& r : runs) summaries[m].add(metrics[m].value(r));
                        }
                        if (!consumer) return;
                        if (!begun) consumer->begin(report.manifest);
                        begun = true;
                        consumer->add(runs);
                      });
  for (StreamingSummary& summary : summaries) report.summaries.push_back(summary.finish());
  // Re-run serially after the Monte Carlo run, so that run is not slowed down (same seed and replication: same runs).
  if (request.with_timeline) {
    report.timeline = timeline_text(request, prepared, default_timeline_replications(request.replications));
  }
  return report;
}

namespace {
// Keeps every run: the in-memory report of the Python module and the tests.
class RunCollector final : public RunConsumer {
 public:
  explicit RunCollector(std::vector<RunResult>& runs) : runs_(runs) {}
  void begin(const nlohmann::json&) override {}
  void add(std::span<const RunResult> runs) override { runs_.insert(runs_.end(), runs.begin(), runs.end()); }

 private:
  std::vector<RunResult>& runs_;
};
}  // namespace

SimulationReport run_simulation(const SimulationRequest& request) {
  check_runs_fit_in_memory(request.replications, available_memory_bytes());
  std::vector<RunResult> runs;
  runs.reserve(request.replications);
  RunCollector collector(runs);
  SimulationReport report = run_simulation(request, &collector);
  report.runs = std::move(runs);
  return report;
}

}  // namespace spotsim