// `spotsim campaign`: a team's workload — many jobs (a sweep of trials or a job stream) sharing a spot market whose
// capacity is limited — under each selection policy, with Monte Carlo intervals (docs/campaign.md).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/advise/break_even.hpp"
#include "app/campaign/campaign_json.hpp"
#include "app/campaign/campaign_options.hpp"
#include "app/campaign/campaign_request_options.hpp"
#include "app/campaign/campaign_savings.hpp"
#include "app/campaign/job_communication.hpp"
#include "app/campaign/job_size_groups.hpp"
#include "app/campaign/job_stream_csv.hpp"
#include "app/options/command_line.hpp"
#include "base/count_text.hpp"
#include "base/duration.hpp"
#include "base/json_text.hpp"
#include "base/shipped_library.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"
#include "cli/command_options.hpp"
#include "cli/commands.hpp"
#include "cli/terminal_progress.hpp"
#include "engine/campaign/campaign_runner.hpp"
#include "policies/policy_registry.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace {

// "0.34-0.58", or one figure where both read the same to two decimals.
std::string efficiency_range(double low, double high) {
  return format_fixed(low, 2) == format_fixed(high, 2) ? format_fixed(low, 2)
                                                       : format_fixed(low, 2) + "-" + format_fixed(high, 2);
}

// " for the rest; communication of 3 jobs from the step-time model (params, step_time): efficiency 0.34-0.58 on the
// DIY shapes", after the flat efficiency, where jobs state their training (docs/campaign.md#communication); nothing
// otherwise.
std::string communication_note(const CampaignSpec& spec) {
  const CommunicationSummary modelled = communication_summary(spec.jobs);
  if (modelled.modelled == 0) return "";
  return " for the rest; communication of " + std::to_string(modelled.modelled) +
         (modelled.modelled == 1 ? " job" : " jobs") + " from the step-time model (params, step_time): efficiency " +
         efficiency_range(modelled.lowest, modelled.highest) + " on the DIY shapes";
}

namespace po = boost::program_options;

po::options_description campaign_options() {
  po::options_description output("Output");
  output.add_options()("help,h", "show this help and exit")(
      "quiet,q", "no progress line (it is shown only when stderr is a terminal anyway)")(
      "format,f", po::value<std::string>(), "table | json [default: table, or from --output's extension]")(
      "output,o", po::value<std::string>(), "write the result to this file (atomically) instead of stdout");
  add_plugin_option(output);
  po::options_description all;
  all.add(campaign_request_options()).add(output);
  return all;
}

std::string mean_ci(const Summary& s, int decimals) {
  return format_fixed(s.mean, decimals) + " [" + format_fixed(s.ci_low, decimals) + ", " +
         format_fixed(s.ci_high, decimals) + "]";
}

// The "by job size" section of a job stream (docs/campaign.md#by-job-size): per row and size, the jobs' turnaround
// (arrival -> end) with its interval over the replications, slowdown (turnaround / work), cost and deadline share.
void write_job_size_table(std::ostream& table, const std::vector<CampaignRow>& rows, const CampaignSpec& spec,
                          std::size_t width) {
  const JobSizeGroups groups = job_size_groups(spec);
  table << "\nby job size (turnaround: arrival -> end; slowdown: turnaround / work; means per job):\n"
        << pad("policy", width) << pad(groups.unit == "gpus" ? "GPUs" : "instances", 11) << pad("jobs", 6)
        << pad("turnaround h [95% CI]", 26) << pad("slowdown", 10) << pad("cost/job", 10) << "P(deadl.)\n";
  for (const CampaignRow& row : rows) {
    for (std::size_t g = 0; g < row.summary.job_groups.size(); ++g) {
      const JobGroupSummary& group = row.summary.job_groups[g];
      table << pad(row.label, width) << pad(std::to_string(groups.sizes.at(g)), 11)
            << pad(std::to_string(group.jobs), 6) << pad(mean_ci(group.turnaround_hours, 1), 26)
            << pad(format_fixed(group.slowdown.mean, 2), 10) << pad(format_fixed(group.cost.mean, 0), 10)
            << format_fixed(100.0 * group.deadline_met.mean, 1) << "%\n";
    }
  }
}

