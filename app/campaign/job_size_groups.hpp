#pragma once
// A job stream's jobs grouped by size for the "by job size" results (docs/campaign.md#by-job-size): a team asks
// how long its 8-GPU jobs wait, not only when the last job ends.
#include <cstddef>
#include <string>
#include <vector>

#include "model/campaign_spec.hpp"

namespace spotsim {

struct JobSizeGroups {
  std::string unit;                       // "gpus" when every job states its GPUs, else "instances"
  std::vector<int> sizes;                 // per group, increasing
  std::vector<std::size_t> group_of_job;  // per job, an index into sizes
};

// The jobs after resolve_campaign_jobs: by GPUs when every job states them (gpus > 0), else by instances (a file
// that gives some jobs in nodes is grouped by what all of them state).
JobSizeGroups job_size_groups(const CampaignSpec& spec);

}  // namespace spotsim
