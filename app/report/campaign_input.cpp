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

std::vector<JobSizeGroup> read_campaign_job_sizes(const nlohmann::json& row, const std::string& path) {
  std::vector<JobSizeGroup> groups;
  if (!row.contains("by_job_size") || row["by_job_size"].is_null()) return groups;
  if (!row["by_job_size"].is_array()) malformed(path, "policies[].by_job_size", "an array of job sizes");
  const auto estimate = [](const nlohmann::json& g, const char* key) {
    if (!g.contains(key) || !g[key].is_object()) return Estimate{};
    return Estimate{number_or_nan(g[key], "mean"), number_or_nan(g[key], "ci_low"), number_or_nan(g[key], "ci_high")};
  };
  for (const nlohmann::json& g : row["by_job_size"]) {
    JobSizeGroup group;
    for (const char* unit : {"gpus", "instances"}) {
      if (g.is_object() && g.contains(unit) && g[unit].is_number_integer()) {
        group.unit = unit;
        group.size = g[unit].get<int>();
      }
    }
    if (group.unit.empty() || group.size < 1 || !g.contains("jobs") || !g["jobs"].is_number_integer())
      malformed(path, "policies[].by_job_size[]", "objects with a size (gpus or instances >= 1) and a count of jobs");
    group.jobs = g["jobs"].get<int>();
    group.turnaround_hours = estimate(g, "turnaround_hours");
    group.slowdown = estimate(g, "slowdown");
    group.cost_per_job = estimate(g, "cost_per_job");
    group.deadline_met = estimate(g, "p_deadline_met");
    groups.push_back(std::move(group));
  }
  return groups;
}

std::optional<CampaignSavings> read_campaign_savings(const nlohmann::json& doc, const std::string& path) {
  if (!doc.contains("savings") || doc["savings"].is_null()) return std::nullopt;
  const nlohmann::json& s = doc["savings"];
  if (!s.is_object() || !s.contains("policies") || !s["policies"].is_array())
    malformed(path, "savings.policies", "an array");
  CampaignSavings out;
  out.baseline = s.contains("baseline") && s["baseline"].is_string() ? s["baseline"].get<std::string>() : "";
  out.baseline_cost = number_or_nan(s, "baseline_cost");
  out.current_spend_per_month = number_or_nan(s, "current_spend_per_month");
  out.engineering_per_month = number_or_nan(s, "engineering_per_month");
  if (!(out.current_spend_per_month >= 0.0)) malformed(path, "savings.current_spend_per_month", "a number >= 0");
  for (const nlohmann::json& p : s["policies"]) {
    if (!p.is_object() || !p.contains("policy") || !p["policy"].is_string())
      malformed(path, "savings.policies[].policy", "a policy name");
    CampaignSavings::Policy policy;
    policy.policy = p["policy"].get<std::string>();
    policy.saving_fraction = number_or_nan(p, "saving_fraction");
    policy.net_saving_per_month = number_or_nan(p, "net_saving_per_month");
    policy.engineering_limit_per_month = number_or_nan(p, "engineering_limit_per_month");
    if (!std::isfinite(policy.saving_fraction) || !std::isfinite(policy.net_saving_per_month))
      malformed(path, "savings.policies[]", "finite saving_fraction and net_saving_per_month");
    out.policies.push_back(std::move(policy));
  }
  return out;
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
