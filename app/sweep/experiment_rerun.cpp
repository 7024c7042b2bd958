#include "app/sweep/experiment_rerun.hpp"

#include <algorithm>

#include "app/sweep/sweep_runner.hpp"
#include "base/errors.hpp"
#include "policies/plugin/python_policy_source.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

PolicySubstitution parse_substitution(const std::string& text) {
  const auto arrow = text.find("=>");
  if (arrow == std::string::npos || arrow == 0 || arrow + 2 == text.size()) {
    throw InputError("--substitute '" + text + "': expected OLD=>NEW, e.g. young-daly=>fixed:interval=10m");
  }
  return PolicySubstitution{text.substr(0, arrow), text.substr(arrow + 2)};
}

bool experiment_runs_policy(const ExperimentSpec& spec, const std::string& policy) {
  return std::find(spec.policies.begin(), spec.policies.end(), policy) != spec.policies.end() ||
         std::find(spec.checkpoints.begin(), spec.checkpoints.end(), policy) != spec.checkpoints.end();
}

ExperimentResults rerun_experiment(const ExperimentSpec& spec, const std::string& file, int threads,
                                   const std::vector<PolicySubstitution>& substitutions) {
  LoadedTraces traces = load_traces(spec, file);
  SweepPlan plan = plan_sweep(spec, traces.info);
  SweepPlan executed = plan;
  const PolicyRegistry registry = policy_registry();
  for (const PolicySubstitution& s : substitutions) {
    const std::string where = "--substitute '" + s.from + "=>" + s.to + "'";
    auto& policies = executed.spec.policies;
    auto& checkpoints = executed.spec.checkpoints;
    // NEW is validated now, its message prefixed with the option (a Python class's module is imported here).
    const auto validate = [&](const auto& make) {
      try {
        make();
      } catch (const PythonHostNeeded&) {
        throw;  // regress re-runs itself in Python
      } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
      }
    };
    if (auto it = std::find(policies.begin(), policies.end(), s.from); it != policies.end()) {
      validate([&] { registry.selection_factory(s.to); });
      *it = s.to;
    } else if (auto ck = std::find(checkpoints.begin(), checkpoints.end(), s.from); ck != checkpoints.end()) {
      validate([&] { registry.checkpoint_factory(s.to); });
      *ck = s.to;
    } else {
      throw InputError(where + ": '" + s.from + "' is none of the experiment's policies or checkpoint policies");
    }
  }
  const std::vector<RunResult> runs = run_all_runs(executed, traces.markets, threads);
  SweepAnalysis analysis = analyse_sweep(plan, runs);
  return ExperimentResults{std::move(plan), std::move(analysis)};
}

}  // namespace spotsim
