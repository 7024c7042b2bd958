#pragma once
// A Python handle on the engine's Observation for the length of one policy call: the adapter points it at the
// snapshot before calling Python and clears it after, so a policy that keeps the object cannot read freed memory.
#include "base/errors.hpp"
#include "model/observation.hpp"

namespace spotsim::python {

struct ObservationView {
  const Observation* observation = nullptr;

  const Observation& get() const {
    if (observation == nullptr) {
      throw InputError(
          "this Observation was kept after the policy call that received it: read what you need "
          "during the call");
    }
    return *observation;
  }
};

}  // namespace spotsim::python
