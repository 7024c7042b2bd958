// summary.md of a sweep: the per-configuration table and the checkpoint tuning table, in Markdown so that they
// read well on a terminal and paste into docs/validation.md unchanged.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/run_metrics.hpp"
#include "app/sweep/configuration_samples.hpp"
#include "app/sweep/sweep_outputs.hpp"
#include "app/sweep/sweep_summary_writers.hpp"
#include "base/duration.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

std::string with_interval(const Summary& s, int decimals) {
  return format_fixed(s.mean, decimals) + " [" + format_fixed(s.ci_low, decimals) + ", " +
         format_fixed(s.ci_high, decimals) + "]";
}

std::string signed_interval(const Summary& s, int decimals) {
  auto sign = [&](double v) {
    std::string text = v > 0 ? "+" : "";  // built step by step: GCC 12 warns falsely (-Wrestrict) on "+" + string
    text += format_fixed(v, decimals);
    return text;
  };
  return sign(s.mean) + " [" + sign(s.ci_low) + ", " + sign(s.ci_high) + "]";
}

std::string hours_or_dash(double h) { return h < 0 ? "–" : format_fixed(h, 2) + " h"; }

std::string pareto_marks(const ConfigurationResult& r) {
  if (r.pareto_mean && r.pareto_p95) return "mean, p95";
  if (r.pareto_mean) return "mean";
  if (r.pareto_p95) return "p95";
  return "";
}

// With regret: what it is measured against, once for the sweep (per configuration in summary.json).
std::string optimum_sentence(const SweepPlan& plan) {
  std::size_t pairs = 0, bounds = 0;
  Millis finest = kNever, coarsest = 0;
  for (const TraceInfo& trace : plan.traces) {
    for (const WindowOptimumGrid& grid : trace.optimum_by_job) {
      ++pairs;
      bounds += grid.exact ? 0 : 1;
      finest = std::min(finest, grid.grid);
      coarsest = std::max(coarsest, grid.grid);
    }
  }
  if (pairs == 0) return "";
  const std::string grids =
      finest == coarsest ? format_duration(finest) : format_duration(finest) + " to " + format_duration(coarsest);
  if (bounds == 0) return " Regret: against the offline optimum of each window, exact on its grid (" + grids + ").";
  return " Regret: against the offline optimum of each window on its grid (" + grids + "), a lower bound for " +
         std::to_string(bounds) + " of " + std::to_string(pairs) +
         " trace × job pairs (checkpoint transfer times rounded down to the grid; per configuration in summary.json).";
}

// The title, the description and the head of the configurations table.
std::string markdown_preamble(const SweepPlan& plan) {
  // Names and descriptions come from the spec and the trace files: their control characters are escaped.
  std::string out = "# " + escape_control_characters(plan.spec.name) + "\n\n";
  if (!plan.spec.description.empty()) out += escape_control_characters(plan.spec.description) + "\n\n";
  out += std::to_string(plan.run_count()) + " runs: " + std::to_string(plan.configurations.size()) +
         " configurations × " + std::to_string(plan.spec.replications) + " replications, seed " +
         std::to_string(plan.spec.seed) + ", spec " + plan.spec_hash +
         ". Means with Student-t 95% confidence intervals. Pareto: on the frontier of cost vs completion time "
         "(means, and 95th percentiles) among the configurations of the same trace and job." +
         optimum_sentence(plan) + "\n\n";
  const std::string baseline = plan.spec.baseline_policy ? *plan.spec.baseline_policy : "";
  out +=
      "| # | trace | job | policy | checkpoint | cost USD [95% CI] | cost p95 | completion h [95% CI] | completion p95 "
      "| completed | deadline met | Δ cost vs " +
      (baseline.empty() ? std::string("baseline") : baseline) + " [95% CI] | Pareto |\n";
  out += "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  return out;
}

void configuration_row(const SweepPlan& plan, const Configuration& c, const ConfigurationResult& r, std::string& out) {
  const std::size_t cost = metric_index("cost_total", "summary"), time = metric_index("completion_hours", "summary");
  const std::size_t met = metric_index("deadline_met", "summary"), done = metric_index("completed", "summary");
  const auto& s = r.summaries;
  out += "| " + std::to_string(c.index) + " | " + escape_markdown_cell(plan.traces[c.trace].name) + " | " +
         escape_markdown_cell(plan.job_label_of(c)) + " | `" + plan.policy_of(c) + "` | `" + plan.checkpoint_of(c) +
         "` | " + with_interval(s[cost], 2) + " | " + format_fixed(s[cost].p95, 2) + " | " + with_interval(s[time], 2) +
         " | " + format_fixed(s[time].p95, 2) + " | " + format_fixed(s[done].mean, 3) + " | " +
         format_fixed(s[met].mean, 3) + " | " +
         (r.vs_baseline ? signed_interval(r.vs_baseline->by_metric[cost], 2) : std::string("–")) + " | " +
         pareto_marks(r) + " |\n";
}

