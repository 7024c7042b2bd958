#pragma once
// Selection and checkpoint policies written in Python (docs/plugins.md#python-policies): adapters that make a Python
// object with reset() and decide(observation) (or next_interval(observation)) look like any C++ policy to the engine.
//
// A Python policy holds the GIL while it runs, so a simulation with one runs on one thread (the module forces
// threads=1, which never changes a result). The observation handed to Python is a view into the engine's snapshot,
// valid only during the call: a policy that keeps it and reads it later gets an error, not a dangling read.
#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "engine/replication_runner.hpp"

namespace spotsim::python {

// What the policy raised, with the policy's name and the simulated time; spotsim.PolicyError in Python.
class PolicyRaised : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The policy returned something of the wrong type (TypeError) or an impossible value (ValueError).
class PolicyReturnedWrongType : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class PolicyReturnedBadValue : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Factories that hand the engine one adapter around `policy` (an instance; reset() is called per replication).
// Either may be None: the factory is then empty.
PolicyFactories python_policy_factories(const pybind11::object& selection, const pybind11::object& checkpoint);

// The name a policy object goes by in messages and the manifest: its `name` attribute, else its class name.
std::string python_policy_name(const pybind11::handle& policy);

// Observation, SelectionDecision, Purchase and Phase as Python types, and the exceptions above.
void bind_python_policy_types(pybind11::module_& m);

}  // namespace spotsim::python
