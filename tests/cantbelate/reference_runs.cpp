#include "reference_runs.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "traces/importers/trace_importer.hpp"

namespace spotsim::testing {

std::string reference_dir() { return std::string(SPOTSIM_SHARED_DIR) + "/data/validation/cant-be-late-reference"; }

std::vector<ReferenceWindow> read_reference_windows() {
  std::ifstream in(reference_dir() + "/windows.csv");
  if (!in) throw std::runtime_error("cannot read " + reference_dir() + "/windows.csv");
  std::vector<ReferenceWindow> windows;
  std::string line;
  std::getline(in, line);  // header: pair,window,start_tick,end_tick
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream fields(line);
    ReferenceWindow w;
    std::string window, start;
    std::getline(fields, w.pair, ',');
    std::getline(fields, window, ',');
    std::getline(fields, start, ',');
    w.window = std::stoi(window);
    w.start_tick = std::stoi(start);
    windows.push_back(w);
  }
  return windows;
}

std::vector<ReferenceRun> read_reference_runs() {
  std::ifstream in(reference_dir() + "/reference_runs.jsonl");
  if (!in) throw std::runtime_error("cannot read " + reference_dir() + "/reference_runs.jsonl");
  std::vector<ReferenceRun> runs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    runs.push_back({j.at("pair"), j.at("window"), j.at("deadline"), j.at("policy"), j.at("cost"),
                    j.at("finish_exact_h"), j.at("types")});
  }
  return runs;
}

SpotMarket reference_market(const std::string& pair) {
  ImportOptions options;
  options.on_demand_price_per_hour = 3.06;
  options.spot_price_per_hour = 0.9731;
  const std::string path = std::string(SPOTSIM_SHARED_DIR) +
                           "/data/preemption/aws-gcp-spot-availability/availability/1-node/aws-10-26-2022/" + pair +
                           ".json";
  return import_trace_file(path, "cant-be-late", options).market;
}

JobSpec reference_job(double deadline_hours) {
  JobSpec job;
  job.work = 48 * kMillisPerHour;
  job.startup = 12 * kMillisPerMinute;  // d = 0.2 h
  job.restore = 0;
  job.checkpoint_write = 0;
  job.deadline = millis_from_hours(deadline_hours);
  return job;
}

std::string spotsim_policy(const std::string& their_name) {
  if (their_name == "on_demand") return "on-demand";
  if (their_name == "strawman") return "greedy";
  if (their_name == "rc_cr_threshold") return "uniform-progress";
  throw std::runtime_error("unknown reference policy " + their_name);
}

}  // namespace spotsim::testing
