#include "app/job_reader.hpp"

#include <nlohmann/json.hpp>

#include "base/data_size.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {

namespace {

constexpr double kMaxHours = 100.0 * 365 * 24;

GpuStepTimes read_step_times_by_gpu(const JsonFields& f) {
  if (f.has("work_hours") || f.has("step_time_s")) {
    f.fail("step_time_s_by_gpu", "either step_time_s_by_gpu or work_hours/step_time_s, not both");
  }
  GpuStepTimes times;
  times.file = f.file();
  times.steps = f.number("steps", 1.0, 1e15);
  const JsonFields map = f.object("step_time_s_by_gpu");
  for (const auto& [gpu, value] : f.raw("step_time_s_by_gpu").items()) {
    const double seconds = map.number(gpu, 1e-6, 1e6);
    if (times.steps * seconds > kMaxHours * 3600.0) map.fail(gpu, "steps x step time of at most 100 years");
    times.step_time_s[canonical_gpu_name(gpu)] = seconds;
  }
  if (times.step_time_s.empty())
    f.fail("step_time_s_by_gpu", "an object with at least one GPU, e.g. {\"A100-40GB\": 0.21}");
  return times;
}

}  // namespace

Millis work_on_gpu(const GpuStepTimes& times, const std::string& gpu) {
  const auto it = times.step_time_s.find(canonical_gpu_name(gpu));
  if (it == times.step_time_s.end()) {
    std::string known;
    for (const auto& [name, seconds] : times.step_time_s) known += (known.empty() ? "" : ", ") + name;
    throw InputError(times.file + ": field 'step_time_s_by_gpu': no step time for the trace's GPU '" + gpu +
                     "'; the job has " + known + " (rerun spotsim steptime with --target " + gpu + ")");
  }
  return millis_from_seconds(times.steps * it->second);
}

// A per-GPU job cannot be simulated on a trace that mixes GPU types, since the engine holds one amount of work per
// job.
std::string single_gpu_of(const SpotMarket& market, const std::string& trace_path, const std::string& job_file) {
  std::string gpu;
  for (const Zone& zone : market.zones) {
    if (zone.gpu.empty()) {
      throw InputError(trace_path + ": zone '" + zone.name + "' names no gpu, which " + job_file +
                       " (step_time_s_by_gpu) needs to pick a step time");
    }
    if (!gpu.empty() && canonical_gpu_name(zone.gpu) != canonical_gpu_name(gpu)) {
      throw InputError(job_file + ": step_time_s_by_gpu needs a trace with one GPU type, but " + trace_path +
                       " has zones with '" + gpu + "' and '" + zone.gpu + "'");
    }
    gpu = zone.gpu;
  }
  return gpu;
}
JobSpec job_on_market(const JobSpec& job, const std::optional<GpuStepTimes>& per_gpu, const SpotMarket& market,
                      const std::string& trace_path) {
  if (!per_gpu) return job;
  JobSpec on_market = job;
  on_market.work = work_on_gpu(*per_gpu, single_gpu_of(market, trace_path, per_gpu->file));
  validate_job(on_market, per_gpu->file);
  return on_market;
}

double checkpoint_size_field(const JsonFields& f) {
  const nlohmann::json& value = f.raw("checkpoint_size_gb");
  if (!value.is_string()) return f.number("checkpoint_size_gb", 0.0, kMaxDataSizeGb);
  try {
    return parse_data_size_gb(value.get<std::string>(), "size");
  } catch (const InputError&) {
    f.fail_value("checkpoint_size_gb",
                 "a size in GB (a number) or a size with its unit such as \"20GB\" or "
                 "\"18.6GiB\", between 0 and 1e9 GB",
                 value);
  }
}

const std::vector<std::string>& job_file_fields() {
  static const std::vector<std::string> fields = {"name",
                                                  "work_hours",
                                                  "steps",
                                                  "step_time_s",
                                                  "step_time_s_by_gpu",
                                                  "nodes",
                                                  "gpus",
                                                  "checkpoint_write_s",
                                                  "restore_s",
                                                  "checkpoint_size_gb",
                                                  "same_continent_gbps",
                                                  "cross_continent_gbps",
                                                  "startup_s",
                                                  "deadline_hours",
                                                  "give_up_after_hours",
                                                  "notes",
                                                  "min_nodes",
                                                  "step_time_s_by_nodes",
                                                  "reconfigure_s",
                                                  "network_gbps",
                                                  "gpus_per_instance"};
  return fields;
}

