// advise's pilot (app/advise/pilot_runs.hpp): a row whose first runs all complete gets exactly the runs it would have
// had without a pilot, for any replication count and thread count; a row with a pilot run that gives up is cut
// short after the pilot, names what the pilot saw, and still moves the progress counter to the plan's total.
#include "app/advise/pilot_runs.hpp"

#include <gtest/gtest.h>

#include "../engine/test_markets.hpp"

namespace spotsim {
namespace {

TEST(AdvisePilot, ARowThatFinishesGetsTheRunsItWouldHaveHad) {
  // 3 h of work on spot with a 5 h mean lifetime and 10-minute checkpoints: every run completes.
  const SpotMarket market = testing::single_zone_market(ExponentialLifetime{5.0}, 1.0, 3.0);
  const Scenario scenario(market, testing::job(3.0, kMillisPerMinute, kMillisPerMinute, 5 * kMillisPerMinute));
  const PolicyFactories policies = testing::policies("spot-only", "fixed:interval=10m");
  for (const std::uint64_t count : {1u, 4u, 5u, 13u}) {
    for (const int threads : {1, 2}) {
      ReplicationProgress progress;
      const PilotedRuns piloted = run_with_pilot(scenario, policies, {7, 0, count, threads, &progress});
      const std::vector<RunResult> plain = run_replications(scenario, policies, {7, 0, count, threads});
      ASSERT_FALSE(piloted.pruned_because) << *piloted.pruned_because;
      ASSERT_EQ(piloted.runs.size(), plain.size());
      for (std::size_t r = 0; r < plain.size(); ++r) {
        EXPECT_EQ(piloted.runs[r].fingerprint, plain[r].fingerprint) << count << " runs, replication " << r;
        EXPECT_EQ(piloted.runs[r].cost_total, plain[r].cost_total);
      }
      EXPECT_EQ(progress.done.load(), count);
    }
  }
}

TEST(AdvisePilot, ARowThatCannotFinishStopsAfterThePilot) {
  // 20 h of work on 64 instances whose spot lasts 20 min on average, restarting together, no checkpoints: the
  // job gives up (at its default give-up time) in every run.
  const SpotMarket market = testing::single_zone_market(ExponentialLifetime{1.0 / 3.0}, 1.0, 3.0);
  JobSpec job = testing::job(20.0, kMillisPerMinute, kMillisPerMinute, 5 * kMillisPerMinute);
  job.nodes = 64;
  const Scenario scenario(market, job);
  ReplicationProgress progress;
  const PilotedRuns piloted =
      run_with_pilot(scenario, testing::policies("spot-only", "none"), {1, 0, 300, 2, &progress});
  ASSERT_TRUE(piloted.pruned_because);
  EXPECT_EQ(piloted.runs.size(), kPilotRuns);
  for (const RunResult& run : piloted.runs) EXPECT_FALSE(run.completed);
  EXPECT_NE(piloted.pruned_because->find("cannot finish: 0 of 4 pilot runs completed"), std::string::npos)
      << *piloted.pruned_because;
  EXPECT_EQ(progress.done.load(), 300u) << "the progress line still reaches its total";
}

}  // namespace
}  // namespace spotsim
