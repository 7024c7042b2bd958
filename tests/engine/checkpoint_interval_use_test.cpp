// The checkpoint intervals a run used (RunResult::checkpoint_interval_*, the outputs' checkpoint_interval_*
// metrics) on hand-built markets, and sizes with units (base/data_size.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "base/data_size.hpp"
#include "base/errors.hpp"
#include "engine/replication_runner.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

RunResult run_once(const std::string& selection, const std::string& checkpoint, double work_hours) {
  const SpotMarket market = testing::single_zone_market(std::nullopt);  // spot never preempted
  const Scenario scenario(market, testing::job(work_hours, kMillisPerMinute, kMillisPerMinute, 6 * kMillisPerMinute),
                          TraceStart{false, 0});
  return run_replications(scenario, testing::policies(selection, checkpoint), {1, 0, 1, 1}).front();
}

// A fixed interval is asked once per instance: one use of 4 h on spot; the engine's probe of the on-demand interval
// (asked before the run, then reset) leaves no trace.
TEST(CheckpointIntervalUse, FixedIntervalOnSpotIsRecordedOnceAndTheProbeIsNot) {
  const RunResult r = run_once("spot-only", "fixed:interval=4h", 15.0);
  EXPECT_EQ(r.checkpoint_interval_spot.count, 1u);
  EXPECT_DOUBLE_EQ(r.checkpoint_interval_spot.mean_hours(), 4.0);
  EXPECT_EQ(r.checkpoint_interval_on_demand.count, 0u);
  EXPECT_TRUE(std::isnan(r.checkpoint_interval_on_demand.mean_hours()));
  EXPECT_EQ(r.checkpoints, 3);  // at 4, 8 and 12 h of progress: the recorder changes nothing
}

TEST(CheckpointIntervalUse, OnDemandRunRecordsOnlyOnDemand) {
  const RunResult r = run_once("on-demand", "fixed:interval=90m", 5.0);
  EXPECT_EQ(r.checkpoint_interval_spot.count, 0u);
  EXPECT_EQ(r.checkpoint_interval_on_demand.count, 1u);
  EXPECT_DOUBLE_EQ(r.checkpoint_interval_on_demand.mean_hours(), 1.5);
}

TEST(CheckpointIntervalUse, NoPeriodicCheckpointRecordsNothing) {
  const RunResult r = run_once("spot-only", "none", 2.0);
  EXPECT_EQ(r.checkpoint_interval_spot.count, 0u);
  EXPECT_EQ(r.checkpoint_interval_on_demand.count, 0u);
}

TEST(DataSize, UnitsAndBareNumbers) {
  EXPECT_DOUBLE_EQ(parse_data_size_gb("20", "x"), 20.0);
  EXPECT_DOUBLE_EQ(parse_data_size_gb("20GB", "x"), 20.0);
  EXPECT_DOUBLE_EQ(parse_data_size_gb("20 gb", "x"), 20.0);
  EXPECT_DOUBLE_EQ(parse_data_size_gb("1.5TB", "x"), 1500.0);
  EXPECT_DOUBLE_EQ(parse_data_size_gb("500MB", "x"), 0.5);
  EXPECT_DOUBLE_EQ(parse_data_size_gb("1GiB", "x"), 1.073741824);
  EXPECT_DOUBLE_EQ(parse_data_size_gb("2TiB", "x"), 2 * 1099.511627776);
  EXPECT_DOUBLE_EQ(parse_data_size_gb("0", "x"), 0.0);
}

TEST(DataSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "GB", "20XB", "-1GB", "nan", "inf", "1e400", "2e9GB", "20 G B x", "0x10"}) {
    try {
      parse_data_size_gb(bad, "--checkpoint-size");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--checkpoint-size: expected a size such as 20GB"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace spotsim
