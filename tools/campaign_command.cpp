// `spotsim campaign`: a team's workload — many jobs (a sweep of trials or a job stream) sharing a spot market whose
// capacity is limited — under each selection policy, with Monte Carlo intervals (docs/campaign.md).
#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "experiments/advise/gpu_offer_catalogue.hpp"
#include "experiments/campaign/job_stream_csv.hpp"
#include "experiments/managed/break_even.hpp"
#include "experiments/managed/managed_offer_catalogue.hpp"
#include "experiments/managed/managed_scenario.hpp"
#include "policies/policy_registry.hpp"
#include "sim/campaign/campaign_runner.hpp"
#include "spotsim/version.hpp"
#include "sim/scenario.hpp"
#include "sim/duration.hpp"
#include "sim/text_escape.hpp"
#include "sim/text_format.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"
#include "traces/trace_locator.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace {

namespace po = boost::program_options;

po::options_description campaign_options() {
  po::options_description options("Options (durations take a unit: 90s, 30m, 2h, 1.5d)");
  options.add_options()
      ("help,h", "show this help and exit")
      ("trace,t", po::value<std::string>()->default_value("gcp-h100-capacity-13-zones"),
       "the market: a trace whose zones' counts are the spot instances obtainable at once (path or shipped name)")
      ("capacity", po::value<std::string>()->default_value("recorded"),
       "recorded (the trace's counts) | unbounded (any count >= 1 means as many as wanted: no competition)")
      ("jobs", po::value<std::string>(), "the jobs, from a CSV file (columns in docs/campaign.md#job-stream)")
      ("trials", po::value<std::string>()->default_value("40"), "or a sweep of this many trials arriving together")
      ("trial-work", po::value<std::string>()->default_value("4h:12h"),
       "the trials' work, spread evenly from the first to the second (one value: all equal)")
      ("gpus", po::value<std::string>()->default_value("1"), "GPUs per trial (instances: ceil(gpus / GPUs per instance))")
      ("policy,p", po::value<std::string>()->default_value("spot-only,greedy,on-demand"),
       "selection policies to compare, comma-separated (--list-policies in simulate)")
      ("checkpoint,c", po::value<std::string>()->default_value("young-daly"), "checkpoint policy")
      ("schedule", po::value<std::string>()->default_value("fifo"),
       "who gets contested capacity first: fifo | priority | earliest-deadline | shortest-first")
      ("reclaim", po::value<std::string>()->default_value("random"),
       "which instances a zone takes when its count falls below what the campaign holds: random | newest-first")
      ("halving", po::value<std::string>()->default_value("none"),
       "early stopping: none, or ETA:MIN (successive halving keeping 1/ETA at rungs MIN, MIN*ETA, ... of the work)")
      ("budget", po::value<double>(), "stop every job when the campaign has spent this many USD")
      ("deadline", po::value<std::string>(), "campaign deadline after its start (each job: the earlier of it and its own)")
      ("startup", po::value<std::string>()->default_value("5m"), "instance request -> ready")
      ("checkpoint-write", po::value<std::string>()->default_value("1m"), "time to write a checkpoint")
      ("restore", po::value<std::string>()->default_value("1m"), "time to read it back")
      ("managed-catalogue", po::value<std::string>()->default_value("managed_training"),
       "managed training offers (docs/managed.md) shown beside DIY for the trace's GPU: a shipped name, a file, or none")
      ("engineering-cost", po::value<std::string>(),
       "monthly engineering cost of running DIY (8000/month): the managed spend above which each policy pays off")
      ("replications,r", po::value<std::string>()->default_value("200"), "Monte Carlo replications per policy")
      ("seed,s", po::value<std::string>()->default_value("1"), "random seed")
      ("threads", po::value<std::string>()->default_value("0"), "worker threads (0 = all cores); never changes results")
      ("format,f", po::value<std::string>(), "table | json [default: table, or from --output's extension]")
      ("output,o", po::value<std::string>(), "write the result to this file (atomically) instead of stdout");
  add_plugin_option(options);
  return options;
}

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

