// `_spotsim`: the compiled half of the Python module `spotsim` (docs/python.md).
#include <pybind11/pybind11.h>

#include "base/errors.hpp"
#include "python/python_bindings.hpp"
#include "python/python_policy.hpp"
#include "spotsim/version.hpp"

PYBIND11_MODULE(_spotsim, m) {
  m.doc() = "spotsim core: spot/preemptible GPU training simulation (use the `spotsim` package, not this module)";
  m.attr("__version__") = spotsim::kVersion;
  m.attr("git_revision") = spotsim::kGitRevision;
  // A ValueError subclass, so `except ValueError` catches it too; the message is the CLI's, word for word.
  pybind11::register_exception<spotsim::InputError>(m, "InputError", PyExc_ValueError);
  // A policy written in Python that raised: the message names the policy and the simulated time.
  pybind11::register_exception<spotsim::python::PolicyRaised>(m, "PolicyError", PyExc_RuntimeError);
  pybind11::register_exception<spotsim::python::PolicyReturnedWrongType>(m, "PolicyTypeError", PyExc_TypeError);
  pybind11::register_exception<spotsim::python::PolicyReturnedBadValue>(m, "PolicyValueError", PyExc_ValueError);
  spotsim::python::bind_python_policy_types(m);
  spotsim::python::bind_simulation(m);
  spotsim::python::bind_policies(m);
  spotsim::python::bind_traces(m);
  spotsim::python::bind_lifetimes(m);
  spotsim::python::bind_steptime(m);
  spotsim::python::bind_plugins(m);
  spotsim::python::bind_windows(m);
  spotsim::python::bind_campaign(m);
  spotsim::python::bind_builtin_policies(m);
  spotsim::python::bind_command_host(m);
  spotsim::python::bind_timeline(m);
}
