// Skipping in the Can't Be Late mode (engine/tick_simulation.hpp): a policy that declares
// SelectionPolicy::decision_holds_until_review() is not asked at boundaries where its answer cannot change. Every run
// must be the same as when it is asked at every boundary — cost, ledger, finish, preemptions, moves and the instance
// held in every tick (the fingerprint) — on random markets drawn over everything that can change a decision: zones
// and regions, availability counts changing on and off the tick, spot price series, checkpoint sizes that make moves
// cost time and egress, start-ups of zero to several ticks, deadlines from tight to none, one or two nodes.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/tick_simulation.hpp"
#include "policies/policy_registry.hpp"
#include "tests/support/market_builder.hpp"

namespace spotsim {
namespace {

constexpr Millis kTick = 10 * kMillisPerMinute;

// Counts the questions a policy is asked, passing everything else through.
class Counting final : public SelectionPolicy {
 public:
  explicit Counting(std::unique_ptr<SelectionPolicy> inner) : inner_(std::move(inner)) {}
  void reset() override { inner_->reset(); }
  void prepare_oracle(const Scenario& scenario, Millis start) override { inner_->prepare_oracle(scenario, start); }
  SelectionDecision decide(const Observation& obs) override {
    ++calls;
    return inner_->decide(obs);
  }
  bool decision_holds_until_review() const override { return inner_->decision_holds_until_review(); }
  long calls = 0;

