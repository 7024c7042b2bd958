#pragma once
// Many replications of a campaign on a pool of threads, and their summary. Replication r always uses the streams
// keyed by r and lands at index r (or is handed over r-th): the output is bit-identical for any number of threads.
#include <functional>
#include <vector>

#include "engine/campaign/campaign_result.hpp"
#include "engine/campaign/campaign_summary.hpp"
#include "engine/replication_runner.hpp"
#include "model/campaign_spec.hpp"

namespace spotsim {

// plan.progress, when given, counts jobs: replications x spec.jobs.size() in all. Every run carries its jobs' own
// RunResults (job_runs).
std::vector<CampaignRun> run_campaign(const SpotMarket& market, const CampaignSpec& spec,
                                      const PolicyFactories& policies, const ReplicationPlan& plan,
                                      TraceStart start = {});

// The same replications handed to `in_order` one by one in replication order (from whichever worker thread
// completes the next one, never two at once), so that memory does not grow with the replications: at most a few
// runs per thread wait for an earlier one. keep_job_runs = false leaves CampaignRun::job_runs empty.
using CampaignRunSink = std::function<void(CampaignRun&&)>;
void run_campaign(const SpotMarket& market, const CampaignSpec& spec, const PolicyFactories& policies,
                  const ReplicationPlan& plan, TraceStart start, bool keep_job_runs, const CampaignRunSink& in_order);

}  // namespace spotsim
