#pragma once
// The parts of a `campaign --format json` output (docs/campaign.md#outputs) beyond the summary rows that the report
// draws: each row's per-job finish times and results by job size, the break-even against the managed services and
// the savings against what the team pays today.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/report/report_input.hpp"

namespace spotsim {

// A row's "jobs" array ({"name", "finish_hours": {mean, ci_low, ci_high}, "completed_share", optionally
// "arrival_hours"}); empty when the row has none. InputError naming `path` and the field when it is malformed.
std::vector<JobFinish> read_campaign_jobs(const nlohmann::json& row, const std::string& path);

// A row's "by_job_size" array; empty when the row has none (trials, managed rows). InputError when malformed.
std::vector<JobSizeGroup> read_campaign_job_sizes(const nlohmann::json& row, const std::string& path);

// The output's "savings" object, or nullopt when the campaign ran without --current-spend.
std::optional<CampaignSavings> read_campaign_savings(const nlohmann::json& doc, const std::string& path);

// The output's "break_even" object, or nullopt when the campaign ran without --engineering-cost.
std::optional<CampaignBreakEven> read_campaign_break_even(const nlohmann::json& doc, const std::string& path);

}  // namespace spotsim
