#pragma once
// `spotsim campaign --format json` (docs/campaign.md#outputs), written by the CLI and by spotsim.campaign()'s
// to_json(): the campaign's settings, then one object per row (policy or managed offer).
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "app/campaign/campaign_options.hpp"

namespace spotsim {

// Everything but the rows, with "policies" an empty array for campaign_row_json's objects.
nlohmann::json campaign_header_json(const SpotMarket& market, const std::string& capacity, const CampaignSpec& spec,
                                    const std::string& checkpoint, const ReplicationPlan& plan);

nlohmann::json campaign_row_json(const CampaignRow& row, const CampaignSpec& spec);

// The break-even of every DIY row against the cheapest managed row at `engineering_per_month` USD
// (docs/managed.md#break-even): the JSON "break_even" object, {"engineering_per_month", "managed", "managed_cost",
// "policies": [{"policy", "saving_fraction", "break_even_monthly_spend" (null: never)}]}. InputError when no row is
// managed.
nlohmann::json campaign_break_even_json(const std::vector<CampaignRow>& rows, double engineering_per_month);

}  // namespace spotsim
