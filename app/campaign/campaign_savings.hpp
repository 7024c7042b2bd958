#pragma once
// "What do we save against what we pay today?" (docs/campaign.md#savings): every DIY row against a chosen baseline
// row (--baseline, e.g. the managed service the team uses) at the team's current monthly spend on it
// (--current-spend). With the baseline's campaign cost B and a policy's D, DIY saves the fraction s = 1 - D/B of the
// spend S: s*S a month, net of the engineering cost E when given, and it pays while E < s*S.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/campaign/campaign_options.hpp"

namespace spotsim {

// --current-spend: "12000/month" or "12000" (per month), a positive amount in USD; InputError naming the option.
double parse_current_spend(const std::string& text);

// --baseline TEXT -> the one row label it names: the label itself (any case), else the only label containing every
// word of TEXT ("vertex on-demand" names "vertex-ai on-demand a3-highgpu-8g"). InputError listing the labels when
// none or several match.
std::string resolve_baseline(const std::string& text, const std::vector<std::string>& labels);

// The JSON "savings" object: {"baseline", "baseline_cost", "current_spend_per_month", "engineering_per_month"
// (null when not given), "policies": [{"policy", "saving_fraction", "gross_saving_per_month" (s*S),
// "net_saving_per_month" (s*S - E), "engineering_limit_per_month" (s*S; null when s <= 0: never pays)}]} over the DIY
// rows but the baseline. `baseline` is one of `rows` with a positive cost (comparison_row,
// app/campaign/campaign_json.hpp).
nlohmann::json campaign_savings_json(const std::vector<CampaignRow>& rows, const CampaignRow& baseline,
                                     double current_spend, std::optional<double> engineering_per_month);

// The table's lines for that object, one sentence per policy.
std::string campaign_savings_text(const nlohmann::json& savings);

}  // namespace spotsim
