#pragma once
// spotsim.simulate()'s keyword arguments -> a SimulationRequest, through the very options `spotsim simulate`
// declares and reads (app/options/simulate_request_options.hpp) and python/keyword_options.hpp's rules. The same
// defaults, precedence (command line over the --job file) and error messages follow by construction;
// tests/python/test_cli_parity.py and tests/python/test_errors.py hold the two front ends together.
#include <pybind11/pybind11.h>

#include <boost/program_options.hpp>

#include "app/options/simulate_request_options.hpp"
#include "app/simulation_request.hpp"

namespace spotsim::python {

boost::program_options::variables_map simulate_options_from(const pybind11::dict& options);
SimulationRequest simulation_request_from(const pybind11::dict& options);

}  // namespace spotsim::python
