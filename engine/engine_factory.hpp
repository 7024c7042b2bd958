#pragma once
// Which engine runs a scenario, in one place: the elastic engine for a job with min_nodes, the Can't Be Late tick
// engine in that mode, else the event engine; each driven through SteppedRun (engine/stepped_run.hpp) by the
// replication runner and by campaigns.
#include <memory>

#include "engine/replication_runner.hpp"
#include "engine/stepped_run.hpp"
#include "model/scenario.hpp"

namespace spotsim {

// An engine with the policies it drives, owned together so that the engine's references stay valid.
struct EngineInstance {
  std::unique_ptr<SelectionPolicy> selection;
  std::unique_ptr<NodePolicy> nodes;
  std::unique_ptr<SteppedRun> engine;
};

// InputError when the job and the kind of policies do not fit (a multi-node policy without min_nodes, min_nodes
// with --regret or the Can't Be Late mode, ...): checked before any policy is made.
void check_engine_fits(const Scenario& scenario, const PolicyFactories& policies);

// check_engine_fits, then InputError when the scenario and policies do not fit an engine (a multi-node policy without
// min_nodes, the Can't Be Late mode without a continuous checkpoint policy, ...). `scenario` and `checkpoint` must
// outlive the result.
EngineInstance make_engine(const Scenario& scenario, const PolicyFactories& policies, CheckpointPolicy& checkpoint);

}  // namespace spotsim
