// Traces from Python: the shipped library, what each zone offers (the numbers of `spotsim trace inspect`), and the
// trace document itself, so a notebook can derive a variant (another lifetime model, another price) and write it.
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/integer_text.hpp"
#include "base/json_fields.hpp"
#include "base/json_text.hpp"
#include "base/shipped_library.hpp"
#include "python/json_to_python.hpp"
#include "python/python_bindings.hpp"
#include "traces/fit/trace_summary.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

// One row per trace file of the shipped library, sorted by file name.
py::list shipped_trace_rows() {
  namespace fs = std::filesystem;
  const fs::path dir = shipped_trace_directory();
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  py::list rows;
  for (const auto& file : files) {
    const SpotMarket market = read_trace_file(file.string());
    std::string gpus;
    for (const Zone& zone : market.zones) {
      if (!zone.gpu.empty() && gpus.find(zone.gpu) == std::string::npos) gpus += (gpus.empty() ? "" : ",") + zone.gpu;
    }
    rows.append(py::dict(
        py::arg("trace") = file.stem().string(), py::arg("name") = market.name, py::arg("zones") = market.zones.size(),
        py::arg("gpu") = gpus,
        py::arg("span_hours") = market.span == kNever ? py::object(py::none()) : py::float_(to_hours(market.span)),
        py::arg("description") = market.description, py::arg("path") = file.string()));
  }
  return rows;
}

// One row per zone: the trace summary plus the figures policies use (MTBF, notice, lifetime model).
py::list zone_rows(const std::string& trace, int nodes) {
  if (nodes < 1 || nodes > 100000) {
    throw InputError("--nodes: expected " + integer_range_text(1, 100000) + ", got '" + std::to_string(nodes) + "'");
  }
  const std::string path = locate_trace(trace);
  const SpotMarket market = read_trace_file(path);
  const TraceSummary summary = summarize_trace(market, nodes);
  py::list rows;
  for (std::size_t i = 0; i < market.zones.size(); ++i) {
    const Zone& zone = market.zones[i];
    const ZoneSummary& s = summary.zones[i];
    const Millis mtbf = spot_mean_time_between_preemptions(zone, nodes);
    py::dict row;
    row["trace"] = market.name;
    row["zone"] = zone.name;
    row["instance_type"] = zone.instance_type;
    row["gpu"] = zone.gpu;
    row["gpus_per_instance"] = zone.gpus_per_instance;
    row["on_demand_price_per_hour"] = zone.on_demand_price_per_hour;
    row["spot_price_mean"] = s.spot_price_mean;
    row["spot_price_min"] = s.spot_price_min;
    row["spot_price_max"] = s.spot_price_max;
    row["preemption_source"] = s.preemption_source;
    row["availability_fraction"] = s.availability_fraction;
    row["preemptions_per_instance_hour"] = s.preemptions_per_instance_hour;
    row["mean_uptime_hours"] = s.mean_uptime_hours;
    row["median_uptime_hours"] = s.median_uptime_hours;
    // NaN, not a sentinel, when the zone is never preempted: it then plots as a gap and sorts last.
    row["spot_mtbf_hours"] = mtbf == kNever ? std::numeric_limits<double>::quiet_NaN() : to_hours(mtbf);
    row["notice_s"] = to_seconds(zone.spot.notice);
    row["lifetime_model"] = zone.spot.lifetime ? zone.spot.lifetime->name() : std::string();
    row["span_hours"] = market.span == kNever ? std::numeric_limits<double>::quiet_NaN() : to_hours(market.span);
    rows.append(row);
  }
  return rows;
}

// A trace document built in Python is checked by the reader before it is written, so a bad field fails here,
// naming the field, rather than later in simulate().
void write_trace(const py::dict& document, const std::string& path) {
  const nlohmann::json json = from_python(document, "trace");
  parse_trace(json, path);
  write_file_atomically(path, json_text(json, 2) + "\n");
}

}  // namespace

void bind_traces(py::module_& m) {
  m.def("shipped_traces", &shipped_trace_rows,
        "the trace library: trace, name, zones, gpu, span_hours, description, path");
  m.def("trace_zones", &zone_rows, py::arg("trace"), py::arg("nodes") = 1,
        "per zone of a trace (path or shipped name): prices, preemption rate, spot MTBF, notice, lifetime model");
  m.def(
      "locate_trace", [](const std::string& trace) { return locate_trace(trace); }, py::arg("trace"),
      "the file a trace name or path resolves to");
  m.def("shipped_trace_directory", &shipped_trace_directory);
  m.def(
      "trace_document",
      [](const std::string& trace) {
        const std::string path = locate_trace(trace);
        parse_trace(read_json_file(path), path);  // only valid traces are handed out
        return to_python(read_json_file(path));
      },
      py::arg("trace"), "the trace file as a dict (spotsim trace format v1)");
  m.def("write_trace", &write_trace, py::arg("document"), py::arg("path"),
        "validate a trace document (dict) and write it atomically as JSON");
  // The Python modules' outputs follow the CLI's rule (base/atomic_file.hpp): a regular file is replaced whole or
  // left as it was; "-", /dev/stdout, a device or a FIFO is written into, never replaced.
  m.def("write_output", &write_file_atomically, py::arg("path"), py::arg("text"),
        "write a command's output file as the CLI does: atomically, devices and FIFOs written into");
}

}  // namespace spotsim::python