// The instances a job's DIY rows run it on: "8 x a2-highgpu-1g", or "8 instances" where its zones hold several
// instance types (the slowest network counts, docs/campaign.md#communication).
std::string diy_layout(const CampaignJob& job, const SpotMarket& market) {
  std::string type;
  for (std::size_t z = 0; z < market.zones.size(); ++z) {
    if (!job.zones.empty() && !std::binary_search(job.zones.begin(), job.zones.end(), static_cast<int>(z))) continue;
    if (type.empty()) {
      type = market.zones[z].instance_type;
    } else if (type != market.zones[z].instance_type) {
      return std::to_string(job.job.nodes) + " instances";
    }
  }
  return std::to_string(job.job.nodes) + " x " + type;
}

// The jobs whose communication the step-time model priced (docs/campaign.md#communication): what they state, and the
// scaling efficiency their work was divided by on the DIY rows' layout and on the managed rows' (lowest-highest).
void write_communication_table(std::ostream& table, const std::vector<CampaignRow>& rows, const CampaignSpec& spec,
                               const SpotMarket& market) {
  if (communication_summary(spec.jobs).modelled == 0) return;
  std::size_t name_width = 6;
  for (const CampaignJob& job : spec.jobs) name_width = std::max(name_width, job.name.size() + 2);
  table << "\ncommunication from the step-time model (work / scaling efficiency on each row's instances):\n"
        << pad("job", name_width) << pad("GPUs", 6) << pad("params", 8) << pad("step ms", 9) << pad("grad B", 8)
        << pad("overlap", 9) << pad("DIY instances", 24) << pad("DIY eff.", 10) << "managed eff.\n";
  for (std::size_t j = 0; j < spec.jobs.size(); ++j) {
    const CampaignJob& job = spec.jobs[j];
    if (!job.training.stated()) continue;
    double low = INFINITY;
    double high = -INFINITY;
    for (const CampaignRow& row : rows) {
      if (!row.managed) continue;
      low = std::min(low, row.job_efficiency.at(j));
      high = std::max(high, row.job_efficiency.at(j));
    }
    const std::string managed = std::isfinite(low) ? efficiency_range(low, high) : std::string("-");
    table << pad(job.name, name_width) << pad(std::to_string(campaign_job_gpus(job, market)), 6)
          << pad(format_count(job.training.params), 8) << pad(format_fixed(job.training.step_ms, 1), 9)
          << pad(format_fixed(job.training.gradient_bytes, 1), 8) << pad(format_fixed(job.training.overlap, 2), 9)
          << pad(diy_layout(job, market), 24) << pad(format_fixed(job.scaling_efficiency, 2), 10) << managed << "\n";
  }
}

}  // namespace