// Any count >= 1 becomes one no campaign can exhaust: the one-job view of availability.
void unbound_capacity(SpotMarket& market) {
  for (Zone& zone : market.zones) {
    if (!zone.spot.available) continue;
    const StepSeries& count = *zone.spot.available;
    std::vector<double> values = count.values();
    for (double& v : values) v = v >= 1.0 ? 1e9 : 0.0;
    zone.spot.available = StepSeries(count.times(), values, count.span());
  }
}

nlohmann::json summary_json(const Summary& s) { return {{"mean", s.mean}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}}; }

std::string mean_ci(const Summary& s, int decimals) {
  return format_fixed(s.mean, decimals) + " [" + format_fixed(s.ci_low, decimals) + ", " + format_fixed(s.ci_high, decimals) + "]";
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

bool same_gpu(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The campaign's jobs run by a managed service: each job on its own, on ceil(gpus / GPUs per instance) of the
// offer's instances, with the service's policy and billing (docs/managed.md#mapping). The service's spot comes from
// its own pool (its preemption source), so the jobs do not compete; the budget cap is not applied.
std::vector<CampaignRun> run_managed_campaign(const ManagedOffer& offer, const CampaignSpec& spec, int gpus_per_trace_instance,
                                              const GpuOfferCatalogue& gpu_offers, const PolicyRegistry& registry,
                                              const std::string& checkpoint, const ReplicationPlan& plan) {
  std::vector<CampaignRun> runs(plan.count);
  for (std::size_t r = 0; r < runs.size(); ++r) runs[r].replication = plan.first_replication + r;
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const CampaignJob& cj = spec.jobs[j];
    JobSpec job = cj.job;
    const int gpus = job.gpus > 0 ? job.gpus : job.nodes * gpus_per_trace_instance;
    job.gpus = 0;
    job.nodes = (gpus + offer.gpus_per_instance - 1) / offer.gpus_per_instance;
    job.deadline = campaign_job_deadline(spec, cj);
    const ManagedScenario managed = managed_scenario(offer, job, gpu_offers);
    const Scenario scenario(managed.market, managed.job);
    ReplicationPlan job_plan = plan;
    job_plan.seed = campaign_job_seed(plan.seed, j);
    job_plan.progress = nullptr;
    auto results = run_replications(
        scenario, {registry.selection_factory(managed.selection_policy), registry.checkpoint_factory(checkpoint)}, job_plan);
    for (std::size_t r = 0; r < results.size(); ++r) {
      apply_managed_billing(offer, results[r]);
      const RunResult& run = results[r];
      CampaignRun& out = runs[r];
      CampaignJobOutcome outcome;
      outcome.run = run;
      outcome.status = run.completed ? JobStatus::kCompleted : JobStatus::kFailed;
      outcome.finish_hours = to_hours(cj.arrival) + run.completion_hours;
      outcome.deadline_met = run.deadline_met;
      out.makespan_hours = std::max(out.makespan_hours, outcome.finish_hours);
      out.completed += run.completed;
      out.failed += !run.completed;
      out.cost_total += run.cost_total;
      out.cost_spot += run.cost_spot;
      out.cost_on_demand += run.cost_on_demand;
      out.cost_egress += run.cost_egress;
      out.cost_idle += run.ledger_startup + run.ledger_restore + run.ledger_checkpoint + run.ledger_transfer +
                       run.ledger_idle + run.ledger_rounding;
      out.cost_lost_work += run.ledger_lost_work;
      out.preemptions += run.preemptions;
      out.jobs.push_back(outcome);
    }
  }
  for (CampaignRun& run : runs) {
    run.all_done = run.failed == 0;
    run.deadline_met = run.all_done && std::all_of(run.jobs.begin(), run.jobs.end(), [](const auto& o) { return o.deadline_met; });
  }
  return runs;
}

}  // namespace

