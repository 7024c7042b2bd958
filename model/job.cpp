#include "model/job.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "base/errors.hpp"

namespace spotsim {

Millis JobSpec::effective_give_up() const {
  if (give_up_after != kNever) return give_up_after;
  return std::max(20 * work, work + 30 * kMillisPerDay);
}

void validate_job(const JobSpec& job, const std::string& where) {
  auto fail = [&where](const std::string& field, const std::string& expected) {
    throw InputError(where + ": field '" + field + "': expected " + expected);
  };
  if (job.work <= 0) fail("work", "a positive amount of compute (e.g. work_hours > 0)");
  if (job.work > 100LL * 365 * kMillisPerDay) fail("work", "at most 100 years of compute");
  if (job.gpus < 0 || job.gpus > kMaxJobGpus) fail("gpus", "an integer between 1 and 1000000");
  if (job.gpus > 0 ? (job.nodes < 0 || job.nodes > 100000) : (job.nodes < 1 || job.nodes > 100000)) {
    fail("nodes", "an integer between 1 and 100000");
  }
  if (job.checkpoint_write < 0) fail("checkpoint_write", "a duration >= 0");
  if (job.restore < 0) fail("restore", "a duration >= 0");
  if (job.startup < 0) fail("startup", "a duration >= 0");
  if (!(job.checkpoint_size_gb >= 0.0 && job.checkpoint_size_gb <= 1e9))
    fail("checkpoint_size_gb", "a size in GB between 0 and 1e9");
  if (!(job.same_continent_gbps >= 0.0 && job.same_continent_gbps <= 1e6))
    fail("same_continent_gbps", "a bandwidth in Gbit/s between 0 (the trace's) and 1e6");
  if (!(job.cross_continent_gbps >= 0.0 && job.cross_continent_gbps <= 1e6))
    fail("cross_continent_gbps", "a bandwidth in Gbit/s between 0 (the trace's) and 1e6");
  if (job.deadline != kNever && job.deadline <= 0) fail("deadline", "a positive duration");
  if (job.give_up_after != kNever && job.give_up_after <= 0) fail("give_up_after", "a positive duration");
  validate_elastic(job, where);
}

JobSpec resolve_job_instances(const JobSpec& job, const SpotMarket& market, const std::string& where) {
  if (job.elastic.gpus_per_instance > 0) {
    for (const Zone& zone : market.zones) {
      if (zone.gpus_per_instance != job.elastic.gpus_per_instance) {
        throw InputError(where + ": field 'gpus_per_instance': the job's step times are for instances of " +
                         std::to_string(job.elastic.gpus_per_instance) + " GPUs, zone '" + zone.name + "' of trace '" +
                         market.name + "' has " + std::to_string(zone.gpus_per_instance) +
                         " (rerun spotsim steptime --instance with the trace's instance type)");
      }
    }
  }
  if (job.gpus <= 0) return job;
  assert(!market.zones.empty());
  const Zone& first = market.zones.front();
  for (const Zone& zone : market.zones) {
    if (zone.gpus_per_instance != first.gpus_per_instance) {
      throw InputError(where + ": field 'gpus': trace '" + market.name + "' mixes instance shapes (zone '" +
                       first.name + "': " + std::to_string(first.gpus_per_instance) + " GPUs per instance, zone '" +
                       zone.name + "': " + std::to_string(zone.gpus_per_instance) +
                       "); expected one gpus_per_instance for a job given in "
                       "GPUs (select zones of one shape with --zones, or give nodes instead)");
    }
  }
  const std::int64_t per_instance = std::max(1, first.gpus_per_instance);
  const std::int64_t instances = (job.gpus + per_instance - 1) / per_instance;
  if (job.nodes != 0 && job.nodes != instances) {
    throw InputError(where + ": fields 'gpus' and 'nodes': expected nodes = ceil(gpus / gpus_per_instance) = " +
                     std::to_string(instances) + " on trace '" + market.name + "' (" + std::to_string(job.gpus) +
                     " GPUs, " + std::to_string(per_instance) + " per instance), got nodes " +
                     std::to_string(job.nodes) + " (give one of the two)");
  }
  if (instances > 100000) {
    throw InputError(where + ": field 'gpus': " + std::to_string(job.gpus) + " GPUs need " + std::to_string(instances) +
                     " instances on trace '" + market.name + "'; expected at most 100000");
  }
  JobSpec resolved = job;
  resolved.nodes = static_cast<int>(instances);
  validate_elastic(resolved, where);  // min_nodes and step_time_s_by_nodes against the instance count
  return resolved;
}

}  // namespace spotsim
