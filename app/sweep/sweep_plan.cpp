#include "app/sweep/sweep_plan.hpp"

#include <algorithm>
#include <filesystem>

#include "app/optimum_grid_report.hpp"
#include "base/errors.hpp"
#include "base/input_file.hpp"
#include "base/json_fields.hpp"
#include "base/shipped_library.hpp"
#include "model/job.hpp"
#include "model/random_streams.hpp"
#include "model/scenario.hpp"
#include "optimum/window_optimum.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

namespace fs = std::filesystem;

std::uint64_t SweepPlan::chunk_end(std::uint64_t chunk) const {
  return std::min((chunk + 1) * spec.chunk_runs, run_count());
}

std::uint64_t trace_seed(std::uint64_t base_seed, const std::string& trace_name) {
  return splitmix64(splitmix64(base_seed) ^ fnv1a64(trace_name));
}

namespace {
std::string resolve_trace(const std::string& ref, const std::string& spec_file) {
  const fs::path relative = fs::path(spec_file).parent_path() / ref;
  std::error_code ec;
  if (fs::path(ref).is_relative() && ref.find('/') != std::string::npos && fs::is_regular_file(relative, ec)) {
    return relative.string();
  }
  return locate_trace(ref);
}
}  // namespace

LoadedTraces load_traces(const ExperimentSpec& spec, const std::string& spec_file) {
  LoadedTraces loaded;
  for (std::size_t i = 0; i < spec.traces.size(); ++i) {
    const std::string field = spec_file + ": field 'traces[" + std::to_string(i) + "]': ";
    SpotMarket market;
    std::string path, bytes;
    try {
      path = resolve_trace(spec.traces[i], spec_file);
      const TraceEntry entry =
          i < spec.trace_entries.size() ? spec.trace_entries[i] : TraceEntry{spec.traces[i], {}, ""};
      bytes = read_input_file(path);  // read once: parsed here and hashed for the manifest below
      market = market_of_entry(entry, parse_trace(parse_json_text(bytes, path), path), "");
    } catch (const InputError& e) {
      throw InputError(field + e.what());
    }
    for (const TraceInfo& other : loaded.info) {
      if (other.name == market.name) {
        throw InputError(field + "trace name '" + market.name + "' is also the name of '" + other.ref +
                         "'; expected traces with distinct names (seeds and output rows are keyed by name)");
      }
    }
    TraceInfo info{spec.traces[i], market.name, trace_seed(spec.seed, market.name), hex64(fnv1a64(bytes)), {}, {}};
    for (const JobVariant& variant : spec.jobs) {
      JobSpec job;
      try {
        job = job_on_market(variant.job, variant.gpu_step_times, market, path);  // a per-GPU job needs the trace's GPU
        if (spec.regret) {  // as the sweep's runner builds the scenario
          Scenario scenario(market, job, spec.trace_start);
          if (spec.cant_be_late_mode) scenario.use_cant_be_late_mode();
          info.optimum_by_job.push_back(window_optimum_grid(scenario));
        }
      } catch (const InputError& e) {
        throw InputError(field + e.what());
      }
      const int nodes = market.zones.empty() ? 1 : resolve_job_instances(variant.job, market, spec_file).nodes;
      const Millis mtbf =
          market.zones.empty() ? kNever : spot_mean_time_between_preemptions(market.zones.front(), nodes);
      info.spot_mtbf_hours.push_back(mtbf >= kNever ? -1.0 : to_hours(mtbf));
    }
    loaded.info.push_back(std::move(info));
    loaded.markets.push_back(std::move(market));
  }
  return loaded;
}

SweepPlan plan_sweep(ExperimentSpec spec, std::vector<TraceInfo> traces) {
  SweepPlan plan;
  plan.spec = std::move(spec);
  plan.traces = std::move(traces);
  plan.spec_hash = hex64(fnv1a64(plan.spec.canonical.dump()));
  for (std::size_t t = 0; t < plan.traces.size(); ++t) {
    for (std::size_t j = 0; j < plan.spec.jobs.size(); ++j) {
      for (std::size_t p = 0; p < plan.spec.policies.size(); ++p) {
        for (std::size_t c = 0; c < plan.spec.checkpoints.size(); ++c) {
          plan.configurations.push_back(Configuration{plan.configurations.size(), t, j, p, c});
        }
      }
    }
  }
  return plan;
}

ShardSelection parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const std::string expected = "--shard '" + text + "': expected I/N with 1 <= I <= N, e.g. 2/4";
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) throw InputError(expected);
  const std::string i_text = text.substr(0, slash), n_text = text.substr(slash + 1);
  auto digits = [](const std::string& s) { return s.size() <= 9 && std::all_of(s.begin(), s.end(), ::isdigit); };
  if (!digits(i_text) || !digits(n_text)) throw InputError(expected);
  const ShardSelection shard{std::stoull(i_text), std::stoull(n_text)};
  if (shard.index < 1 || shard.index > shard.count) throw InputError(expected);
  return shard;
}

ChunkRange shard_chunks(const SweepPlan& plan, ShardSelection shard) {
  const std::uint64_t chunks = plan.chunk_count();
  return ChunkRange{(shard.index - 1) * chunks / shard.count, shard.index * chunks / shard.count};
}

nlohmann::json trace_info_json(const TraceInfo& info) {
  nlohmann::json mtbf = nlohmann::json::array();
  for (const double m : info.spot_mtbf_hours) mtbf.push_back(m < 0 ? nlohmann::json(nullptr) : nlohmann::json(m));
  nlohmann::json j = {{"ref", info.ref},
                      {"name", info.name},
                      {"seed", info.seed},
                      {"content_fnv1a64", info.content_hash},
                      {"spot_mtbf_hours_by_job", mtbf}};
  if (!info.optimum_by_job.empty()) {  // absent without regret: such sweeps' files are as before
    nlohmann::json optimum = nlohmann::json::array();
    for (const WindowOptimumGrid& grid : info.optimum_by_job) optimum.push_back(optimum_grid_json(grid));
    j["optimum_by_job"] = optimum;
  }
  return j;
}

TraceInfo trace_info_from_json(const nlohmann::json& j, const std::string& file) {
  try {
    TraceInfo info{j.at("ref").get<std::string>(),
                   j.at("name").get<std::string>(),
                   j.at("seed").get<std::uint64_t>(),
                   j.at("content_fnv1a64").get<std::string>(),
                   {},
                   {}};
    for (const auto& m : j.at("spot_mtbf_hours_by_job"))
      info.spot_mtbf_hours.push_back(m.is_null() ? -1.0 : m.get<double>());
    if (j.contains("optimum_by_job")) {
      for (const auto& grid : j.at("optimum_by_job")) {
        const std::string field = "traces[].optimum_by_job[" + std::to_string(info.optimum_by_job.size()) + "]";
        info.optimum_by_job.push_back(optimum_grid_from_json(grid, file, field));
      }
    }
    return info;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file + ": field 'traces': expected the trace records spotsim wrote (" + std::string(e.what()) +
                     ")");
  }
}

}  // namespace spotsim