boost::program_options::options_description campaign_command_options() { return campaign_options(); }

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
                << "Example: " << program
                << " --trials 40 --trial-work 4h:12h --policy spot-only,greedy --deadline 3d\n"
                << options << "\n";
      return 0;
    }
    load_plugin_options(vm);
    const std::string format = output_format_option(vm);
    if (format == "csv") throw InputError("--format 'csv': expected table or json");
    const CampaignRequest request = campaign_request_from(vm);
    const SpotMarket& market = request.market;
    const CampaignSpec& spec = request.spec;
    const std::string& capacity = request.capacity;
    const std::string& checkpoint = request.checkpoint;
    const ReplicationPlan& plan = request.plan;
    const PolicyRegistry registry = policy_registry();

    nlohmann::json doc = campaign_header_json(request);
    const bool bounded = capacity_bounded(market, capacity);
    std::ostringstream table;
    table << "campaign: " << spec.jobs.size() << " jobs on " << market.name << " (" << market.zones.size()
          << (market.zones.size() == 1 ? " zone" : " zones") << ", capacity " << capacity_description(market, capacity)
          << "), " << plan.count << " replications, seed " << plan.seed << "\n"
          << "schedule " << scheduling_rule_name(spec.scheduling) << ", reclaim " << reclaim_rule_name(spec.reclaim)
          << ", early stopping " << request.halving << ", budget "
          << (std::isfinite(spec.budget_usd) ? format_usd(spec.budget_usd) : std::string("none")) << ", deadline "
          << (spec.deadline == kNever ? std::string("none") : format_duration(spec.deadline))
          << ", cross-instance efficiency " << format_fixed(spec.cross_instance_efficiency, 2)
          << communication_note(spec)
          << (spec.cant_be_late_mode
                  ? ", Can't Be Late mode (tick " + format_duration(spec.tick > 0 ? spec.tick : market.tick) + ")"
                  : std::string())
          << "\n\n";
    std::vector<CampaignRow> rows;
    {
      // The DIY rows' jobs, replication by replication (the managed rows take a moment more): a campaign of thousands
      // of jobs moves the line job by job instead of sitting at "0/1" for minutes.
      ReplicationProgress progress;
      progress.total = request.policies.size() * plan.count * spec.jobs.size();
      TerminalProgress line(program, "jobs", progress_wanted(vm.count("quiet") > 0), std::cerr);
      ReplicationPlan shown = plan;
      if (line.enabled()) shown.progress = &progress;
      ReplicationProgressWatcher watcher(line, progress);
      for (const std::string& policy : request.policies) {
        rows.push_back(run_policy_campaign(market, spec, registry, policy, checkpoint, shown, /*keep_runs=*/false));
      }
      watcher.finish();
    }
    for (CampaignRow& row :
         managed_campaign_rows(market, spec, request.managed_catalogue, request.links, registry, checkpoint, plan,
                               /*keep_runs=*/false)) {
      rows.push_back(std::move(row));
    }
    std::size_t width = 18;
    for (const CampaignRow& row : rows) width = std::max(width, row.label.size() + 2);
    table << pad("policy", width) << pad("makespan h [95% CI]", 26) << pad("cost USD [95% CI]", 30) << pad("spot", 9)
          << pad("on-dem.", 9) << pad("idle", 8) << pad("done", 7) << pad("stopped", 8) << pad("failed", 7)
          << pad("P(deadl.)", 10) << "capacity used\n";
    for (const CampaignRow& row : rows) {
      const CampaignSummary& s = row.summary;
      doc["policies"].push_back(campaign_row_json(row, spec, request.job_stream, bounded));
      const bool shared = !row.managed && bounded;
      table << pad(row.label, width) << pad(mean_ci(s.makespan_hours, 1), 26) << pad(mean_ci(s.cost_total, 0), 30)
            << pad(format_fixed(s.cost_spot.mean, 0), 9) << pad(format_fixed(s.cost_on_demand.mean, 0), 9)
            << pad(format_fixed(s.cost_idle.mean, 0), 8) << pad(format_fixed(s.completed.mean, 1), 7)
            << pad(format_fixed(s.stopped_early.mean, 1), 8) << pad(format_fixed(s.failed.mean, 1), 7)
            << pad(format_fixed(100.0 * s.p_deadline_met, 1) + "%", 10)
            << (shared ? format_fixed(100.0 * s.capacity_utilisation.mean, 1) + "%" : std::string("-")) << "\n";
    }
    write_communication_table(table, rows, spec, market);
    if (request.job_stream) write_job_size_table(table, rows, spec, width);
    if (const std::optional<double> engineering = request.engineering_cost) {
      const nlohmann::json breaks = campaign_break_even_json(rows, *engineering, request.baseline);
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
    if (const std::optional<double> spend = request.current_spend) {
      const nlohmann::json savings = campaign_savings_json(
          rows, comparison_row(rows, request.baseline, "--current-spend"), *spend, request.engineering_cost);
      table << "\n" << campaign_savings_text(savings);
      doc["savings"] = savings;
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
