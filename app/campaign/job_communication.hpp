#pragma once
// The step-time model's communication cost for the campaign jobs that state their training (job stream columns
// params and step_time, docs/campaign.md#communication): the data-parallel step of docs/step-time.md#data-parallel
// on the instance type and count each job runs on, in place of the flat --cross-instance-efficiency.
#include <cmath>
#include <string>
#include <vector>

#include "model/campaign_spec.hpp"
#include "model/market/spot_market.hpp"
#include "steptime/instance_links.hpp"

namespace spotsim {

// One-GPU compute / the step of `training` on `gpus` GPUs laid out on `instances` instances of `links` (a job that
// fits on one instance all-reduces over min(gpus, its GPUs) of them): 1 on one GPU, below 1 where the all-reduce
// outlasts what the backward pass hides.
double data_parallel_efficiency(const DataParallelTraining& training, int gpus, int instances,
                                const InstanceLinks& links);

// Sets job.scaling_efficiency for `gpus` GPUs on `instances` instances of `links`, and an elastic job's
// step_time_s_by_nodes (k = 1..instances instances, per-instance batch fixed); nothing for a job that does not
// state its training.
void model_job_communication(CampaignJob& job, int gpus, int instances, const InstanceLinks& links);

// The jobs' GPUs: as stated, else instances x the GPUs per instance of their zones.
int campaign_job_gpus(const CampaignJob& job, const SpotMarket& market);

// The DIY rows: model_job_communication for every job stating its training, on its zones' instance type (the lowest
// efficiency where its zones hold several). InputError naming the job, the zone and the table where a zone has no
// instance type, the table lacks it, or the table's GPUs per instance differ from the zone's. The table is read only
// when a job states its training.
void model_campaign_communication(std::vector<CampaignJob>& jobs, const SpotMarket& market,
                                  const InstanceLinkTable& links);

// The links of `instance_type` with `gpus_per_instance` GPUs for `job`; InputError naming the job, `holder` (what
// offers the type: "zone 'us-east4-a' of trace 'x'", "managed offer '...'") and the table where the type is empty,
// missing from the table, or listed with another number of GPUs.
const InstanceLinks& job_links(const CampaignJob& job, const InstanceLinkTable& links, const std::string& instance_type,
                               int gpus_per_instance, const std::string& holder);

// The job's scaling efficiency on ceil(gpus / GPUs per instance) instances of `instance_type` (1 for a job that
// does not state its training): what the choice of a shape divides its price by (docs/campaign.md#instance-types).
double shape_efficiency(const CampaignJob& job, int gpus, const std::string& instance_type, int gpus_per_instance,
                        const InstanceLinkTable& links, const std::string& holder);

std::string zone_holder(const Zone& zone, const SpotMarket& market);  // "zone 'a' of trace 'b'"

// How many jobs state their training, and the lowest and highest efficiency they got (NaN when none).
struct CommunicationSummary {
  std::size_t modelled = 0;
  double lowest = NAN;
  double highest = NAN;
};
CommunicationSummary communication_summary(const std::vector<CampaignJob>& jobs);

}  // namespace spotsim
