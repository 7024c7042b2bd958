#include "app/campaign/campaign_options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "app/advise/managed_offer_catalogue.hpp"
#include "app/advise/managed_scenario.hpp"
#include "app/campaign/job_communication.hpp"
#include "app/campaign/job_size_groups.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/text_format.hpp"
#include "model/market/zone_selection.hpp"
#include "model/scenario.hpp"

namespace spotsim {

namespace {

double parse_fraction(const std::string& text, const std::string& what) {
  try {
    std::size_t used = 0;
    const auto slash = text.find('/');
    double value;
    if (slash != std::string::npos) {
      const double num = std::stod(text.substr(0, slash), &used);
      if (used != slash) throw std::invalid_argument("trailing");
      const std::string den_text = text.substr(slash + 1);
      const double den = std::stod(den_text, &used);
      if (used != den_text.size()) throw std::invalid_argument("trailing");
      value = num / den;
    } else {
      value = std::stod(text, &used);
      if (used != text.size()) throw std::invalid_argument("trailing");
    }
    return value;
  } catch (const std::exception&) {
    throw InputError(what + ": expected a number or a fraction such as 1/9, got '" + text + "'");
  }
}

bool same_gpu(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The rule both the DIY and the managed rows rent by: of the shapes (GPUs per instance, USD per instance-hour), the
// index of the one whose ceil(gpus / k) instances cost least per hour, the fewest instances among equal prices. With
// per-GPU prices equal across shapes that is the smallest shape that holds the job on one instance; where there is
// no shape that size (no 2-GPU machine), instances of a smaller one rather than one billing GPUs left idle.
std::size_t cheapest_shape(const std::vector<std::pair<int, double>>& shapes, int gpus) {
  const auto instances = [gpus](int k) { return (gpus + k - 1) / k; };
  std::size_t best = 0;
  for (std::size_t i = 1; i < shapes.size(); ++i) {
    const auto [k, price_per_instance] = shapes[i];
    const double price = instances(k) * price_per_instance;
    const double best_price = instances(shapes[best].first) * shapes[best].second;
    const bool cheaper = price < best_price * (1.0 - 1e-9);
    const bool as_cheap = !cheaper && price <= best_price * (1.0 + 1e-9);
    if (cheaper || (as_cheap && instances(k) < instances(shapes[best].first))) best = i;
  }
  return best;
}

// Whether the trace's zones come in more than one instance shape (type or GPUs per instance).
bool several_shapes(const SpotMarket& market) {
  const Zone& first = market.zones.front();
  return std::any_of(market.zones.begin(), market.zones.end(), [&](const Zone& z) {
    return z.instance_type != first.instance_type || z.gpus_per_instance != first.gpus_per_instance;
  });
}

std::string offered_types(const SpotMarket& market) {
  std::vector<std::string> types;
  for (const Zone& zone : market.zones) {
    const std::string type = zone.instance_type.empty() ? "(no instance type)" : zone.instance_type;
    if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
  }
  std::string list;
  for (const std::string& type : types) list += (list.empty() ? "" : ", ") + type;
  return list;
}

// The zones a job runs in (docs/campaign.md#instance-types): those of the instance type it names; on a trace of one
// shape, all of them; on a trace of several, those of the shape a team would rent for it (below; a job stating its
// training at its price / its scaling efficiency there, the slowest zone of the shape counting). A job named in
// instances (nodes) must name its type there.
std::vector<int> zones_for(const CampaignJob& job, const SpotMarket& market, const InstanceLinkTable& links) {
  std::vector<int> zones;
  if (!job.instance_type.empty()) {
    for (std::size_t z = 0; z < market.zones.size(); ++z) {
      if (market.zones[z].instance_type == job.instance_type) zones.push_back(static_cast<int>(z));
    }
    if (zones.empty()) {
      throw InputError("job '" + job.name + "' (column instance_type): asks for " + job.instance_type + "; trace '" +
                       market.name + "' offers " + offered_types(market) +
                       ". Give a trace with zones of that type (spotsim trace reshape, docs/traces.md#reshape, "
                       "--append-as keeps the others), or run the jobs of each type as their own campaign");
    }
    return zones.size() == market.zones.size() ? std::vector<int>{} : zones;
  }
  if (!several_shapes(market)) return zones;
  if (job.job.gpus <= 0) {
    throw InputError("job '" + job.name + "': trace '" + market.name + "' offers several instance types (" +
                     offered_types(market) + "); a job given in instances (nodes) must name its instance_type");
  }
  // Each GPUs-per-instance count at its cheapest zone's on-demand price, rented as the managed rows rent, per unit
  // of the job's work: divided by its lowest scaling efficiency among the shape's zones.
  std::vector<std::pair<int, double>> shapes;
  std::vector<double> efficiency;
  for (const Zone& zone : market.zones) {
    const int k = std::max(1, zone.gpus_per_instance);
    const double e = shape_efficiency(job, job.job.gpus, zone.instance_type, k, links, zone_holder(zone, market));
    auto same = std::find_if(shapes.begin(), shapes.end(), [k](const auto& shape) { return shape.first == k; });
    if (same == shapes.end()) {
      shapes.emplace_back(k, zone.on_demand_price_per_hour);
      efficiency.push_back(e);
    } else {
      same->second = std::min(same->second, zone.on_demand_price_per_hour);
      double& slowest = efficiency[static_cast<std::size_t>(same - shapes.begin())];
      slowest = std::min(slowest, e);
    }
  }
  for (std::size_t i = 0; i < shapes.size(); ++i) shapes[i].second /= efficiency[i];
  const int best = shapes[cheapest_shape(shapes, job.job.gpus)].first;
  for (std::size_t z = 0; z < market.zones.size(); ++z) {
    if (market.zones[z].gpus_per_instance == best) zones.push_back(static_cast<int>(z));
  }
  return zones;
}

// One row's offers: a service's instance shapes of the market's GPU in one mode and region, fewest GPUs per
// instance first (catalogue order among equals).
using ManagedShapes = std::vector<ManagedOffer>;

// "vertex-ai on-demand a2-highgpu-1g/a2-highgpu-8g": the service, the mode and every shape the row may use.
std::string managed_row_label(const ManagedShapes& shapes) {
  std::string types;
  for (const ManagedOffer& offer : shapes) types += (types.empty() ? "" : "/") + offer.instance_type;
  return shapes.front().service + " " + to_string(shapes.front().mode) + " " + types;
}

// The managed offers of `catalogue` on the market's GPU grouped into rows, in the catalogue's order of each group's
// first offer (none for "none").
std::vector<ManagedShapes> managed_rows_for(const SpotMarket& market, const std::string& catalogue,
                                            const GpuOfferCatalogue& gpu_offers) {
  std::vector<ManagedShapes> rows;
  if (catalogue == "none") return rows;
  const ManagedOfferCatalogue managed =
      read_managed_offer_catalogue(locate_managed_offer_catalogue(catalogue), gpu_offers);
  for (const ManagedOffer& offer : managed.offers) {
    if (!same_gpu(offer.gpu, market.zones.front().gpu)) continue;
    auto row = std::find_if(rows.begin(), rows.end(), [&](const ManagedShapes& r) {
      return r.front().service == offer.service && r.front().mode == offer.mode && r.front().region == offer.region;
    });
    if (row == rows.end()) row = rows.insert(rows.end(), ManagedShapes{});
    row->push_back(offer);
  }
  for (ManagedShapes& row : rows) {
    std::stable_sort(row.begin(), row.end(), [](const ManagedOffer& a, const ManagedOffer& b) {
      return a.gpus_per_instance < b.gpus_per_instance;
    });
  }
  return rows;
}

// The shape a job of `gpus` GPUs runs on: the service's offer of the instance type the job named, if it has one;
// else as a team would rent it: the one whose ceil(gpus / its GPUs) instances cost
// least per hour, the fewest instances among equal prices. With per-GPU prices equal across shapes (as the services
// list them) that is the smallest shape that holds the job on one instance; where a catalogue lacks that shape (no
// 2-GPU machine), instances of a smaller one rather than one that bills GPUs the job leaves idle. A job stating its
// training compares prices per unit of its work: divided by its scaling efficiency on each shape.
const ManagedOffer& shape_for(const ManagedShapes& shapes, const CampaignJob& job, int gpus,
                              const InstanceLinkTable& links) {
  for (const ManagedOffer& offer : shapes) {  // the job named its hardware: the service's offer of it
    if (!job.instance_type.empty() && offer.diy_instance_type == job.instance_type) return offer;
  }
  std::vector<std::pair<int, double>> prices;
  for (const ManagedOffer& offer : shapes) {
    const double efficiency = shape_efficiency(job, gpus, offer.diy_instance_type, offer.gpus_per_instance, links,
                                               "managed offer '" + offer.label() + "'");
    prices.emplace_back(offer.gpus_per_instance, offer.price_per_hour / efficiency);
  }
  return shapes[cheapest_shape(prices, gpus)];
}

// The campaign's jobs run by a managed service: each job on its own, on the row's shape that fits it (shape_for:
// ceil(gpus / GPUs per instance) instances), with the service's policy and billing
// (docs/managed.md#mapping). The service's spot comes from
// its own pool (its preemption source), so the jobs do not compete; the budget cap is not applied. Job by job, each
// job's replications in order: the summary takes them as they come, and the runs keep their jobs only if asked.
CampaignRow run_managed_campaign(const ManagedShapes& shapes, const CampaignSpec& spec, const SpotMarket& market,
                                 const GpuOfferCatalogue& gpu_offers, const InstanceLinkTable& links,
                                 const PolicyRegistry& registry, const std::string& checkpoint,
                                 const ReplicationPlan& plan, bool keep_runs) {
  CampaignRow row{managed_row_label(shapes), true, {}, {}, {}};
  std::vector<CampaignRun> runs(plan.count);  // the campaign-wide figures of each replication
  std::vector<bool> all_met(plan.count, true);
  CampaignSummaryBuilder summary(spec, job_size_groups(spec).group_of_job, plan.count);
  for (std::size_t r = 0; r < runs.size(); ++r) runs[r].replication = plan.first_replication + r;
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const CampaignJob& cj = spec.jobs[j];
    JobSpec job = cj.job;
    const int gpus = campaign_job_gpus(cj, market);
    const ManagedOffer& offer = shape_for(shapes, cj, gpus, links);
    job.gpus = 0;
    job.nodes = (gpus + offer.gpus_per_instance - 1) / offer.gpus_per_instance;
    CampaignJob rented = cj;  // on the service's shape: its own communication cost, not the DIY shape's
    rented.job = job;
    rented.scaling_efficiency = NAN;
    if (cj.training.stated()) {
      model_job_communication(rented, gpus, job.nodes,
                              job_links(cj, links, offer.diy_instance_type, offer.gpus_per_instance,
                                        "managed offer '" + offer.label() + "'"));
    }
    job = campaign_job_work(spec, rented, job.nodes);
    row.job_efficiency.push_back(campaign_job_efficiency(spec, rented, job.nodes));
    job.deadline = campaign_job_deadline(spec, cj);
    const ManagedScenario managed = managed_scenario(offer, job, gpu_offers);
    const Scenario scenario(managed.market, managed.job);
    ReplicationPlan job_plan = plan;
    job_plan.seed = campaign_job_seed(plan.seed, j);
    job_plan.progress = nullptr;
    auto results = run_replications(
        scenario, {registry.selection_factory(managed.selection_policy), registry.checkpoint_factory(checkpoint)},
        job_plan);
    for (std::size_t r = 0; r < results.size(); ++r) {
      apply_managed_billing(offer, results[r]);
      const RunResult& run = results[r];
      CampaignRun& out = runs[r];
      CampaignJobOutcome outcome;
      outcome.status = run.completed ? JobStatus::kCompleted : JobStatus::kFailed;
      outcome.finish_hours = to_hours(cj.arrival) + run.completion_hours;
      outcome.deadline_met = run.deadline_met;
      outcome.cost = run.cost_total;
      out.makespan_hours = std::max(out.makespan_hours, outcome.finish_hours);
      out.completed += run.completed;
      out.failed += !run.completed;
      add_job_costs(out, run);
      all_met[r] = all_met[r] && outcome.deadline_met;
      summary.add_job(j, outcome);
      if (keep_runs) {
        out.jobs.push_back(outcome);
        out.job_runs.push_back(run);
      }
    }
  }
  for (std::size_t r = 0; r < runs.size(); ++r) {
    runs[r].all_done = runs[r].failed == 0;
    runs[r].deadline_met = runs[r].all_done && all_met[r];
    summary.add_run(runs[r]);
  }
  row.summary = summary.finish();
  if (keep_runs) row.runs = std::move(runs);
  return row;
}

}  // namespace

SchedulingRule parse_scheduling(const std::string& text) {
  if (text == "fifo") return SchedulingRule::kFifo;
  if (text == "priority") return SchedulingRule::kPriority;
  if (text == "earliest-deadline") return SchedulingRule::kEarliestDeadline;
  if (text == "shortest-first") return SchedulingRule::kShortestFirst;
  throw InputError("--schedule '" + text + "': expected fifo, priority, earliest-deadline or shortest-first");
}

ReclaimRule parse_reclaim(const std::string& text) {
  if (text == "random") return ReclaimRule::kRandom;
  if (text == "newest-first") return ReclaimRule::kNewestFirst;
  throw InputError("--reclaim '" + text + "': expected random or newest-first");
}

EarlyStopping parse_halving(const std::string& text) {
  if (text == "none") return {};
  const auto colon = text.find(':');
  const std::string expected = "--halving '" + text + "': expected none or ETA:MIN, e.g. 3:1/9 (ETA > 1, 0 < MIN < 1)";
  if (colon == std::string::npos) throw InputError(expected);
  const double eta = parse_fraction(text.substr(0, colon), "--halving");
  const double min = parse_fraction(text.substr(colon + 1), "--halving");
  const EarlyStopping out = successive_halving(eta, min);
  if (!out.enabled()) throw InputError(expected);
  return out;
}

bool capacity_bounded(const SpotMarket& market, const std::string& capacity) {
  return capacity == "recorded" && std::any_of(market.zones.begin(), market.zones.end(),
                                               [](const Zone& zone) { return zone.spot.available.has_value(); });
}

std::string capacity_description(const SpotMarket& market, const std::string& capacity) {
  if (capacity_bounded(market, capacity) || capacity == "unbounded") return capacity;
  return "unbounded: the trace records no counts";
}

void apply_capacity(SpotMarket& market, const std::string& capacity) {
  if (capacity == "recorded") return;
  if (capacity != "unbounded") throw InputError("--capacity '" + capacity + "': expected recorded or unbounded");
  for (Zone& zone : market.zones) {
    if (!zone.spot.available) continue;
    const StepSeries& count = *zone.spot.available;
    std::vector<double> values = count.values();
    for (double& v : values) v = v >= 1.0 ? 1e9 : 0.0;
    zone.spot.available = StepSeries(count.times(), values, count.span());
  }
}

std::pair<Millis, Millis> parse_trial_work(const std::string& text) {
  const auto colon = text.find(':');
  const Millis lo = parse_duration(text.substr(0, colon), "--trial-work");
  const Millis hi = colon == std::string::npos ? lo : parse_duration(text.substr(colon + 1), "--trial-work");
  if (lo <= 0 || hi < lo)
    throw InputError("--trial-work '" + text + "': expected positive durations, the first no longer");
  return {lo, hi};
}

void resolve_campaign_jobs(std::vector<CampaignJob>& jobs, const SpotMarket& market, int default_gpus,
                           const InstanceLinkTable& links) {
  std::map<std::vector<int>, SpotMarket> shape_markets;  // the zones of one shape, built once per shape
  for (CampaignJob& job : jobs) {
    if (job.job.gpus == 0 && job.job.nodes == 0) job.job.gpus = default_gpus;
    job.zones = zones_for(job, market, links);
    auto shape = shape_markets.find(job.zones);
    if (!job.zones.empty() && shape == shape_markets.end()) {
      ZoneSelection selection;
      selection.by = ZoneSelection::By::kZones;
      for (const int z : job.zones) selection.names.push_back(market.zones[static_cast<std::size_t>(z)].name);
      shape = shape_markets.emplace(job.zones, select_zones(market, selection, "job '" + job.name + "'")).first;
    }
    // The job's instances counted on its own shape.
    job.job = resolve_job_instances(job.job, job.zones.empty() ? market : shape->second, "job '" + job.name + "'");
  }
  model_campaign_communication(jobs, market, links);
}

CampaignRow run_policy_campaign(const SpotMarket& market, const CampaignSpec& spec, const PolicyRegistry& registry,
                                const std::string& policy, const std::string& checkpoint, const ReplicationPlan& plan,
                                bool keep_runs) {
  // A multi-node policy runs the elastic jobs (min_nodes); make_engine refuses a job its kind of policy cannot run.
  PolicyFactories factories;
  factories.checkpoint = registry.checkpoint_factory(checkpoint);
  if (registry.is_node_policy(policy)) {
    factories.nodes = registry.node_factory(policy);
  } else {
    factories.selection = registry.selection_factory(policy);
  }
  CampaignRow row{policy, false, {}, {}, {}};
  for (const CampaignJob& job : spec.jobs) {
    row.job_efficiency.push_back(campaign_job_efficiency(spec, job, job.job.nodes));
  }
  CampaignSummaryBuilder summary(spec, job_size_groups(spec).group_of_job, plan.count);
  run_campaign(market, spec, factories, plan, TraceStart{}, keep_runs, [&](CampaignRun&& run) {
    summary.add(run);
    if (keep_runs) row.runs.push_back(std::move(run));
  });
  row.summary = summary.finish();
  return row;
}

std::vector<CampaignRow> managed_campaign_rows(const SpotMarket& market, const CampaignSpec& spec,
                                               const std::string& catalogue, const InstanceLinkTable& links,
                                               const PolicyRegistry& registry, const std::string& checkpoint,
                                               const ReplicationPlan& plan, bool keep_runs) {
  std::vector<CampaignRow> rows;
  if (catalogue == "none") return rows;
  const GpuOfferCatalogue gpu_offers = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  for (const ManagedShapes& shapes : managed_rows_for(market, catalogue, gpu_offers)) {
    rows.push_back(
        run_managed_campaign(shapes, spec, market, gpu_offers, links, registry, checkpoint, plan, keep_runs));
  }
  return rows;
}

std::vector<std::string> managed_row_labels(const SpotMarket& market, const std::string& catalogue) {
  std::vector<std::string> labels;
  if (catalogue == "none") return labels;
  const GpuOfferCatalogue gpu_offers = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  for (const ManagedShapes& shapes : managed_rows_for(market, catalogue, gpu_offers)) {
    labels.push_back(managed_row_label(shapes));
  }
  return labels;
}

void check_campaign_fits_trace(const SpotMarket& market, const CampaignSpec& spec) {
  if (market.span == kNever) return;  // a lifetime model, not a recording: nothing to replay
  const CampaignJob* last = nullptr;
  for (const CampaignJob& job : spec.jobs) {
    if (last == nullptr || job.arrival + job.job.work > last->arrival + last->job.work) last = &job;
  }
  if (last == nullptr || last->arrival + last->job.work <= market.span) return;
  const auto hours = [](Millis t) { return format_fixed(to_hours(t), 1) + " h"; };
  throw InputError("campaign: the jobs need at least " + hours(last->arrival + last->job.work) + " (job '" +
                   last->name + "' arrives at " + hours(last->arrival) + " with " + hours(last->job.work) +
                   " of work), more than trace '" + market.name + "' recorded (" + hours(market.span) +
                   "); --replay replays the recording cyclically, so that a replication sees recorded moments again");
}

}  // namespace spotsim
