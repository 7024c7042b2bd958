// Timelines from Python: a `simulate --timeline` file (or the timeline a `simulate --format json` output carries)
// read by the same reader `spotsim report` uses (app/report/timeline_reader.hpp), so the format has one reader and
// one set of errors. Each run comes back as columns, which spotsim.read_timeline turns into DataFrames.
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include "app/report/timeline_reader.hpp"
#include "python/json_to_python.hpp"
#include "python/python_bindings.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

py::dict run_columns(const TimelineRun& run, const std::vector<std::string>& zone_names) {
  py::list held_from, held_to, held_purchase, held_zone, held_zone_name;
  for (const HeldSpan& h : run.held) {
    held_from.append(h.from);
    held_to.append(h.to);
    held_purchase.append(h.spot ? "spot" : "on-demand");
    held_zone.append(h.zone);
    held_zone_name.append(h.zone >= 0 && static_cast<std::size_t>(h.zone) < zone_names.size()
                              ? zone_names[static_cast<std::size_t>(h.zone)]
                              : std::string());
  }
  py::list phase_from, phase_to, phase_name;
  for (const PhaseSpan& p : run.phases) {
    phase_from.append(p.from);
    phase_to.append(p.to);
    phase_name.append(p.phase);
  }
  py::list mark_at, mark_event;
  for (const TimelineMark& m : run.marks) {
    mark_at.append(m.at);
    mark_event.append(m.event);
  }
  py::list count_at, count_spot, count_on_demand, count_training;
  for (const NodeCountStep& c : run.node_counts) {
    count_at.append(c.at);
    count_spot.append(c.spot);
    count_on_demand.append(c.on_demand);
    count_training.append(c.training);
  }
  py::dict out;
  out["replication"] = run.replication;
  out["end_hours"] = run.end;
  out["cost_usd"] = run.cost;
  out["finished"] = run.finished;
  out["completed"] = run.completed;
  out["truncated"] = run.truncated;
  out["held"] =
      py::dict(py::arg("from_hours") = held_from, py::arg("to_hours") = held_to, py::arg("purchase") = held_purchase,
               py::arg("zone") = held_zone, py::arg("zone_name") = held_zone_name);
  out["phases"] =
      py::dict(py::arg("from_hours") = phase_from, py::arg("to_hours") = phase_to, py::arg("phase") = phase_name);
  out["marks"] = py::dict(py::arg("at_hours") = mark_at, py::arg("event") = mark_event);
  out["node_counts"] = py::dict(py::arg("at_hours") = count_at, py::arg("spot") = count_spot,
                                py::arg("on_demand") = count_on_demand, py::arg("training") = count_training);
  return out;
}

}  // namespace

void bind_timeline(py::module_& m) {
  m.def(
      "read_timeline",
      [](const std::string& path) {
        const TimelineFile file = read_timeline_file(path);
        py::list runs;
        for (const TimelineRun& run : file.runs) runs.append(run_columns(run, file.zone_names));
        return py::dict(py::arg("header") = to_python(file.header), py::arg("zones") = file.zone_names,
                        py::arg("runs") = runs);
      },
      py::arg("path"),
      "a `simulate --timeline` file: its header, zone names and per run the held spans, phases, marks and counts");
}

}  // namespace spotsim::python
