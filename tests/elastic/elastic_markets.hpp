#pragma once
// Markets and runners shared by the elastic-engine tests.
#include <random>
#include <string>
#include <vector>

#include "../engine/test_markets.hpp"
#include "engine/replication_runner.hpp"

namespace spotsim::testing {

// One zone whose spot pool holds a count of instances that changes every `tick`, drawn between 0 and `max_count`
// with long runs at the full count (like the Can't Be Late multi-node recordings).
inline SpotMarket pool_market(int max_count, Millis tick, int ticks, unsigned seed, double spot_price = 0.9,
                              double on_demand_price = 3.0) {
  SpotMarket market = single_zone_market(std::nullopt, spot_price, on_demand_price);
  std::mt19937 rng(seed);
  std::vector<Millis> times;
  std::vector<double> values;
  int count = max_count;
  for (int i = 0; i < ticks; ++i) {
    const auto u = rng() % 100;
    if (u < 4)
      count = 0;
    else if (u < 20)
      count = std::max(0, count - 1 - static_cast<int>(rng() % 3u));
    else if (u < 40)
      count = max_count;
    else if (u < 50)
      count = std::min(max_count, count + 1);
    if (!values.empty() && values.back() == count) continue;
    times.push_back(i * tick);
    values.push_back(count);
  }
  market.span = ticks * tick;
  market.zones[0].spot.available = StepSeries(times, values, market.span);
  return market;
}

inline PolicyFactories node_policies(const std::string& policy, const std::string& checkpoint) {
  const PolicyRegistry registry = builtin_policy_registry();
  PolicyFactories factories;
  factories.nodes = registry.node_factory(policy);
  factories.checkpoint = registry.checkpoint_factory(checkpoint);
  return factories;
}

inline std::vector<RunResult> run_elastic(const SpotMarket& market, const JobSpec& job, const std::string& policy,
                                          const std::string& checkpoint, std::uint64_t count, int threads = 1) {
  const Scenario scenario(market, job);
  return run_replications(scenario, node_policies(policy, checkpoint), {11, 0, count, threads});
}

inline double ledger_sum(const RunResult& r) {
  return r.ledger_compute + r.ledger_lost_work + r.ledger_startup + r.ledger_restore + r.ledger_checkpoint +
         r.ledger_transfer + r.cost_egress + r.ledger_idle + r.ledger_rounding + r.ledger_reconfigure;
}

}  // namespace spotsim::testing
