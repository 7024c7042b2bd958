#include "app/campaign/job_communication.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "steptime/data_parallel_step.hpp"
#include "steptime/data_parallel_trace.hpp"

namespace spotsim {

namespace {

// The links of the GPUs a job uses: a job smaller than one instance all-reduces over its own GPUs only.
InstanceLinks used_links(InstanceLinks links, int gpus, int instances) {
  if (instances == 1) links.gpus_per_instance = std::max(1, std::min(gpus, links.gpus_per_instance));
  return links;
}

DataParallelProfile profile_of(const DataParallelTraining& training) {
  return assumed_data_parallel_profile(training.step_ms, training.params * training.gradient_bytes, training.overlap);
}

}  // namespace

double data_parallel_efficiency(const DataParallelTraining& training, int gpus, int instances,
                                const InstanceLinks& links) {
  const DataParallelProfile profile = profile_of(training);
  const double step = data_parallel_step_ms(profile, instances, used_links(links, gpus, instances));
  return std::min(1.0, profile.compute_ms / step);
}

void model_job_communication(CampaignJob& job, int gpus, int instances, const InstanceLinks& links) {
  if (!job.training.stated()) return;
  job.scaling_efficiency = data_parallel_efficiency(job.training, gpus, instances, links);
  if (job.job.elastic.active()) {
    // Throughput of k instances: k per-instance batches per step of the k-instance layout (only ratios matter).
    const DataParallelProfile profile = profile_of(job.training);
    std::vector<double> steps;
    for (int k = 1; k <= instances; ++k) {
      steps.push_back(data_parallel_step_ms(profile, k, used_links(links, gpus, k)) / 1e3);
    }
    job.job.elastic.step_time_s_by_nodes = std::move(steps);
  }
}

int campaign_job_gpus(const CampaignJob& job, const SpotMarket& market) {
  if (job.job.gpus > 0) return job.job.gpus;
  const Zone& zone = market.zones[job.zones.empty() ? 0 : static_cast<std::size_t>(job.zones.front())];
  return job.job.nodes * std::max(1, zone.gpus_per_instance);
}

const InstanceLinks& job_links(const CampaignJob& job, const InstanceLinkTable& links, const std::string& instance_type,
                               int gpus_per_instance, const std::string& holder) {
  const std::string where = "job '" + job.name + "' (columns params, step_time; docs/campaign.md#communication)";
  if (instance_type.empty()) {
    throw InputError(where + ": " + holder +
                     " names no instance type, so its links are unknown; set one (spotsim trace reshape "
                     "--instance-type) or drop the job's params for the flat --cross-instance-efficiency");
  }
  const InstanceLinkEntry* entry = links.find(instance_type);
  if (entry == nullptr) {
    throw InputError(where + ": instance type '" + instance_type + "' of " + holder + " is not in the link table " +
                     links.path +
                     "; add it to a copy of that table and pass it with --links (format in "
                     "docs/step-time.md#data-parallel), or drop the job's params for the flat "
                     "--cross-instance-efficiency");
  }
  if (entry->links.gpus_per_instance != std::max(1, gpus_per_instance)) {
    throw InputError(where + ": the link table " + links.path + " gives " + instance_type + " " +
                     std::to_string(entry->links.gpus_per_instance) + " GPU(s) per instance, " + holder + " " +
                     std::to_string(std::max(1, gpus_per_instance)));
  }
  return entry->links;
}

double shape_efficiency(const CampaignJob& job, int gpus, const std::string& instance_type, int gpus_per_instance,
                        const InstanceLinkTable& links, const std::string& holder) {
  if (!job.training.stated()) return 1.0;
  const int per_instance = std::max(1, gpus_per_instance);
  return data_parallel_efficiency(job.training, gpus, (gpus + per_instance - 1) / per_instance,
                                  job_links(job, links, instance_type, gpus_per_instance, holder));
}

std::string zone_holder(const Zone& zone, const SpotMarket& market) {
  return "zone '" + zone.name + "' of trace '" + market.name + "'";
}

void model_campaign_communication(std::vector<CampaignJob>& jobs, const SpotMarket& market,
                                  const InstanceLinkTable& links) {
  for (CampaignJob& job : jobs) {
    if (!job.training.stated()) continue;
    std::vector<int> zones = job.zones;
    if (zones.empty()) {
      for (std::size_t z = 0; z < market.zones.size(); ++z) zones.push_back(static_cast<int>(z));
    }
    const int gpus = campaign_job_gpus(job, market);
    CampaignJob slowest = job;
    for (const int z : zones) {
      const Zone& zone = market.zones[static_cast<std::size_t>(z)];
      CampaignJob candidate = job;
      model_job_communication(
          candidate, gpus, job.job.nodes,
          job_links(job, links, zone.instance_type, zone.gpus_per_instance, zone_holder(zone, market)));
      if (std::isnan(slowest.scaling_efficiency) || candidate.scaling_efficiency < slowest.scaling_efficiency) {
        slowest = std::move(candidate);
      }
    }
    job = std::move(slowest);
  }
}

CommunicationSummary communication_summary(const std::vector<CampaignJob>& jobs) {
  CommunicationSummary out;
  for (const CampaignJob& job : jobs) {
    if (!job.training.stated() || std::isnan(job.scaling_efficiency)) continue;
    ++out.modelled;
    out.lowest = std::isnan(out.lowest) ? job.scaling_efficiency : std::min(out.lowest, job.scaling_efficiency);
    out.highest = std::isnan(out.highest) ? job.scaling_efficiency : std::max(out.highest, job.scaling_efficiency);
  }
  return out;
}

}  // namespace spotsim
