#include "app/advise/advisor.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "app/advise/managed_scenario.hpp"
#include "app/advise/offer_scenario.hpp"
#include "app/advise/pilot_runs.hpp"
#include "base/errors.hpp"
#include "base/statistics.hpp"
#include "base/text_format.hpp"
#include "engine/replication_runner.hpp"
#include "policies/policy_registry.hpp"
#include "spotsim/version.hpp"
#include "steptime/gpu_spec_table.hpp"

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
  AdviceMetrics m{
      c.mean, c.p95, h.mean, h.p95, summarize(deadline).mean, summarize(completed).mean, summarize(preemptions).mean};
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
    return "No offer passes the filters" + (rows.empty() ? std::string(".")
                                                         : "; the closest is " + describe(rows.front()) + ": " +
                                                               rows.front().ranked.excluded_because + ".");
  }
  const AdviceRow& best = rows.front();
  std::string line = "Recommended: " + describe(best) + ": expected " + format_usd(best.metrics.mean_cost) + " (p95 " +
                     format_usd(best.metrics.p95_cost) + "), " + hours_text(best.metrics.mean_hours) + " (p95 " +
                     hours_text(best.metrics.p95_hours) + ")";
  // The fastest Pareto-optimal row is the other end of the trade-off.
  const AdviceRow* fastest = nullptr;
  for (const AdviceRow& row : rows) {
    if (row.ranked.pareto && (fastest == nullptr || row.metrics.mean_hours < fastest->metrics.mean_hours))
      fastest = &row;
  }
  if (fastest != nullptr && fastest != &best) {
    line += "; fastest on the Pareto front: " + describe(*fastest) + ", " + format_usd(fastest->metrics.mean_cost) +
            ", " + hours_text(fastest->metrics.mean_hours);
  }
  return line + ".";
}

const AdviceRow* best_ranked(const std::vector<AdviceRow>& rows, bool managed) {
  for (const AdviceRow& row : rows) {
    if (row.ranked.rank > 0 && row.managed_service.empty() != managed) return &row;
  }
  return nullptr;
}

// Each DIY row against the best ranked managed row (rows best first), and the recommendation's break-even
// sentence with an engineering cost (docs/managed.md#break-even).
std::string compare_with_managed(AdviceReport& report) {
  const AdviceRow* managed = best_ranked(report.rows, true);
  if (managed == nullptr || !(managed->metrics.mean_cost > 0.0)) {
    return report.engineering_cost_per_month ? " Break-even: no managed offer passes the filters and criteria, so DIY "
                                               "has nothing to be compared with."
                                             : "";
  }
  report.best_managed = describe(*managed);
  const double engineering = report.engineering_cost_per_month.value_or(0.0);
  for (AdviceRow& row : report.rows) {
    if (row.managed_service.empty())
      row.versus_managed = break_even(engineering, row.metrics.mean_cost, managed->metrics.mean_cost);
  }
  if (!report.engineering_cost_per_month) return "";
  const AdviceRow* diy = best_ranked(report.rows, false);
  const std::string against =
      "the best managed row, " + report.best_managed + " at " + format_usd(managed->metrics.mean_cost);
  if (diy == nullptr) return " Break-even: no DIY row passes the filters and criteria; " + against + ".";
  const BreakEven& b = *diy->versus_managed;
  const std::string e = format_usd(engineering) + "/month of engineering";
  if (!b.monthly_spend) {
    return " Break-even: the best DIY row (" + format_usd(diy->metrics.mean_cost) + ") costs no less than " + against +
           ": with " + e + ", DIY never pays off for this job.";
  }
  return " Break-even: the best DIY row saves " + format_fixed(100.0 * b.saving_fraction, 1) + "% against " + against +
         ": with " + e + ", DIY pays off above " + format_usd(*b.monthly_spend) +
         "/month of managed spend on this workload.";
}

