#include "engine/engine_factory.hpp"

#include "base/errors.hpp"
#include "engine/elastic/elastic_simulation.hpp"
#include "engine/job_simulation.hpp"
#include "engine/tick_simulation.hpp"

namespace spotsim {

void check_engine_fits(const Scenario& scenario, const PolicyFactories& policies) {
  if (scenario.job().elastic.active()) {
    if (scenario.computes_optimum() || scenario.cant_be_late_mode()) {
      throw InputError(
          "a job with min_nodes runs in the elastic engine, which has neither --regret nor --mode cant-be-late");
    }
    if (!policies.nodes) {
      throw InputError(
          "a job with min_nodes needs a multi-node policy (spot-nodes, deadline-nodes, on-demand-nodes; "
          "--list-policies)");
    }
  } else if (!policies.selection) {
    throw InputError("a multi-node policy needs a job with min_nodes (the elastic engine, docs/elastic.md)");
  }
}

EngineInstance make_engine(const Scenario& scenario, const PolicyFactories& policies, CheckpointPolicy& checkpoint) {
  check_engine_fits(scenario, policies);
  EngineInstance out;
  if (scenario.job().elastic.active()) {
    out.nodes = policies.nodes();
    out.engine = std::make_unique<ElasticSimulation>(scenario, *out.nodes, checkpoint);
    return out;
  }
  out.selection = policies.selection();
  if (scenario.cant_be_late_mode()) {
    if (!checkpoint.continuous()) {
      throw InputError("the Can't Be Late mode models progress that is never lost: expected --checkpoint continuous");
    }
    out.engine = std::make_unique<TickSimulation>(scenario, *out.selection, scenario.cant_be_late_tick());
  } else {
    out.engine = std::make_unique<JobSimulation>(scenario, *out.selection, checkpoint);
  }
  return out;
}

}  // namespace spotsim
