#include "app/campaign/campaign_savings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/advise/break_even.hpp"
#include "base/errors.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// $12,345 (whole dollars with thousands separators: a monthly figure read by a person, not a price).
std::string dollars(double usd) {
  const std::string digits = format_fixed(std::abs(usd), 0);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (usd < 0 && digits != "0" ? "-$" : "$") + out;
}

}  // namespace

double parse_current_spend(const std::string& text) {
  try {  // the same amounts as --engineering-cost, under this option's name
    return parse_engineering_cost(text);
  } catch (const InputError&) {
    throw InputError(
        "--current-spend: expected a monthly amount in USD such as 12000/month or 12000 (per month), got '" + text +
        "'");
  }
}

std::string resolve_baseline(const std::string& text, const std::vector<std::string>& labels) {
  const std::string wanted = lower(text);
  for (const std::string& label : labels) {
    if (lower(label) == wanted) return label;
  }
  std::vector<std::string> words;
  std::istringstream in(wanted);
  for (std::string word; in >> word;) words.push_back(word);
  std::vector<std::string> matches;
  for (const std::string& label : labels) {
    const std::string l = lower(label);
    if (!words.empty() &&
        std::all_of(words.begin(), words.end(), [&](const std::string& w) { return l.find(w) != std::string::npos; })) {
      matches.push_back(label);
    }
  }
  if (matches.size() == 1) return matches.front();
  std::string listed;
  for (const std::string& label : labels) listed += (listed.empty() ? "'" : ", '") + label + "'";
  throw InputError("--baseline '" + text + "': " + (matches.empty() ? "names no row" : "names several rows") +
                   "; expected one of the rows " + listed + " (or words of one, such as 'vertex on-demand')");
}

nlohmann::json campaign_savings_json(const std::vector<CampaignRow>& rows, const CampaignRow& baseline,
                                     double current_spend, std::optional<double> engineering_per_month) {
  const double baseline_cost = baseline.summary.cost_total.mean;
  const double engineering = engineering_per_month.value_or(0.0);
  nlohmann::json policies = nlohmann::json::array();
  for (const CampaignRow& row : rows) {
    if (row.managed || &row == &baseline) continue;
    const BreakEven b = break_even(engineering, row.summary.cost_total.mean, baseline_cost);
    const double gross = b.saving_fraction * current_spend;
    policies.push_back({{"policy", row.label},
                        {"saving_fraction", b.saving_fraction},
                        {"gross_saving_per_month", gross},
                        {"net_saving_per_month", gross - engineering},
                        {"engineering_limit_per_month", gross > 0.0 ? nlohmann::json(gross) : nlohmann::json()}});
  }
  return {{"baseline", baseline.label},
          {"baseline_cost", baseline_cost},
          {"current_spend_per_month", current_spend},
          {"engineering_per_month", engineering_per_month ? nlohmann::json(*engineering_per_month) : nlohmann::json()},
          {"policies", policies}};
}

std::string campaign_savings_text(const nlohmann::json& savings) {
  const std::string baseline = savings["baseline"].get<std::string>();
  const double spend = savings["current_spend_per_month"].get<double>();
  const bool net = !savings["engineering_per_month"].is_null();
  std::ostringstream out;
  out << "against what you pay today: " << dollars(spend) << "/month on " << baseline << " ("
      << dollars(savings["baseline_cost"].get<double>()) << " per campaign)"
      << (net ? ", engineering " + dollars(savings["engineering_per_month"].get<double>()) + "/month" : std::string())
      << ":\n";
  for (const nlohmann::json& p : savings["policies"]) {
    const double fraction = p["saving_fraction"].get<double>();
    const std::string share = format_fixed(100.0 * std::abs(fraction), 1) + "% of " + dollars(spend);
    if (p["engineering_limit_per_month"].is_null()) {
      out << "  DIY with " << p["policy"].get<std::string>() << " costs "
          << dollars(-p["gross_saving_per_month"].get<double>()) << " a month more than " << baseline << " (" << share
          << "); it never pays\n";
      continue;
    }
    out << "  DIY with " << p["policy"].get<std::string>() << " saves "
        << dollars(p[net ? "net_saving_per_month" : "gross_saving_per_month"].get<double>()) << " a month against "
        << baseline << " (" << share << (net ? ", net of engineering" : "")
        << "); it pays while engineering costs less than " << dollars(p["engineering_limit_per_month"].get<double>())
        << " a month\n";
  }
  return out.str();
}

}  // namespace spotsim