 private:
  std::unique_ptr<SelectionPolicy> inner_;
};

// A policy that keeps the promise only as the contract states it: its answer changes when a changeover ends and the
// saved state has come to the instance (spot until then, on-demand in the same zone once it computes there). It
// checks the two conditions the engine adds to the review time and the market's changes.
class LeavesSpotOnceComputing final : public SelectionPolicy {
 public:
  bool decision_holds_until_review() const override { return true; }
  SelectionDecision decide(const Observation& obs) override {
    if (obs.purchase == Purchase::kOnDemand) return SelectionDecision::on_demand(obs.zone);
    if (obs.purchase == Purchase::kSpot && obs.phase == Phase::kComputing && obs.data_zone == obs.zone) {
      return SelectionDecision::on_demand(obs.zone);
    }
    if (obs.purchase == Purchase::kSpot) return SelectionDecision::spot(obs.zone);
    for (int z = 0; z < static_cast<int>(obs.zones.size()); ++z) {
      if (obs.zones[static_cast<std::size_t>(z)].spot_available) return SelectionDecision::spot(z);
    }
    return SelectionDecision::wait();
  }
};

StepSeries random_counts(std::mt19937_64& rng, Millis span, int max_count) {
  std::vector<Millis> times{0};
  std::vector<double> counts{static_cast<double>(rng() % (max_count + 1))};
  for (Millis t = 0;;) {
    // Spells of 1 to 60 ticks; one change in four falls off the tick.
    t += static_cast<Millis>(1 + rng() % 60) * kTick + (rng() % 4 == 0 ? static_cast<Millis>(rng() % kTick) : 0);
    if (t >= span) break;
    times.push_back(t);
    counts.push_back(static_cast<double>(rng() % (max_count + 1)));
  }
  return StepSeries(times, counts, span);
}

StepSeries random_prices(std::mt19937_64& rng, Millis span) {
  if (rng() % 2 == 0) return StepSeries::constant(0.5 + 0.1 * static_cast<double>(rng() % 10));
  std::vector<Millis> times;
  std::vector<double> prices;
  for (Millis t = 0; t < span; t += static_cast<Millis>(1 + rng() % 30) * kTick) {
    times.push_back(t);
    prices.push_back(0.4 + 0.05 * static_cast<double>(rng() % 20));
  }
  return StepSeries(times, prices, span);
}

struct Case {
  SpotMarket market;
  JobSpec job;
  Millis start = 0;
};

Case random_case(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Millis span = static_cast<Millis>(300 + rng() % 400) * kTick;
  const int zones = 1 + static_cast<int>(rng() % 4), regions = 1 + static_cast<int>(rng() % 3);
  testing::MarketBuilder builder("random");
  for (int z = 0; z < zones; ++z) {
    const std::string region = "r" + std::to_string(z % regions);
    builder.zone("z" + std::to_string(z), region, z % 2 == 0 ? "us" : "eu")
        .on_demand(2.5 + 0.25 * static_cast<double>(rng() % 4))
        .spot_prices(random_prices(rng, span))
        .available(random_counts(rng, span, 3));
  }
  for (int a = 0; a < regions; ++a) {
    for (int b = 0; b < regions; ++b) {
      if (a != b) builder.egress("r" + std::to_string(a), "r" + std::to_string(b), 0.02);
    }
  }
  Case c{builder.build(), {}, 0};
  c.market.tick = kTick;
  c.market.span = span;
  c.job.work = static_cast<Millis>(12 + rng() % 200) * kTick / 2;
  c.job.startup = static_cast<Millis>(rng() % 4) * 6 * kMillisPerMinute;  // 0 to 18 min: on and off the tick
  c.job.restore = c.job.checkpoint_write = 0;
  const double slack[] = {1.02, 1.1, 1.3, 1.6, 0.0};
  const double s = slack[rng() % 5];
  c.job.deadline = s == 0.0 ? kNever : static_cast<Millis>(static_cast<double>(c.job.work + c.job.startup) * s);
  c.job.nodes = 1 + static_cast<int>(rng() % 2);
  c.job.checkpoint_size_gb = rng() % 2 == 0 ? 0.0 : 50.0 + static_cast<double>(rng() % 900);
  c.start = static_cast<Millis>(rng() % 200) * kTick;
  return c;
}

TEST(TickSkipping, EveryRunIsTheSameAsWhenThePolicyIsAskedEveryTick) {
  const PolicyRegistry registry = builtin_policy_registry();
  std::vector<PolicyEntry<SelectionPolicy>> policies = registry.selection_policies();
  policies.push_back({"leaves-spot-once-computing", "", "",
                      [](const PolicyParams&) { return std::make_unique<LeavesSpotOnceComputing>(); }});
  std::set<std::string> declaring;
  long asked_every_tick = 0, asked_with_skipping = 0;
  for (const auto& entry : policies) {
    const auto factory = [&] { return entry.create(PolicyParams{}); };
    if (!factory()->decision_holds_until_review()) continue;  // asked every tick: nothing to compare
    declaring.insert(entry.name);
    for (std::uint64_t seed = 0; seed < 150; ++seed) {
      const Case c = random_case(seed);
      const Scenario scenario(c.market, c.job, TraceStart{false, c.start});
      RunResult results[2];
      std::string held[2];
      for (int skip = 0; skip < 2; ++skip) {
        Counting policy(factory());
        TickSimulation simulation(scenario, policy);
        simulation.ask_every_tick(skip == 0);
        simulation.record_ticks(true);
        results[skip] = simulation.run(1, 0);
        held[skip] = simulation.held_per_tick();
        (skip == 0 ? asked_every_tick : asked_with_skipping) += policy.calls;
      }
      const RunResult &a = results[0], &b = results[1];
      const std::string what = entry.name + ", case " + std::to_string(seed);
      ASSERT_EQ(held[0], held[1]) << what;
      ASSERT_EQ(a.fingerprint, b.fingerprint) << what;
      ASSERT_EQ(a.cost_total, b.cost_total) << what;
      ASSERT_EQ(a.cost_egress, b.cost_egress) << what;
      ASSERT_EQ(a.completion_hours, b.completion_hours) << what;
      ASSERT_EQ(a.completed, b.completed) << what;
      ASSERT_EQ(a.deadline_met, b.deadline_met) << what;
      ASSERT_EQ(a.preemptions, b.preemptions) << what;
      ASSERT_EQ(a.migrations, b.migrations) << what;
      ASSERT_EQ(a.spot_starts, b.spot_starts) << what;
      ASSERT_EQ(a.on_demand_starts, b.on_demand_starts) << what;
      ASSERT_EQ(a.ledger_compute, b.ledger_compute) << what;
      ASSERT_EQ(a.ledger_startup, b.ledger_startup) << what;
      ASSERT_EQ(a.ledger_transfer, b.ledger_transfer) << what;
      ASSERT_EQ(a.ledger_rounding, b.ledger_rounding) << what;
      ASSERT_EQ(a.events, b.events) << what;
    }
  }
  // The promise is made where it pays, and skipping asks far less often.
  for (const char* name : {"greedy", "uniform-progress", "on-demand", "spot-only"}) {
    EXPECT_TRUE(declaring.count(name)) << name << " no longer declares decision_holds_until_review()";
  }
  EXPECT_LT(asked_with_skipping * 3, asked_every_tick);
}

}  // namespace
}  // namespace spotsim
