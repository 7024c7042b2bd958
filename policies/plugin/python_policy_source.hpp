#pragma once
// Python classes named in experiment specs, `python:MODULE:Class` (docs/plugins.md#python-in-specs). The engine and
// the commands know nothing of Python: the Python module, when it hosts a command (`spotsim sweep`/`regress` re-run
// inside Python), installs a resolver here, and policy_registry() then offers a selection and a checkpoint policy
// named `python` whose one unnamed argument is MODULE:Class. Without a host, naming one throws PythonHostNeeded,
// which `sweep` and `regress` answer by re-running themselves in Python (cli/python_exec.hpp); every other command
// reports it as the input error it is.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "model/policy_interfaces.hpp"
#include "policies/plugin/plugin_loader.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {

inline constexpr const char* kPythonPolicyPrefix = "python:";

// A spec names a Python class and no Python host is installed (the plain `spotsim` executable).
class PythonHostNeeded : public InputError {
 public:
  explicit PythonHostNeeded(const std::string& spec);
};

// A Python policy failed while a simulation ran (it raised, or answered with the wrong type or value); the message
// names the spec (python:MODULE:Class) and the simulated time. Commands add the file that named the policy.
class PythonPolicyFailed : public InputError {
 public:
  using InputError::InputError;
};

// What the host resolves MODULE:Class to: the module's file, and factories of fresh policies (one new instance of
// the class each; InputError naming the spec when the class cannot be instantiated or lacks the method).
struct ResolvedPythonPolicy {
  std::string file;
  std::function<std::unique_ptr<SelectionPolicy>()> selection;
  std::function<std::unique_ptr<CheckpointPolicy>()> checkpoint;
};
// `spec` is the whole policy spec ("python:MODULE:Class"), `target` its MODULE:Class; InputError naming the spec
// when the module cannot be imported or has no such class.
using PythonPolicyResolver =
    std::function<ResolvedPythonPolicy(const std::string& spec, const std::string& target, bool checkpoint)>;

// Installed once by the Python module's command host, before the command runs.
void install_python_policy_host(PythonPolicyResolver resolver);

// Whether a host is installed (then a missing `python` policy, e.g. among node policies, is just unknown).
bool python_policy_host_installed();

// Adds the `python` selection and checkpoint policies when a host is installed; nothing otherwise.
void add_python_policies(PolicyRegistry& registry);

// The Python policies resolved so far: each module file with the specs (python:MODULE:Class) that came from it, in
// the order they were first named. A baseline records them as it records compiled plugins (app/sweep/baseline_plugins).
std::vector<LoadedPlugin> loaded_python_policies();

}  // namespace spotsim
