#pragma once
// The campaign's options as text -> the campaign, shared by `spotsim campaign` (cli/campaign_command.cpp) and
// spotsim.campaign() (python/campaign_bindings.cpp), so both accept the same values with the same messages,
// and the managed services' rows beside DIY (docs/campaign.md#managed-services-beside-diy).
#include <string>
#include <utility>
#include <vector>

#include "engine/campaign/campaign_runner.hpp"
#include "model/campaign_spec.hpp"
#include "policies/policy_registry.hpp"
#include "steptime/instance_links.hpp"

namespace spotsim {

SchedulingRule parse_scheduling(const std::string& text);  // --schedule
ReclaimRule parse_reclaim(const std::string& text);        // --reclaim
EarlyStopping parse_halving(const std::string& text);      // --halving: none or ETA:MIN (3:1/9)

// --capacity: "recorded" keeps the trace's counts; "unbounded" makes any count >= 1 one no campaign can exhaust
// (the one-job view of availability). InputError for anything else.
void apply_capacity(SpotMarket& market, const std::string& capacity);

// The capacity a campaign actually ran under: "recorded" only where the trace records spot counts (a lifetime
// model's zones bound nothing, so "recorded" there, or a "capacity used" share, would read as a measurement);
// otherwise "unbounded". The one rule behind the table's header and column and the JSON's "capacity".
bool capacity_bounded(const SpotMarket& market, const std::string& capacity);
// For people: "recorded", "unbounded", or "unbounded: the trace records no counts".
std::string capacity_description(const SpotMarket& market, const std::string& capacity);

// --trial-work LO:HI (one value: all equal) -> (LO, HI), positive with LO <= HI.
std::pair<Millis, Millis> parse_trial_work(const std::string& text);

// Jobs that state neither gpus nor nodes get `default_gpus`; then every job's zones (its shape) and instances there,
// and the scaling efficiency there of the jobs stating their training, with the link table `links` (read only for
// them: an empty table serves a campaign without any; docs/campaign.md#communication).
void resolve_campaign_jobs(std::vector<CampaignJob>& jobs, const SpotMarket& market, int default_gpus,
                           const InstanceLinkTable& links = {});

// One row of the campaign's table: a selection policy on the shared market, or a managed offer.
struct CampaignRow {
  std::string label;
  bool managed = false;
  std::vector<CampaignRun> runs;
  CampaignSummary summary;
  // Per job, the scaling efficiency its work was divided by on this row's layout (campaign_job_efficiency: the
  // step-time model's where the job states its training, else the flat rule; 1 for none).
  std::vector<double> job_efficiency;
};

// The campaign under one selection policy (and the checkpoint policy `checkpoint`). keep_runs = false drops the
// runs once summarized (the CLI needs only the summary; a Python result keeps them).
CampaignRow run_policy_campaign(const SpotMarket& market, const CampaignSpec& spec, const PolicyRegistry& registry,
                                const std::string& policy, const std::string& checkpoint, const ReplicationPlan& plan,
                                bool keep_runs);

// A row per managed training service, mode and region of `catalogue` (a shipped name or a file) on the trace's GPU:
// each job on its own, on the smallest of the service's instance shapes that holds it (instances of a smaller one
// where the catalogue has no shape that size and they cost less), with the service's billing and behaviour, same seeds;
// no shared capacity, no budget cap. A job stating its training pays the step-time model's communication on the
// shape it rents, with that hardware's entry in `links` (docs/campaign.md#communication).
std::vector<CampaignRow> managed_campaign_rows(const SpotMarket& market, const CampaignSpec& spec,
                                               const std::string& catalogue, const InstanceLinkTable& links,
                                               const PolicyRegistry& registry, const std::string& checkpoint,
                                               const ReplicationPlan& plan, bool keep_runs);

// The labels of the rows managed_campaign_rows would add, without running them (to check --baseline first).
std::vector<std::string> managed_row_labels(const SpotMarket& market, const std::string& catalogue);

// InputError when a recording is too short for the campaign without replaying it (docs/campaign.md#inputs): when
// some job's arrival + work, the earliest it could end, lies beyond the trace's span. A lifetime model (no span)
// always fits.
void check_campaign_fits_trace(const SpotMarket& market, const CampaignSpec& spec);

}  // namespace spotsim
