#pragma once
// `spotsim campaign --format json` (docs/campaign.md#outputs), written by the CLI and by spotsim.campaign()'s
// to_json(): the campaign's settings, then one object per row (policy or managed offer).
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "app/campaign/campaign_options.hpp"
#include "app/campaign/campaign_request_options.hpp"

namespace spotsim {

// Everything but the rows, with "policies" an empty array for campaign_row_json's objects.
// "communication_modelled_jobs": the jobs whose communication the step-time model priced, with "links" the table
// it read (null when none).
nlohmann::json campaign_header_json(const CampaignRequest& request);

// by_job_size (a job stream): each job's turnaround, slowdown, cost and deadline share, and "by_job_size", the jobs
// grouped by size (docs/campaign.md#by-job-size). capacity_bounded (capacity_bounded()): without it, and on managed
// rows, "capacity_utilisation" is null (nothing was shared, so nothing was used up).
nlohmann::json campaign_row_json(const CampaignRow& row, const CampaignSpec& spec, bool by_job_size,
                                 bool capacity_bounded);

// The row the break-even and the savings compare with: the row labelled `baseline` (--baseline, resolved) when given,
// else the cheapest managed row. InputError naming `option` when there is none, or when it costs nothing.
const CampaignRow& comparison_row(const std::vector<CampaignRow>& rows, const std::optional<std::string>& baseline,
                                  const std::string& option);

// The break-even of every DIY row against the comparison row at `engineering_per_month` USD
// (docs/managed.md#break-even): the JSON "break_even" object, {"engineering_per_month", "managed" (the row compared
// with), "managed_cost", "policies": [{"policy", "saving_fraction", "break_even_monthly_spend" (null: never)}]}.
nlohmann::json campaign_break_even_json(const std::vector<CampaignRow>& rows, double engineering_per_month,
                                        const std::optional<std::string>& baseline = std::nullopt);

}  // namespace spotsim
