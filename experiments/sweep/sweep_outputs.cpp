#include "experiments/sweep/sweep_outputs.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "experiments/atomic_file.hpp"
#include "experiments/run_metrics.hpp"
#include "experiments/sweep/run_rows.hpp"
#include "experiments/sweep/sweep_directory.hpp"
#include "sim/duration.hpp"
#include "sim/errors.hpp"
#include "spotsim/version.hpp"

namespace spotsim {

namespace fs = std::filesystem;

std::vector<RunResult> read_all_runs(const SweepPlan& plan, const std::vector<std::string>& dirs) {
  std::vector<RunResult> runs;
  runs.reserve(plan.run_count());
  for (std::uint64_t chunk = 0; chunk < plan.chunk_count(); ++chunk) {
    std::string path;
    std::error_code ec;
    for (const std::string& dir : dirs) {
      if (fs::is_regular_file(chunk_path(dir, chunk), ec)) {
        path = chunk_path(dir, chunk);
        break;
      }
    }
    if (path.empty()) {
      throw InputError(chunk_path(dirs.front(), chunk) + ": missing: chunk " + std::to_string(chunk) + " of " +
                       std::to_string(plan.chunk_count()) + " was not computed (run the sweep with --resume, or " +
                       "merge every shard)");
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::vector<RunResult> part = parse_chunk_file(plan, chunk, text.str(), path);
    runs.insert(runs.end(), part.begin(), part.end());
  }
  return runs;
}

nlohmann::json sweep_manifest_json(const SweepPlan& plan) {
  nlohmann::json traces = nlohmann::json::array();
  for (const TraceInfo& t : plan.traces) traces.push_back(trace_info_json(t));
  // No thread count, shard layout, host or path: none of them changes a number, and the manifest must be the same
  // for a single run and a merge of shards.
  return {{"tool", "spotsim"},
          {"version", kVersion},
          {"git_revision", kGitRevision},
          {"command", "sweep"},
          {"spec_hash", plan.spec_hash},
          {"spec", plan.spec.canonical},
          {"seed", plan.spec.seed},
          {"seed_rule", "every configuration on a trace uses seed splitmix64(splitmix64(seed) xor fnv1a64(trace name)); "
                        "replication r keys its random streams by (that seed, r)"},
          {"traces", traces},
          {"configurations", plan.configurations.size()},
          {"replications", plan.spec.replications},
          {"runs", plan.run_count()},
          {"chunks", plan.chunk_count()},
          {"outputs", {"runs.csv", "summary.json", "summary.md", "manifest.json"}}};
}

std::string write_sweep_outputs(const SweepPlan& plan, const std::string& dir) {
  const std::vector<RunResult> runs = read_all_runs(plan, {dir});
  const SweepAnalysis analysis = analyse_sweep(plan, runs);
  std::string csv = runs_csv_header();
  append_runs_csv(plan, 0, runs, csv);
  const std::string markdown = sweep_summary_markdown(plan, analysis);
  const fs::path root(dir);
  write_file_atomically((root / "runs.csv").string(), csv);
  write_file_atomically((root / "summary.json").string(), sweep_summary_json(plan, analysis).dump(2) + "\n");
  write_file_atomically((root / "summary.md").string(), markdown);
  // The manifest last: its presence says the outputs beside it are complete.
  write_file_atomically((root / "manifest.json").string(), sweep_manifest_json(plan).dump(2) + "\n");
  return markdown;
}

}  // namespace spotsim
