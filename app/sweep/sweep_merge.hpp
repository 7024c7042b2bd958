#pragma once
// `spotsim sweep merge`: combines the directories of the shards of one sweep into the directory a single-machine
// run would have left — the same sweep.json, chunk files and result files, byte for byte.
#include <ostream>
#include <string>
#include <vector>

namespace spotsim {

// Every shard 1..N of one spec (same spec hash, traces and build) must be given exactly once and be complete;
// InputError naming the directory (or the damaged chunk file) otherwise. Copies the summary Markdown to
// `summary_out`.
void merge_sweep_shards(const std::vector<std::string>& shard_dirs, const std::string& out_dir,
                        std::ostream& summary_out);

}  // namespace spotsim
