#include "experiments/advise/advisor.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "experiments/advise/offer_scenario.hpp"
#include "policies/policy_registry.hpp"
#include "sim/errors.hpp"
#include "sim/replication_runner.hpp"
#include "sim/statistics.hpp"
#include "sim/steptime/gpu_spec_table.hpp"
#include "spotsim/version.hpp"
#include "sim/text_format.hpp"

namespace spotsim {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool matches_any(const std::vector<std::string>& wanted, const std::vector<std::string>& values) {
  if (wanted.empty()) return true;
  for (const std::string& w : wanted) {
    for (const std::string& v : values) {
      if (!v.empty() && lower(w) == lower(v)) return true;
    }
  }
  return false;
}

bool passes_filter(const GpuOffer& offer, const OfferFilter& filter) {
  std::vector<std::string> gpus;
  // A family name means all its members ("A100": the 40 GB and 80 GB parts); a name the spec table does not
  // know (a catalogue-only GPU such as A10G) is compared as given.
  for (const std::string& g : filter.gpus) {
    const auto family = gpus_of_family(g);
    if (family.empty()) gpus.push_back(g);
    for (const GpuSpec* spec : family) gpus.push_back(spec->name);
  }
  return matches_any(filter.clouds, {offer.cloud}) && matches_any(gpus, {offer.gpu}) &&
         matches_any(filter.regions, {offer.region, offer.zone});
}

AdviceMetrics metrics_of(const std::vector<RunResult>& runs) {
  std::vector<double> cost, hours, deadline, completed, preemptions;
  for (const RunResult& r : runs) {
    cost.push_back(r.cost_total);
    hours.push_back(r.completion_hours);
    deadline.push_back(r.deadline_met ? 1.0 : 0.0);
    completed.push_back(r.completed ? 1.0 : 0.0);
    preemptions.push_back(r.preemptions);
  }
  const Summary c = summarize(cost);
  const Summary h = summarize(hours);
  AdviceMetrics m{c.mean, c.p95, h.mean, h.p95, summarize(deadline).mean, summarize(completed).mean,
                  summarize(preemptions).mean};
  CheckpointIntervalUse spot, on_demand;
  for (const RunResult& r : runs) {
    spot.count += r.checkpoint_interval_spot.count;
    spot.sum_hours += r.checkpoint_interval_spot.sum_hours;
    on_demand.count += r.checkpoint_interval_on_demand.count;
    on_demand.sum_hours += r.checkpoint_interval_on_demand.sum_hours;
  }
  m.checkpoint_interval_spot_hours = spot.mean_hours();
  m.checkpoint_interval_on_demand_hours = on_demand.mean_hours();
  return m;
}

std::string hours_text(double h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f h", h);
  return buf;
}

std::string describe(const AdviceRow& row) {
  return row.policy + " on " + std::to_string(row.instances) + "x " + row.offer.instance_type + " (" + row.offer.gpu +
         ", " + row.offer.cloud + " " + (row.offer.zone.empty() ? row.offer.region : row.offer.zone) + ")";
}

std::string recommendation_of(const std::vector<AdviceRow>& rows) {
  if (rows.empty() || rows.front().ranked.rank != 1) {
    return "No offer passes the filters" +
           (rows.empty() ? std::string(".") : "; the closest is " + describe(rows.front()) + ": " + rows.front().ranked.excluded_because + ".");
  }
  const AdviceRow& best = rows.front();
  std::string line = "Recommended: " + describe(best) + ": expected " + format_usd(best.metrics.mean_cost) + " (p95 " +
                     format_usd(best.metrics.p95_cost) + "), " + hours_text(best.metrics.mean_hours) + " (p95 " +
                     hours_text(best.metrics.p95_hours) + ")";
  // The fastest Pareto-optimal row is the other end of the trade-off.
  const AdviceRow* fastest = nullptr;
  for (const AdviceRow& row : rows) {
    if (row.ranked.pareto && (fastest == nullptr || row.metrics.mean_hours < fastest->metrics.mean_hours)) fastest = &row;
  }
  if (fastest != nullptr && fastest != &best) {
    line += "; fastest on the Pareto front: " + describe(*fastest) + ", " + format_usd(fastest->metrics.mean_cost) + ", " +
            hours_text(fastest->metrics.mean_hours);
  }
  return line + ".";
}

nlohmann::json manifest_of(const AdviceRequest& request) {
  const AdviseJob& job = request.job;
  nlohmann::json j = {
      {"tool", "spotsim"},
      {"version", kVersion},
      {"git_revision", kGitRevision},
      {"command", "advise"},
      {"catalogue", request.catalogue.path},
      {"spot_price_history", request.price_histories.path.empty() ? nlohmann::json(nullptr)
                                                                  : nlohmann::json(request.price_histories.path)},
      {"policies", request.policies},
      {"checkpoint", request.checkpoint},
      {"seed", request.seed},
      {"replications", request.replications},
      {"cross_instance_efficiency", request.cross_instance_efficiency},
      {"filters",
       {{"cloud", request.filter.clouds}, {"gpu", request.filter.gpus}, {"region", request.filter.regions},
        {"allow_idle_gpus", request.filter.allow_idle_gpus}}},
  };
  nlohmann::json& jj = j["job"];
  jj = {{"file", job.file}, {"name", job.name}, {"steps", job.steps}, {"gpus", job.gpus},
        {"checkpoint_write_s", to_seconds(job.base.checkpoint_write)}, {"restore_s", to_seconds(job.base.restore)},
        {"startup_s", to_seconds(job.base.startup)}};
  jj["deadline_hours"] = job.base.deadline == kNever ? nlohmann::json(nullptr) : nlohmann::json(to_hours(job.base.deadline));
  if (!job.step_time_s_by_gpu.empty()) jj["step_time_s_by_gpu"] = job.step_time_s_by_gpu;
  if (!job.measured_gpu.empty()) {
    jj["measured_gpu"] = job.measured_gpu;
    jj["measured_step_time_s"] = job.measured_step_time_s;
    jj["matrix_fraction"] = job.matrix_fraction;
    jj["precision"] = to_string(job.precision);
  }
  if (job.checkpoint_size_gb) jj["checkpoint_size_gb"] = *job.checkpoint_size_gb;
  nlohmann::json& criteria = j["criteria"];
  criteria = nlohmann::json::object();
  if (request.criteria.max_hours) criteria["max_hours_p95"] = *request.criteria.max_hours;
  if (request.criteria.budget) criteria["budget_usd_p95"] = *request.criteria.budget;
  if (request.criteria.min_deadline_probability) criteria["min_deadline_probability"] = *request.criteria.min_deadline_probability;
  return j;
}

}  // namespace

