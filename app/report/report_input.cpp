#include "app/report/report_input.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "app/report/campaign_input.hpp"
#include "app/report/csv_records.hpp"
#include "app/sweep/pareto.hpp"
#include "base/errors.hpp"
#include "base/file_checks.hpp"
#include "base/json_fields.hpp"

namespace spotsim {

namespace {

const char* const kExpected =
    "expected a `simulate --format json` or `campaign --format json` output, or a sweep output directory";

Estimate estimate_of(const nlohmann::json& summary, const char* metric, const std::string& file,
                     const std::string& where) {
  Estimate e;
  if (!summary.is_object() || !summary.contains(metric)) return e;
  const nlohmann::json& m = summary[metric];
  // A metric no run produced (regret without --regret: every value NaN) is written with null statistics by
  // `sweep` and `simulate`: absent, like a metric left out.
  if (m.is_null() || (m.is_object() && m.contains("mean") && m["mean"].is_null())) return e;
  const auto number = [&](const char* key) {
    if (!m.is_object() || !m.contains(key) || !m[key].is_number()) {
      throw InputError(file + ": field '" + where + "." + metric + "." + key + "': expected a number (" + kExpected +
                       ")");
    }
    return m[key].get<double>();
  };
  e.mean = number("mean");
  e.ci_low = number("ci_low");
  e.ci_high = number("ci_high");
  return e;
}

void read_estimates(ReportConfiguration& c, const nlohmann::json& summary, const std::string& file,
                    const std::string& where) {
  if (!summary.is_object()) throw InputError(file + ": field '" + where + "': expected an object of metric summaries");
  c.cost = estimate_of(summary, "cost_total", file, where);
  c.completion = estimate_of(summary, "completion_hours", file, where);
  if (!c.cost.present() || !c.completion.present()) {
    throw InputError(file + ": field '" + where + "': expected the summaries of cost_total and completion_hours (" +
                     kExpected + ")");
  }
  c.completed = estimate_of(summary, "completed", file, where);
  c.deadline_met = estimate_of(summary, "deadline_met", file, where);
  c.preemptions = estimate_of(summary, "preemptions", file, where);
  c.checkpoints = estimate_of(summary, "checkpoints", file, where);
  c.regret = estimate_of(summary, "regret", file, where);
  if (summary["cost_total"].contains("n") && summary["cost_total"]["n"].is_number_unsigned()) {
    c.replications = summary["cost_total"]["n"].get<std::uint64_t>();
  }
}

std::string string_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return "";
  const nlohmann::json& v = object[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("name") && v["name"].is_string()) return v["name"].get<std::string>();
  return "";
}

std::vector<double> numbers_field(const nlohmann::json& row, const char* key, const std::string& file) {
  std::vector<double> out;
  if (!row.contains(key)) return out;
  if (!row[key].is_array()) throw InputError(file + ": field '" + key + "': expected an array of numbers");
  for (const nlohmann::json& v : row[key]) {
    if (!v.is_number()) throw InputError(file + ": field '" + key + "': expected an array of numbers");
    out.push_back(v.get<double>());
  }
  return out;
}

// A campaign's output: one configuration per policy or managed offer. The makespan stands in for the completion
// time, jobs done for "completed", and P(every deadline met) gets the interval of a mean of 0/1 values.
ReportInput read_campaign_output(const nlohmann::json& doc, const std::string& path) {
  if (!doc.contains("policies") || !doc["policies"].is_array()) {
    throw InputError(path + ": field 'policies': expected an array of rows (a `campaign --format json` output)");
  }
  ReportInput input;
  input.source = path;
  input.command = "campaign";
  input.manifest = doc;
  input.manifest.erase("policies");
  const std::uint64_t n = doc.contains("replications") && doc["replications"].is_number_unsigned()
                              ? doc["replications"].get<std::uint64_t>()
                              : 0;
  for (const nlohmann::json& row : doc["policies"]) {
    if (!row.is_object()) throw InputError(path + ": field 'policies': expected objects, one per policy");
    ReportConfiguration c;
    c.trace = string_field(doc, "trace");
    c.job = doc.contains("jobs") ? doc["jobs"].dump() + " jobs" : "jobs";
    c.policy = string_field(row, "policy");
    c.managed = row.contains("managed") && row["managed"].is_boolean() && row["managed"].get<bool>();
    c.checkpoint = c.managed ? "managed" : string_field(doc, "checkpoint");
    c.cost = estimate_of(row, "cost_total", path, "policies");
    c.completion = estimate_of(row, "makespan_hours", path, "policies");
    if (!c.cost.present() || !c.completion.present()) {
      throw InputError(path + ": field 'policies': expected the summaries of cost_total and makespan_hours");
    }
    c.completed = estimate_of(row, "completed", path, "policies");
    c.preemptions = estimate_of(row, "preemptions", path, "policies");
    if (row.contains("p_deadline_met") && row["p_deadline_met"].is_number() && n > 1) {
      const double p = std::clamp(row["p_deadline_met"].get<double>(), 0.0, 1.0);
      const double half = 1.96 * std::sqrt(p * (1.0 - p) / static_cast<double>(n - 1));
      c.deadline_met = Estimate{p, std::max(0.0, p - half), std::min(1.0, p + half)};
    }
    c.replications = n;
    c.held_by_hour = numbers_field(row, "held_by_hour", path);
    c.capacity_by_hour = numbers_field(row, "capacity_by_hour", path);
    c.jobs = read_campaign_jobs(row, path);
    c.job_sizes = read_campaign_job_sizes(row, path);
    if (doc.contains("deadline_hours") && doc["deadline_hours"].is_number())
      c.deadline_hours = doc["deadline_hours"].get<double>();
    input.configurations.push_back(std::move(c));
  }
  input.break_even = read_campaign_break_even(doc, path);
  input.savings = read_campaign_savings(doc, path);
  if (input.configurations.empty()) throw InputError(path + ": field 'policies': expected at least one row");
  return input;
}

// A simulate JSON output, streamed: the runs keep only the two values the distributions need, and only the
// first kMaxRunsPerConfiguration of them, so a file of 10^7 runs costs no more memory than one of 10^4.
ReportInput read_simulate_output(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  std::string top_key;
  std::size_t runs_seen = 0;
  const nlohmann::json::parser_callback_t keep = [&](int depth, nlohmann::json::parse_event_t event,
                                                     nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (depth > static_cast<int>(kMaxJsonNesting)) {
      throw InputError(path + ": JSON nested deeper than " + std::to_string(kMaxJsonNesting) + " levels (" + kExpected +
                       ")");
    }
    if (event == Event::key && depth == 1) top_key = parsed.is_string() ? parsed.get<std::string>() : "";
    if (top_key != "runs") return true;
    if (event == Event::key && depth == 3) {
      const std::string key = parsed.get<std::string>();
      return key == "cost_total" || key == "completion_hours";
    }
    if (event == Event::object_end && depth == 2) return ++runs_seen <= kMaxRunsPerConfiguration;
    return true;
  };
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in, keep);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": not valid JSON (" + kExpected + "): " + e.what());
  }
  if (doc.is_object() && doc.contains("format") && doc["format"] == "spotsim-campaign")
    return read_campaign_output(doc, path);
  if (!doc.is_object() || !doc.contains("manifest") || !doc["manifest"].is_object() || !doc.contains("summary")) {
    throw InputError(path + ": no 'manifest' and 'summary' (" + kExpected + ")");
  }
  ReportInput input;
  input.source = path;
  input.command = "simulate";
  input.manifest = doc["manifest"];
  ReportConfiguration c;
  c.trace = string_field(input.manifest, "trace");
  c.policy = string_field(input.manifest, "policy");
  c.checkpoint = string_field(input.manifest, "checkpoint");
  c.job = "job";
  read_estimates(c, doc["summary"], path, "summary");
  const nlohmann::json& job = input.manifest.contains("job") ? input.manifest["job"] : nlohmann::json();
  if (job.is_object() && job.contains("deadline_hours") && job["deadline_hours"].is_number())
    c.deadline_hours = job["deadline_hours"].get<double>();
  if (doc.contains("timeline")) {
    if (!doc["timeline"].is_array())
      throw InputError(path + ": field 'timeline': expected an array (a header, then events)");
    for (const nlohmann::json& line : doc["timeline"]) input.embedded_timeline += line.dump() + '\n';
  }
  if (doc.contains("runs")) {
    if (!doc["runs"].is_array()) throw InputError(path + ": field 'runs': expected an array of runs");
    for (const nlohmann::json& run : doc["runs"]) {
      if (!run.is_object()) throw InputError(path + ": field 'runs': expected objects, one per run");
      const auto value = [&](const char* key) {
        return run.contains(key) && run[key].is_number() ? run[key].get<double>() : NAN;
      };
      c.run_costs.push_back(value("cost_total"));
      c.run_completions.push_back(value("completion_hours"));
    }
  }
  input.configurations.push_back(std::move(c));
  return input;
}

