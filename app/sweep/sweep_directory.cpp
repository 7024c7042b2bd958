#include "app/sweep/sweep_directory.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/sweep/run_rows.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/json_text.hpp"
#include "spotsim/version.hpp"

namespace spotsim {

namespace fs = std::filesystem;

std::string sweep_state_path(const std::string& dir) { return (fs::path(dir) / "sweep.json").string(); }

std::string chunk_path(const std::string& dir, std::uint64_t chunk) {
  char name[40];
  std::snprintf(name, sizeof name, "chunk-%08llu.csv", static_cast<unsigned long long>(chunk));
  return (fs::path(dir) / "chunks" / name).string();
}

nlohmann::json sweep_state_json(const SweepPlan& plan, ShardSelection shard) {
  nlohmann::json traces = nlohmann::json::array();
  for (const TraceInfo& t : plan.traces) traces.push_back(trace_info_json(t));
  const ChunkRange range = shard_chunks(plan, shard);
  return {{"format", "spotsim-sweep-state"},
          {"version", 1},
          {"tool_version", kVersion},
          {"git_revision", kGitRevision},
          {"spec_hash", plan.spec_hash},
          {"spec", plan.spec.canonical},
          {"traces", traces},
          {"shard", {{"index", shard.index}, {"count", shard.count}}},
          {"chunks", {{"total", plan.chunk_count()}, {"first", range.first}, {"end", range.end}}}};
}

SweepState read_sweep_state(const std::string& dir) {
  const std::string file = sweep_state_path(dir);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError(dir + ": " + (fs::exists(dir, ec) ? "not a folder" : "no such folder") +
                     "; expected the --out folder of a `spotsim sweep` run (or shard)");
  }
  if (!fs::exists(file, ec)) {
    throw InputError(dir +
                     ": not a sweep folder (it has no sweep.json); expected the --out folder of a "
                     "`spotsim sweep` run (or shard)");
  }
  const nlohmann::json doc = read_json_file(file);
  const JsonFields f(doc, file, "");
  if (f.string("format") != "spotsim-sweep-state") f.fail_value("format", "\"spotsim-sweep-state\"", f.raw("format"));
  std::vector<TraceInfo> traces;
  for (const auto& t : f.array("traces")) traces.push_back(trace_info_from_json(t, file));
  SweepState state{plan_sweep(parse_experiment_spec(f.raw("spec"), file + " (field 'spec')"), std::move(traces)),
                   {},
                   {},
                   f.string("tool_version"),
                   f.string("git_revision")};
  if (state.plan.spec_hash != f.string("spec_hash"))
    f.fail("spec_hash", "the hash of field 'spec' (was the file edited?)");
  const JsonFields shard = f.object("shard");
  state.shard.count = static_cast<std::uint64_t>(shard.integer("count", 1, 1'000'000'000));
  state.shard.index =
      static_cast<std::uint64_t>(shard.integer("index", 1, static_cast<std::int64_t>(state.shard.count)));
  state.chunks = shard_chunks(state.plan, state.shard);
  return state;
}

namespace {
// Leftovers of writes cut short by an interruption (a killed sweep leaves its partial runs.csv or chunk behind,
// ~100 MB each): never renamed into place, so never counted as results, and never reused.
void remove_atomic_write_leftovers(const std::string& dir) {
  for (const fs::path& folder : {fs::path(dir), fs::path(dir) / "chunks"}) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      if (!is_atomic_write_leftover(it->path().filename().string())) continue;
      std::error_code removed;
      if (it->is_regular_file(removed) || it->is_symlink(removed)) fs::remove(it->path(), removed);
    }
  }
}
}  // namespace

void prepare_sweep_directory(const std::string& dir, const SweepPlan& plan, ShardSelection shard, bool resume) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "chunks", ec);
  if (ec) throw InputError(dir + ": cannot create the output directory: " + ec.message());
  const std::string state_file = sweep_state_path(dir);
  const nlohmann::json state = sweep_state_json(plan, shard);
  if (fs::exists(state_file)) {
    if (!resume) {
      throw InputError(dir + ": already holds a sweep (" + state_file +
                       "); pass --resume to continue it, or choose another --out");
    }
    const nlohmann::json old = read_json_file(state_file);
    for (const char* key : {"spec_hash", "traces", "shard", "tool_version", "git_revision"}) {
      if (!old.contains(key) || old[key] != state[key]) {
        throw InputError(state_file + ": field '" + key + "': expected " + describe_json(state[key]) +
                         " to resume this sweep, got " +
                         (old.contains(key) ? describe_json(old[key]) : std::string("nothing")) +
                         "; results of a different spec, trace, shard or build cannot be mixed: use another --out");
      }
    }
    remove_atomic_write_leftovers(dir);
  }
  write_file_atomically(state_file, json_text(state, 2) + "\n");
}

std::vector<bool> finished_chunks(const std::string& dir, ChunkRange range) {
  std::vector<bool> done(range.end - range.first, false);
  std::error_code ec;
  for (std::uint64_t c = range.first; c < range.end; ++c) {
    const std::string path = chunk_path(dir, c);
    if (!fs::is_regular_file(path, ec)) continue;
    // Chunk files are renamed into place only once complete, but a crash before the data reached the disk, a full
    // disk or a copy cut short can still leave a damaged one: recompute it rather than fail the final read.
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (const auto problem = chunk_file_problem(c, text.str())) {
      std::cerr << "spotsim sweep: " << path << ": chunk " << c << " is incomplete (" << *problem
                << "); it will be recomputed\n";
      continue;
    }
    done[c - range.first] = true;
  }
  return done;
}

}  // namespace spotsim