AdviceReport run_advice(const AdviceRequest& request) {
  if (request.policies.empty()) throw InputError("--policies: expected at least one selection policy");
  if (!(request.cross_instance_efficiency > 0.0 && request.cross_instance_efficiency <= 1.0)) {
    throw InputError("--cross-instance-efficiency: expected a number in (0, 1]");
  }
  const PolicyRegistry registry = policy_registry();
  std::vector<PolicyFactories> factories;
  for (const std::string& policy : request.policies) {
    factories.push_back({registry.selection_factory(policy), registry.checkpoint_factory(request.checkpoint)});
  }

  AdviceReport report;
  report.manifest = manifest_of(request);
  std::vector<AdviceRow> rows;
  bool any_offer_matched = false;
  const std::uint64_t per_offer = request.replications * request.policies.size();
  if (request.progress) {
    request.progress->total = per_offer * static_cast<std::uint64_t>(std::count_if(
        request.catalogue.offers.begin(), request.catalogue.offers.end(),
        [&](const GpuOffer& offer) { return passes_filter(offer, request.filter); }));
  }
  const auto skip = [&](const GpuOffer& offer, std::string reason) {
    report.skipped.push_back({offer, std::move(reason)});
    if (request.progress) request.progress->done += per_offer;
  };
  for (const GpuOffer& offer : request.catalogue.offers) {
    if (!passes_filter(offer, request.filter)) continue;
    any_offer_matched = true;
    const OfferShape shape = offer_shape(request.job.gpus, offer.gpus_per_instance);
    if (shape.idle_gpus > 0 && !request.filter.allow_idle_gpus) {
      skip(offer, "would leave " + std::to_string(shape.idle_gpus) + " GPU(s) idle (--allow-idle-gpus)");
      continue;
    }
    const StepTimeOnGpu step = step_time_on(request.job, offer.gpu);
    if (!step.seconds) {
      skip(offer, offer.gpu + ": " + step.origin);
      continue;
    }
    const PreemptionSource& source = request.catalogue.source_of(offer);
    const SpotPriceHistory* history = request.price_histories.find(offer);
    const SpotMarket market = offer_market(offer, source, shape.instances, history);
    const JobSpec job = offer_job(request.job.base, request.job.steps, *step.seconds, shape,
                                  request.cross_instance_efficiency, request.job.file);
    const Scenario scenario(market, job);
    for (std::size_t p = 0; p < request.policies.size(); ++p) {
      const auto runs = run_replications(scenario, factories[p],
                                         ReplicationPlan{request.seed, 0, request.replications, request.threads, request.progress});
      AdviceRow row;
      row.offer = offer;
      row.preemption_basis = source.basis;
      row.preemption_origin = source.origin;
      row.policy = request.policies[p];
      row.spot_price_source = history ? history->label() : "catalogue";
      row.instances = shape.instances;
      row.idle_gpus = shape.idle_gpus;
      row.step_time_s = *step.seconds;
      row.step_time_origin = step.origin;
      row.work_hours = to_hours(job.work);
      row.metrics = metrics_of(runs);
      rows.push_back(std::move(row));
    }
  }
  if (!any_offer_matched) throw InputError("--cloud/--gpu/--region: no offer of " + request.catalogue.path + " matches the filters");

  std::vector<AdviceMetrics> metrics;
  for (const AdviceRow& row : rows) metrics.push_back(row.metrics);
  const Ranking ranking = rank_rows(metrics, request.criteria);
  for (std::size_t i : ranking.order) {
    report.rows.push_back(std::move(rows[i]));
    report.rows.back().ranked = ranking.entries[i];
  }
  report.recommendation = recommendation_of(report.rows);
  return report;
}

}  // namespace spotsim
