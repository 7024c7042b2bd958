// spotsim.simulate(): one SimulationRequest, run with the GIL released (replications run on C++ threads), and its
// SimulationReport handed to Python as columns of numbers, so a DataFrame of 100,000 runs costs one copy.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "app/campaign/campaign_request_options.hpp"
#include "app/checkpoint_schedule_table.hpp"
#include "app/options/prediction_options.hpp"
#include "app/report_writer.hpp"
#include "app/run_metrics.hpp"
#include "app/simulation_request.hpp"
#include "app/timeline_writer.hpp"
#include "base/errors.hpp"
#include "base/statistics.hpp"
#include "python/json_to_python.hpp"
#include "python/keyword_options.hpp"
#include "python/python_bindings.hpp"
#include "python/python_policy.hpp"
#include "python/simulate_options.hpp"
#include "python/summary_dict.hpp"

namespace py = pybind11;

namespace spotsim::python {

py::dict summary_dict(const Summary& s) {
  return py::dict(py::arg("n") = s.n, py::arg("mean") = s.mean, py::arg("sd") = s.sd, py::arg("min") = s.min,
                  py::arg("max") = s.max, py::arg("p50") = s.p50, py::arg("p95") = s.p95, py::arg("p99") = s.p99,
                  py::arg("ci_low") = s.ci_low, py::arg("ci_high") = s.ci_high);
}

namespace {

template <typename Value>
py::array_t<Value> column(const std::vector<RunResult>& runs, Value (*value)(const RunResult&)) {
  py::array_t<Value> out(static_cast<py::ssize_t>(runs.size()));
  auto view = out.template mutable_unchecked<1>();
  for (std::size_t i = 0; i < runs.size(); ++i) view(static_cast<py::ssize_t>(i)) = value(runs[i]);
  return out;
}

// The per-run columns in the order of the CLI's CSV and JSON rows (docs/outputs.md).
py::dict run_columns(const SimulationReport& report) {
  py::dict columns;
  const auto& runs = report.runs;
  columns["replication"] = column<std::uint64_t>(runs, [](const RunResult& r) { return r.replication; });
  for (const MetricDefinition& metric : run_metrics()) {
    py::array_t<double> values(static_cast<py::ssize_t>(runs.size()));
    auto view = values.mutable_unchecked<1>();
    for (std::size_t i = 0; i < runs.size(); ++i) view(static_cast<py::ssize_t>(i)) = metric.value(runs[i]);
    columns[metric.name] = values;
  }
  columns["spot_starts"] = column<std::int64_t>(runs, [](const RunResult& r) { return std::int64_t(r.spot_starts); });
  columns["on_demand_starts"] =
      column<std::int64_t>(runs, [](const RunResult& r) { return std::int64_t(r.on_demand_starts); });
  columns["trace_start_hours"] = column<double>(runs, [](const RunResult& r) { return r.trace_start_hours; });
  columns["events"] = column<std::uint64_t>(runs, [](const RunResult& r) { return r.events; });
  columns["fingerprint"] = column<std::uint64_t>(runs, [](const RunResult& r) { return r.fingerprint; });
  return columns;
}

// One row per metric: name, unit, label and the Summary fields.
py::list summary_rows(const SimulationReport& report) {
  py::list rows;
  const auto metrics = run_metrics();
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    py::dict row(py::arg("metric") = metrics[i].name, py::arg("unit") = metrics[i].unit,
                 py::arg("label") = metrics[i].label);
    for (const auto& [key, value] : summary_dict(report.summaries[i])) row[key] = value;
    rows.append(row);
  }
  return rows;
}

py::list metric_rows() {
  py::list rows;
  for (const MetricDefinition& metric : run_metrics()) {
    rows.append(
        py::dict(py::arg("metric") = metric.name, py::arg("unit") = metric.unit, py::arg("label") = metric.label));
  }
  return rows;
}

}  // namespace

