#include "sim/job.hpp"

#include <algorithm>

#include "sim/errors.hpp"

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
  if (job.nodes < 1 || job.nodes > 100000) fail("nodes", "an integer between 1 and 100000");
  if (job.checkpoint_write < 0) fail("checkpoint_write", "a duration >= 0");
  if (job.restore < 0) fail("restore", "a duration >= 0");
  if (job.startup < 0) fail("startup", "a duration >= 0");
  if (!(job.checkpoint_size_gb >= 0.0 && job.checkpoint_size_gb <= 1e9)) fail("checkpoint_size_gb", "a size in GB between 0 and 1e9");
  if (!(job.same_continent_gbps >= 0.0 && job.same_continent_gbps <= 1e6)) fail("same_continent_gbps", "a bandwidth in Gbit/s between 0 (the trace's) and 1e6");
  if (!(job.cross_continent_gbps >= 0.0 && job.cross_continent_gbps <= 1e6)) fail("cross_continent_gbps", "a bandwidth in Gbit/s between 0 (the trace's) and 1e6");
  if (job.deadline != kNever && job.deadline <= 0) fail("deadline", "a positive duration");
  if (job.give_up_after != kNever && job.give_up_after <= 0) fail("give_up_after", "a positive duration");
  validate_elastic(job, where);
}

}  // namespace spotsim
