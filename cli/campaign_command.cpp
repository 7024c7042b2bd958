// `spotsim campaign`: a team's workload — many jobs (a sweep of trials or a job stream) sharing a spot market whose
// capacity is limited — under each selection policy, with Monte Carlo intervals (docs/campaign.md).
#include <algorithm>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/campaign/campaign_json.hpp"
#include "app/campaign/campaign_options.hpp"
#include "app/campaign/job_stream_csv.hpp"
#include "app/advise/break_even.hpp"
#include "policies/policy_registry.hpp"
#include "engine/campaign/campaign_runner.hpp"
#include "base/duration.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"
#include "app/options/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/terminal_progress.hpp"
#include "base/shipped_library.hpp"
#include "traces/trace_reader.hpp"
#include "base/json_text.hpp"

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
      ("quiet,q", "no progress line (it is shown only when stderr is a terminal anyway)")
      ("format,f", po::value<std::string>(), "table | json [default: table, or from --output's extension]")
      ("output,o", po::value<std::string>(), "write the result to this file (atomically) instead of stdout");
  add_plugin_option(options);
  return options;
}

std::string mean_ci(const Summary& s, int decimals) {
  return format_fixed(s.mean, decimals) + " [" + format_fixed(s.ci_low, decimals) + ", " + format_fixed(s.ci_high, decimals) + "]";
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
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
    apply_capacity(market, capacity);

    JobSpec defaults;
    defaults.startup = parse_duration(vm["startup"].as<std::string>(), "--startup");
    defaults.checkpoint_write = parse_duration(vm["checkpoint-write"].as<std::string>(), "--checkpoint-write");
    defaults.restore = parse_duration(vm["restore"].as<std::string>(), "--restore");
    defaults.gpus = int_count_option(vm, "gpus", 1, kMaxJobGpus);
    defaults.nodes = 0;
    CampaignSpec spec;
    if (vm.count("jobs")) {
      // The same rule as spotsim.campaign(jobs=...): a job stream and a sweep of trials are two workloads.
      for (const char* trial_option : {"trials", "trial-work"}) {
        if (!vm[trial_option].defaulted()) {
          throw InputError("--jobs: give either the jobs or --trials with --trial-work, not both");
        }
      }
      spec.jobs = read_job_stream_csv(vm["jobs"].as<std::string>(), defaults);
    } else {
      const auto [lo, hi] = parse_trial_work(vm["trial-work"].as<std::string>());
      spec.jobs = sweep_trials(int_count_option(vm, "trials", 1, 100000), lo, hi, defaults);
    }
    resolve_campaign_jobs(spec.jobs, market, defaults.gpus);
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

    std::optional<double> engineering;  // checked before any work
    if (vm.count("engineering-cost")) engineering = parse_engineering_cost(vm["engineering-cost"].as<std::string>());

    nlohmann::json doc = campaign_header_json(market, capacity, spec, checkpoint, plan);
    std::ostringstream table;
    table << "campaign: " << spec.jobs.size() << " jobs on " << market.name << " (" << market.zones.size()
          << " zones, capacity " << capacity << "), " << plan.count << " replications, seed " << plan.seed << "\n"
          << "schedule " << scheduling_rule_name(spec.scheduling) << ", reclaim " << reclaim_rule_name(spec.reclaim)
          << ", early stopping " << vm["halving"].as<std::string>() << ", budget "
          << (std::isfinite(spec.budget_usd) ? format_usd(spec.budget_usd) : std::string("none")) << ", deadline "
          << (spec.deadline == kNever ? std::string("none") : format_duration(spec.deadline)) << "\n\n";
    std::vector<CampaignRow> rows;
    {
      // The DIY rows' jobs, replication by replication (the managed rows take a moment more): a campaign of thousands
      // of jobs moves the line job by job instead of sitting at "0/1" for minutes.
      ReplicationProgress progress;
      progress.total = policies.size() * plan.count * spec.jobs.size();
      TerminalProgress line(program, "jobs", progress_wanted(vm.count("quiet") > 0), std::cerr);
      ReplicationPlan shown = plan;
      if (line.enabled()) shown.progress = &progress;
      ReplicationProgressWatcher watcher(line, progress);
      for (const std::string& policy : policies) {
        rows.push_back(run_policy_campaign(market, spec, registry, policy, checkpoint, shown, /*keep_runs=*/false));
      }
      watcher.finish();
    }
    for (CampaignRow& row : managed_campaign_rows(market, spec, vm["managed-catalogue"].as<std::string>(), registry,
                                                  checkpoint, plan, /*keep_runs=*/false)) {
      rows.push_back(std::move(row));
    }
    std::size_t width = 18;
    for (const CampaignRow& row : rows) width = std::max(width, row.label.size() + 2);
    table << pad("policy", width) << pad("makespan h [95% CI]", 26) << pad("cost USD [95% CI]", 30) << pad("spot", 9)
          << pad("on-dem.", 9) << pad("idle", 8) << pad("done", 7) << pad("stopped", 8) << pad("failed", 7)
          << pad("P(deadl.)", 10) << "capacity used\n";
    for (const CampaignRow& row : rows) {
      const CampaignSummary& s = row.summary;
      doc["policies"].push_back(campaign_row_json(row, spec));
      const bool shared = !row.managed && capacity != "unbounded";
      table << pad(row.label, width) << pad(mean_ci(s.makespan_hours, 1), 26)
            << pad(mean_ci(s.cost_total, 0), 30) << pad(format_fixed(s.cost_spot.mean, 0), 9)
            << pad(format_fixed(s.cost_on_demand.mean, 0), 9) << pad(format_fixed(s.cost_idle.mean, 0), 8)
            << pad(format_fixed(s.completed.mean, 1), 7) << pad(format_fixed(s.stopped_early.mean, 1), 8)
            << pad(format_fixed(s.failed.mean, 1), 7) << pad(format_fixed(100.0 * s.p_deadline_met, 1) + "%", 10)
            << (shared ? format_fixed(100.0 * s.capacity_utilisation.mean, 1) + "%" : std::string("-")) << "\n";
    }
    if (engineering) {
      const nlohmann::json breaks = campaign_break_even_json(rows, *engineering);
      table << "\nbreak-even against " << breaks["managed"].get<std::string>() << " ("
            << format_usd(breaks["managed_cost"].get<double>()) << " per campaign), engineering "
            << format_usd(*engineering) << "/month:\n";
      for (const nlohmann::json& b : breaks["policies"]) {
        const nlohmann::json& spend = b["break_even_monthly_spend"];
        table << "  " << pad(b["policy"].get<std::string>(), width) << "saves "
              << format_fixed(100.0 * b["saving_fraction"].get<double>(), 1) << "%: "
              << (spend.is_null() ? std::string("DIY never pays off")
                                  : "DIY pays off above " + format_usd(spend.get<double>()) + "/month of managed spend")
              << "\n";
      }
      doc["break_even"] = breaks;
    }
    table << "\nspot, on-dem. and idle are mean USD (idle: paid while not training, part of spot + on-demand); done,\n"
          << "stopped (early stopping) and failed count jobs; capacity used: spot instance-hours held / obtainable.\n"
          << "Managed rows (docs/managed.md): each job on its own on the service's instances, no shared capacity.\n";
    emit_output(vm, format == "json" ? json_text(doc, 2) + "\n" : table.str(), program);
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim
