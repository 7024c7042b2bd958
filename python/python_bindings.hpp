#pragma once
// The parts of the `_spotsim` extension module, one per area of the core library. Each adds its functions and
// classes to the module; spotsim_module.cpp calls them all. The pure-Python layer (spotsim/__init__.py) turns
// what they return (dicts of columns, lists of rows) into pandas DataFrames.
#include <pybind11/pybind11.h>

namespace spotsim::python {

void bind_simulation(pybind11::module_& m);        // simulate(): SimulationRequest -> SimulationReport
void bind_policies(pybind11::module_& m);          // the policy registry, Young/Daly intervals
void bind_traces(pybind11::module_& m);            // shipped traces, trace summaries
void bind_lifetimes(pybind11::module_& m);         // lifetime records, Kaplan-Meier, model fits, lifetime models
void bind_steptime(pybind11::module_& m);          // Kineto step profiles, step-time prediction, GPU specs
void bind_plugins(pybind11::module_& m);           // compiled policy plugins (--plugin)
void bind_windows(pybind11::module_& m);           // one run per given trace start (strategy scoring)
void bind_campaign(pybind11::module_& m);          // campaigns: many jobs sharing limited spot capacity
void bind_builtin_policies(pybind11::module_& m);  // BuiltinPolicy: a built-in rule a Python policy can call
void bind_command_host(pybind11::module_& m);      // sweep/regress with python:MODULE:Class policies
void bind_timeline(pybind11::module_& m);          // simulate --timeline files, read as the report reads them

}  // namespace spotsim::python
