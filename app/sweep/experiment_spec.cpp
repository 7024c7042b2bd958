#include "app/sweep/experiment_spec.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "app/job_reader.hpp"
#include "app/run_metrics.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/integer_text.hpp"
#include "base/json_fields.hpp"
#include "policies/plugin/python_policy_source.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string hex64(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

std::string fixed_interval_checkpoint(Millis interval, bool on_notice) {
  return "fixed:interval=" + format_duration(interval) + (on_notice ? ",on_notice=true" : "");
}

namespace {

const std::vector<std::string> kSpecFields = {"format",
                                              "version",
                                              "name",
                                              "description",
                                              "seed",
                                              "replications",
                                              "traces",
                                              "policies",
                                              "checkpoints",
                                              "checkpoint_intervals",
                                              "checkpoint_on_notice",
                                              "baseline_policy",
                                              "job",
                                              "job_grid",
                                              "trace_start",
                                              "chunk_runs",
                                              "tuning_metric",
                                              "mode",
                                              "regret"};

// A non-empty array of distinct, non-empty strings.
std::vector<std::string> string_list(const JsonFields& f, const std::string& key) {
  const nlohmann::json& array = f.array(key);
  if (array.empty()) f.fail(key, "a non-empty array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string at = key + "[" + std::to_string(i) + "]";
    if (!array[i].is_string() || array[i].get<std::string>().empty()) f.fail_value(at, "a non-empty string", array[i]);
    const std::string value = array[i].get<std::string>();
    if (std::find(out.begin(), out.end(), value) != out.end()) f.fail_value(at, "each entry once", array[i]);
    out.push_back(value);
  }
  return out;
}

// Builds the policy once through the registry, so an unknown name or parameter fails here with the field named.
template <typename MakeFactory>
void check_policy_spec(const JsonFields& f, const std::string& field, MakeFactory make) {
  try {
    make();
  } catch (const PythonHostNeeded&) {
    throw;  // not an error in `sweep` and `regress`: they re-run inside Python (cli/python_exec.hpp)
  } catch (const InputError& e) {
    throw InputError(f.file() + ": field '" + field + "': " + e.what());
  }
}

std::uint64_t unsigned_integer(const JsonFields& f, const std::string& key, std::uint64_t min, std::uint64_t max) {
  const nlohmann::json& v = f.raw(key);
  const std::string expected = integer_range_text(min, max);  // the command line's rule and wording
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0)) f.fail_value(key, expected, v);
  const auto x = v.get<std::uint64_t>();
  if (x < min || x > max) f.fail_value(key, expected, v);
  return x;
}

nlohmann::json optional_object(const JsonFields& f, const std::string& key) {
  if (!f.has(key)) return nlohmann::json::object();
  f.object(key);  // fails unless it is an object
  return f.raw(key);
}

// "job": an object, or the path of a job file (relative to the spec), such as `spotsim steptime --job-out` writes.
// The canonical spec records the file's content, so the spec hash changes when the job does.
nlohmann::json job_object(const JsonFields& f) {
  if (!f.has("job") || !f.raw("job").is_string()) return optional_object(f, "job");
  const std::filesystem::path given(f.raw("job").get<std::string>());
  const std::filesystem::path path =
      given.is_absolute() ? given : std::filesystem::path(f.file()).parent_path() / given;
  nlohmann::json document;
  try {
    document = read_json_file(path.string());
  } catch (const InputError& e) {
    throw InputError(f.file() + ": field 'job': " + e.what());
  }
  if (!document.is_object())
    throw InputError(f.file() + ": field 'job': " + path.string() + ": expected a JSON object (a job file)");
  return document;
}

