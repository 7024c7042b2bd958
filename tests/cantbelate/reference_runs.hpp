#pragma once
// The per-window runs of the Can't Be Late authors' simulator in ../shared/data/validation/cant-be-late-reference/
// (see its README), and the market and job they were run on.
#include <string>
#include <vector>

#include "model/job.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim::testing {

struct ReferenceWindow {
  std::string pair;  // base trace, e.g. "us-west-2a_v100_1"
  int window = 0;
  int start_tick = 0;
};

struct ReferenceRun {
  std::string pair;
  int window = 0;
  double deadline_hours = 0.0;
  std::string policy;  // their name: on_demand, strawman (Greedy), rc_cr_threshold (Uniform Progress)
  double cost = 0.0;
  double finish_exact_hours = 0.0;
  std::string types;  // instance held per tick: '.', 's', 'D'
};

std::string reference_dir();
std::vector<ReferenceWindow> read_reference_windows();
std::vector<ReferenceRun> read_reference_runs();
// The base trace of `pair` as the paper prices it: on-demand 3.06 USD/h, spot 0.9731 USD/h, ticks of 600 s.
SpotMarket reference_market(const std::string& pair);
// The paper's job: 48 h of lossless work, changeover d = 0.2 h, the given deadline.
JobSpec reference_job(double deadline_hours);
// spotsim's name for one of their policies.
std::string spotsim_policy(const std::string& their_name);

}  // namespace spotsim::testing
