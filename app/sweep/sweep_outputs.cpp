#include "app/sweep/sweep_outputs.hpp"

#include <filesystem>
#include <fstream>

#include "app/run_metrics.hpp"
#include "app/sweep/chunk_reader.hpp"
#include "app/sweep/run_rows.hpp"
#include "app/sweep/streaming_file.hpp"
#include "app/sweep/sweep_directory.hpp"
#include "app/sweep/sweep_summary_writers.hpp"
#include "base/atomic_file.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "spotsim/version.hpp"

namespace spotsim {

namespace fs = std::filesystem;

std::vector<RunResult> read_all_runs(const SweepPlan& plan, const std::vector<std::string>& dirs) {
  std::vector<RunResult> runs;
  runs.reserve(plan.run_count());
  for (std::uint64_t chunk = 0; chunk < plan.chunk_count(); ++chunk) {
    const std::vector<RunResult> part = read_chunk(plan, dirs, chunk);
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
          {"seed_rule",
           "every configuration on a trace uses seed splitmix64(splitmix64(seed) xor fnv1a64(trace name)); "
           "replication r keys its random streams by (that seed, r)"},
          {"traces", traces},
          {"configurations", plan.configurations.size()},
          {"replications", plan.spec.replications},
          {"runs", plan.run_count()},
          {"chunks", plan.chunk_count()},
          {"outputs", {"runs.csv", "summary.json", "summary.md", "manifest.json"}}};
}

void write_sweep_outputs(const SweepPlan& plan, const std::string& dir, std::ostream& summary_out) {
  const fs::path root(dir);
  StreamingFile csv((root / "runs.csv").string());
  csv.write(runs_csv_header());
  std::string rows;
  ChunkedConfigurations source(plan, {dir}, [&](std::uint64_t first, const std::vector<RunResult>& runs) {
    rows.clear();
    append_runs_csv(plan, first, runs, rows);
    csv.write(rows);
  });
  SummaryJsonWriter json(plan, (root / "summary.json").string());
  SummaryMarkdownWriter markdown(plan, (root / "summary.md").string());
  analyse_sweep_by_group(plan, source, [&](GroupAnalysis&& group) {
    json.add(group);
    markdown.add(group);
  });
  csv.commit();
  json.finish();
  markdown.finish();
  // The manifest last: its presence says the outputs beside it are complete.
  write_file_atomically((root / "manifest.json").string(), json_text(sweep_manifest_json(plan), 2) + "\n");
  std::ifstream written(root / "summary.md", std::ios::binary);
  summary_out << written.rdbuf();
}

}  // namespace spotsim
