// spotsim.BuiltinPolicy: a built-in (or plugin) selection policy as a Python object with reset() and
// decide(observation), so that a Python policy can wrap a built-in rule (docs/plugins.md#wrapping-a-built-in-rule):
// ask it, then adjust, log or veto its decision. It sees exactly the snapshot the Python policy was given, so a
// wrapper that passes every decision through runs exactly as the built-in does (tests/python/test_python_wrapping.py).
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "model/policy_interfaces.hpp"
#include "policies/policy_registry.hpp"
#include "python/observation_view.hpp"
#include "python/python_bindings.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

struct BuiltinSelectionPolicy {
  std::string spec;
  std::unique_ptr<SelectionPolicy> policy;
};

}  // namespace

void bind_builtin_policies(py::module_& m) {
  py::class_<BuiltinSelectionPolicy>(m, "BuiltinPolicy",
                                     "a built-in selection policy ('greedy', 'adaptive:reserve=0.2', ...) to call "
                                     "from a Python policy: reset() per run, decide(observation) -> SelectionDecision")
      .def(py::init([](const std::string& spec) {
             return BuiltinSelectionPolicy{spec, policy_registry().selection_factory(spec)()};
           }),
           py::arg("spec"))
      .def_readonly("spec", &BuiltinSelectionPolicy::spec)
      .def(
          "reset", [](BuiltinSelectionPolicy& b) { b.policy->reset(); }, "start a new run (forget its state)")
      .def(
          "decide", [](BuiltinSelectionPolicy& b, const ObservationView& view) { return b.policy->decide(view.get()); },
          py::arg("observation"), "the built-in's decision on the observation the calling policy received")
      .def("__repr__", [](const BuiltinSelectionPolicy& b) { return "BuiltinPolicy('" + b.spec + "')"; });
}

}  // namespace spotsim::python
