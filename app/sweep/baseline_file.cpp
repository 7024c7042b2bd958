// Baseline files of `spotsim regress` (experiments/baselines/*.json): the experiment spec, which metrics are
// checked, and per configuration each checked metric's n, mean and sd — what Welch's test needs, nothing more.
#include "app/run_metrics.hpp"
#include "app/sweep/configuration_samples.hpp"
#include "app/sweep/regression.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "spotsim/version.hpp"

namespace spotsim {

std::vector<BaselineEntry> baseline_entries(const SweepPlan& plan, const SweepAnalysis& analysis,
                                            const std::vector<std::string>& metrics) {
  std::vector<BaselineEntry> entries;
  for (const Configuration& c : plan.configurations) {
    BaselineEntry entry{plan.traces[c.trace].name, plan.job_label_of(c), plan.policy_of(c), plan.checkpoint_of(c), {}};
    for (const std::string& name : metrics) {
      const Summary& s = analysis.configurations[c.index].summaries[metric_index(name, "metrics")];
      entry.metrics[name] = MeanRecord{s.n, s.mean, s.sd};
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

nlohmann::json baseline_json(const std::string& description, const SweepPlan& plan, const SweepAnalysis& analysis,
                             const std::vector<std::string>& metrics) {
  nlohmann::json configurations = nlohmann::json::array();
  for (const BaselineEntry& e : baseline_entries(plan, analysis, metrics)) {
    nlohmann::json values = nlohmann::json::object();
    for (const auto& [name, m] : e.metrics) values[name] = {{"n", m.n}, {"mean", m.mean}, {"sd", m.sd}};
    configurations.push_back(
        {{"trace", e.trace}, {"job", e.job}, {"policy", e.policy}, {"checkpoint", e.checkpoint}, {"metrics", values}});
  }
  nlohmann::json document = {{"format", "spotsim-baseline"},
                             {"version", 1},
                             {"description", description},
                             {"recorded_with", {{"tool_version", kVersion}, {"git_revision", kGitRevision}}},
                             {"spec", plan.spec.canonical},
                             {"metrics", metrics},
                             {"configurations", configurations}};
  // Only when a plugin's policy runs, so that the committed built-in baselines keep their bytes.
  for (const RecordedPlugin& p : plugins_used(plan.spec)) {
    document["plugins"].push_back({{"path", p.path}, {"content_hash", p.content_hash}, {"policies", p.policies}});
  }
  return document;
}

Baseline read_baseline(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  const JsonFields f(doc, path, "");
  // The format first: an experiment spec given by mistake is named as such, not by its first unknown field.
  if (f.string("format") != "spotsim-baseline") f.fail_value("format", "\"spotsim-baseline\"", f.raw("format"));
  f.reject_unknown(
      {"format", "version", "description", "recorded_with", "spec", "metrics", "configurations", "plugins"});
  if (f.integer("version", 1, 1000) != 1) f.fail_value("version", "1", f.raw("version"));
  Baseline baseline;
  baseline.description = f.optional_string("description");
  f.object("spec");
  baseline.spec = parse_experiment_spec(f.raw("spec"), path + " (field 'spec')");
  const nlohmann::json& metrics = f.array("metrics");
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const std::string at = "metrics[" + std::to_string(i) + "]";
    if (!metrics[i].is_string()) f.fail_value(at, "a metric name", metrics[i]);
    metric_index(metrics[i].get<std::string>(), path + ": field '" + at + "'");
    baseline.metrics.push_back(metrics[i].get<std::string>());
  }
  const nlohmann::json& configurations = f.array("configurations");
  for (std::size_t i = 0; i < configurations.size(); ++i) {
    const JsonFields c(configurations[i], path, "configurations[" + std::to_string(i) + "]");
    BaselineEntry entry{c.string("trace"), c.string("job"), c.string("policy"), c.string("checkpoint"), {}};
    const JsonFields values = c.object("metrics");
    for (const std::string& name : baseline.metrics) {
      const JsonFields m = values.object(name);
      entry.metrics[name] = MeanRecord{static_cast<std::size_t>(m.integer("n", 1, INT64_MAX)),
                                       m.number("mean", -1e300, 1e300), m.number("sd", 0.0, 1e300)};
    }
    baseline.entries.push_back(std::move(entry));
  }
  if (f.has("plugins")) {
    const nlohmann::json& plugins = f.array("plugins");
    for (std::size_t i = 0; i < plugins.size(); ++i) {
      const JsonFields p(plugins[i], path, "plugins[" + std::to_string(i) + "]");
      p.reject_unknown({"path", "content_hash", "policies"});
      RecordedPlugin plugin{p.string("path"), p.string("content_hash"), {}};
      const nlohmann::json& names = p.array("policies");
      for (std::size_t k = 0; k < names.size(); ++k) {
        if (!names[k].is_string() || names[k].get<std::string>().empty())
          p.fail_value("policies[" + std::to_string(k) + "]", "a policy name", names[k]);
        plugin.policies.push_back(names[k].get<std::string>());
      }
      baseline.plugins.push_back(std::move(plugin));
    }
  }
  return baseline;
}

}  // namespace spotsim
