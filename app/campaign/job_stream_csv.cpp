#include "app/campaign/job_stream_csv.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "base/data_size.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/text_escape.hpp"
#include "base/text_lines.hpp"
#include "model/elastic_job.hpp"

namespace spotsim {

namespace {

constexpr std::array<const char*, 11> kColumns = {
    "name",  "arrival",         "work",      "gpus",         "nodes", "priority", "deadline",
    "score", "checkpoint_size", "min_nodes", "instance_type"};

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
      lines.fail(header[i],
                 "one of name, arrival, work, gpus, nodes, priority, deadline, score, checkpoint_size, min_nodes, "
                 "instance_type",
                 "an unknown column");
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
