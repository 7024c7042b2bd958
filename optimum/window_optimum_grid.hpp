#pragma once
// The grid a scenario's window optima are solved on, and whether they are exact there or a lower bound
// (window_optimum_grid in optimum/window_optimum.hpp computes it). Apart so that plans and outputs can carry it
// without the solvers' headers.
#include "base/time.hpp"

namespace spotsim {

struct WindowOptimumGrid {
  Millis grid = 0;
  bool exact = true;
};

}  // namespace spotsim