nlohmann::json manifest_of(const AdviceRequest& request) {
  const AdviseJob& job = request.job;
  nlohmann::json j = {
      {"tool", "spotsim"},
      {"version", kVersion},
      {"git_revision", kGitRevision},
      {"command", "advise"},
      {"catalogue", request.catalogue.path},
      {"spot_price_history",
       request.price_histories.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(request.price_histories.path)},
      {"policies", request.policies},
      {"checkpoint", request.checkpoint},
      {"seed", request.seed},
      {"replications", request.replications},
      {"cross_instance_efficiency", request.cross_instance_efficiency},
      {"filters",
       {{"cloud", request.filter.clouds},
        {"gpu", request.filter.gpus},
        {"region", request.filter.regions},
        {"allow_idle_gpus", request.filter.allow_idle_gpus}}},
  };
  nlohmann::json& jj = j["job"];
  jj = {{"file", job.file},
        {"name", job.name},
        {"steps", job.steps},
        {"gpus", job.gpus},
        {"checkpoint_write_s", to_seconds(job.base.checkpoint_write)},
        {"restore_s", to_seconds(job.base.restore)},
        {"startup_s", to_seconds(job.base.startup)}};
  jj["deadline_hours"] =
      job.base.deadline == kNever ? nlohmann::json(nullptr) : nlohmann::json(to_hours(job.base.deadline));
  if (!job.step_time_s_by_gpu.empty()) jj["step_time_s_by_gpu"] = job.step_time_s_by_gpu;
  if (!job.measured_gpu.empty()) {
    jj["measured_gpu"] = job.measured_gpu;
    jj["measured_step_time_s"] = job.measured_step_time_s;
    jj["matrix_fraction"] = job.matrix_fraction;
    jj["precision"] = to_string(job.precision);
  }
  if (job.checkpoint_size_gb) jj["checkpoint_size_gb"] = *job.checkpoint_size_gb;
  if (!request.managed.path.empty()) j["managed_catalogue"] = request.managed.path;
  if (request.engineering_cost_per_month) j["engineering_cost_per_month"] = *request.engineering_cost_per_month;
  nlohmann::json& criteria = j["criteria"];
  criteria = nlohmann::json::object();
  if (request.criteria.max_hours) criteria["max_hours_p95"] = *request.criteria.max_hours;
  if (request.criteria.budget) criteria["budget_usd_p95"] = *request.criteria.budget;
  if (request.criteria.min_deadline_probability)
    criteria["min_deadline_probability"] = *request.criteria.min_deadline_probability;
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
  report.managed_shown = !request.managed.offers.empty() || request.engineering_cost_per_month.has_value();
  report.engineering_cost_per_month = request.engineering_cost_per_month;
  std::vector<AdviceRow> rows;
  bool any_offer_matched = false;
  const std::uint64_t per_offer = request.replications * request.policies.size();
  std::vector<ManagedOffer> managed;  // those passing the filters: one row (one policy) each
  for (const ManagedOffer& offer : request.managed.offers) {
    if (passes_filter(managed_as_gpu_offer(offer), request.filter)) managed.push_back(offer);
  }
  // An offer rented on demand only runs under the on-demand policy alone (docs/advise.md#skypilot), and only when
  // --policy lists it: a comparison of spot policies does not get rows it did not ask for.
  const auto on_demand_policy = std::find(request.policies.begin(), request.policies.end(), "on-demand");
  const auto runs_of = [&](const GpuOffer& offer) -> std::uint64_t {
    if (!offer.on_demand_only.empty()) return on_demand_policy != request.policies.end() ? request.replications : 0;
    return per_offer;
  };
  if (request.progress) {
    std::uint64_t total = request.replications * managed.size();
    for (const GpuOffer& offer : request.catalogue.offers) {
      if (passes_filter(offer, request.filter)) total += runs_of(offer);
    }
    request.progress->total = total;
  }
  // The job on an offer's instances, or nullopt with the offer listed as skipped.
  struct Placed {
    OfferShape shape;
    StepTimeOnGpu step;
    JobSpec job;
  };
  const auto place = [&](const GpuOffer& offer, const std::string& prefix,
                         std::uint64_t runs) -> std::optional<Placed> {
    const OfferShape shape = offer_shape(request.job.gpus, offer.gpus_per_instance);
    std::string reason;
    const StepTimeOnGpu step = step_time_on(request.job, offer.gpu);
    if (shape.idle_gpus > 0 && !request.filter.allow_idle_gpus) {
      reason = "would leave " + std::to_string(shape.idle_gpus) + " GPU(s) idle (--allow-idle-gpus)";
    } else if (!step.seconds) {
      reason = offer.gpu + ": " + step.origin;
    }
    if (!reason.empty()) {
      report.skipped.push_back({offer, prefix + reason});
      if (request.progress) request.progress->done += runs;
      return std::nullopt;
    }
    return Placed{shape, step,
                  offer_job(request.job.base, request.job.steps, *step.seconds, shape,
                            request.cross_instance_efficiency, request.job.file)};
  };
  const auto row_of = [&](const GpuOffer& offer, const Placed& placed, const std::vector<RunResult>& runs) {
    AdviceRow row;
    row.offer = offer;
    row.instances = placed.shape.instances;
    row.idle_gpus = placed.shape.idle_gpus;
    row.step_time_s = *placed.step.seconds;
    row.step_time_origin = placed.step.origin;
    row.work_hours = to_hours(placed.job.work);
    row.metrics = metrics_of(runs);
    return row;
  };
  // No spot market at all (nothing obtainable), so nothing but on-demand can run even if a policy asked for spot.
  const auto on_demand_only_row = [&](const GpuOffer& offer, const Placed& placed, std::size_t p) {
    PreemptionSource none;
    none.spot.available = StepSeries::constant(0.0);
    none.origin = "on-demand only: " + offer.on_demand_only;
    const SpotMarket market = offer_market(offer, none, placed.shape.instances);  // the scenario keeps a reference
    const Scenario scenario(market, placed.job);
    const auto runs =
        run_replications(scenario, factories[p],
                         ReplicationPlan{request.seed, 0, request.replications, request.threads, request.progress});
    AdviceRow row = row_of(offer, placed, runs);
    row.preemption_basis = "none";
    row.preemption_origin = none.origin;
    row.policy = "on-demand";
    row.spot_price_source = "-";
    return row;
  };
  for (const GpuOffer& offer : request.catalogue.offers) {
    if (!passes_filter(offer, request.filter)) continue;
    any_offer_matched = true;
    if (!offer.unranked.empty()) {
      report.skipped.push_back({offer, "not ranked: " + offer.unranked});
      continue;
    }
    if (!offer.on_demand_only.empty() && on_demand_policy == request.policies.end()) {
      report.skipped.push_back({offer, "on-demand only (" + offer.on_demand_only + ") and --policy has no on-demand"});
      continue;
    }
    const std::optional<Placed> placed = place(offer, "", runs_of(offer));
    if (!placed) continue;
    if (!offer.on_demand_only.empty()) {
      rows.push_back(on_demand_only_row(offer, *placed, on_demand_policy - request.policies.begin()));
      continue;
    }
    const PreemptionSource& source = request.catalogue.source_of(offer);
    const SpotPriceHistory* history = request.price_histories.find(offer);
    const SpotMarket market = offer_market(offer, source, placed->shape.instances, history);
    const Scenario scenario(market, placed->job);
    for (std::size_t p = 0; p < request.policies.size(); ++p) {
      const PilotedRuns piloted =
          run_with_pilot(scenario, factories[p],
                         ReplicationPlan{request.seed, 0, request.replications, request.threads, request.progress});
      if (piloted.pruned_because) {
        report.skipped.push_back({offer, request.policies[p] + ": " + *piloted.pruned_because});
        continue;
      }
      AdviceRow row = row_of(offer, *placed, piloted.runs);
      row.preemption_basis = source.basis;
      row.preemption_origin = source.origin;
      row.policy = request.policies[p];
      row.spot_price_source = history ? history->label() : "catalogue";
      rows.push_back(std::move(row));
    }
  }
  for (const ManagedOffer& offer : managed) {
    any_offer_matched = true;
    const GpuOffer as_gpu = managed_as_gpu_offer(offer);
    const std::optional<Placed> placed =
        place(as_gpu, offer.service + " " + to_string(offer.mode) + ": ", request.replications);
    if (!placed) continue;
    const ManagedScenario ms = managed_scenario(offer, placed->job, request.catalogue);
    const Scenario scenario(ms.market, ms.job);
    PilotedRuns piloted = run_with_pilot(
        scenario, {registry.selection_factory(ms.selection_policy), registry.checkpoint_factory(request.checkpoint)},
        ReplicationPlan{request.seed, 0, request.replications, request.threads, request.progress});
    if (piloted.pruned_because) {
      report.skipped.push_back({as_gpu, offer.service + " " + to_string(offer.mode) + ": " + *piloted.pruned_because});
      continue;
    }
    std::vector<RunResult>& runs = piloted.runs;
    for (RunResult& run : runs) apply_managed_billing(offer, run);
    AdviceRow row = row_of(as_gpu, *placed, runs);
    row.managed_service = offer.service;
    row.managed_spot = offer.mode == ManagedMode::kSpot;
    row.policy = offer.service + " " + to_string(offer.mode);
    row.spot_price_source = row.managed_spot ? "managed catalogue" : "-";
    if (row.managed_spot) {
      const PreemptionSource& source = request.catalogue.sources.at(offer.preemption);
      row.preemption_basis = source.basis;
      row.preemption_origin = source.origin;
    } else {
      row.preemption_basis = "none";
      row.preemption_origin = "on demand";
    }
    rows.push_back(std::move(row));
  }
  if (!any_offer_matched)
    throw InputError("--cloud/--gpu/--region: no offer of " + request.catalogue.path + " matches the filters");

  std::vector<AdviceMetrics> metrics;
  for (const AdviceRow& row : rows) metrics.push_back(row.metrics);
  const Ranking ranking = rank_rows(metrics, request.criteria);
  for (std::size_t i : ranking.order) {
    report.rows.push_back(std::move(rows[i]));
    report.rows.back().ranked = ranking.entries[i];
  }
  report.recommendation = recommendation_of(report.rows) + compare_with_managed(report);
  return report;
}

}  // namespace spotsim
