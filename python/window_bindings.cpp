// spotsim's windows runner for strategy scoring (docs/plugins.md#scoring): one run per given trace start, the
// trace read and the policies found once, so that scoring a strategy over hundreds of windows costs the
// simulation alone (the way the Can't Be Late benchmarks evaluate a strategy: fixed windows, not random starts).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <vector>

#include "app/simulation_request.hpp"
#include "base/errors.hpp"
#include "python/python_bindings.hpp"
#include "python/python_policy.hpp"
#include "python/simulate_options.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

struct WindowRuns {
  std::vector<double> cost, completion_hours, optimum_cost;
  std::vector<bool> deadline_met;
  std::vector<std::uint64_t> fingerprint;
  std::vector<std::int64_t> spot_starts, on_demand_starts;
};

WindowRuns run_windows(const SimulationRequest& request, const std::vector<Millis>& starts) {
  const PreparedSimulation prepared = prepare_simulation(request);
  WindowRuns out;
  for (const Millis start : starts) {
    Scenario scenario(*prepared.market, prepared.scenario->job(), TraceStart{false, start});
    if (request.cant_be_late_mode) scenario.use_cant_be_late_mode(request.tick);
    scenario.compute_optimum(request.regret);
    const RunResult r =
        run_replications(scenario, prepared.factories, ReplicationPlan{request.seed, 0, 1, request.threads}).front();
    out.cost.push_back(r.cost_total);
    out.completion_hours.push_back(r.completion_hours);
    out.optimum_cost.push_back(r.optimum_cost);
    out.deadline_met.push_back(r.deadline_met);
    out.fingerprint.push_back(r.fingerprint);
    out.spot_starts.push_back(r.spot_starts);
    out.on_demand_starts.push_back(r.on_demand_starts);
  }
  return out;
}

}  // namespace

void bind_windows(py::module_& m) {
  m.def(
      "simulate_windows",
      [](const py::dict& options, const std::vector<double>& starts_s, const py::object& policy,
         const py::object& checkpoint) {
        SimulationRequest request = simulation_request_from(options);
        request.custom_policies = python_policy_factories(policy, checkpoint);
        if (!policy.is_none() || !checkpoint.is_none()) request.threads = 1;  // Python policies hold the GIL
        std::vector<Millis> starts;
        for (const double s : starts_s) {
          if (!(s >= 0.0)) throw InputError("windows: expected trace starts >= 0 s");
          starts.push_back(static_cast<Millis>(std::llround(s * 1000.0)));
        }
        WindowRuns runs;
        {
          py::gil_scoped_release release;
          runs = run_windows(request, starts);
        }
        py::dict columns;
        columns["cost_total"] = py::array(py::cast(runs.cost));
        columns["completion_hours"] = py::array(py::cast(runs.completion_hours));
        columns["deadline_met"] = py::array(py::cast(runs.deadline_met));
        columns["fingerprint"] = py::array(py::cast(runs.fingerprint));
        columns["spot_starts"] = py::array(py::cast(runs.spot_starts));
        columns["on_demand_starts"] = py::array(py::cast(runs.on_demand_starts));
        columns["optimum_cost"] = py::array(py::cast(runs.optimum_cost));  // NaN unless options["regret"]
        return columns;
      },
      py::arg("options"), py::arg("starts_s"), py::arg("policy") = py::none(), py::arg("checkpoint") = py::none(),
      "one run per trace start (s): cost_total, completion_hours, deadline_met, fingerprint, starts, optimum_cost "
      "(the window's exact offline optimum with regret=True, else NaN)");
}

}  // namespace spotsim::python
