#include "app/campaign/campaign_request_options.hpp"

#include <algorithm>
#include <sstream>

#include "app/advise/break_even.hpp"
#include "app/campaign/campaign_savings.hpp"
#include "app/campaign/job_stream_csv.hpp"
#include "app/options/command_line.hpp"
#include "app/simulation_request.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/shipped_library.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace po = boost::program_options;

po::options_description campaign_request_options() {
  po::options_description options("Campaign (durations take a unit: 90s, 30m, 2h, 1.5d)");
  options.add_options()(
      "trace,t", po::value<std::string>()->default_value("gcp-h100-capacity-13-zones"),
      "the market: a trace whose zones' counts are the spot instances obtainable at once (path or shipped name)");
  add_zone_selection_options(options);
  options.add_options()("replay",
                        "allow jobs whose arrival + work exceeds the recording: replay it cyclically (without it "
                        "such a campaign is refused)");
  options.add_options()(
      "capacity", po::value<std::string>()->default_value("recorded"),
      "recorded (the trace's counts) | unbounded (any count >= 1 means as many as wanted: no competition)")(
      "jobs", po::value<std::string>(), "the jobs, from a CSV file (columns in docs/campaign.md#job-stream)")(
      "trials", po::value<std::string>()->default_value("40"), "or a sweep of this many trials arriving together")(
      "trial-work", po::value<std::string>()->default_value("4h:12h"),
      "the trials' work, spread evenly from the first to the second (one value: all equal)")(
      "gpus", po::value<std::string>()->default_value("1"),
      "GPUs per trial (instances: ceil(gpus / GPUs per instance))")(
      "policy,p", po::value<std::string>()->default_value("spot-only,greedy,on-demand"),
      "selection policies to compare, comma-separated (--list-policies in simulate)")(
      "checkpoint,c", po::value<std::string>()->default_value("young-daly"), "checkpoint policy")(
      "mode", po::value<std::string>()->default_value("event"),
      "event (decide at any moment, bill per second) | cant-be-late (every job in the Can't Be Late tick engine: "
      "decide per tick from its arrival, bill whole ticks, lossless progress; needs --checkpoint continuous)")(
      "tick", po::value<std::string>(), "the tick of --mode cant-be-late [default: the trace's tick_s]")(
      "schedule", po::value<std::string>()->default_value("fifo"),
      "who gets contested capacity first: fifo | priority | earliest-deadline | shortest-first")(
      "reclaim", po::value<std::string>()->default_value("random"),
      "which instances a zone takes when its count falls below what the campaign holds: random | newest-first")(
      "halving", po::value<std::string>()->default_value("none"),
      "early stopping: none, or ETA:MIN (successive halving keeping 1/ETA at rungs MIN, MIN*ETA, ... of the work)")(
      "budget", po::value<double>(), "stop every job when the campaign has spent this many USD")(
      "deadline", po::value<std::string>(),
      "campaign deadline after its start (each job: the earlier of it and its own)")(
      "startup", po::value<std::string>()->default_value("5m"), "instance request -> ready")(
      "cross-instance-efficiency", po::value<double>()->default_value(0.9, "0.9"),
      "data-parallel scaling efficiency when a job spans several instances, in (0, 1]: its work / this (advise's "
      "rule; elastic jobs keep their own model); jobs stating params and step_time get the step-time model's")(
      "links", po::value<std::string>()->default_value("instance_links"),
      "the instance link table pricing the communication of jobs that state params (docs/step-time.md#data-parallel): "
      "a shipped name or a file")("checkpoint-write", po::value<std::string>()->default_value("1m"),
                                  "time to write a checkpoint")(
      "restore", po::value<std::string>()->default_value("1m"), "time to read it back")(
      "managed-catalogue", po::value<std::string>()->default_value("managed_training"),
      "managed training offers (docs/managed.md) shown beside DIY for the trace's GPU: a shipped name, a file, or "
      "none")(
      "engineering-cost", po::value<std::string>(),
      "monthly engineering cost of running DIY (8000/month): the managed spend above which each policy pays off")(
      "baseline", po::value<std::string>(),
      "the row you pay today, as printed or by some of its words ('vertex on-demand'): --current-spend and "
      "--engineering-cost compare with it [default: the cheapest managed row]")(
      "current-spend", po::value<std::string>(),
      "what you pay a month today on --baseline (12000/month): each policy's monthly saving, and the engineering "
      "cost up to which it pays")("replications,r", po::value<std::string>()->default_value("200"),
                                  "Monte Carlo replications per policy")(
      "seed,s", po::value<std::string>()->default_value("1"), "random seed")(
      "threads", po::value<std::string>()->default_value("0"), "worker threads (0 = all cores); never changes results");
  return options;
}