std::string grid_value_text(const nlohmann::json& value) {
  if (value.is_null()) return "none";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

// The cartesian product of the grid over the base job, in key order (keys sorted), the last key varying fastest.
std::vector<JobVariant> expand_jobs(const JsonFields& f, const nlohmann::json& base, const nlohmann::json& grid) {
  const std::string file = f.file();
  auto build = [&](const nlohmann::json& document, const std::string& where) {
    JobVariant variant{"", JobSpec{48 * kMillisPerHour}, std::nullopt};  // the simulate command's default job
    try {
      apply_job_json(document, file, variant.job, &variant.gpu_step_times);
      validate_job(variant.job, file);
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + " (in " + where + ")");
    }
    return variant;
  };
  if (grid.empty()) {
    const std::string label =
        base.contains("name") && base["name"].is_string() ? base["name"].get<std::string>() : "job";
    JobVariant variant = build(base, "field 'job'");
    variant.label = label;
    return {std::move(variant)};
  }
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes;
  for (auto it = grid.begin(); it != grid.end(); ++it) {
    const std::string key = "job_grid." + it.key();
    if (!it.value().is_array() || it.value().empty()) f.fail_value(key, "a non-empty array of values", it.value());
    std::vector<nlohmann::json> values(it.value().begin(), it.value().end());
    for (std::size_t i = 0; i < values.size(); ++i) {
      nlohmann::json probe = base;
      probe[it.key()] = values[i];
      build(probe, "field '" + key + "[" + std::to_string(i) + "]'");
    }
    axes.emplace_back(it.key(), std::move(values));
  }
  std::vector<JobVariant> jobs;
  std::vector<std::size_t> index(axes.size(), 0);
  for (;;) {
    nlohmann::json document = base;
    std::string label;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const nlohmann::json& value = axes[a].second[index[a]];
      if (value.is_null())
        document.erase(axes[a].first);
      else
        document[axes[a].first] = value;
      label += (label.empty() ? "" : ",") + axes[a].first + "=" + grid_value_text(value);
    }
    jobs.push_back(build(document, "field 'job_grid', combination " + label));
    jobs.back().label = label;
    std::size_t a = axes.size();
    while (a > 0 && ++index[a - 1] == axes[a - 1].second.size()) index[--a] = 0;
    if (a == 0) break;
  }
  return jobs;
}

}  // namespace

