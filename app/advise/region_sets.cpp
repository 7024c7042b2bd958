#include "app/advise/region_sets.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <span>

#include "app/run_metrics.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/shipped_library.hpp"
#include "base/text_format.hpp"
#include "model/market/zone_selection.hpp"
#include "policies/policy_registry.hpp"
#include "spotsim/version.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace {

const Summary& summary_of(const SimulationReport& report, const std::string& metric) {
  const auto metrics = run_metrics();
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    if (metrics[m].name == metric) return report.summaries.at(m);
  }
  throw std::logic_error("no run metric named " + metric);
}

// Keeps only each run's total cost, for the paired saving.
class CostCollector final : public RunConsumer {
 public:
  explicit CostCollector(std::vector<double>& costs) : costs_(costs) {}
  void begin(const nlohmann::json&) override {}
  void add(std::span<const RunResult> runs) override {
    for (const RunResult& r : runs) costs_.push_back(r.cost_total);
  }

 private:
  std::vector<double>& costs_;
};

// One set = one `simulate --regions SET` with the request's seed.
RegionSetRow evaluate_set(const RegionSetRequest& request, const std::vector<std::string>& regions) {
  SimulationRequest simulation = request.simulation;
  simulation.zones = ZoneSelection{ZoneSelection::By::kRegions, regions};
  RegionSetRow row;
  CostCollector collector(row.run_costs);
  const bool paired = simulation.replications <= kPairedCostLimit;
  const SimulationReport report = run_simulation(simulation, paired ? &collector : nullptr);
  row.regions = regions;
  row.cost = summary_of(report, "cost_total");
  row.hours = summary_of(report, "completion_hours");
  row.deadline_met = summary_of(report, "deadline_met").mean;
  row.completed = summary_of(report, "completed").mean;
  row.mean_migrations = summary_of(report, "migrations").mean;
  row.mean_preemptions = summary_of(report, "preemptions").mean;
  row.mean_egress_usd = summary_of(report, "cost_egress").mean;
  row.egress_share = row.cost.mean > 0.0 ? row.mean_egress_usd / row.cost.mean : 0.0;
  return row;
}

// Lower is better: a set passing the criteria before any that does not, then by mean cost.
std::pair<bool, double> greedy_key(const RegionSetRow& row, const RankingCriteria& criteria) {
  return {!exclusion_reason(row.metrics(), criteria).empty(), row.cost.mean};
}

// `regions` in the order of `order` (the trace's), so that a set has one spelling whatever the order it was built in.
std::vector<std::string> in_order(const std::vector<std::string>& regions, const std::vector<std::string>& order) {
  std::vector<std::string> sorted;
  for (const std::string& r : order) {
    if (std::find(regions.begin(), regions.end(), r) != regions.end()) sorted.push_back(r);
  }
  return sorted;
}

std::string count_text(double n) { return format_fixed(n, 1); }

const RegionSetRow* best_single_of(const std::vector<RegionSetRow>& rows) {
  for (const RegionSetRow& row : rows) {
    if (row.regions.size() == 1 && row.ranked.rank > 0) return &row;
  }
  return nullptr;
}

std::optional<Summary> paired_saving(const std::vector<RegionSetRow>& rows) {
  const RegionSetRow* single = best_single_of(rows);
  if (rows.empty() || rows.front().ranked.rank != 1 || single == nullptr || single == &rows.front())
    return std::nullopt;
  const std::vector<double>& a = single->run_costs;
  const std::vector<double>& b = rows.front().run_costs;
  if (a.empty() || a.size() != b.size()) return std::nullopt;
  std::vector<double> saving(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) saving[i] = a[i] - b[i];
  return summarize(saving);
}

