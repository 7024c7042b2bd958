#include "app/sweep/sweep_merge.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/sweep/run_rows.hpp"
#include "app/sweep/sweep_directory.hpp"
#include "app/sweep/sweep_outputs.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"

namespace spotsim {

void merge_sweep_shards(const std::vector<std::string>& shard_dirs, const std::string& out_dir,
                        std::ostream& summary_out) {
  if (shard_dirs.empty()) throw InputError("sweep merge: expected the directories of the shards to merge");
  std::vector<SweepState> states;
  for (const std::string& dir : shard_dirs) states.push_back(read_sweep_state(dir));
  const SweepState& first = states.front();
  const std::uint64_t shard_count = first.shard.count;
  std::vector<std::string> by_index(shard_count);
  for (std::size_t i = 0; i < states.size(); ++i) {
    const SweepState& s = states[i];
    const std::string file = sweep_state_path(shard_dirs[i]);
    auto differs = [&](const std::string& what) {
      return InputError(file + ": " + what + " differs from " + sweep_state_path(shard_dirs.front()) +
                        "; only shards of one sweep, computed by one build, can be merged");
    };
    if (s.plan.spec_hash != first.plan.spec_hash) throw differs("field 'spec_hash'");
    if (s.version != first.version || s.git_revision != first.git_revision)
      throw differs("the build (tool_version, git_revision)");
    for (std::size_t t = 0; t < s.plan.traces.size(); ++t) {
      if (trace_info_json(s.plan.traces[t]) != trace_info_json(first.plan.traces[t])) throw differs("field 'traces'");
    }
    if (s.shard.count != shard_count) throw differs("the shard count");
    std::string& slot = by_index[s.shard.index - 1];
    if (!slot.empty()) {
      throw InputError(file + ": shard " + std::to_string(s.shard.index) + "/" + std::to_string(shard_count) +
                       " is also in " + slot + "; expected each shard once");
    }
    slot = shard_dirs[i];
    for (std::uint64_t c = s.chunks.first; c < s.chunks.end; ++c) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(chunk_path(shard_dirs[i], c), ec)) {
        throw InputError(chunk_path(shard_dirs[i], c) + ": missing: shard " + std::to_string(s.shard.index) + "/" +
                         std::to_string(shard_count) + " is unfinished; run it again with --resume");
      }
    }
  }
  for (std::uint64_t i = 0; i < shard_count; ++i) {
    if (by_index[i].empty()) {
      throw InputError("sweep merge: shard " + std::to_string(i + 1) + "/" + std::to_string(shard_count) +
                       " is missing; expected the directories of all " + std::to_string(shard_count) + " shards");
    }
  }
  // The merged directory is a complete single-shard sweep: it can itself be resumed, merged or inspected.
  const SweepPlan& plan = first.plan;
  prepare_sweep_directory(out_dir, plan, ShardSelection{1, 1}, false);
  for (const SweepState& s : states) {
    const std::string& dir = by_index[s.shard.index - 1];
    for (std::uint64_t c = s.chunks.first; c < s.chunks.end; ++c) {
      std::ifstream in(chunk_path(dir, c), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      // A damaged chunk is an error naming the shard's file, not the copy's.
      parse_chunk_file(plan, c, text.str(), chunk_path(dir, c));
      write_file_atomically(chunk_path(out_dir, c), text.str());
    }
  }
  write_sweep_outputs(plan, out_dir, summary_out);
}

}  // namespace spotsim
