#include "experiments/job_reader.hpp"

#include "traces/json_fields.hpp"

namespace spotsim {

void apply_job_json(const nlohmann::json& document, const std::string& file, JobSpec& job) {
  const JsonFields f(document, file, "");
  f.reject_unknown({"name", "work_hours", "steps", "step_time_s", "nodes", "checkpoint_write_s", "restore_s",
                    "startup_s", "deadline_hours", "give_up_after_hours", "notes"});
  constexpr double kMaxHours = 100.0 * 365 * 24;
  if (f.has("work_hours") && (f.has("steps") || f.has("step_time_s"))) {
    f.fail("work_hours", "either work_hours or steps with step_time_s, not both");
  }
  if (f.has("work_hours")) job.work = millis_from_hours(f.number("work_hours", 1e-6, kMaxHours));
  if (f.has("steps") || f.has("step_time_s")) {
    const double steps = f.number("steps", 1.0, 1e15);
    const double step_time = f.number("step_time_s", 1e-6, 1e6);
    if (steps * step_time > kMaxHours * 3600.0) f.fail("steps", "steps x step_time_s of at most 100 years");
    job.work = millis_from_seconds(steps * step_time);
  }
  if (f.has("nodes")) job.nodes = static_cast<int>(f.integer("nodes", 1, 100000));
  if (f.has("checkpoint_write_s")) job.checkpoint_write = millis_from_seconds(f.number("checkpoint_write_s", 0.0, 1e6));
  if (f.has("restore_s")) job.restore = millis_from_seconds(f.number("restore_s", 0.0, 1e6));
  if (f.has("startup_s")) job.startup = millis_from_seconds(f.number("startup_s", 0.0, 1e6));
  if (f.has("deadline_hours")) job.deadline = millis_from_hours(f.number("deadline_hours", 1e-6, kMaxHours));
  if (f.has("give_up_after_hours")) job.give_up_after = millis_from_hours(f.number("give_up_after_hours", 1e-6, kMaxHours));
}

JobSpec read_job_file(const std::string& path) {
  JobSpec job;
  apply_job_json(read_json_file(path), path, job);
  validate_job(job, path);
  return job;
}

}  // namespace spotsim