void bind_simulation(py::module_& m) {
  py::class_<SimulationReport>(m, "SimulationReport", "The C++ report of one simulate() call")
      .def_property_readonly("manifest", [](const SimulationReport& r) { return to_python(r.manifest); })
      .def("run_columns", &run_columns, "per-run values: {column: numpy array}")
      .def("summary_rows", &summary_rows,
           "one dict per metric with n, mean, sd, min, max, p50, p95, p99, ci_low, ci_high")
      .def(
          "to_json", [](const SimulationReport& r) { return report_json(r); }, "the CLI's --format json text")
      .def(
          "to_csv", [](const SimulationReport& r) { return report_csv(r); }, "the CLI's --format csv text")
      .def(
          "to_table", [](const SimulationReport& r) { return report_table(r); }, "the CLI's table");

  m.def(
      "simulate",
      [](const py::dict& options, const py::object& policy, const py::object& checkpoint) {
        const boost::program_options::variables_map vm = simulate_options_from(options);
        SimulationRequest request = spotsim::simulation_request_from(vm);
        request.custom_policies = python_policy_factories(policy, checkpoint);
        const bool python_policy = !policy.is_none() || !checkpoint.is_none();
        // to_json() is the CLI's JSON, which carries the first runs' timelines; a Python policy is not re-run for
        // them (its runs cost the most) unless timeline= asks for them.
        request.with_timeline = !python_policy;
        if (python_policy) request.threads = 1;  // it holds the GIL; the thread count never changes a result
        const std::optional<TimelinePlan> timeline = timeline_plan_from(vm, request);  // checked before the run
        SimulationReport report;
        {
          py::gil_scoped_release release;
          report = run_simulation(request);
        }
        if (timeline) write_timeline(request, timeline->replications, timeline->path);
        return report;
      },
      py::arg("options"), py::arg("policy") = py::none(), py::arg("checkpoint") = py::none(),
      "run `spotsim simulate` with these options (CLI long names, '-' as '_'); policy / checkpoint: Python "
      "policy objects replacing the named ones");
  m.def(
      "checkpoint_schedule",
      [](const py::dict& options) {
        const boost::program_options::variables_map vm = simulate_options_from(options);
        const std::vector<PlannedCheckpoint> rows = planned_checkpoints(spotsim::simulation_request_from(vm));
        py::list out;
        for (const PlannedCheckpoint& r : rows) {  // the CSV's numbers, exactly (docs/policies.md#schedules)
          out.append(py::make_tuple(r.index, static_cast<double>(r.instance_age) / 1000.0, to_hours(r.instance_age),
                                    to_hours(r.interval), to_hours(r.work_saved), to_hours(r.remaining)));
        }
        return out;
      },
      py::arg("options"), "the checkpoint policy's plan: `spotsim simulate --checkpoint-schedule` as rows");
  m.def(
      "option_schema",
      [](const std::string& command) {
        if (command == "simulate") return option_schema_rows(simulate_request_options());
        if (command == "campaign") return option_schema_rows(campaign_request_options());
        if (command == "steptime") return option_schema_rows(prediction_option_schema());
        throw InputError("option_schema: expected simulate, campaign or steptime, got '" + command + "'");
      },
      py::arg("command"),
      "the options a command reads into its request (name, default, flag, help): what simulate() and campaign() "
      "take as keyword arguments, and (steptime) KinetoProfile.predict()");
  m.def("metrics", &metric_rows, "the per-run metrics: name, unit, label");
  // The summaries' own statistics, so that analyses done in Python (paired differences) use the same formulas.
  m.def(
      "summarize",
      [](const std::vector<double>& values, double confidence) {
        if (values.empty()) throw InputError("summarize: expected at least one value");
        if (!(confidence > 0.0 && confidence < 1.0)) throw InputError("summarize: expected a confidence in (0, 1)");
        return summary_dict(summarize(values, confidence));
      },
      py::arg("values"), py::arg("confidence") = 0.95, "mean, sd, percentiles and Student-t CI of the mean");
  m.def(
      "student_t_quantile",
      [](double dof, double p) {
        if (!(dof > 0.0) || !(p > 0.0 && p < 1.0))
          throw InputError("student_t_quantile: expected dof > 0 and p in (0, 1)");
        return student_t_quantile(dof, p);
      },
      py::arg("dof"), py::arg("p"), "Student-t quantile t_dof(p)");
}

}  // namespace spotsim::python
