// Step time from Python: a Kineto trace read once into a KinetoProfile (per-step wall/busy time and kernel-class
// breakdown), predictions of its steady-state step on other GPUs (docs/step-time.md#model), checkpoint cost, and
// the GPU spec table. Times are returned in milliseconds, the unit a step is usually discussed in.
#include <pybind11/stl.h>

#include <array>
#include <memory>

#include "app/options/prediction_options.hpp"
#include "base/errors.hpp"
#include "python/keyword_options.hpp"
#include "python/python_bindings.hpp"
#include "steptime/checkpoint_cost.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "steptime/step_profile.hpp"
#include "steptime/step_time_predictor.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

constexpr std::array kClasses = {KernelClass::Matrix, KernelClass::MemoryBound, KernelClass::Communication,
                                 KernelClass::MemcpyMemset, KernelClass::Other};

// Column names for the kernel classes: "matrix_ms", "memory_bound_ms", ...
std::string class_column(KernelClass c) {
  switch (c) {
    case KernelClass::Matrix: return "matrix";
    case KernelClass::MemoryBound: return "memory_bound";
    case KernelClass::Communication: return "communication";
    case KernelClass::MemcpyMemset: return "memcpy_memset";
    case KernelClass::Other: return "other";
  }
  return "other";
}

// A trace and its step statistics, kept together so that predictions do not read the file again.
struct KinetoProfile {
  KinetoTrace trace;
  StepProfile profile;
};

py::dict step_columns(const KinetoProfile& p) {
  py::list name, warmup, wall, busy, step;
  std::array<py::list, kKernelClassCount> by_class;
  for (const StepStats& s : p.profile.steps) {
    name.append(s.name);
    warmup.append(s.warmup);
    wall.append(s.wall_us * 1e-3);
    busy.append(s.gpu_busy_us * 1e-3);
    step.append(s.step_us * 1e-3);
    for (std::size_t c = 0; c < by_class.size(); ++c) by_class[c].append(s.by_class[c].time_us * 1e-3);
  }
  py::dict columns(py::arg("step") = name, py::arg("warmup") = warmup, py::arg("wall_ms") = wall,
                   py::arg("gpu_busy_ms") = busy, py::arg("step_ms") = step);
  for (KernelClass c : kClasses) columns[py::str(class_column(c) + "_ms")] = by_class[static_cast<std::size_t>(c)];
  return columns;
}

py::dict device_info(const KinetoProfile& p) {
  const TraceDevice* device = p.trace.main_device();
  const GpuSpec* spec = device ? match_device_name(device->name, device->total_memory_bytes) : nullptr;
  py::dict info;
  info["device_id"] = p.profile.device;
  info["device_name"] = device ? device->name : std::string();
  info["gpu"] = spec ? py::object(py::str(spec->name)) : py::object(py::none());
  info["vendor"] = device == nullptr                     ? "unknown"
                   : device->vendor == GpuVendor::Nvidia ? "nvidia"
                   : device->vendor == GpuVendor::Amd    ? "amd"
                                                         : "unknown";
  info["schema"] = p.trace.schema == TraceSchema::Legacy ? "legacy" : "current";
  info["steps"] = p.profile.steps.size();
  info["steady_steps"] = p.profile.step.n;
  info["whole_trace_is_one_step"] = p.profile.whole_trace_is_one_step;
  info["warmup_rule"] = p.profile.warmup_rule;
  info["step_ms_mean"] = p.profile.step.mean * 1e-3;
  info["step_ms_sd"] = p.profile.step.sd * 1e-3;
  info["gpu_busy_ms_mean"] = p.profile.gpu_busy.mean * 1e-3;
  info["wall_ms_mean"] = p.profile.wall.mean * 1e-3;
  info["activities"] = p.trace.activities.size();
  return info;
}

// Mean time and kernel count per steady-state step, by class.
py::list class_rows(const KinetoProfile& p) {
  py::list rows;
  for (KernelClass c : kClasses) {
    const ClassTotals& t = p.profile.mean_by_class[static_cast<std::size_t>(c)];
    rows.append(py::dict(py::arg("kernel_class") = class_column(c), py::arg("label") = to_string(c),
                         py::arg("time_ms") = t.time_us * 1e-3, py::arg("kernels") = t.count));
  }
  return rows;
}

// One row per target (the measured GPU first, predicted on itself): kernel sums, busy, host gap, step, by class.
// `options`: keyword arguments read through `spotsim steptime`'s own prediction options (precision, batch, layout,
// tf32, ...): the CLI's names, defaults, ranges and messages.
py::list prediction_rows(const KinetoProfile& p, const std::vector<std::string>& targets,
                         const std::string& measured_gpu, const py::dict& keywords) {
  const PredictionOptions options = prediction_options(parse_keyword_options(keywords, prediction_option_schema()));
  const GpuSpec& measured = measured_gpu_of(p.trace, measured_gpu);
  std::vector<const GpuSpec*> named;
  for (const auto& name : targets) named.push_back(&one_gpu_or_throw(name, "--target"));
  py::list rows;
  for (const GpuSpec* target : gpus_to_predict(measured, named, options)) {
    const StepPrediction s = predict_step(p.trace, p.profile, measured, *target, options);
    py::dict row;
    row["measured_gpu"] = measured.name;
    row["target"] = s.target;
    row["measured_step_ms"] = (s.host_gap_us + s.measured_busy_us) * 1e-3;
    row["predicted_step_ms"] = s.predicted_step_us * 1e-3;
    row["measured_busy_ms"] = s.measured_busy_us * 1e-3;
    row["predicted_busy_ms"] = s.predicted_busy_us * 1e-3;
    row["host_gap_ms"] = s.host_gap_us * 1e-3;
    row["measured_by_op_model_ms"] = s.measured_by_op_model_us * 1e-3;
    row["measured_kernel_sum_ms"] = s.measured_kernel_sum_us * 1e-3;
    row["predicted_kernel_sum_ms"] = s.predicted_kernel_sum_us * 1e-3;
    row["measured_compute_ms"] = s.measured_compute_us() * 1e-3;
    row["predicted_compute_ms"] = s.predicted_compute_us() * 1e-3;
    for (KernelClass c : kClasses) {
      const auto i = static_cast<std::size_t>(c);
      row[py::str("measured_" + class_column(c) + "_ms")] = s.measured_by_class_us[i] * 1e-3;
      row[py::str("predicted_" + class_column(c) + "_ms")] = s.predicted_by_class_us[i] * 1e-3;
    }
    rows.append(row);
  }
  return rows;
}

py::list gpu_spec_rows() {
  py::list rows;
  for (const GpuSpec& g : gpu_spec_table()) {
    py::dict row;
    row["gpu"] = g.name;
    row["aliases"] = g.aliases;
    row["form_factor"] = g.form_factor;
    row["sms"] = g.sms;
    row["memory_gb"] = g.memory_gb;
    row["memory_bandwidth_gbps"] = g.memory_bandwidth_gbps;
    for (Precision p : {Precision::FP32, Precision::TF32, Precision::FP16, Precision::BF16}) {
      row[py::str("peak_" + to_string(p) + "_tflops")] = g.peak(p);
    }
    row["source"] = g.source;
    rows.append(row);
  }
  return rows;
}

py::dict checkpoint_cost_row(double parameters, const std::string& training_setup, double write_gbps, double read_gbps,
                             int writers) {
  CheckpointSetup setup;
  setup.parameters = parameters;
  setup.bytes_per_parameter = training_state_layout(training_setup, "--training-setup").checkpoint_bytes();
  setup.write_gbps = write_gbps;
  setup.read_gbps = read_gbps;
  setup.writers = writers;
  const CheckpointCost cost = checkpoint_cost(setup, "spotsim.checkpoint_cost");
  return py::dict(py::arg("size_gb") = cost.size_bytes * 1e-9, py::arg("write_s") = cost.write_s,
                  py::arg("restore_s") = cost.restore_s);
}

}  // namespace

void bind_steptime(py::module_& m) {
  py::class_<KinetoProfile>(m, "KinetoProfile", "a PyTorch profiler trace read once, with its per-step statistics")
      .def_property_readonly("path", [](const KinetoProfile& p) { return p.trace.path; })
      .def("info", &device_info, "device, schema, step counts and steady-state means (ms)")
      .def("step_columns", &step_columns, "per step: wall, GPU busy, step time and time per kernel class (ms)")
      .def("class_rows", &class_rows, "per kernel class: mean time (ms) and kernels per steady-state step")
      .def("predict", &prediction_rows, py::arg("targets"), py::arg("measured_gpu") = "",
           py::arg("options") = py::dict(),
           "the steady-state step predicted on each target GPU; options: `spotsim steptime`'s prediction options "
           "(CLI long names, '-' as '_')");

  m.def(
      "read_kineto",
      [](const std::string& path) {
        auto p = std::make_unique<KinetoProfile>();
        {
          py::gil_scoped_release release;
          p->trace = read_kineto_trace(path);
          p->profile = build_step_profile(p->trace);
        }
        return p;
      },
      py::arg("path"), "read a Kineto Chrome trace (.json or .json.gz)");
  m.def("gpu_specs", &gpu_spec_rows, "the GPU spec table: peaks, bandwidth, SMs, datasheet source");
  m.def("checkpoint_cost", &checkpoint_cost_row, py::arg("parameters"), py::arg("training_setup") = "adam-mixed",
        py::arg("write_gbps") = 1.0, py::arg("read_gbps") = 1.0, py::arg("writers") = 1,
        "checkpoint size (GB), write and restore time (s) from the parameter count");
}

}  // namespace spotsim::python