// runs.csv of a sweep: the first kMaxRunsPerConfiguration runs of each configuration.
void read_sweep_runs(const std::string& path, std::vector<ReportConfiguration>& configurations) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;  // the distributions are left out; the summary is enough for the rest
  CsvRecordReader reader(in, path);
  std::vector<std::string> header;
  if (!reader.next(header)) return;
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  for (const char* needed : {"configuration", "cost_total", "completion_hours"}) {
    if (!column.count(needed)) throw InputError(path + ": expected a column '" + needed + "' (a sweep's runs.csv)");
  }
  std::vector<std::string> row;
  while (reader.next(row)) {
    if (row.size() != header.size()) {
      throw InputError(path + ": line " + std::to_string(reader.line()) + ": expected " +
                       std::to_string(header.size()) + " fields, got " + std::to_string(row.size()));
    }
    const auto number = [&](const char* key) {
      const std::string& text = row[column[key]];
      try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) return v;
      } catch (const std::exception&) {
      }
      if (text == "nan") return static_cast<double>(NAN);
      throw InputError(path + ": line " + std::to_string(reader.line()) + ": column '" + key +
                       "': expected a number, got '" + text.substr(0, 40) + "'");
    };
    const double index = number("configuration");
    if (!(index >= 0 && index < static_cast<double>(configurations.size())) || index != std::floor(index)) {
      throw InputError(path + ": line " + std::to_string(reader.line()) + ": configuration " +
                       row[column["configuration"]] + " is not in summary.json");
    }
    ReportConfiguration& c = configurations[static_cast<std::size_t>(index)];
    if (c.run_costs.size() >= kMaxRunsPerConfiguration) continue;
    c.run_costs.push_back(number("cost_total"));
    c.run_completions.push_back(number("completion_hours"));
  }
}

