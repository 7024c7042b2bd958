// The policy registry as rows (what `simulate --list-policies` prints) and the closed-form checkpoint intervals
// the young/daly policies use, so a notebook can mark them on a plot of simulated intervals.
#include <pybind11/stl.h>

#include "base/duration.hpp"
#include "base/errors.hpp"
#include "policies/checkpoint_math.hpp"
#include "policies/planned_policy.hpp"
#include "policies/policy_registry.hpp"
#include "python/python_bindings.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

template <typename Policy>
void append_rows(py::list& rows, const char* kind, const std::vector<PolicyEntry<Policy>>& entries) {
  for (const auto& entry : entries) {
    rows.append(py::dict(py::arg("kind") = kind, py::arg("name") = entry.name,
                         py::arg("description") = entry.description, py::arg("parameters") = entry.parameters));
  }
}

py::list policy_rows() {
  const PolicyRegistry registry = policy_registry();
  py::list rows;
  append_rows(rows, "selection", registry.selection_policies());
  append_rows(rows, "multi-node", registry.node_policies());
  append_rows(rows, "checkpoint", registry.checkpoint_policies());
  return rows;
}

// Both formulas need delta > 0 and M > 0; anything else is a user's mistake, not an assert.
double checked_interval(double (*formula)(double, double), double write_hours, double mtbf_hours) {
  if (!(write_hours > 0.0)) throw InputError("write_hours: expected a positive checkpoint write time in hours");
  if (!(mtbf_hours > 0.0)) throw InputError("mtbf_hours: expected a positive mean time between preemptions in hours");
  return formula(write_hours, mtbf_hours);
}

}  // namespace

void bind_policies(py::module_& m) {
  m.def("policies", &policy_rows, "selection, multi-node and checkpoint policies: kind, name, description, parameters");
  m.def(
      "plan_cache_statistics",
      [] {
        const PlanCacheStatistics s = plan_cache_statistics();
        py::dict out;
        out["solved"] = s.solved;
        out["reused"] = s.reused;
        out["kept"] = s.kept;
        out["kept_bytes"] = s.kept_bytes;
        out["spell_models"] = s.spell_models;
        return out;
      },
      "the process's plans (policy `planned`, and `adaptive` in the Can't Be Late mode): solved and reused since it "
      "started, kept now and their bytes");
  m.def("clear_plan_cache", &clear_plan_cache,
        "drops the plans the process keeps for later runs (their memory, up to 512 MB); later runs solve again");
  m.def(
      "check_policies",
      [](const std::string& policy, const std::string& checkpoint) {
        const PolicyRegistry registry = policy_registry();
        if (registry.is_node_policy(policy)) {
          registry.node_factory(policy);
        } else {
          registry.selection_factory(policy);
        }
        registry.checkpoint_factory(checkpoint);
      },
      py::arg("policy"), py::arg("checkpoint"), "InputError if either spec is unknown or has bad parameters");
  m.def(
      "young_interval",
      [](double write_hours, double mtbf_hours) { return checked_interval(&young_interval, write_hours, mtbf_hours); },
      py::arg("write_hours"), py::arg("mtbf_hours"), "Young (1974): sqrt(2 delta M), in hours");
  m.def(
      "daly_interval",
      [](double write_hours, double mtbf_hours) { return checked_interval(&daly_interval, write_hours, mtbf_hours); },
      py::arg("write_hours"), py::arg("mtbf_hours"), "Daly (2006), eq. 37, in hours");
  // The CLI's duration syntax, so the Python layer reads "interval=90m" in a policy spec exactly as the policy does.
  m.def(
      "duration_hours",
      [](const std::string& text, const std::string& what) { return to_hours(parse_duration(text, what)); },
      py::arg("text"), py::arg("what") = "duration", "a duration such as 90m or 1.5h, in hours (InputError if not)");
}

}  // namespace spotsim::python