std::string recommendation_of(const std::vector<RegionSetRow>& rows, const std::optional<Summary>& saving) {
  if (rows.empty() || rows.front().ranked.rank != 1) {
    return "No region set passes the criteria" + (rows.empty()
                                                      ? std::string(".")
                                                      : "; the closest is " + region_set_name(rows.front().regions) +
                                                            ": " + rows.front().ranked.excluded_because + ".");
  }
  const RegionSetRow& best = rows.front();
  const RegionSetRow* best_single = best_single_of(rows);
  const std::string cost = format_usd(best.cost.mean) + " (95% CI " + format_usd(best.cost.ci_low) + "-" +
                           format_usd(best.cost.ci_high) + ")";
  if (best.regions.size() == 1) {
    return "Recommended: stay in " + best.regions.front() + ": expected " + cost +
           "; allowing more regions does not lower the expected cost.";
  }
  std::string line = "Recommended: allow " + region_set_name(best.regions) + ": expected " + cost + ", " +
                     count_text(best.mean_migrations) + " migrations per run, egress " +
                     format_usd(best.mean_egress_usd) + "; ";
  if (best_single == nullptr) return line + "no single region meets the criteria.";
  const double fraction = best_single->cost.mean > 0.0 ? 1.0 - best.cost.mean / best_single->cost.mean : 0.0;
  line += "best single region " + best_single->regions.front() + ": " + format_usd(best_single->cost.mean) +
          " (the set saves " + format_fixed(100.0 * fraction, 1) + "%";
  if (saving)
    line += ", paired 95% CI " + format_usd(saving->ci_low) + " to " + format_usd(saving->ci_high) + " per run";
  return line + ").";
}

nlohmann::json manifest_of(const RegionSetRequest& request, const std::string& trace_path,
                           const std::vector<std::string>& candidates) {
  const SimulationRequest& s = request.simulation;
  nlohmann::json job = {{"work_hours", to_hours(s.job.work)},
                        {"nodes", s.job.nodes},
                        {"checkpoint_write_s", to_seconds(s.job.checkpoint_write)},
                        {"restore_s", to_seconds(s.job.restore)},
                        {"startup_s", to_seconds(s.job.startup)},
                        {"checkpoint_size_gb", s.job.checkpoint_size_gb}};
  job["deadline_hours"] = s.job.deadline == kNever ? nlohmann::json(nullptr) : nlohmann::json(to_hours(s.job.deadline));
  if (s.gpu_step_times) job["file"] = s.gpu_step_times->file;
  nlohmann::json criteria = nlohmann::json::object();
  if (request.criteria.min_deadline_probability)
    criteria["min_deadline_probability"] = *request.criteria.min_deadline_probability;
  return {{"tool", "spotsim"},
          {"version", kVersion},
          {"git_revision", kGitRevision},
          {"command", "advise --region-sets"},
          {"trace", trace_path},
          {"candidate_regions", candidates},
          {"policy", s.policy},
          {"checkpoint", s.checkpoint},
          {"job", job},
          {"seed", s.seed},
          {"replications", s.replications},
          {"criteria", criteria}};
}

}  // namespace

AdviceMetrics RegionSetRow::metrics() const {
  return AdviceMetrics{cost.mean, cost.p95, hours.mean, hours.p95, deadline_met, completed, mean_preemptions};
}

std::string region_set_name(const std::vector<std::string>& regions) {
  std::string name;
  for (const std::string& r : regions) name += (name.empty() ? "" : " + ") + r;
  return name;
}

