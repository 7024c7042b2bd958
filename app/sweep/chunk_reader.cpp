#include "app/sweep/chunk_reader.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/run_metrics.hpp"
#include "app/sweep/run_rows.hpp"
#include "app/sweep/sweep_directory.hpp"
#include "base/errors.hpp"

namespace spotsim {

namespace fs = std::filesystem;

std::vector<RunResult> read_chunk(const SweepPlan& plan, const std::vector<std::string>& dirs, std::uint64_t chunk) {
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
  return parse_chunk_file(plan, chunk, text.str(), path);
}

ChunkCursor::ChunkCursor(const SweepPlan& plan, std::vector<std::string> dirs, OnLoad on_load)
    : plan_(plan), dirs_(std::move(dirs)), on_load_(std::move(on_load)) {}

const RunResult& ChunkCursor::run(std::uint64_t index) {
  const std::uint64_t chunk = index / plan_.spec.chunk_runs;
  if (!loaded_ || chunk != chunk_) {
    std::vector<RunResult>().swap(runs_);  // the old chunk goes before the new one is read: one in memory, not two
    runs_ = read_chunk(plan_, dirs_, chunk);
    chunk_ = chunk;
    loaded_ = true;
    if (on_load_) on_load_(plan_.chunk_begin(chunk), runs_);
  }
  return runs_[index - plan_.chunk_begin(chunk)];
}

ChunkedConfigurations::ChunkedConfigurations(const SweepPlan& plan, const std::vector<std::string>& dirs,
                                             ChunkCursor::OnLoad on_chunk)
    : plan_(plan), sequential_(plan, dirs, std::move(on_chunk)), lookahead_(plan, dirs) {}

ConfigurationValues ChunkedConfigurations::values(ChunkCursor& cursor, std::size_t configuration) {
  const auto metrics = run_metrics();
  const std::uint64_t replications = plan_.spec.replications, first = configuration * replications;
  ConfigurationValues values(metrics.size());
  for (auto& v : values) v.reserve(replications);
  for (std::uint64_t r = 0; r < replications; ++r) {
    const RunResult& run = cursor.run(first + r);
    for (std::size_t m = 0; m < metrics.size(); ++m) values[m].push_back(metrics[m].value(run));
  }
  return values;
}

}  // namespace spotsim