std::string tuning_table_head(const SweepPlan& plan) {
  const std::string& metric = plan.spec.tuning_metric;
  return "\n## Checkpoint interval\n\nBest fixed interval by mean " + metric + " (lower is better" +
         (metric_higher_is_better(metric) ? ", sign reversed" : "") +
         "); \"not significantly worse\" spans the intervals whose paired difference to the best has a 95% CI "
         "reaching 0. Young and Daly intervals use the first zone's mean time between preemptions.\n\n"
         "| trace | job | policy | best interval | " +
         metric +
         " [95% CI] | not significantly worse | Young | Daly |\n"
         "|---|---|---|---|---|---|---|---|\n";
}

std::string reference_table_head(const SweepPlan& plan) {
  return "\n| trace | job | policy | checkpoint | " + plan.spec.tuning_metric +
         " [95% CI] | Δ vs best interval [95% CI] |\n"
         "|---|---|---|---|---|---|\n";
}

void tuning_row(const SweepPlan& plan, const CheckpointTuning& t, std::string& out) {
  out += "| " + escape_markdown_cell(plan.traces[t.trace].name) + " | " +
         escape_markdown_cell(plan.spec.jobs[t.job].label) + " | `" + plan.spec.policies[t.policy] + "` | " +
         format_duration(t.best_interval) + " | " + with_interval(t.best_metric, 3) + " | " +
         format_duration(t.plausible_low) + " – " + format_duration(t.plausible_high) + " | " +
         hours_or_dash(t.young_interval_hours) + " | " + hours_or_dash(t.daly_interval_hours) + " |\n";
}

void reference_rows(const SweepPlan& plan, const CheckpointTuning& t, std::string& out) {
  for (const TuningReference& r : t.references) {
    out += "| " + escape_markdown_cell(plan.traces[t.trace].name) + " | " +
           escape_markdown_cell(plan.spec.jobs[t.job].label) + " | `" + plan.spec.policies[t.policy] + "` | `" +
           plan.checkpoint_of(plan.configurations[r.configuration]) + "` | " + with_interval(r.metric, 3) + " | " +
           signed_interval(r.difference_to_best, 3) + " |\n";
  }
}

}  // namespace

std::string sweep_summary_markdown(const SweepPlan& plan, const SweepAnalysis& analysis) {
  std::string out = markdown_preamble(plan);
  for (const Configuration& c : plan.configurations) configuration_row(plan, c, analysis.configurations[c.index], out);
  if (analysis.tuning.empty()) return out;
  out += tuning_table_head(plan);
  std::string references;
  for (const CheckpointTuning& t : analysis.tuning) {
    tuning_row(plan, t, out);
    reference_rows(plan, t, references);
  }
  if (!references.empty()) out += reference_table_head(plan) + references;
  return out;
}

SummaryMarkdownWriter::SummaryMarkdownWriter(const SweepPlan& plan, const std::string& path)
    : plan_(plan),
      out_(path),
      tuning_rows_(std::filesystem::path(path).parent_path().string(), path + " (checkpoint tuning)"),
      reference_rows_(std::filesystem::path(path).parent_path().string(), path + " (checkpoint tuning references)") {
  out_.write(markdown_preamble(plan));
}

void SummaryMarkdownWriter::add(const GroupAnalysis& group) {
  std::string text;
  for (std::size_t k = 0; k < group.configurations.size(); ++k) {
    configuration_row(plan_, plan_.configurations[group.first_configuration + k], group.configurations[k], text);
  }
  out_.write(text);
  std::string tuning, references;
  for (const CheckpointTuning& t : group.tuning) {
    tuning_row(plan_, t, tuning);
    reference_rows(plan_, t, references);
  }
  any_tuning_ = any_tuning_ || !group.tuning.empty();
  tuning_rows_.write(tuning);
  reference_rows_.write(references);
}

void SummaryMarkdownWriter::finish() {
  if (any_tuning_) {
    out_.write(tuning_table_head(plan_));
    tuning_rows_.copy_to(out_);
    if (!reference_rows_.empty()) {
      out_.write(reference_table_head(plan_));
      reference_rows_.copy_to(out_);
    }
  }
  out_.commit();
}

}  // namespace spotsim
