#pragma once
// A Monte Carlo summary (base/statistics.hpp) as the dict every summary row of the module is made of.
#include <pybind11/pybind11.h>

#include "base/statistics.hpp"

namespace spotsim::python {

// n, mean, sd, min, max, p50, p95, p99, ci_low, ci_high
pybind11::dict summary_dict(const Summary& s);

}  // namespace spotsim::python
