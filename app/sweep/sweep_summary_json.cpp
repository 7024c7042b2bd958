// summary.json of a sweep (see sweep_outputs.hpp; every field in docs/outputs.md#sweep-outputs).
#include <cassert>
#include <filesystem>

#include "app/run_metrics.hpp"
#include "app/sweep/sweep_outputs.hpp"
#include "app/sweep/sweep_summary_writers.hpp"
#include "base/duration.hpp"
#include "base/json_text.hpp"

namespace spotsim {

namespace {

nlohmann::json full_summary(const Summary& s) {
  return {{"n", s.n},     {"mean", s.mean}, {"sd", s.sd},   {"min", s.min},       {"max", s.max},
          {"p50", s.p50}, {"p95", s.p95},   {"p99", s.p99}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}};
}

nlohmann::json mean_with_interval(const Summary& s) {
  return {{"n", s.n}, {"mean", s.mean}, {"sd", s.sd}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}};
}

nlohmann::json tuning_json(const SweepPlan& plan, const CheckpointTuning& t) {
  auto hours_or_null = [](double h) { return h < 0 ? nlohmann::json(nullptr) : nlohmann::json(h); };
  nlohmann::json references = nlohmann::json::array();
  for (const TuningReference& r : t.references) {
    nlohmann::json ref = mean_with_interval(r.metric);
    ref["configuration"] = r.configuration;
    ref["checkpoint"] = plan.checkpoint_of(plan.configurations[r.configuration]);
    ref["difference_to_best"] = mean_with_interval(r.difference_to_best);
    references.push_back(ref);
  }
  return {{"trace", plan.traces[t.trace].name},
          {"job", plan.spec.jobs[t.job].label},
          {"policy", plan.spec.policies[t.policy]},
          {"metric", plan.spec.tuning_metric},
          {"best_configuration", t.best_configuration},
          {"best_interval", format_duration(t.best_interval)},
          {"best_interval_hours", to_hours(t.best_interval)},
          {"best", mean_with_interval(t.best_metric)},
          {"plausible_interval_hours", {to_hours(t.plausible_low), to_hours(t.plausible_high)}},
          {"young_interval_hours", hours_or_null(t.young_interval_hours)},
          {"daly_interval_hours", hours_or_null(t.daly_interval_hours)},
          {"references", references}};
}

nlohmann::json configuration_json(const SweepPlan& plan, const Configuration& c, const ConfigurationResult& result) {
  const auto metrics = run_metrics();
  nlohmann::json summary = nlohmann::json::object();
  for (std::size_t m = 0; m < metrics.size(); ++m) summary[metrics[m].name] = full_summary(result.summaries[m]);
  nlohmann::json paired(nullptr);
  if (result.vs_baseline) {
    paired = {{"baseline_configuration", result.vs_baseline->baseline_configuration},
              {"baseline_policy", *plan.spec.baseline_policy}};
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      paired[metrics[m].name] = mean_with_interval(result.vs_baseline->by_metric[m]);
    }
  }
  return {{"configuration", c.index},
          {"trace", plan.traces[c.trace].name},
          {"policy", plan.policy_of(c)},
          {"checkpoint", plan.checkpoint_of(c)},
          {"job", plan.job_label_of(c)},
          {"seed", plan.seed_of(c)},
          {"summary", summary},
          {"paired_vs_baseline", paired},
          {"pareto", {{"mean", result.pareto_mean}, {"p95", result.pareto_p95}}}};
}

// Everything but the two long arrays, which stay empty here.
nlohmann::json summary_frame(const SweepPlan& plan) {
  nlohmann::json metric_list = nlohmann::json::array();
  for (const MetricDefinition& m : run_metrics()) metric_list.push_back({{"name", m.name}, {"unit", m.unit}});
  return {{"format", "spotsim-sweep-summary"},
          {"version", 1},
          {"name", plan.spec.name},
          {"spec_hash", plan.spec_hash},
          {"confidence", 0.95},
          {"replications", plan.spec.replications},
          {"baseline_policy",
           plan.spec.baseline_policy ? nlohmann::json(*plan.spec.baseline_policy) : nlohmann::json(nullptr)},
          {"metrics", metric_list},
          {"configurations", nlohmann::json::array()},
          {"checkpoint_tuning", nlohmann::json::array()}};
}

// An element of a top-level array as dump(2) writes it: indented by 4, elements separated by ",\n".
void append_element(ScratchFile& out, const nlohmann::json& element, bool& any) {
  std::string text = json_text(element, 2);
  std::string indented = any ? ",\n    " : "\n    ";
  indented.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    indented += c;
    if (c == '\n') indented += "    ";
  }
  out.write(indented);
  any = true;
}

// The array after its key: "[]" when empty, else "[", the elements, "\n  ]".
void write_array(StreamingFile& out, ScratchFile& elements, bool any) {
  if (!any) {
    out.write("[]");
    return;
  }
  out.write("[");
  elements.copy_to(out);
  out.write("\n  ]");
}

}  // namespace

nlohmann::json sweep_summary_json(const SweepPlan& plan, const SweepAnalysis& analysis) {
  nlohmann::json doc = summary_frame(plan);
  for (const Configuration& c : plan.configurations) {
    doc["configurations"].push_back(configuration_json(plan, c, analysis.configurations[c.index]));
  }
  for (const CheckpointTuning& t : analysis.tuning) doc["checkpoint_tuning"].push_back(tuning_json(plan, t));
  return doc;
}

SummaryJsonWriter::SummaryJsonWriter(const SweepPlan& plan, const std::string& path)
    : plan_(plan),
      out_(path),
      tuning_(std::filesystem::path(path).parent_path().string(), path + " (checkpoint tuning)"),
      configurations_(std::filesystem::path(path).parent_path().string(), path + " (configurations)") {}

void SummaryJsonWriter::add(const GroupAnalysis& group) {
  for (std::size_t k = 0; k < group.configurations.size(); ++k) {
    const Configuration& c = plan_.configurations[group.first_configuration + k];
    append_element(configurations_, configuration_json(plan_, c, group.configurations[k]), any_configuration_);
  }
  for (const CheckpointTuning& t : group.tuning) append_element(tuning_, tuning_json(plan_, t), any_tuning_);
}

void SummaryJsonWriter::finish() {
  // The frame with both arrays empty, split where they go. Only top-level keys start a line with two spaces
  // (strings cannot hold a raw newline), so the markers are unambiguous.
  const std::string frame = json_text(summary_frame(plan_), 2) + "\n";
  const std::string tuning_key = "\n  \"checkpoint_tuning\": []", configurations_key = "\n  \"configurations\": []";
  const std::size_t tuning_at = frame.find(tuning_key), configurations_at = frame.find(configurations_key);
  assert(tuning_at != std::string::npos && configurations_at != std::string::npos && tuning_at < configurations_at);
  const std::size_t tuning_end = tuning_at + tuning_key.size() - 2,
                    configurations_end = configurations_at + configurations_key.size() - 2;
  out_.write(std::string_view(frame).substr(0, tuning_end));
  write_array(out_, tuning_, any_tuning_);
  out_.write(std::string_view(frame).substr(tuning_end + 2, configurations_end - tuning_end - 2));
  write_array(out_, configurations_, any_configuration_);
  out_.write(std::string_view(frame).substr(configurations_end + 2));
  out_.commit();
}

}  // namespace spotsim
