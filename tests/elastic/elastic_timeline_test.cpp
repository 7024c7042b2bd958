// `simulate --timeline` of an elastic job: the re-run with the observer attached is the Monte Carlo run, and the
// log's instance counts account for it (node-hours held = node-hours billed, preemptions, checkpoints and
// reconfigurations as counted, counts within the job's bounds).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/run_metrics.hpp"
#include "app/simulation_request.hpp"
#include "app/timeline_writer.hpp"
#include "engine/elastic/elastic_simulation.hpp"
#include "tests/same_run.hpp"

namespace spotsim {
namespace {

SimulationRequest elastic_request(const std::string& trace, const std::string& policy, int nodes, int min_nodes) {
  SimulationRequest request;
  request.trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/" + trace;
  request.policy = policy;
  request.job.work = 30 * kMillisPerHour;
  request.job.nodes = nodes;
  request.job.elastic.min_nodes = min_nodes;
  request.replications = 8;
  request.threads = 2;
  request.seed = 7;
  return request;
}

using test::expect_same_run;

// What one replication's lines add up to.
struct Tally {
  double spot_node_hours = 0.0, on_demand_node_hours = 0.0, end = 0.0, cost = 0.0;
  int preemptions = 0, checkpoints = 0, reconfigurations = 0, finished = 0, on_demand_peak = 0;
  bool completed = false;
};

std::vector<Tally> tally(const std::string& text, std::size_t replications, int nodes) {
  std::vector<Tally> out(replications);
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  const nlohmann::json header = nlohmann::json::parse(line);
  EXPECT_EQ(header["engine"], "elastic");
  EXPECT_EQ(header["job"]["nodes"], nodes);
  std::size_t k = 0;
  double last_t = 0.0;
  int spot = 0, on_demand = 0;
  std::string phase = "idle";
  bool first = true;
  std::uint64_t replication = 0;
  while (std::getline(in, line)) {
    const nlohmann::json e = nlohmann::json::parse(line);
    if (!first && e["replication"] != replication) {
      ++k;
      last_t = 0.0;
      spot = on_demand = 0;
      phase = "idle";
    }
    first = false;
    replication = e["replication"].get<std::uint64_t>();
    if (k >= out.size()) {
      ADD_FAILURE() << "more replications in the log than asked for";
      break;
    }
    Tally& t = out[k];
    const double now = e["t_hours"].get<double>();
    EXPECT_GE(now, last_t) << line;
    t.spot_node_hours += spot * (now - last_t);
    t.on_demand_node_hours += on_demand * (now - last_t);
    last_t = now;
    spot = e["spot_nodes"].get<int>();
    on_demand = e["on_demand_nodes"].get<int>();
    const int training = e["training_nodes"].get<int>();
    EXPECT_EQ(e["nodes"].get<int>(), spot + on_demand) << line;
    EXPECT_LE(spot + on_demand, nodes) << line;
    EXPECT_GE(spot, 0);
    EXPECT_GE(on_demand, 0);
    EXPECT_LE(training, spot + on_demand) << line;
    EXPECT_GE(training, 0);
    t.on_demand_peak = std::max(t.on_demand_peak, on_demand);
    const std::string event = e["event"];
    if (event == "preemption") ++t.preemptions;
    if (event == "checkpoint_done") ++t.checkpoints;
    if (event == "reconfiguring") {
      EXPECT_EQ(e["phase"], "reconfiguring");
      t.reconfigurations += phase != "reconfiguring";
    }
    phase = e["phase"].get<std::string>();
    if (event == "finished") {
      ++t.finished;
      t.end = now;
      t.cost = e["cost_usd"].get<double>();
      t.completed = e["completed"].get<bool>();
      EXPECT_EQ(spot + on_demand, 0) << "every instance is released by the end";
    }
  }
  EXPECT_EQ(k + 1, replications);
  return out;
}

// Returns how many reconfigurations and on-demand instances the chosen runs saw, so callers can insist on cases.
std::pair<int, int> check(const SimulationRequest& request, const std::vector<std::uint64_t>& chosen) {
  const SimulationReport report = run_simulation(request);
  std::vector<RunResult> rerun;
  const std::string text = timeline_text(request, prepare_simulation(request), chosen, &rerun);
  const std::vector<Tally> tallies = tally(text, chosen.size(), request.job.nodes);
  int reconfigurations = 0, on_demand = 0;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const RunResult& run = report.runs[chosen[k]];
    SCOPED_TRACE(request.policy + " on " + request.trace + ", replication " + std::to_string(chosen[k]));
    expect_same_run(rerun[k], run);
    const Tally& t = tallies[k];
    EXPECT_EQ(t.finished, 1);
    EXPECT_EQ(t.completed, run.completed);
    // Hours are milliseconds / 3.6e6 as doubles, summed over a few thousand lines: 1e-6 h (4 ms) is rounding.
    EXPECT_NEAR(t.end, run.completion_hours, 1e-9);
    EXPECT_NEAR(t.cost, run.cost_total, 1e-9 * std::max(1.0, run.cost_total));
    EXPECT_NEAR(t.spot_node_hours, run.spot_node_hours, 1e-6);
    EXPECT_NEAR(t.on_demand_node_hours, run.on_demand_node_hours, 1e-6);
    EXPECT_EQ(t.preemptions, run.preemptions);
    EXPECT_EQ(t.checkpoints, run.checkpoints);
    EXPECT_EQ(t.reconfigurations, run.reconfigurations);
    reconfigurations += t.reconfigurations;
    on_demand += t.on_demand_peak;
  }
  return {reconfigurations, on_demand};
}

TEST(ElasticTimeline, ReRunEqualsTheMonteCarloRunAndItsCountsAddUp) {
  // The Bamboo pool log (a pool count), with an on-demand core of 2.
  const auto [pool_reconfigurations, core] =
      check(elastic_request("aws-p3-bamboo-32-node.json", "spot-nodes:core=2", 8, 4), {0, 3, 5});
  EXPECT_GT(pool_reconfigurations, 0);
  EXPECT_GT(core, 0);
  // Per-instance lifetimes (bathtub), a tight deadline (the safety net fills in on-demand instances in some runs)
  // beside an on-demand core of 1.
  SimulationRequest deadline = elastic_request("us-west1.json", "deadline-nodes:core=1", 4, 2);
  deadline.job.deadline = 32 * kMillisPerHour + 30 * kMillisPerMinute;
  const auto [lifetime_reconfigurations, filled] = check(deadline, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_GT(lifetime_reconfigurations, 0);
  EXPECT_GT(filled, 0);
}

TEST(ElasticTimeline, AnObserverLeavesTheRunAsItIs) {
  struct Counter final : EventObserver {
    int events = 0, nodes_changed = 0;
    void on_event(const TimelineEvent& e) override {
      ++events;
      nodes_changed += e.kind == TimelineEventKind::kNodesChanged;
      EXPECT_GE(e.spot_nodes, 0);
    }
  } counter;
  const SimulationRequest request = elastic_request("aws-p3-bamboo-32-node.json", "spot-nodes", 16, 8);
  const PreparedSimulation prepared = prepare_simulation(request);
  auto nodes = prepared.factories.nodes();
  auto checkpoint = prepared.factories.checkpoint();
  ElasticSimulation simulation(*prepared.scenario, *nodes, *checkpoint);
  const RunResult plain = simulation.run(request.seed, 2);
  simulation.set_observer(&counter);
  const RunResult observed = simulation.run(request.seed, 2);
  simulation.set_observer(nullptr);
  const RunResult again = simulation.run(request.seed, 2);
  expect_same_run(plain, observed);
  expect_same_run(plain, again);
  EXPECT_GT(counter.nodes_changed, plain.reconfigurations);  // the set forms, then changes at each reconfiguration
  EXPECT_GT(counter.events, 2 * plain.checkpoints);
}

}  // namespace
}  // namespace spotsim
