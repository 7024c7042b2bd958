// run_hosted_command(args): `spotsim sweep` and `spotsim regress` run inside Python, where a spec's Python classes
// (python:MODULE:Class) can run (docs/plugins.md#python-in-specs). The CLI re-runs itself here through
// `python3 -m spotsim.command_host` (cli/python_exec.hpp); the command is the CLI's own code, so options, outputs,
// messages and exit codes are the same, and a Python class runs through the adapters of Python policy objects
// (python_policy.cpp), as in spotsim.simulate() and spotsim.sweep().
#include <pybind11/stl.h>

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "policies/plugin/python_policy_source.hpp"
#include "python/python_bindings.hpp"
#include "python/python_policy.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

// pybind11's text of a Python exception ends in its traceback ("\n\nAt:\n  FILE(LINE): FUNCTION\n..."), innermost
// first: one line for an error message, with the frame where it was raised.
std::string one_line(const std::string& what) {
  const std::size_t at = what.find("\n\nAt:\n");
  if (at == std::string::npos) return what;
  std::string frame = what.substr(at + 6);
  frame = frame.substr(0, frame.find('\n'));
  frame.erase(0, frame.find_first_not_of(' '));
  return what.substr(0, at) + (frame.empty() ? "" : " (at " + frame + ")");
}

// A failure while the simulation runs (the policy raised, or answered wrongly) becomes PythonPolicyFailed naming
// the spec, which the command reports with the file that named it (an input error, exit code 2).
template <typename Call>
auto naming(const std::string& spec, Call call) {
  try {
    return call();
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw PythonPolicyFailed("policy '" + spec + "': " + one_line(e.what()));
  }
}

class SpecSelectionPolicy final : public SelectionPolicy {
 public:
  SpecSelectionPolicy(std::unique_ptr<SelectionPolicy> inner, std::string spec)
      : inner_(std::move(inner)), spec_(std::move(spec)) {}
  void reset() override {
    naming(spec_, [&] { inner_->reset(); });
  }
  void prepare_oracle(const Scenario& scenario, Millis start) override {
    naming(spec_, [&] { inner_->prepare_oracle(scenario, start); });
  }
  SelectionDecision decide(const Observation& obs) override {
    return naming(spec_, [&] { return inner_->decide(obs); });
  }
  bool decision_holds_until_review() const override { return inner_->decision_holds_until_review(); }

 private:
  std::unique_ptr<SelectionPolicy> inner_;
  std::string spec_;
};

class SpecCheckpointPolicy final : public CheckpointPolicy {
 public:
  SpecCheckpointPolicy(std::unique_ptr<CheckpointPolicy> inner, std::string spec)
      : inner_(std::move(inner)), spec_(std::move(spec)) {}
  void reset() override {
    naming(spec_, [&] { inner_->reset(); });
  }
  Millis next_interval(const Observation& obs) override {
    return naming(spec_, [&] { return inner_->next_interval(obs); });
  }
  bool varies_within_instance() const override { return inner_->varies_within_instance(); }
  bool checkpoint_on_notice() const override { return inner_->checkpoint_on_notice(); }
  bool can_checkpoint() const override { return inner_->can_checkpoint(); }
  bool continuous() const override { return inner_->continuous(); }

 private:
  std::unique_ptr<CheckpointPolicy> inner_;
  std::string spec_;
};

// The adapters for one fresh instance of the class (GIL held): its constructor's exception, or a missing
// decide()/next_interval(), is an input error naming the spec.
PolicyFactories instance_factories(PyObject* cls, const std::string& spec, bool checkpoint) {
  py::object instance;
  try {
    instance = py::reinterpret_borrow<py::object>(cls)();
  } catch (py::error_already_set& e) {
    throw InputError("'" + spec + "': creating the policy raised " + one_line(e.what()));
  }
  try {
    return checkpoint ? python_policy_factories(py::none(), instance) : python_policy_factories(instance, py::none());
  } catch (const std::exception& e) {
    throw InputError("'" + spec + "': " + one_line(e.what()));
  }
}

ResolvedPythonPolicy resolve_class(const std::string& spec, const std::string& target, bool checkpoint) {
  py::gil_scoped_acquire gil;
  ResolvedPythonPolicy resolved;
  PyObject* cls = nullptr;
  try {
    const py::tuple found = py::module_::import("spotsim.command_host").attr("load_policy_class")(target);
    // Kept for the life of the process: a reference dropped after the interpreter has finalised would crash at exit.
    cls = py::object(found[0]).release().ptr();
    resolved.file = found[1].cast<std::string>();
  } catch (py::error_already_set& e) {
    throw InputError("'" + spec + "': " + std::string(py::str(e.value())));
  }
  if (checkpoint) {
    resolved.checkpoint = [cls, spec]() -> std::unique_ptr<CheckpointPolicy> {
      py::gil_scoped_acquire held;
      return std::make_unique<SpecCheckpointPolicy>(instance_factories(cls, spec, true).checkpoint(), spec);
    };
  } else {
    resolved.selection = [cls, spec]() -> std::unique_ptr<SelectionPolicy> {
      py::gil_scoped_acquire held;
      return std::make_unique<SpecSelectionPolicy>(instance_factories(cls, spec, false).selection(), spec);
    };
  }
  return resolved;
}

}  // namespace

void bind_command_host(py::module_& m) {
  m.def(
      "run_hosted_command",
      [](const std::vector<std::string>& args) -> int {
        if (args.empty() || (args[0] != "sweep" && args[0] != "regress")) {
          throw InputError("run_hosted_command: expected 'sweep' or 'regress' and its arguments");
        }
        install_python_policy_host(&resolve_class);
        const std::string display = "spotsim " + args[0];
        std::vector<const char*> argv = {display.c_str()};
        for (std::size_t i = 1; i < args.size(); ++i) argv.push_back(args[i].c_str());
        const int argc = static_cast<int>(argv.size());
        int code = 2;
        {
          py::gil_scoped_release released;  // the workers take it only to call a Python policy
          try {
            code = args[0] == "sweep" ? sweep_command(argc, argv.data()) : regress_command(argc, argv.data());
          } catch (const std::exception& e) {
            std::cerr << display << ": error: " << e.what() << "\n";
          }
        }
        std::cout.flush();
        return code;
      },
      py::arg("args"),
      "Run `spotsim sweep` or `spotsim regress` with these arguments, with Python policies (python:MODULE:Class) "
      "available by name; returns the exit code. The CLI calls it through `python3 -m spotsim.command_host`.");
}

}  // namespace spotsim::python
