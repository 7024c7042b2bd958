#include "app/campaign/job_stream_csv.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "base/count_text.hpp"
#include "base/data_size.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/text_escape.hpp"
#include "base/text_lines.hpp"
#include "model/elastic_job.hpp"

namespace spotsim {

namespace {

constexpr std::array<const char*, 15> kColumns = {
    "name",   "arrival",         "work",      "gpus",          "nodes",  "priority",  "deadline",
    "score",  "checkpoint_size", "min_nodes", "instance_type", "params", "step_time", "gradient_bytes",
    "overlap"};

std::string column_list() {
  std::string list;
  for (std::size_t i = 0; i < kColumns.size(); ++i) {
    list += std::string(i == 0 ? "" : i + 1 == kColumns.size() ? " or " : ", ") + kColumns[i];
  }
  return list;
}

// The most parameters a job may state (a quadrillion: far beyond any model, and finite in every product below).
constexpr double kMaxParams = 1e15;
// A step of one GPU of at most a day.
constexpr double kMaxStepMs = 86'400'000.0;

// The columns of the step-time model's communication cost (docs/campaign.md#communication): params and step_time
// together, gradient_bytes and overlap only with them.
template <typename Cell>
void read_training(const TextLines& lines, const Cell& cell, DataParallelTraining& training) {
  if (!cell("params")) {
    for (const char* column : {"step_time", "gradient_bytes", "overlap"}) {
      if (cell(column)) lines.fail(column, "params beside it (the step-time model's communication needs both)", "none");
    }
    return;
  }
  try {
    training.params = parse_count(*cell("params"), "params");
  } catch (const InputError&) {
    lines.fail("params", "a parameter count such as 7B, 350M or 1.3e9", *cell("params"));
  }
  if (!(training.params >= 1.0 && training.params <= kMaxParams)) {
    lines.fail("params", "a parameter count between 1 and 1e15", *cell("params"));
  }
  if (!cell("step_time")) {
    lines.fail("step_time", "one training step on one GPU without communication (e.g. 350ms) beside params", "nothing");
  }
  try {
    training.step_ms = parse_duration_ms(*cell("step_time"), "step_time");
  } catch (const InputError&) {
    lines.fail("step_time", "a duration such as 350ms or 1.2s", *cell("step_time"));
  }
  if (!(training.step_ms > 0.0 && training.step_ms <= kMaxStepMs)) {
    lines.fail("step_time", "a positive duration of at most a day", *cell("step_time"));
  }
  if (cell("gradient_bytes")) {
    training.gradient_bytes = lines.number(*cell("gradient_bytes"), "gradient_bytes", 0.0, 16.0);
    if (!(training.gradient_bytes > 0.0)) lines.fail("gradient_bytes", "bytes per gradient value in (0, 16]", "0");
  }
  if (cell("overlap")) training.overlap = lines.number(*cell("overlap"), "overlap", 0.0, 1.0);
}

}  // namespace

std::vector<CampaignJob> read_job_stream_csv(const std::string& path, const JobSpec& defaults) {
  return read_job_stream_text(read_text_file(path), path, defaults);
}

std::vector<CampaignJob> read_job_stream_text(std::string text, const std::string& where, const JobSpec& defaults) {
  TextLines lines(std::move(text), where);
  std::vector<std::string> header;
  if (!lines.next(header)) throw InputError(where + ": empty; expected a header line such as 'name,arrival,work,gpus'");
  std::map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (std::find_if(kColumns.begin(), kColumns.end(), [&](const char* c) { return header[i] == c; }) ==
        kColumns.end()) {
      lines.fail(header[i], "one of " + column_list(), "an unknown column");
    }
    if (!column.emplace(header[i], i).second) lines.fail(header[i], "each column once", "it twice");
  }
  if (!column.count("work")) lines.fail("work", "a 'work' column (compute each job needs, e.g. 6h)", "none");
  if (column.count("gpus") && column.count("nodes")) lines.fail("gpus", "either gpus or nodes", "both");
  std::vector<CampaignJob> jobs;
  std::vector<std::string> fields;
  while (lines.next(fields)) {
    if (fields.size() != header.size()) {
      lines.fail("(line)", std::to_string(header.size()) + " comma-separated values", std::to_string(fields.size()));
    }
    const auto cell = [&](const char* name) -> const std::string* {
      const auto it = column.find(name);
      return it == column.end() || fields[it->second].empty() ? nullptr : &fields[it->second];
    };
    const auto duration = [&](const char* name) {
      try {
        return parse_duration(*cell(name), name);
      } catch (const InputError&) {
        lines.fail(name, "a duration such as 30m, 6h or 1.5d", *cell(name));
      }
    };
    CampaignJob job;
    job.job = defaults;
    job.name = cell("name") ? *cell("name") : "job-" + std::to_string(jobs.size() + 1);
    if (!is_valid_utf8(job.name)) lines.fail("name", "UTF-8 text", escape_control_characters(job.name));
    if (!cell("work")) lines.fail("work", "a duration", "nothing");
    job.job.work = duration("work");
    if (job.job.work <= 0) lines.fail("work", "a positive duration", *cell("work"));
    if (cell("arrival")) job.arrival = duration("arrival");
    if (cell("deadline")) job.job.deadline = duration("deadline");
    if (cell("gpus")) {
      job.job.gpus = static_cast<int>(lines.integer(*cell("gpus"), "gpus", 1, kMaxJobGpus));
      job.job.nodes = 0;
    }
    if (cell("nodes")) {  // the job counted in instances: the --gpus default no longer applies to it
      job.job.nodes = static_cast<int>(lines.integer(*cell("nodes"), "nodes", 1, 100000));
      job.job.gpus = 0;
    }
    if (cell("min_nodes")) {  // an elastic job (docs/elastic.md): trains on any k >= min_nodes of its instances
      job.job.elastic.min_nodes = static_cast<int>(lines.integer(*cell("min_nodes"), "min_nodes", 1, kMaxElasticNodes));
    }
    if (cell("priority"))
      job.priority = static_cast<int>(lines.integer(*cell("priority"), "priority", -1000000, 1000000));
    if (cell("score")) job.score = lines.number(*cell("score"), "score", -1e300, 1e300);
    if (cell("checkpoint_size")) {
      try {
        job.job.checkpoint_size_gb = parse_data_size_gb(*cell("checkpoint_size"), "checkpoint_size");
      } catch (const InputError&) {
        lines.fail("checkpoint_size", "a size such as 20GB or 18.6GiB", *cell("checkpoint_size"));
      }
    }
    if (cell("instance_type")) {
      job.instance_type = *cell("instance_type");
      if (!is_valid_utf8(job.instance_type)) {
        lines.fail("instance_type", "UTF-8 text", escape_control_characters(job.instance_type));
      }
    }
    read_training(lines, cell, job.training);
    jobs.push_back(std::move(job));
  }
  if (jobs.empty()) throw InputError(where + ": no job after the header");
  return jobs;
}

std::vector<CampaignJob> sweep_trials(int count, Millis shortest, Millis longest, const JobSpec& defaults) {
  std::vector<CampaignJob> trials;
  for (int k = 0; k < count; ++k) {
    CampaignJob trial;
    trial.name = "trial-" + std::to_string(k + 1);
    trial.job = defaults;
    const double f = count == 1 ? 0.0 : static_cast<double>(k) / (count - 1);
    trial.job.work = shortest + static_cast<Millis>(std::llround(f * static_cast<double>(longest - shortest)));
    trials.push_back(std::move(trial));
  }
  return trials;
}

}  // namespace spotsim