int campaign_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "campaign";
  try {
    const auto options = campaign_options();
    const po::variables_map vm = parse_command_line(argc, argv, options);
    if (vm.count("help")) {
      std::cout << "Usage: " << program << " [options]\n\n"
                << "Many training jobs sharing spot capacity that is limited (how many instances each zone can give\n"
                << "at once, from the trace's counts): makespan, cost split, per-job completion and capacity use for\n"
                << "each selection policy, with 95% intervals over replications (docs/campaign.md).\n\n"
                << "Example: " << program << " --trials 40 --trial-work 4h:12h --policy spot-only,greedy --deadline 3d\n"
                << options << "\n";
      return 0;
    }
    load_plugin_options(vm);
    const std::string format = output_format_option(vm);
    if (format == "csv") throw InputError("--format 'csv': expected table or json");
    const std::string trace_path = locate_trace(vm["trace"].as<std::string>());
    SpotMarket market = read_trace_file(trace_path);
    const std::string capacity = vm["capacity"].as<std::string>();
    if (capacity == "unbounded") {
      unbound_capacity(market);
    } else if (capacity != "recorded") {
      throw InputError("--capacity '" + capacity + "': expected recorded or unbounded");
    }

    JobSpec defaults;
    defaults.startup = parse_duration(vm["startup"].as<std::string>(), "--startup");
    defaults.checkpoint_write = parse_duration(vm["checkpoint-write"].as<std::string>(), "--checkpoint-write");
    defaults.restore = parse_duration(vm["restore"].as<std::string>(), "--restore");
    defaults.gpus = int_count_option(vm, "gpus", 1, kMaxJobGpus);
    defaults.nodes = 0;
    CampaignSpec spec;
    if (vm.count("jobs")) {
      spec.jobs = read_job_stream_csv(vm["jobs"].as<std::string>(), defaults);
    } else {
      const std::string work = vm["trial-work"].as<std::string>();
      const auto colon = work.find(':');
      const Millis lo = parse_duration(work.substr(0, colon), "--trial-work");
      const Millis hi = colon == std::string::npos ? lo : parse_duration(work.substr(colon + 1), "--trial-work");
      if (lo <= 0 || hi < lo) throw InputError("--trial-work '" + work + "': expected positive durations, the first no longer");
      spec.jobs = sweep_trials(int_count_option(vm, "trials", 1, 100000), lo, hi, defaults);
    }
    for (CampaignJob& job : spec.jobs) {
      if (job.job.gpus == 0 && job.job.nodes == 0) job.job.gpus = defaults.gpus;
      job.job = resolve_job_instances(job.job, market, "job '" + job.name + "'");
    }
    spec.scheduling = parse_scheduling(vm["schedule"].as<std::string>());
    spec.reclaim = parse_reclaim(vm["reclaim"].as<std::string>());
    spec.early_stopping = parse_halving(vm["halving"].as<std::string>());
    if (vm.count("budget")) spec.budget_usd = vm["budget"].as<double>();
    if (vm.count("deadline")) spec.deadline = parse_duration(vm["deadline"].as<std::string>(), "--deadline");
    validate_campaign(spec, "campaign");

    std::vector<std::string> policies;
    std::stringstream list(vm["policy"].as<std::string>());
    for (std::string name; std::getline(list, name, ',');) if (!name.empty()) policies.push_back(name);
    if (policies.empty()) throw InputError("--policy: expected at least one selection policy");
    const PolicyRegistry registry = policy_registry();
    const std::string checkpoint = vm["checkpoint"].as<std::string>();
    ReplicationPlan plan;
    plan.seed = seed_option(vm);
    plan.count = count_option(vm, "replications", 1, 10'000'000);
    plan.threads = thread_count_option(vm);

    nlohmann::json doc = {{"format", "spotsim-campaign"}, {"command", "campaign"}, {"version", kVersion},
                          {"git_revision", kGitRevision}, {"trace", market.name}, {"capacity", capacity}, {"jobs", spec.jobs.size()},
                          {"schedule", scheduling_rule_name(spec.scheduling)}, {"reclaim", reclaim_rule_name(spec.reclaim)},
                          {"halving_rungs", spec.early_stopping.rungs}, {"halving_keep", spec.early_stopping.keep_fraction},
                          {"checkpoint", checkpoint}, {"seed", plan.seed}, {"replications", plan.count},
                          {"budget_usd", std::isfinite(spec.budget_usd) ? nlohmann::json(spec.budget_usd) : nlohmann::json()},
                          {"deadline_hours", spec.deadline == kNever ? nlohmann::json() : nlohmann::json(to_hours(spec.deadline))},
                          {"policies", nlohmann::json::array()}};
    std::ostringstream table;
    table << "campaign: " << spec.jobs.size() << " jobs on " << market.name << " (" << market.zones.size()
          << " zones, capacity " << capacity << "), " << plan.count << " replications, seed " << plan.seed << "\n"
          << "schedule " << scheduling_rule_name(spec.scheduling) << ", reclaim " << reclaim_rule_name(spec.reclaim)
          << ", early stopping " << vm["halving"].as<std::string>() << ", budget "
          << (std::isfinite(spec.budget_usd) ? format_usd(spec.budget_usd) : std::string("none")) << ", deadline "
          << (spec.deadline == kNever ? std::string("none") : format_duration(spec.deadline)) << "\n\n";
    struct Row {
      std::string label;
      bool managed;
      CampaignSummary summary;
    };
    std::vector<Row> rows;
    for (const std::string& policy : policies) {
      const PolicyFactories factories{registry.selection_factory(policy), registry.checkpoint_factory(checkpoint)};
      rows.push_back({policy, false, summarize_campaign(run_campaign(market, spec, factories, plan))});
    }
    const std::string managed_name = vm["managed-catalogue"].as<std::string>();
    if (managed_name != "none") {
      const GpuOfferCatalogue gpu_offers = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
      const ManagedOfferCatalogue managed = read_managed_offer_catalogue(locate_managed_offer_catalogue(managed_name), gpu_offers);
      const std::string gpu = market.zones.front().gpu;
      for (const ManagedOffer& offer : managed.offers) {
        if (!same_gpu(offer.gpu, gpu)) continue;
        rows.push_back({offer.service + " " + to_string(offer.mode) + " " + offer.instance_type, true,
                        summarize_campaign(run_managed_campaign(offer, spec, market.zones.front().gpus_per_instance,
                                                                gpu_offers, registry, checkpoint, plan))});
      }
    }
    std::size_t width = 18;
    for (const Row& row : rows) width = std::max(width, row.label.size() + 2);
    table << pad("policy", width) << pad("makespan h [95% CI]", 26) << pad("cost USD [95% CI]", 30) << pad("spot", 9)
          << pad("on-dem.", 9) << pad("idle", 8) << pad("done", 7) << pad("stopped", 8) << pad("failed", 7)
          << pad("P(deadl.)", 10) << "capacity used\n";
    for (const Row& row : rows) {
      const CampaignSummary& s = row.summary;
      nlohmann::json jobs = nlohmann::json::array();
      for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
        jobs.push_back({{"name", spec.jobs[j].name}, {"finish_hours", summary_json(s.job_finish_hours[j])},
                        {"completed_share", s.job_completed_share[j]}, {"stopped_share", s.job_stopped_share[j]}});
      }
      doc["policies"].push_back({{"policy", row.label}, {"managed", row.managed}, {"makespan_hours", summary_json(s.makespan_hours)},
                                 {"cost_total", summary_json(s.cost_total)}, {"cost_spot", summary_json(s.cost_spot)},
                                 {"cost_on_demand", summary_json(s.cost_on_demand)}, {"cost_egress", summary_json(s.cost_egress)},
                                 {"cost_idle", summary_json(s.cost_idle)}, {"cost_lost_work", summary_json(s.cost_lost_work)},
                                 {"completed", summary_json(s.completed)}, {"stopped_early", summary_json(s.stopped_early)},
                                 {"failed", summary_json(s.failed)}, {"preemptions", summary_json(s.preemptions)},
                                 {"capacity_reclaims", summary_json(s.capacity_reclaims)},
                                 {"capacity_utilisation", summary_json(s.capacity_utilisation)},
                                 {"p_all_done", s.p_all_done}, {"p_deadline_met", s.p_deadline_met},
                                 {"p_budget_exhausted", s.p_budget_exhausted}, {"held_by_hour", s.held_by_hour},
                                 {"capacity_by_hour", s.capacity_by_hour}, {"jobs", jobs}});
      const bool shared = !row.managed && capacity != "unbounded";
      table << pad(row.label, width) << pad(mean_ci(s.makespan_hours, 1), 26)
            << pad(mean_ci(s.cost_total, 0), 30) << pad(format_fixed(s.cost_spot.mean, 0), 9)
            << pad(format_fixed(s.cost_on_demand.mean, 0), 9) << pad(format_fixed(s.cost_idle.mean, 0), 8)
            << pad(format_fixed(s.completed.mean, 1), 7) << pad(format_fixed(s.stopped_early.mean, 1), 8)
            << pad(format_fixed(s.failed.mean, 1), 7) << pad(format_fixed(100.0 * s.p_deadline_met, 1) + "%", 10)
            << (shared ? format_fixed(100.0 * s.capacity_utilisation.mean, 1) + "%" : std::string("-")) << "\n";
    }
    if (vm.count("engineering-cost")) {
      const double engineering = parse_engineering_cost(vm["engineering-cost"].as<std::string>());
      const Row* cheapest = nullptr;
      for (const Row& row : rows) {
        if (row.managed && (cheapest == nullptr || row.summary.cost_total.mean < cheapest->summary.cost_total.mean)) cheapest = &row;
      }
      if (cheapest == nullptr) throw InputError("--engineering-cost: no managed offer for the trace's GPU to compare with");
      table << "\nbreak-even against " << cheapest->label << " (" << format_usd(cheapest->summary.cost_total.mean)
            << " per campaign), engineering " << format_usd(engineering) << "/month:\n";
      nlohmann::json breaks = nlohmann::json::array();
      for (const Row& row : rows) {
        if (row.managed) continue;
        const BreakEven b = break_even(engineering, row.summary.cost_total.mean, cheapest->summary.cost_total.mean);
        table << "  " << pad(row.label, width) << "saves " << format_fixed(100.0 * b.saving_fraction, 1) << "%: "
              << (b.monthly_spend ? "DIY pays off above " + format_usd(*b.monthly_spend) + "/month of managed spend"
                                  : std::string("DIY never pays off"))
              << "\n";
        breaks.push_back({{"policy", row.label}, {"saving_fraction", b.saving_fraction},
                          {"break_even_monthly_spend", b.monthly_spend ? nlohmann::json(*b.monthly_spend) : nlohmann::json()}});
      }
      doc["break_even"] = {{"engineering_per_month", engineering}, {"managed", cheapest->label}, {"policies", breaks}};
    }
    table << "\nspot, on-dem. and idle are mean USD (idle: paid while not training, part of spot + on-demand); done,\n"
          << "stopped (early stopping) and failed count jobs; capacity used: spot instance-hours held / obtainable.\n"
          << "Managed rows (docs/managed.md): each job on its own on the service's instances, no shared capacity.\n";
    emit_output(vm, format == "json" ? doc.dump(2) + "\n" : table.str(), program);
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim
