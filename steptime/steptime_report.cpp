#include "steptime/steptime_report.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "steptime/report_cells.hpp"

namespace spotsim {

namespace {

constexpr KernelClass kClasses[] = {KernelClass::Matrix, KernelClass::MemoryBound, KernelClass::Communication,
                                    KernelClass::MemcpyMemset, KernelClass::Other};

}  // namespace

std::string format_step_profile(const KinetoTrace& trace, const StepProfile& profile, double read_seconds) {
  std::ostringstream out;
  out << "trace: " << trace.path << " (" << (trace.schema == TraceSchema::Legacy ? "legacy 2021" : "current")
      << " schema, " << trace.events_read << " events, read in " << format_fixed(read_seconds, 2) << " s)\n";
  if (const TraceDevice* d = trace.main_device()) {
    out << "GPU: " << d->name << " (device " << profile.device << ", " << d->num_sms << " SMs, "
        << format_fixed(d->total_memory_bytes / 1e9, 1) << " GB";
    if (const GpuSpec* spec = match_device_name(d->name, d->total_memory_bytes)) out << "; spec table: " << spec->name;
    if (d->vendor == GpuVendor::Amd) out << "; AMD/ROCm";
    out << ")\n";
  } else {
    out << "GPU: device " << profile.device << " (not described in the trace's deviceProperties)\n";
  }
  if (profile.whole_trace_is_one_step) out << "steps: no ProfilerStep#N annotations; the whole trace is one step\n";
  out << "warm-up: " << profile.warmup_rule << "\n";
  if (profile.activities_outside_steps > 0) {
    out << "activities launched outside any step (ignored): " << profile.activities_outside_steps << "\n";
  }
  out << "\n"
      << pad_cell("step", 20, true) << pad_cell("wall ms", 10) << pad_cell("busy ms", 10) << pad_cell("kernels", 9);
  for (KernelClass c : kClasses) out << pad_cell(to_string(c), 15);
  out << "\n";
  for (const auto& s : profile.steps) {
    std::int64_t count = 0;
    for (const auto& c : s.by_class) count += c.count;
    out << pad_cell(s.name + (s.warmup ? " (w)" : ""), 20, true) << pad_cell(ms_cell(s.wall_us), 10)
        << pad_cell(ms_cell(s.gpu_busy_us), 10) << pad_cell(std::to_string(count), 9);
    for (KernelClass c : kClasses) out << pad_cell(ms_cell(s.by_class[static_cast<std::size_t>(c)].time_us), 15);
    out << "\n";
  }
  out << "(w) = warm-up, excluded; busy = union of kernel/memcpy/memset intervals; class columns sum durations\n\n";
  out << "steady state over " << profile.step.n << " step(s): step time " << ms_cell(profile.step.mean) << " ms (sd "
      << ms_cell(profile.step.sd) << ", median " << ms_cell(profile.step.p50) << ", min " << ms_cell(profile.step.min)
      << ", max " << ms_cell(profile.step.max) << "; step = max(wall, busy)), GPU busy "
      << ms_cell(profile.gpu_busy.mean) << " ms ("
      << format_fixed(profile.step.mean > 0 ? 100.0 * profile.gpu_busy.mean / profile.step.mean : 0.0, 1)
      << "% of step)\n";
  double total = 0.0;
  for (const auto& c : profile.mean_by_class) total += c.time_us;
  for (KernelClass c : kClasses) {
    const ClassTotals& t = profile.mean_by_class[static_cast<std::size_t>(c)];
    out << "  " << pad_cell(to_string(c), 15, true) << pad_cell(ms_cell(t.time_us), 10) << " ms/step  "
        << pad_cell(format_fixed(total > 0 ? 100.0 * t.time_us / total : 0.0, 1), 5) << "%  "
        << pad_cell(std::to_string(t.count), 6) << " kernels/step\n";
  }
  return out.str();
}

std::string format_predictions(const std::string& measured_gpu, const std::vector<StepPrediction>& predictions) {
  std::ostringstream out;
  out << "\npredicted steady-state step on each target (measured on " << measured_gpu << "):\n"
      << pad_cell("target", 16, true) << pad_cell("compute ms", 12) << pad_cell("comm ms", 10)
      << pad_cell("busy ms", 10) << pad_cell("step ms", 10) << pad_cell("speed-up", 10) << pad_cell("matrix ms", 11)
      << pad_cell("memory ms", 11) << "\n";
  for (const auto& p : predictions) {
    const double measured_step = p.host_gap_us + p.measured_busy_us;
    out << pad_cell(p.target, 16, true) << pad_cell(ms_cell(p.predicted_compute_us()), 12)
        << pad_cell(ms_cell(p.predicted_by_class_us[static_cast<std::size_t>(KernelClass::Communication)]), 10)
        << pad_cell(ms_cell(p.predicted_busy_us), 10) << pad_cell(ms_cell(p.predicted_step_us), 10)
        << pad_cell(format_fixed(p.predicted_step_us > 0 ? measured_step / p.predicted_step_us : 0.0, 2) + "x", 10)
        << pad_cell(ms_cell(p.predicted_by_class_us[static_cast<std::size_t>(KernelClass::Matrix)]), 11)
        << pad_cell(ms_cell(p.predicted_by_class_us[static_cast<std::size_t>(KernelClass::MemoryBound)]), 11) << "\n";
  }
  out << "step = host gap (step - busy, " << (predictions.empty() ? "0" : ms_cell(predictions.front().host_gap_us))
      << " ms, assumed GPU-independent) + predicted busy\n";
  if (!predictions.empty() && (predictions.front().precision || predictions.front().batch_scale != 1.0)) {
    const StepPrediction& p = predictions.front();
    out << "predicted for " << (p.precision ? to_string(*p.precision) : std::string("the recorded precision")) << " at "
        << format_fixed(p.batch_scale, 3) << "x the traced batch (docs/step-time.md#precision), the "
        << "measured GPU's row included\n";
    std::string measured_curves;
    for (const GpuSpec& gpu : gpu_spec_table()) {
      if (gpu.achieved.convolution.measured()) measured_curves += (measured_curves.empty() ? "" : ", ") + gpu.name;
    }
    out << "convolutions on GPUs with a measured batch curve (" << measured_curves << ") follow it, read at batch "
        << (p.trace_batch ? format_fixed(*p.trace_batch, 0) + " (--batch)"
                          : std::string("16 (no --batch: linear in the batch)"))
        << "; on the others they scale linearly\n";
  }
  double by_op_model = 0.0;
  for (const auto& p : predictions) by_op_model = std::max(by_op_model, p.measured_by_op_model_us);
  if (by_op_model > 0.0) {
    out << "op-level model (operators with recorded fp32 dimensions: mm/addmm/bmm/baddbmm, layer norm, softmax): up to "
        << ms_cell(by_op_model) << " ms/step of the measured kernel time; the rest is scaled kernel by kernel\n";
  } else {
    out << "kernel-by-kernel scaling only: no fp32 GEMM, layer-norm or softmax operator with recorded dimensions "
           "inside the op-level model's range (record_shapes=True; docs/step-time.md#op-model)\n";
  }
  return out.str();
}

std::string format_checkpoint(const CheckpointSetup& setup, const CheckpointCost& cost) {
  std::ostringstream out;
  out << "\ncheckpoint: " << format_fixed(setup.parameters / 1e9, 3) << " B parameters x "
      << format_fixed(setup.bytes_per_parameter, 1) << " B/param = " << format_fixed(cost.size_bytes / 1e9, 2)
      << " GB; write " << format_fixed(cost.write_s, 1) << " s at " << format_fixed(setup.write_gbps, 2) << " GB/s x "
      << setup.writers << " writer(s), restore " << format_fixed(cost.restore_s, 1) << " s at "
      << format_fixed(setup.read_gbps, 2) << " GB/s\n";
  for (double notice : {30.0, 120.0}) {
    out << "  emergency checkpoint in a " << format_fixed(notice, 0)
        << " s preemption notice: " << (cost.fits_notice(notice) ? "fits" : "does NOT fit") << " ("
        << format_fixed(100.0 * cost.write_s / notice, 0) << "% of the notice)\n";
  }
  return out.str();
}

nlohmann::json job_description_json(const JobDescription& job) {
  nlohmann::json j;
  j["name"] = job.name;
  j["steps"] = job.steps;
  j["step_time_s_by_gpu"] = job.step_time_s_by_gpu;
  if (job.checkpoint) {
    j["checkpoint_size_gb"] = job.checkpoint->size_bytes / 1e9;
    j["checkpoint_write_s"] = job.checkpoint->write_s;
    j["restore_s"] = job.checkpoint->restore_s;
  }
  if (!job.notes.empty()) j["notes"] = job.notes;
  return j;
}

nlohmann::json breakdown_document(const std::string& trace_path, const HostTimeBreakdown& breakdown,
                                  const std::vector<StepPrediction>& predictions) {
  nlohmann::json targets = nlohmann::json::array();
  for (const StepPrediction& p : predictions) {
    const double communication = p.predicted_by_class_us[static_cast<std::size_t>(KernelClass::Communication)];
    targets.push_back({{"gpu", p.target},
                       {"precision", p.precision ? to_string(*p.precision) : "as recorded"},
                       {"batch_scale", p.batch_scale},
                       {"compute_ms", p.predicted_compute_us() / 1000.0},
                       {"communication_ms", communication / 1000.0},
                       {"busy_ms", p.predicted_busy_us / 1000.0},
                       {"host_gap_ms", p.host_gap_us / 1000.0},
                       {"step_ms", p.predicted_step_us / 1000.0}});
  }
  nlohmann::json doc = host_time_json(breakdown);
  doc["trace"] = trace_path;
  doc["predictions"] = targets;
  return doc;
}

}  // namespace spotsim