void apply_job_json(const nlohmann::json& document, const std::string& file, JobSpec& job,
                    std::optional<GpuStepTimes>* per_gpu) {
  const JsonFields f(document, file, "");
  f.reject_unknown(job_file_fields());
  if (f.has("step_time_s_by_gpu")) {
    if (per_gpu == nullptr) f.fail("step_time_s_by_gpu", "a single step_time_s here (the GPU is not known)");
    *per_gpu = read_step_times_by_gpu(f);
  }
  // What a move between regions transfers and at which speed (docs/migration.md); the trace's speeds otherwise.
  if (f.has("checkpoint_size_gb")) job.checkpoint_size_gb = checkpoint_size_field(f);
  if (f.has("same_continent_gbps")) job.same_continent_gbps = f.number("same_continent_gbps", 1e-3, 1e6);
  if (f.has("cross_continent_gbps")) job.cross_continent_gbps = f.number("cross_continent_gbps", 1e-3, 1e6);
  if (f.has("work_hours") && (f.has("steps") || f.has("step_time_s"))) {
    f.fail("work_hours", "either work_hours or steps with step_time_s, not both");
  }
  if (f.has("work_hours")) job.work = millis_from_hours(f.number("work_hours", 1e-6, kMaxHours));
  if (!f.has("step_time_s_by_gpu") && (f.has("steps") || f.has("step_time_s"))) {
    const double steps = f.number("steps", 1.0, 1e15);
    const double step_time = f.number("step_time_s", 1e-6, 1e6);
    if (steps * step_time > kMaxHours * 3600.0) f.fail("steps", "steps x step_time_s of at most 100 years");
    job.work = millis_from_seconds(steps * step_time);
  }
  // A file states the job's size in instances, in GPUs, or both (then they must agree on the trace: Scenario checks).
  // What it states replaces the size the job had (a sweep's base job, the defaults).
  if (f.has("gpus")) {
    job.gpus = static_cast<int>(f.integer("gpus", 1, kMaxJobGpus));
    job.nodes = f.has("nodes") ? static_cast<int>(f.integer("nodes", 1, 100000)) : 0;
  } else if (f.has("nodes")) {
    job.nodes = static_cast<int>(f.integer("nodes", 1, 100000));
    job.gpus = 0;
  }
  // Multi-node jobs that train on fewer instances (docs/elastic.md).
  if (f.has("min_nodes")) job.elastic.min_nodes = static_cast<int>(f.integer("min_nodes", 1, kMaxElasticNodes));
  if (f.has("step_time_s_by_nodes")) {
    const auto& values = document.at("step_time_s_by_nodes");
    if (!values.is_array() || values.empty())
      f.fail("step_time_s_by_nodes", "an array of step times in seconds, one per instance count 1..nodes");
    job.elastic.step_time_s_by_nodes.clear();
    for (const auto& v : values) {
      if (!v.is_number()) f.fail("step_time_s_by_nodes", "numbers (seconds)");
      job.elastic.step_time_s_by_nodes.push_back(v.get<double>());
    }
  }
  if (f.has("reconfigure_s"))
    job.elastic.reconfigure = millis_from_seconds(f.number("reconfigure_s", 0.0, 7 * 86400.0));
  if (f.has("network_gbps")) job.elastic.network_gbps = f.number("network_gbps", 1e-3, 1e6);
  if (f.has("gpus_per_instance"))
    job.elastic.gpus_per_instance = static_cast<int>(f.integer("gpus_per_instance", 1, 64));
  if (f.has("checkpoint_write_s")) job.checkpoint_write = millis_from_seconds(f.number("checkpoint_write_s", 0.0, 1e6));
  if (f.has("restore_s")) job.restore = millis_from_seconds(f.number("restore_s", 0.0, 1e6));
  if (f.has("startup_s")) job.startup = millis_from_seconds(f.number("startup_s", 0.0, 1e6));
  if (f.has("deadline_hours")) job.deadline = millis_from_hours(f.number("deadline_hours", 1e-6, kMaxHours));
  if (f.has("give_up_after_hours"))
    job.give_up_after = millis_from_hours(f.number("give_up_after_hours", 1e-6, kMaxHours));
}

JobSpec read_job_file(const std::string& path) {
  JobSpec job;
  apply_job_json(read_json_file(path), path, job);
  validate_job(job, path);
  return job;
}

}  // namespace spotsim
