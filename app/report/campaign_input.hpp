#pragma once
// The parts of a `campaign --format json` output (docs/campaign.md#outputs) beyond the summary rows that the report
// draws: each row's per-job finish times, and the break-even against the managed services.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/report/report_input.hpp"

namespace spotsim {

// A row's "jobs" array ({"name", "finish_hours": {mean, ci_low, ci_high}, "completed_share", optionally
// "arrival_hours"}); empty when the row has none. InputError naming `path` and the field when it is malformed.
std::vector<JobFinish> read_campaign_jobs(const nlohmann::json& row, const std::string& path);

// The output's "break_even" object, or nullopt when the campaign ran without --engineering-cost.
std::optional<CampaignBreakEven> read_campaign_break_even(const nlohmann::json& doc, const std::string& path);

}  // namespace spotsim
