#include "app/campaign/job_size_groups.hpp"

#include <algorithm>

namespace spotsim {

JobSizeGroups job_size_groups(const CampaignSpec& spec) {
  JobSizeGroups out;
  const bool by_gpus =
      std::all_of(spec.jobs.begin(), spec.jobs.end(), [](const CampaignJob& j) { return j.job.gpus > 0; });
  out.unit = by_gpus ? "gpus" : "instances";
  const auto size_of = [&](const CampaignJob& j) { return by_gpus ? j.job.gpus : j.job.nodes; };
  for (const CampaignJob& job : spec.jobs) out.sizes.push_back(size_of(job));
  std::sort(out.sizes.begin(), out.sizes.end());
  out.sizes.erase(std::unique(out.sizes.begin(), out.sizes.end()), out.sizes.end());
  for (const CampaignJob& job : spec.jobs) {
    out.group_of_job.push_back(static_cast<std::size_t>(
        std::lower_bound(out.sizes.begin(), out.sizes.end(), size_of(job)) - out.sizes.begin()));
  }
  return out;
}

}  // namespace spotsim
