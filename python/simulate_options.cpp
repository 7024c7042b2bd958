#include "python/simulate_options.hpp"

#include "python/keyword_options.hpp"

namespace spotsim::python {

boost::program_options::variables_map simulate_options_from(const pybind11::dict& options) {
  return parse_keyword_options(options, simulate_request_options());
}

SimulationRequest simulation_request_from(const pybind11::dict& options) {
  return spotsim::simulation_request_from(simulate_options_from(options));
}

}  // namespace spotsim::python
