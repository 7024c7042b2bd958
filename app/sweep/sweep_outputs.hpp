#pragma once
// The result files of a finished sweep (docs/outputs.md#sweep-outputs): runs.csv (one row per run),
// summary.json (per configuration: summaries, paired differences, Pareto flags; checkpoint tuning),
// summary.md (the same as tables for people and for docs/validation.md) and manifest.json (version, git revision,
// canonical spec, seeds). They are rendered from the chunk files alone, so a single run, a resumed run and a
// merge of shards give byte-identical files.
//
// write_sweep_outputs streams: it reads the chunks in order, one at a time, appends their rows to runs.csv and
// analyses one (trace, job) group at a time (sweep_analysis.hpp), so its memory does not grow with the number of
// runs (docs/experiments.md#memory). The whole-sweep functions below render the same bytes from a SweepAnalysis
// held in memory (for tests and small sweeps).
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "app/sweep/sweep_analysis.hpp"
#include "app/sweep/sweep_plan.hpp"
#include "model/run_result.hpp"

namespace spotsim {

// Every run of the plan, in run order, from the chunk files under `dirs` (each chunk from the first directory
// that has it); InputError naming the first missing chunk.
std::vector<RunResult> read_all_runs(const SweepPlan& plan, const std::vector<std::string>& dirs);

nlohmann::json sweep_manifest_json(const SweepPlan& plan);
nlohmann::json sweep_summary_json(const SweepPlan& plan, const SweepAnalysis& analysis);
std::string sweep_summary_markdown(const SweepPlan& plan, const SweepAnalysis& analysis);

// Reads the chunks under `dir`, writes the four result files there (each to a temporary file renamed into place)
// and copies summary.md to `summary_out`.
void write_sweep_outputs(const SweepPlan& plan, const std::string& dir, std::ostream& summary_out);

}  // namespace spotsim
