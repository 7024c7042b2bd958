#include "app/campaign/campaign_json.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "app/advise/break_even.hpp"
#include "app/campaign/job_communication.hpp"
#include "app/campaign/job_size_groups.hpp"
#include "base/errors.hpp"
#include "spotsim/version.hpp"

namespace spotsim {

namespace {

template <class MeanWithInterval>  // Summary, JobFinishSummary
nlohmann::json summary_json(const MeanWithInterval& s) {
  return {{"mean", s.mean}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}};
}

}  // namespace

nlohmann::json campaign_header_json(const CampaignRequest& request) {
  const SpotMarket& market = request.market;
  const std::string& capacity = request.capacity;
  const CampaignSpec& spec = request.spec;
  const std::string& checkpoint = request.checkpoint;
  const ReplicationPlan& plan = request.plan;
  const std::size_t modelled = communication_summary(spec.jobs).modelled;
  nlohmann::json header = {
      {"format", "spotsim-campaign"},  // what `spotsim report` recognises (docs/report.md#campaigns)
      {"command", "campaign"},
      {"version", kVersion},
      {"git_revision", kGitRevision},
      {"trace", market.name},
      {"capacity", capacity_bounded(market, capacity) ? "recorded" : "unbounded"},
      {"capacity_note", capacity_description(market, capacity)},
      {"jobs", spec.jobs.size()},
      {"schedule", scheduling_rule_name(spec.scheduling)},
      {"reclaim", reclaim_rule_name(spec.reclaim)},
      {"halving_rungs", spec.early_stopping.rungs},
      {"halving_keep", spec.early_stopping.keep_fraction},
      {"checkpoint", checkpoint},
      {"cross_instance_efficiency", spec.cross_instance_efficiency},
      {"communication_modelled_jobs", modelled},
      {"links", modelled > 0 ? nlohmann::json(request.links.path) : nlohmann::json()},
      {"seed", plan.seed},
      {"replications", plan.count},
      {"budget_usd", std::isfinite(spec.budget_usd) ? nlohmann::json(spec.budget_usd) : nlohmann::json()},
      {"deadline_hours", spec.deadline == kNever ? nlohmann::json() : nlohmann::json(to_hours(spec.deadline))},
      {"policies", nlohmann::json::array()}};
  if (spec.cant_be_late_mode) {  // (absent: the event engine, as before the mode existed)
    header["mode"] = "cant-be-late";
    header["tick_hours"] = to_hours(spec.tick > 0 ? spec.tick : market.tick);
  }
  return header;
}

nlohmann::json campaign_row_json(const CampaignRow& row, const CampaignSpec& spec, bool by_job_size,
                                 bool capacity_bounded) {
  const CampaignSummary& s = row.summary;
  nlohmann::json jobs = nlohmann::json::array();
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    jobs.push_back({{"name", spec.jobs[j].name},
                    {"arrival_hours", to_hours(spec.jobs[j].arrival)},  // turnaround = finish - arrival
                    {"work_hours", to_hours(spec.jobs[j].job.work)},    // before the scaling efficiency
                    {"scaling_efficiency", row.job_efficiency.at(j)},
                    {"finish_hours", summary_json(s.job_finish_hours[j])},
                    {"completed_share", s.job_completed_share[j]},
                    {"stopped_share", s.job_stopped_share[j]}});
    if (!by_job_size) continue;
    const JobTurnaroundSummary& t = s.job_turnaround[j];
    jobs.back()["turnaround_hours"] = summary_json(t.turnaround_hours);
    jobs.back()["slowdown"] = t.slowdown;
    jobs.back()["cost"] = t.cost;
    jobs.back()["deadline_met_share"] = t.deadline_met_share;
  }
  nlohmann::json out = {{"policy", row.label},
                        {"managed", row.managed},
                        {"makespan_hours", summary_json(s.makespan_hours)},
                        {"cost_total", summary_json(s.cost_total)},
                        {"cost_spot", summary_json(s.cost_spot)},
                        {"cost_on_demand", summary_json(s.cost_on_demand)},
                        {"cost_egress", summary_json(s.cost_egress)},
                        {"cost_idle", summary_json(s.cost_idle)},
                        {"cost_lost_work", summary_json(s.cost_lost_work)},
                        {"completed", summary_json(s.completed)},
                        {"stopped_early", summary_json(s.stopped_early)},
                        {"failed", summary_json(s.failed)},
                        {"preemptions", summary_json(s.preemptions)},
                        {"capacity_reclaims", summary_json(s.capacity_reclaims)},
                        {"capacity_utilisation",
                         !row.managed && capacity_bounded ? summary_json(s.capacity_utilisation) : nlohmann::json()},
                        {"p_all_done", s.p_all_done},
                        {"p_deadline_met", s.p_deadline_met},
                        {"p_budget_exhausted", s.p_budget_exhausted},
                        {"held_by_hour", s.held_by_hour},
                        {"capacity_by_hour", s.capacity_by_hour},
                        {"jobs", jobs}};
  if (by_job_size) {
    const JobSizeGroups groups = job_size_groups(spec);
    nlohmann::json sizes = nlohmann::json::array();
    for (std::size_t g = 0; g < s.job_groups.size(); ++g) {
      const JobGroupSummary& group = s.job_groups[g];
      sizes.push_back({{groups.unit, groups.sizes.at(g)},
                       {"jobs", group.jobs},
                       {"turnaround_hours", summary_json(group.turnaround_hours)},
                       {"slowdown", summary_json(group.slowdown)},
                       {"cost_per_job", summary_json(group.cost)},
                       {"p_deadline_met", summary_json(group.deadline_met)}});
    }
    out["by_job_size"] = sizes;
  }
  return out;
}

const CampaignRow& comparison_row(const std::vector<CampaignRow>& rows, const std::optional<std::string>& baseline,
                                  const std::string& option) {
  const CampaignRow* chosen = nullptr;
  for (const CampaignRow& row : rows) {
    if (baseline ? row.label == *baseline
                 : row.managed && (chosen == nullptr || row.summary.cost_total.mean < chosen->summary.cost_total.mean))
      chosen = &row;
  }
  if (chosen == nullptr) {
    throw InputError(baseline ? option + ": no row '" + *baseline + "'"
                              : option +
                                    ": no managed offer for the trace's GPU to compare with (name one with "
                                    "--baseline, or keep --managed-catalogue)");
  }
  if (!(chosen->summary.cost_total.mean > 0.0)) {
    throw InputError(option + ": row '" + chosen->label + "' costs nothing to compare with");
  }
  return *chosen;
}

nlohmann::json campaign_break_even_json(const std::vector<CampaignRow>& rows, double engineering_per_month,
                                        const std::optional<std::string>& baseline) {
  const CampaignRow& compared = comparison_row(rows, baseline, "--engineering-cost");
  nlohmann::json policies = nlohmann::json::array();
  for (const CampaignRow& row : rows) {
    if (row.managed || &row == &compared) continue;
    const BreakEven b =
        break_even(engineering_per_month, row.summary.cost_total.mean, compared.summary.cost_total.mean);
    policies.push_back(
        {{"policy", row.label},
         {"saving_fraction", b.saving_fraction},
         {"break_even_monthly_spend", b.monthly_spend ? nlohmann::json(*b.monthly_spend) : nlohmann::json()}});
  }
  return {{"engineering_per_month", engineering_per_month},
          {"managed", compared.label},
          {"managed_cost", compared.summary.cost_total.mean},
          {"policies", policies}};
}

}  // namespace spotsim