ExperimentSpec parse_experiment_spec(const nlohmann::json& document, const std::string& file) {
  const JsonFields f(document, file, "");
  // The format first: a baseline or a trace given by mistake is named as such, not by its first unknown field.
  if (f.string("format") != "spotsim-experiment") f.fail_value("format", "\"spotsim-experiment\"", f.raw("format"));
  f.reject_unknown(kSpecFields);
  if (f.integer("version", 1, 1000) != 1)
    f.fail_value("version", "1 (the only version this spotsim reads)", f.raw("version"));

  ExperimentSpec spec;
  spec.name = f.string("name");
  spec.description = f.optional_string("description");
  if (f.has("seed")) spec.seed = unsigned_integer(f, "seed", 0, UINT64_MAX);
  spec.replications = unsigned_integer(f, "replications", 1, 100'000'000);
  spec.trace_entries = parse_trace_entries(f, "traces");
  for (const TraceEntry& entry : spec.trace_entries) spec.traces.push_back(entry.ref);
  spec.policies = string_list(f, "policies");

  const PolicyRegistry registry = policy_registry();
  for (std::size_t i = 0; i < spec.policies.size(); ++i) {
    check_policy_spec(f, "policies[" + std::to_string(i) + "]", [&] {
      if (registry.is_node_policy(spec.policies[i])) {
        registry.node_factory(spec.policies[i]);
      } else {
        registry.selection_factory(spec.policies[i]);
      }
    });
  }
  if (f.has("checkpoints")) spec.checkpoints = string_list(f, "checkpoints");
  spec.checkpoint_on_notice = f.boolean("checkpoint_on_notice", false);
  if (f.has("checkpoint_intervals")) {
    const nlohmann::json& array = f.array("checkpoint_intervals");
    if (array.empty()) f.fail("checkpoint_intervals", "a non-empty array of durations such as \"30m\"");
    for (std::size_t i = 0; i < array.size(); ++i) {
      const std::string at = "checkpoint_intervals[" + std::to_string(i) + "]";
      if (!array[i].is_string()) f.fail_value(at, "a duration such as \"30m\"", array[i]);
      const Millis interval = parse_duration(array[i].get<std::string>(), file + ": field '" + at + "'");
      if (interval <= 0) f.fail_value(at, "a positive duration", array[i]);
      if (std::find(spec.checkpoint_intervals.begin(), spec.checkpoint_intervals.end(), interval) !=
          spec.checkpoint_intervals.end()) {
        f.fail_value(at, "each interval once", array[i]);
      }
      spec.checkpoint_intervals.push_back(interval);
    }
  }
  if (spec.checkpoints.empty() && spec.checkpoint_intervals.empty()) spec.checkpoints = {"young-daly"};
  for (std::size_t i = 0; i < spec.checkpoints.size(); ++i) {
    check_policy_spec(f, "checkpoints[" + std::to_string(i) + "]",
                      [&] { registry.checkpoint_factory(spec.checkpoints[i]); });
  }
  for (const Millis interval : spec.checkpoint_intervals) {
    const std::string generated = fixed_interval_checkpoint(interval, spec.checkpoint_on_notice);
    if (std::find(spec.checkpoints.begin(), spec.checkpoints.end(), generated) != spec.checkpoints.end()) {
      f.fail("checkpoint_intervals", "intervals not also listed in 'checkpoints' (" + generated + " is in both)");
    }
    spec.checkpoints.push_back(generated);
  }

  if (f.has("baseline_policy")) {
    spec.baseline_policy = f.string("baseline_policy");
    if (std::find(spec.policies.begin(), spec.policies.end(), *spec.baseline_policy) == spec.policies.end()) {
      f.fail_value("baseline_policy", "one of the entries of 'policies'", f.raw("baseline_policy"));
    }
  }
  const nlohmann::json base_job = job_object(f);
  const nlohmann::json grid = optional_object(f, "job_grid");
  spec.jobs = expand_jobs(f, base_job, grid);
  // Multi-node policies steer jobs with min_nodes (the elastic engine), selection policies the others.
  for (std::size_t i = 0; i < spec.policies.size(); ++i) {
    const bool multi_node = registry.is_node_policy(spec.policies[i]);
    for (const JobVariant& variant : spec.jobs) {
      if (multi_node != variant.job.elastic.active()) {
        f.fail("policies[" + std::to_string(i) + "]",
               multi_node ? "a selection policy for job '" + variant.label +
                                "', which has no min_nodes (multi-node policies "
                                "need jobs with min_nodes, docs/elastic.md)"
                          : "a multi-node policy (spot-nodes, deadline-nodes, on-demand-nodes) for job '" +
                                variant.label + "', which has min_nodes");
      }
    }
  }

  const std::string mode = f.optional_string("mode", "event");
  if (mode != "event" && mode != "cant-be-late") f.fail_value("mode", "\"event\" or \"cant-be-late\"", f.raw("mode"));
  spec.cant_be_late_mode = mode == "cant-be-late";
  spec.regret = f.boolean("regret", false);
  const std::string start = f.optional_string("trace_start", "random");
  if (start != "random") {
    spec.trace_start =
        TraceStart{false, parse_duration(start, file + ": field 'trace_start' (\"random\" or a duration)")};
  }
  if (f.has("chunk_runs")) spec.chunk_runs = unsigned_integer(f, "chunk_runs", 1, 10'000'000);
  spec.tuning_metric = f.optional_string("tuning_metric", "cost_total");
  const auto metrics = run_metrics();
  if (std::none_of(metrics.begin(), metrics.end(),
                   [&](const MetricDefinition& m) { return spec.tuning_metric == m.name; })) {
    f.fail_value("tuning_metric", "the name of a per-run metric (docs/outputs.md), e.g. cost_total",
                 f.raw("tuning_metric"));
  }

  nlohmann::json intervals = nlohmann::json::array();
  for (const Millis interval : spec.checkpoint_intervals) intervals.push_back(format_duration(interval));
  const std::vector<std::string> explicit_checkpoints(
      spec.checkpoints.begin(), spec.checkpoints.end() - static_cast<std::ptrdiff_t>(spec.checkpoint_intervals.size()));
  spec.canonical = {
      {"format", "spotsim-experiment"},
      {"version", 1},
      {"name", spec.name},
      {"description", spec.description},
      {"seed", spec.seed},
      {"replications", spec.replications},
      {"traces", trace_entries_to_json(spec.trace_entries)},
      {"policies", spec.policies},
      {"checkpoint_on_notice", spec.checkpoint_on_notice},
      {"baseline_policy", spec.baseline_policy ? nlohmann::json(*spec.baseline_policy) : nlohmann::json(nullptr)},
      {"job", base_job},
      {"job_grid", grid},
      {"trace_start", spec.trace_start.random ? std::string("random") : format_duration(spec.trace_start.offset)},
      {"mode", spec.cant_be_late_mode ? "cant-be-late" : "event"},
      {"regret", spec.regret},
      {"chunk_runs", spec.chunk_runs},
      {"tuning_metric", spec.tuning_metric},
  };
  // Empty lists are left out: the parser wants each list it is given to be non-empty.
  if (!explicit_checkpoints.empty()) spec.canonical["checkpoints"] = explicit_checkpoints;
  if (!intervals.empty()) spec.canonical["checkpoint_intervals"] = intervals;
  return spec;
}

ExperimentSpec read_experiment_spec(const std::string& path) {
  return parse_experiment_spec(read_json_file(path), path);
}

}  // namespace spotsim
