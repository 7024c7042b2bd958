#pragma once
// spotsim.simulate()'s keyword arguments -> a SimulationRequest, by the rules of `spotsim simulate`
// (tools/simulate_command.cpp): the same defaults, the same precedence (command line over --job file) and the same
// error messages, naming each option as the CLI spells it (work -> --work, checkpoint_write -> --checkpoint-write),
// so a message reads the same in a notebook and in a terminal. tests/python/test_errors.py holds the two together.
#include <pybind11/pybind11.h>

#include "experiments/simulation_request.hpp"

namespace spotsim::python {

// Keys are the CLI's long option names with '-' written '_'; a key set to None counts as absent.
SimulationRequest simulation_request_from(const pybind11::dict& options);

}  // namespace spotsim::python
