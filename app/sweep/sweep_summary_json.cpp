// summary.json of a sweep (see sweep_outputs.hpp; every field in docs/outputs.md#sweep-outputs). The per-configuration
// and tuning objects, which make up nearly all of the file, are written as text by JsonWriter (no DOM: building and
// freeing one was two thirds of a 300-configuration sweep); the frame around them is small and built once.
#include <algorithm>
#include <cassert>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "app/run_metrics.hpp"
#include "app/sweep/sweep_outputs.hpp"
#include "app/sweep/sweep_summary_writers.hpp"
#include "base/duration.hpp"
#include "base/json_text.hpp"
#include "base/json_writer.hpp"

namespace spotsim {

namespace {

// The metrics in the order nlohmann::json's std::map keeps keys, which is the order summary.json lists them.
const std::vector<std::size_t>& metrics_by_name() {
  static const std::vector<std::size_t> order = [] {
    const auto metrics = run_metrics();
    std::vector<std::size_t> indices(metrics.size());
    for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
    std::sort(indices.begin(), indices.end(), [&](std::size_t a, std::size_t b) {
      return std::string_view(metrics[a].name) < std::string_view(metrics[b].name);
    });
    return indices;
  }();
  return order;
}

void write_full_summary(JsonWriter& w, const Summary& s) {
  w.begin_object();
  w.key("ci_high").value(s.ci_high).key("ci_low").value(s.ci_low).key("max").value(s.max).key("mean").value(s.mean);
  w.key("min").value(s.min).key("n").value(static_cast<std::uint64_t>(s.n)).key("p50").value(s.p50);
  w.key("p95").value(s.p95).key("p99").value(s.p99).key("sd").value(s.sd);
  w.end_object();
}

// The keys of a mean with its interval, in two parts for callers that add their own keys among them.
void write_interval_bounds(JsonWriter& w, const Summary& s) {
  w.key("ci_high").value(s.ci_high).key("ci_low").value(s.ci_low);
}
void write_mean_n_sd(JsonWriter& w, const Summary& s) {
  w.key("mean").value(s.mean).key("n").value(static_cast<std::uint64_t>(s.n)).key("sd").value(s.sd);
}

void write_mean_with_interval(JsonWriter& w, const Summary& s) {
  w.begin_object();
  write_interval_bounds(w, s);
  write_mean_n_sd(w, s);
  w.end_object();
}

void write_hours_or_null(JsonWriter& w, double hours) {
  if (hours < 0) {
    w.null();
  } else {
    w.value(hours);
  }
}

void write_tuning(JsonWriter& w, const SweepPlan& plan, const CheckpointTuning& t) {
  w.begin_object();
  w.key("best");
  write_mean_with_interval(w, t.best_metric);
  w.key("best_configuration").value(static_cast<std::uint64_t>(t.best_configuration));
  w.key("best_interval").value(format_duration(t.best_interval));
  w.key("best_interval_hours").value(to_hours(t.best_interval));
  w.key("daly_interval_hours");
  write_hours_or_null(w, t.daly_interval_hours);
  w.key("job").value(plan.spec.jobs[t.job].label);
  w.key("metric").value(plan.spec.tuning_metric);
  w.key("plausible_interval_hours").begin_array().value(to_hours(t.plausible_low)).value(to_hours(t.plausible_high));
  w.end_array();
  w.key("policy").value(plan.spec.policies[t.policy]);
  w.key("references").begin_array();
  for (const TuningReference& r : t.references) {
    w.begin_object();
    w.key("checkpoint").value(plan.checkpoint_of(plan.configurations[r.configuration]));
    write_interval_bounds(w, r.metric);
    w.key("configuration").value(static_cast<std::uint64_t>(r.configuration));
    w.key("difference_to_best");
    write_mean_with_interval(w, r.difference_to_best);
    write_mean_n_sd(w, r.metric);
    w.end_object();
  }
  w.end_array();
  w.key("trace").value(plan.traces[t.trace].name);
  w.key("young_interval_hours");
  write_hours_or_null(w, t.young_interval_hours);
  w.end_object();
}

void write_paired(JsonWriter& w, const SweepPlan& plan, const ConfigurationResult& result) {
  if (!result.vs_baseline) {
    w.null();
    return;
  }
  const auto metrics = run_metrics();
  // The two baseline keys sit among the metric names in sorted order.
  bool baseline_written = false;
  auto write_baseline = [&] {
    w.key("baseline_configuration").value(static_cast<std::uint64_t>(result.vs_baseline->baseline_configuration));
    w.key("baseline_policy").value(*plan.spec.baseline_policy);
    baseline_written = true;
  };
  w.begin_object();
  for (const std::size_t m : metrics_by_name()) {
    if (!baseline_written && std::string_view(metrics[m].name) > "baseline_policy") write_baseline();
    w.key(metrics[m].name);
    write_mean_with_interval(w, result.vs_baseline->by_metric[m]);
  }
  if (!baseline_written) write_baseline();
  w.end_object();
}

void write_configuration(JsonWriter& w, const SweepPlan& plan, const Configuration& c,
                         const ConfigurationResult& result) {
  const auto metrics = run_metrics();
  w.begin_object();
  w.key("checkpoint").value(plan.checkpoint_of(c));
  w.key("configuration").value(static_cast<std::uint64_t>(c.index));
  w.key("job").value(plan.job_label_of(c));
  if (plan.spec.regret) {  // what regret is measured against (absent without regret: those files are as before)
    w.key("optimum");
    const std::vector<WindowOptimumGrid>& grids = plan.traces[c.trace].optimum_by_job;
    if (c.job < grids.size()) {
      const WindowOptimumGrid& grid = grids[c.job];
      w.begin_object().key("exact").value(grid.exact).key("grid_s").value(to_seconds(grid.grid)).end_object();
    } else {
      w.null();  // a sweep directory written before the grid was recorded
    }
  }
  w.key("paired_vs_baseline");
  write_paired(w, plan, result);
  w.key("pareto").begin_object().key("mean").value(result.pareto_mean).key("p95").value(result.pareto_p95);
  w.end_object();
  w.key("policy").value(plan.policy_of(c));
  w.key("seed").value(static_cast<std::uint64_t>(plan.seed_of(c)));
  w.key("summary").begin_object();
  for (const std::size_t m : metrics_by_name()) {
    w.key(metrics[m].name);
    write_full_summary(w, result.summaries[m]);
  }
  w.end_object();
  w.key("trace").value(plan.traces[c.trace].name);
  w.end_object();
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
template <typename Write>
void append_element(std::string& text, bool& any, Write write) {
  text += any ? ",\n    " : "\n    ";
  JsonWriter w(text, 2);
  write(w);
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

// The frame's text and where its two empty arrays sit. Only top-level keys start a line with two spaces (strings
// cannot hold a raw newline), so the markers are unambiguous.
std::size_t empty_array_of(const std::string& frame, std::string_view key_line) {
  const std::size_t at = frame.find(key_line);
  assert(at != std::string::npos);
  return at + key_line.size() - 2;
}

}  // namespace

nlohmann::json sweep_summary_json(const SweepPlan& plan, const SweepAnalysis& analysis) {
  nlohmann::json doc = summary_frame(plan);
  for (const Configuration& c : plan.configurations) {
    std::string text;
    JsonWriter w(text);
    write_configuration(w, plan, c, analysis.configurations[c.index]);
    doc["configurations"].push_back(nlohmann::json::parse(text));
  }
  for (const CheckpointTuning& t : analysis.tuning) {
    std::string text;
    JsonWriter w(text);
    write_tuning(w, plan, t);
    doc["checkpoint_tuning"].push_back(nlohmann::json::parse(text));
  }
  return doc;
}

SummaryJsonWriter::SummaryJsonWriter(const SweepPlan& plan, const std::string& path)
    : plan_(plan),
      frame_(json_text(summary_frame(plan), 2) + "\n"),
      tuning_end_(empty_array_of(frame_, "\n  \"checkpoint_tuning\": []")),
      configurations_end_(empty_array_of(frame_, "\n  \"configurations\": []")),
      direct_(!sweep_tunes_checkpoints(plan)),
      out_(path),
      tuning_(std::filesystem::path(path).parent_path().string(), path + " (checkpoint tuning)"),
      configurations_(std::filesystem::path(path).parent_path().string(), path + " (configurations)") {
  assert(tuning_end_ < configurations_end_);
  if (direct_) {  // everything up to the configurations, the tuning array empty
    out_.write(std::string_view(frame_).substr(0, configurations_end_));
  }
}

void SummaryJsonWriter::write_configurations_array(std::string_view elements) {
  if (direct_) {
    if (!any_configuration_ && !elements.empty()) out_.write("[");
    out_.write(elements);
  } else {
    configurations_.write(elements);
  }
}

void SummaryJsonWriter::add(const GroupAnalysis& group) {
  text_.clear();
  bool any = any_configuration_;
  for (std::size_t k = 0; k < group.configurations.size(); ++k) {
    const Configuration& c = plan_.configurations[group.first_configuration + k];
    append_element(text_, any, [&](JsonWriter& w) { write_configuration(w, plan_, c, group.configurations[k]); });
  }
  write_configurations_array(text_);
  any_configuration_ = any;
  text_.clear();
  for (const CheckpointTuning& t : group.tuning) {
    assert(!direct_);
    append_element(text_, any_tuning_, [&](JsonWriter& w) { write_tuning(w, plan_, t); });
  }
  if (!text_.empty()) tuning_.write(text_);
}

void SummaryJsonWriter::finish() {
  const std::string_view frame(frame_);
  if (!direct_) {
    out_.write(frame.substr(0, tuning_end_));
    write_array(out_, tuning_, any_tuning_);
    out_.write(frame.substr(tuning_end_ + 2, configurations_end_ - tuning_end_ - 2));
    write_array(out_, configurations_, any_configuration_);
  } else {
    out_.write(any_configuration_ ? "\n  ]" : "[]");
  }
  out_.write(frame.substr(configurations_end_ + 2));
  out_.commit();
}

}  // namespace spotsim