std::vector<std::vector<std::string>> greedy_region_path(const std::vector<std::string>& regions,
                                                         const std::vector<std::string>& start,
                                                         const RegionSetEvaluator& evaluate,
                                                         const RankingCriteria& criteria) {
  std::vector<std::vector<std::string>> path = {in_order(start, regions)};
  auto current_key = greedy_key(evaluate(path.back()), criteria);
  while (path.back().size() < regions.size()) {
    std::vector<std::string> best_set;
    std::pair<bool, double> best_key{true, 0.0};
    for (const std::string& region : regions) {
      const std::vector<std::string>& current = path.back();
      if (std::find(current.begin(), current.end(), region) != current.end()) continue;
      std::vector<std::string> grown = current;
      grown.push_back(region);
      grown = in_order(grown, regions);
      const auto key = greedy_key(evaluate(grown), criteria);
      // Strictly lower only: ties keep the earlier region of the trace, so the path is deterministic.
      if (best_set.empty() || key < best_key) {
        best_set = std::move(grown);
        best_key = key;
      }
    }
    if (!(best_key < current_key)) break;  // adding any region does not help: stop
    path.push_back(std::move(best_set));
    current_key = best_key;
  }
  return path;
}

RegionSetReport rank_region_sets(const RegionSetRequest& request) {
  const std::string trace_path = locate_trace(request.simulation.trace);
  const SpotMarket market = read_trace_file(trace_path);
  const std::vector<std::string> trace_regions = market_regions(market);
  if (trace_regions.size() < 2) {
    throw InputError(trace_path +
                     ": --region-sets needs a trace whose zones lie in several regions (trace format "
                     "version 2, e.g. gcp-h100-13-zones or aws-v100-9-zones); this one has " +
                     (trace_regions.size() == 1 && trace_regions.front().empty() ? std::string("no regions (version 1)")
                                                                                 : std::string("one region")));
  }
  std::vector<std::string> candidates = trace_regions;
  if (!request.candidates.empty()) {
    // Checks the names (unknown, listed twice) with the same messages as simulate --regions.
    select_zones(market, ZoneSelection{ZoneSelection::By::kRegions, request.candidates}, "--region");
    candidates = in_order(request.candidates, trace_regions);
  }
  policy_registry().selection_factory(request.simulation.policy);  // an unknown policy fails before any run

  std::map<std::vector<std::string>, std::unique_ptr<RegionSetRow>> evaluated;  // memo: each set simulated once
  const RegionSetEvaluator evaluate = [&](const std::vector<std::string>& regions) -> const RegionSetRow& {
    auto& slot = evaluated[regions];
    if (!slot) slot = std::make_unique<RegionSetRow>(evaluate_set(request, regions));
    return *slot;
  };

  std::vector<RegionSetRow> rows;
  const auto add_row = [&](const std::vector<std::string>& regions, const std::string& origin) {
    for (RegionSetRow& row : rows) {
      if (row.regions == regions) {
        row.origin += ", " + origin;
        return;
      }
    }
    rows.push_back(evaluate(regions));
    rows.back().origin = origin;
  };
  for (const std::string& region : candidates) add_row({region}, "single region");
  // Greedy starts from the best single region by the same key it then minimises.
  std::vector<std::string> start = rows.front().regions;
  for (const RegionSetRow& row : rows) {
    if (greedy_key(row, request.criteria) < greedy_key(evaluate(start), request.criteria)) start = row.regions;
  }
  RegionSetReport report;
  report.greedy_path = greedy_region_path(candidates, start, evaluate, request.criteria);
  for (std::size_t step = 1; step < report.greedy_path.size(); ++step) {
    add_row(report.greedy_path[step], "greedy step " + std::to_string(step + 1));
  }
  add_row(candidates, "all regions");
  report.sets_evaluated = evaluated.size();

  std::vector<AdviceMetrics> metrics;
  for (const RegionSetRow& row : rows) metrics.push_back(row.metrics());
  const Ranking ranking = rank_rows(metrics, request.criteria);
  for (std::size_t i : ranking.order) {
    report.rows.push_back(std::move(rows[i]));
    report.rows.back().ranked = ranking.entries[i];
  }
  report.manifest = manifest_of(request, trace_path, candidates);
  report.manifest["sets_evaluated"] = report.sets_evaluated;
  report.saving_vs_best_single = paired_saving(report.rows);
  report.recommendation = recommendation_of(report.rows, report.saving_vs_best_single);
  return report;
}

}  // namespace spotsim
