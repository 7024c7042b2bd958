#pragma once
// `spotsim campaign --format json` (docs/campaign.md#outputs), written by the CLI and by spotsim.campaign()'s
// to_json(): the campaign's settings, then one object per row (policy or managed offer).
#include <nlohmann/json.hpp>
#include <string>

#include "experiments/campaign/campaign_options.hpp"

namespace spotsim {

// Everything but the rows, with "policies" an empty array for campaign_row_json's objects.
nlohmann::json campaign_header_json(const SpotMarket& market, const std::string& capacity, const CampaignSpec& spec,
                                    const std::string& checkpoint, const ReplicationPlan& plan);

nlohmann::json campaign_row_json(const CampaignRow& row, const CampaignSpec& spec);

}  // namespace spotsim
