#pragma once
// A campaign's jobs from a CSV file (docs/campaign.md#job-stream): one job per line after a header naming the
// columns, in any order. `work` is required; the rest are optional:
//   name, arrival (after the campaign's start), work, gpus or nodes, priority (higher first), deadline (after the
//   job's arrival), score (a trial's quality, higher is better), checkpoint_size (e.g. 20GB), min_nodes,
//   instance_type, and the training for the step-time model's communication cost: params with step_time (one step
//   on one GPU), gradient_bytes, overlap
// Durations take a unit (90s, 30m, 6h, 1.5d). Unknown columns, a missing `work`, bad values: InputError naming
// file:line and the column.
#include <string>
#include <vector>

#include "model/campaign_spec.hpp"

namespace spotsim {

// `defaults` supplies what the file does not set (start-up, restore, checkpoint write, nodes).
std::vector<CampaignJob> read_job_stream_csv(const std::string& path, const JobSpec& defaults);
// The same from the file's text; `where` names it in messages (spotsim.campaign(jobs=rows) passes "jobs").
std::vector<CampaignJob> read_job_stream_text(std::string text, const std::string& where, const JobSpec& defaults);

// K trials of a hyperparameter sweep arriving together, named trial-1..K, with work spread evenly from `shortest`
// to `longest` (equal when K = 1 or both agree).
std::vector<CampaignJob> sweep_trials(int count, Millis shortest, Millis longest, const JobSpec& defaults);

}  // namespace spotsim
