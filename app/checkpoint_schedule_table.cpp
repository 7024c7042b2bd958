#include "app/checkpoint_schedule_table.hpp"

#include <algorithm>

#include "base/errors.hpp"
#include "base/text_format.hpp"
#include "model/observation.hpp"
#include "model/scenario.hpp"

namespace spotsim {

std::vector<PlannedCheckpoint> planned_checkpoints(const SimulationRequest& request, int zone) {
  const PreparedSimulation prepared = prepare_simulation(request);
  const Scenario& scenario = *prepared.scenario;
  const JobSpec& job = scenario.job();
  const std::size_t zones = prepared.market->zones.size();
  if (zone < 0 || zone >= static_cast<int>(zones)) {
    throw InputError("zone " + std::to_string(zone) + ": the trace has " + std::to_string(zones) + " zone(s)");
  }
  std::vector<ZoneView> views(zones);
  scenario.view_zones(0, zone, views);
  const std::unique_ptr<CheckpointPolicy> policy = prepared.factories.checkpoint();
  policy->reset();
  Observation obs;
  obs.job = &job;
  obs.zones = views;
  obs.zone = zone;
  obs.data_zone = zone;
  obs.purchase = Purchase::kSpot;
  obs.phase = Phase::kComputing;
  std::vector<PlannedCheckpoint> rows;
  Millis age = job.startup;  // a fresh job: start-up, nothing to restore
  while (true) {
    obs.instance_age = obs.elapsed = age;
    obs.now = age;
    obs.spot_time = age;
    const Millis interval = policy->next_interval(obs);
    if (interval == kNever) break;
    const Millis compute = std::max<Millis>(interval, 1);  // as the engine: a checkpoint is at least 1 ms on
    if (compute >= obs.remaining_work()) break;
    if (rows.size() == kMaxPlannedCheckpoints) {
      throw InputError("--checkpoint '" + request.checkpoint + "': more than " +
                       std::to_string(kMaxPlannedCheckpoints) + " checkpoints before the work ends");
    }
    obs.progress += compute;
    obs.committed = obs.progress;
    age += compute;
    rows.push_back({static_cast<int>(rows.size()) + 1, age, compute, obs.progress, obs.remaining_work()});
    age += job.checkpoint_write;
  }
  return rows;
}

std::string checkpoint_schedule_csv(const std::vector<PlannedCheckpoint>& rows) {
  std::string csv = "checkpoint,instance_age_s,instance_age_h,interval_h,work_saved_h,remaining_h\n";
  for (const PlannedCheckpoint& r : rows) {
    csv += std::to_string(r.index) + "," + format_fixed(static_cast<double>(r.instance_age) / 1000.0, 3) + "," +
           format_fixed(to_hours(r.instance_age), 4) + "," + format_fixed(to_hours(r.interval), 4) + "," +
           format_fixed(to_hours(r.work_saved), 4) + "," + format_fixed(to_hours(r.remaining), 4) + "\n";
  }
  return csv;
}

}  // namespace spotsim
