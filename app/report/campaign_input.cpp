#include "app/report/campaign_input.hpp"

#include "base/errors.hpp"

namespace spotsim {

namespace {

double number_or_nan(const nlohmann::json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_number() ? object[key].get<double>() : NAN;
}

[[noreturn]] void malformed(const std::string& path, const std::string& field, const char* expected) {
  throw InputError(path + ": field '" + field + "': expected " + expected + " (a `campaign --format json` output)");
}

}  // namespace

std::vector<JobFinish> read_campaign_jobs(const nlohmann::json& row, const std::string& path) {
  std::vector<JobFinish> jobs;
  if (!row.contains("jobs")) return jobs;
  if (!row["jobs"].is_array()) malformed(path, "policies[].jobs", "an array of jobs");
  for (const nlohmann::json& j : row["jobs"]) {
    if (!j.is_object() || !j.contains("finish_hours") || !j["finish_hours"].is_object())
      malformed(path, "policies[].jobs[].finish_hours", "an object {mean, ci_low, ci_high}");
    JobFinish f;
    f.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "";
    const nlohmann::json& finish = j["finish_hours"];
    // A job no replication finished has null statistics: left absent, like a metric no run produced.
    f.finish = {number_or_nan(finish, "mean"), number_or_nan(finish, "ci_low"), number_or_nan(finish, "ci_high")};
    f.arrival_hours = number_or_nan(j, "arrival_hours");
    f.completed_share = number_or_nan(j, "completed_share");
    jobs.push_back(std::move(f));
  }
  return jobs;
}

std::optional<CampaignBreakEven> read_campaign_break_even(const nlohmann::json& doc, const std::string& path) {
  if (!doc.contains("break_even") || doc["break_even"].is_null()) return std::nullopt;
  const nlohmann::json& b = doc["break_even"];
  if (!b.is_object() || !b.contains("policies") || !b["policies"].is_array())
    malformed(path, "break_even.policies", "an array");
  CampaignBreakEven out;
  out.engineering_per_month = number_or_nan(b, "engineering_per_month");
  out.managed = b.contains("managed") && b["managed"].is_string() ? b["managed"].get<std::string>() : "";
  out.managed_cost = number_or_nan(b, "managed_cost");
  if (!(out.engineering_per_month >= 0.0)) malformed(path, "break_even.engineering_per_month", "a number >= 0");
  for (const nlohmann::json& p : b["policies"]) {
    if (!p.is_object() || !p.contains("policy") || !p["policy"].is_string())
      malformed(path, "break_even.policies[].policy", "a policy name");
    CampaignBreakEven::Policy policy;
    policy.policy = p["policy"].get<std::string>();
    policy.saving_fraction = number_or_nan(p, "saving_fraction");
    if (!std::isfinite(policy.saving_fraction))
      malformed(path, "break_even.policies[].saving_fraction", "a finite number");
    const double spend = number_or_nan(p, "break_even_monthly_spend");
    if (std::isfinite(spend) && spend >= 0.0) policy.monthly_spend = spend;
    out.policies.push_back(std::move(policy));
  }
  return out;
}

}  // namespace spotsim