ReportInput read_sweep_directory(const std::string& dir) {
  const std::filesystem::path root(dir);
  const std::string summary_path = (root / "summary.json").string();
  const std::string manifest_path = (root / "manifest.json").string();
  for (const std::string& file : {summary_path, manifest_path}) {
    const std::string problem = input_file_problem(file);
    if (!problem.empty()) throw InputError(file + ": " + problem + " (" + kExpected + ")");
  }
  ReportInput input;
  input.source = dir;
  input.command = "sweep";
  input.manifest = read_json_file(manifest_path);
  if (!input.manifest.is_object()) throw InputError(manifest_path + ": expected a JSON object (a sweep's manifest)");
  const nlohmann::json summary = read_json_file(summary_path);
  if (!summary.is_object() || !summary.contains("format") || summary["format"] != "spotsim-sweep-summary" ||
      !summary.contains("configurations") || !summary["configurations"].is_array()) {
    throw InputError(summary_path +
                     ": expected a sweep summary (format 'spotsim-sweep-summary' with 'configurations')");
  }
  const nlohmann::json& list = summary["configurations"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "configurations[" + std::to_string(i) + "]";
    if (!list[i].is_object()) throw InputError(summary_path + ": field '" + where + "': expected an object");
    ReportConfiguration c;
    c.trace = string_field(list[i], "trace");
    c.policy = string_field(list[i], "policy");
    c.checkpoint = string_field(list[i], "checkpoint");
    c.job = string_field(list[i], "job");
    read_estimates(c, list[i].value("summary", nlohmann::json()), summary_path, where + ".summary");
    input.configurations.push_back(std::move(c));
  }
  if (input.configurations.empty()) throw InputError(summary_path + ": no configurations to report");
  read_sweep_runs((root / "runs.csv").string(), input.configurations);
  return input;
}

}  // namespace

void mark_pareto_frontier(std::vector<ReportConfiguration>& configurations) {
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < configurations.size(); ++i) {
    groups[{configurations[i].trace, configurations[i].job}].push_back(i);
  }
  for (const auto& [key, members] : groups) {
    std::vector<ObjectivePoint> points;
    for (const std::size_t i : members)
      points.push_back({configurations[i].cost.mean, configurations[i].completion.mean});
    const std::vector<bool> on = pareto_frontier(points);
    for (std::size_t k = 0; k < members.size(); ++k) configurations[members[k]].pareto = on[k];
  }
}

ReportInput read_report_input(const std::string& path) {
  std::error_code error;
  ReportInput input;
  if (std::filesystem::is_directory(path, error)) {
    input = read_sweep_directory(path);
  } else {
    const std::string problem = input_file_problem(path);
    if (!problem.empty()) throw InputError(path + ": " + problem + " (" + kExpected + ")");
    input = read_simulate_output(path);
  }
  mark_pareto_frontier(input.configurations);
  return input;
}

}  // namespace spotsim
