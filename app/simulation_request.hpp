#pragma once
// One `simulate` invocation as data: what the command line, a job file or the Python module fill in, and what
// run_simulation() executes. Keeping it a plain struct lets every front end share one code path.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/job_reader.hpp"
#include "base/exact_quantiles.hpp"
#include "base/statistics.hpp"
#include "engine/replication_runner.hpp"
#include "model/job.hpp"
#include "model/market/zone_selection.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace spotsim {

struct SimulationRequest {
  std::string trace = "us-west1";  // a path or the name of a shipped trace
  ZoneSelection zones;             // --regions / --zones: the part of the trace the job may use (default all)
  std::string policy = "adaptive";
  std::string checkpoint = "young-daly";
  JobSpec job{48 * kMillisPerHour};  // the CLI's defaults: 48 h of work, see JobSpec for the rest
  // Set by a job file with step_time_s_by_gpu: job.work is then steps x the step time of the trace's GPU.
  std::optional<GpuStepTimes> gpu_step_times;
  std::uint64_t seed = 1;
  std::uint64_t replications = 1000;
  int threads = 0;  // 0 = all cores; never changes the results
  TraceStart trace_start;
  bool cant_be_late_mode = false;  // the tick engine of engine/tick_simulation.hpp instead of the event engine
  Millis tick = 0;                 // its tick; 0 = the trace's own
  bool regret = false;             // also compute each window's offline optimum (regret)
  // Optional: replications done so far, for a progress line (the CLI) or a poller (the Python module); the
  // caller sets progress->total. Never changes a result.
  ReplicationProgress* progress = nullptr;
  // Also log the first three replications' events into SimulationReport::timeline (the JSON output carries them,
  // for `spotsim report`); only the single-job event engine reports events.
  bool with_timeline = false;
  // Policies that are objects rather than registry names (the Python module's policy classes): a set factory
  // replaces the registry's lookup of `policy` / `checkpoint`, which then only name it in the manifest.
  PolicyFactories custom_policies;
};

struct SimulationReport {
  nlohmann::json manifest;         // version, git revision, full configuration, seed
  std::vector<RunResult> runs;     // every run, in replication order; empty when they were streamed
  std::vector<Summary> summaries;  // one per entry of run_metrics()
  std::string timeline;            // with_timeline: the event log as JSON lines (docs/outputs.md#timeline)
};

// Receives the runs as they are computed, for outputs that stream them (the CLI's CSV and JSON).
class RunConsumer {
 public:
  virtual ~RunConsumer() = default;
  virtual void begin(const nlohmann::json& manifest) = 0;  // once, when the first block of runs is ready
  virtual void add(std::span<const RunResult> runs) = 0;   // blocks, in replication order
};

// A request made ready to run: its trace read, job resolved, policies found, manifest written. What run_simulation()
// runs, and what `simulate --timeline` re-runs chosen replications of (app/timeline_writer.hpp).
struct PreparedSimulation {
  std::unique_ptr<SpotMarket> market;  // the scenario points into it
  std::unique_ptr<Scenario> scenario;
  PolicyFactories factories;
  nlohmann::json manifest;  // version, git revision, full configuration, seed
};
PreparedSimulation prepare_simulation(const SimulationRequest& request);

// Runs the request in bounded memory whatever the replication count: runs go to `consumer` (may be null) block by
// block and are not kept (report.runs stays empty); summaries are accumulated as they come
// (base/streaming_summary.hpp), spilling values for the exact percentiles beyond `limits`. Refuses (InputError) before
// starting when the spill could not fit on its disk.
SimulationReport run_simulation(const SimulationRequest& request, RunConsumer* consumer,
                                const QuantileLimits& limits = {});

// The same, keeping every run in report.runs (the Python module, tests): refused before starting when they would
// not fit in the memory available.
SimulationReport run_simulation(const SimulationRequest& request);

// --mode: "event" (false) or "cant-be-late" (true); InputError otherwise.
bool is_cant_be_late_mode(const std::string& mode);

}  // namespace spotsim