CampaignRequest campaign_request_from(const po::variables_map& vm, const std::string* job_rows) {
  CampaignRequest request;
  const ZoneSelection zones = zone_selection_option(vm);
  request.market = select_zones(read_trace_file(locate_trace(vm["trace"].as<std::string>())), zones,
                                zone_selection_option_name(zones));
  request.capacity = vm["capacity"].as<std::string>();
  apply_capacity(request.market, request.capacity);

  JobSpec defaults;
  defaults.startup = parse_duration(vm["startup"].as<std::string>(), "--startup");
  defaults.checkpoint_write = parse_duration(vm["checkpoint-write"].as<std::string>(), "--checkpoint-write");
  defaults.restore = parse_duration(vm["restore"].as<std::string>(), "--restore");
  defaults.gpus = int_count_option(vm, "gpus", 1, kMaxJobGpus);
  defaults.nodes = 0;
  CampaignSpec& spec = request.spec;
  if (vm.count("jobs") || job_rows != nullptr) {
    // A job stream and a sweep of trials are two workloads.
    for (const char* trial_option : {"trials", "trial-work"}) {
      if (!vm[trial_option].defaulted()) {
        throw InputError("--jobs: give either the jobs or --trials with --trial-work, not both");
      }
    }
    if (vm.count("jobs") && job_rows != nullptr) throw InputError("--jobs: give either a file or rows, not both");
    spec.jobs = job_rows != nullptr ? read_job_stream_text(*job_rows, "jobs", defaults)
                                    : read_job_stream_csv(vm["jobs"].as<std::string>(), defaults);
  } else {
    const auto [lo, hi] = parse_trial_work(vm["trial-work"].as<std::string>());
    spec.jobs = sweep_trials(int_count_option(vm, "trials", 1, 100000), lo, hi, defaults);
  }
  request.job_stream = vm.count("jobs") || job_rows != nullptr;
  if (std::any_of(spec.jobs.begin(), spec.jobs.end(), [](const CampaignJob& job) { return job.training.stated(); })) {
    request.links = read_instance_links(locate_instance_links(vm["links"].as<std::string>()));
  }
  resolve_campaign_jobs(spec.jobs, request.market, defaults.gpus, request.links);
  spec.cross_instance_efficiency = vm["cross-instance-efficiency"].as<double>();
  if (!(spec.cross_instance_efficiency > 0.0 && spec.cross_instance_efficiency <= 1.0)) {
    throw InputError("--cross-instance-efficiency: expected a number in (0, 1]");
  }
  spec.scheduling = parse_scheduling(vm["schedule"].as<std::string>());
  spec.reclaim = parse_reclaim(vm["reclaim"].as<std::string>());
  request.halving = vm["halving"].as<std::string>();
  spec.early_stopping = parse_halving(request.halving);
  if (vm.count("budget")) spec.budget_usd = vm["budget"].as<double>();
  if (vm.count("deadline")) spec.deadline = parse_duration(vm["deadline"].as<std::string>(), "--deadline");
  spec.cant_be_late_mode = is_cant_be_late_mode(vm["mode"].as<std::string>());
  if (vm.count("tick")) {
    if (!spec.cant_be_late_mode) throw InputError("--tick: only with --mode cant-be-late");
    spec.tick = parse_duration(vm["tick"].as<std::string>(), "--tick");
    if (spec.tick <= 0) throw InputError("--tick: expected a positive duration");
  }
  if (spec.cant_be_late_mode && spec.tick == 0 && request.market.tick <= 0) {
    throw InputError("trace '" + request.market.name +
                     "': the Can't Be Late mode needs the recording's tick (field 'tick_s' of the trace, or --tick)");
  }
  validate_campaign(spec, "campaign");
  if (vm.count("replay") == 0) check_campaign_fits_trace(request.market, spec);

  std::stringstream list(vm["policy"].as<std::string>());
  for (std::string name; std::getline(list, name, ',');) {
    if (!name.empty()) request.policies.push_back(name);
  }
  if (request.policies.empty()) throw InputError("--policy: expected at least one selection policy");
  request.checkpoint = vm["checkpoint"].as<std::string>();
  request.plan.seed = seed_option(vm);
  request.plan.count = count_option(vm, "replications", 1, 10'000'000);
  request.plan.threads = thread_count_option(vm);
  request.managed_catalogue = vm["managed-catalogue"].as<std::string>();
  if (vm.count("engineering-cost")) {
    request.engineering_cost = parse_engineering_cost(vm["engineering-cost"].as<std::string>());
  }
  if (vm.count("current-spend")) request.current_spend = parse_current_spend(vm["current-spend"].as<std::string>());
  if (vm.count("baseline")) {
    if (!request.current_spend && !request.engineering_cost) {
      throw InputError("--baseline: compares with --current-spend or --engineering-cost; give one of them");
    }
    std::vector<std::string> labels = request.policies;
    for (std::string& label : managed_row_labels(request.market, request.managed_catalogue)) {
      labels.push_back(std::move(label));
    }
    request.baseline = resolve_baseline(vm["baseline"].as<std::string>(), labels);
  }
  return request;
}

}  // namespace spotsim
