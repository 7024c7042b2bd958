// `_spotsim`: the compiled half of the Python module `spotsim` (docs/python.md).
#include <pybind11/pybind11.h>

#include "sim/errors.hpp"
#include "spotsim/version.hpp"
#include "tools/python/python_bindings.hpp"

PYBIND11_MODULE(_spotsim, m) {
  m.doc() = "spotsim core: spot/preemptible GPU training simulation (use the `spotsim` package, not this module)";
  m.attr("__version__") = spotsim::kVersion;
  m.attr("git_revision") = spotsim::kGitRevision;
  // A ValueError subclass, so `except ValueError` catches it too; the message is the CLI's, word for word.
  pybind11::register_exception<spotsim::InputError>(m, "InputError", PyExc_ValueError);
  spotsim::python::bind_simulation(m);
  spotsim::python::bind_policies(m);
  spotsim::python::bind_traces(m);
  spotsim::python::bind_lifetimes(m);
  spotsim::python::bind_steptime(m);
  spotsim::python::bind_plugins(m);
}
