#pragma once
// Reads a job description (docs/outputs.md#job-files): the work as hours or as steps x step time, the node count,
// checkpoint/restore/start-up times and an optional deadline.
#include <string>

#include <nlohmann/json.hpp>

#include "sim/job.hpp"

namespace spotsim {

JobSpec read_job_file(const std::string& path);
// Applies the fields present in `document` on top of `job` (so a file can override defaults).
void apply_job_json(const nlohmann::json& document, const std::string& file, JobSpec& job);

}  // namespace spotsim
