#pragma once
// The options of `spotsim simulate` that describe the simulation (scenario, job, Monte Carlo, timeline), declared
// once and read by one function: the CLI (cli/simulate_command.cpp) and Python's spotsim.simulate()
// (python/simulate_options.cpp) both parse them here, so the two cannot drift apart (the parity test,
// tests/python/test_cli_parity.py, checks that every option here is a keyword argument of simulate()).
// The CLI adds only what concerns its own output: --help, --version, --list-policies, --plugin, --format,
// --output, --quiet.
#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/simulation_request.hpp"

namespace spotsim {

boost::program_options::options_description simulate_request_options();

// The request the parsed options describe (InputError naming the option for any bad value).
SimulationRequest simulation_request_from(const boost::program_options::variables_map& vm);

// --timeline FILE with --timeline-replications: checked before the run (the request supports timelines, the file
// can be written), written after it.
struct TimelinePlan {
  std::string path;
  std::vector<std::uint64_t> replications;
};
std::optional<TimelinePlan> timeline_plan_from(const boost::program_options::variables_map& vm,
                                               const SimulationRequest& request);

}  // namespace spotsim
