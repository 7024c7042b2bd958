#pragma once
// Reading a finished sweep back from its chunk files, one chunk in memory at a time (sweep_outputs.hpp).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app/sweep/sweep_analysis.hpp"
#include "app/sweep/sweep_plan.hpp"
#include "model/run_result.hpp"

namespace spotsim {

// The runs of chunk `chunk`, from the first of `dirs` that has its file; InputError naming the missing chunk, or
// the damaged file.
std::vector<RunResult> read_chunk(const SweepPlan& plan, const std::vector<std::string>& dirs, std::uint64_t chunk);

// Runs by index, holding only the chunk of the last one asked for. `on_load(first run, runs)` sees each chunk
// as it is read.
class ChunkCursor {
 public:
  using OnLoad = std::function<void(std::uint64_t, const std::vector<RunResult>&)>;
  ChunkCursor(const SweepPlan& plan, std::vector<std::string> dirs, OnLoad on_load = {});
  const RunResult& run(std::uint64_t index);

 private:
  const SweepPlan& plan_;
  std::vector<std::string> dirs_;
  OnLoad on_load_;
  std::uint64_t chunk_ = 0;
  bool loaded_ = false;
  std::vector<RunResult> runs_;
};

// The analysis's view of the chunk files: next() walks the runs in order with one cursor, so `on_chunk` sees
// every chunk exactly once and in order (runs.csv is written from it); lookup() has a cursor of its own.
class ChunkedConfigurations final : public ConfigurationSource {
 public:
  ChunkedConfigurations(const SweepPlan& plan, const std::vector<std::string>& dirs, ChunkCursor::OnLoad on_chunk);
  ConfigurationValues next() override { return values(sequential_, next_++); }
  ConfigurationValues lookup(std::size_t configuration) override { return values(lookahead_, configuration); }

 private:
  ConfigurationValues values(ChunkCursor& cursor, std::size_t configuration);
  const SweepPlan& plan_;
  ChunkCursor sequential_, lookahead_;
  std::size_t next_ = 0;
};

}  // namespace spotsim
