#include "policies/plugin/python_policy_source.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

namespace spotsim {

namespace {

struct PythonPolicyCatalog {
  std::mutex mutex;
  PythonPolicyResolver resolver;
  // Resolved once per spec and kind: the module is imported once, each policy is a fresh instance.
  std::map<std::pair<std::string, bool>, ResolvedPythonPolicy> resolved;
  std::vector<LoadedPlugin> modules;  // in first-named order, for baselines
};

PythonPolicyCatalog& python_catalog() {
  static PythonPolicyCatalog c;
  return c;
}

ResolvedPythonPolicy resolve_python_policy(const PolicyParams& params, bool checkpoint) {
  const std::string target = params.text(PolicyParams::kPositional, "");
  const std::string spec = params.spec();
  PythonPolicyCatalog& c = python_catalog();
  std::lock_guard lock(c.mutex);
  if (const auto it = c.resolved.find({spec, checkpoint}); it != c.resolved.end()) return it->second;
  if (target.empty() || target.find(':') == std::string::npos || target.front() == ':' || target.back() == ':') {
    throw InputError("'" + spec + "': expected python:MODULE:Class, e.g. python:team_policies:DeadlineGuard");
  }
  ResolvedPythonPolicy policy = c.resolver(spec, target, checkpoint);
  auto module =
      std::find_if(c.modules.begin(), c.modules.end(), [&](const LoadedPlugin& m) { return m.file == policy.file; });
  if (module == c.modules.end()) module = c.modules.insert(c.modules.end(), LoadedPlugin{policy.file, {}});
  if (std::find(module->policies.begin(), module->policies.end(), spec) == module->policies.end()) {
    module->policies.push_back(spec);
  }
  c.resolved.emplace(std::make_pair(spec, checkpoint), policy);
  return policy;
}

const char* const kPythonPolicyDescription =
    "a Python class, python:MODULE:Class (sweep and regress specs; docs/plugins.md)";
const char* const kPythonPolicyParameters = "MODULE:Class (found in the spec's directory, then PYTHONPATH)";

}  // namespace

PythonHostNeeded::PythonHostNeeded(const std::string& spec)
    : InputError("'" + spec +
                 "': a Python policy (python:MODULE:Class) runs in `spotsim sweep` and `spotsim regress` specs, and "
                 "as a class in the Python module (docs/plugins.md#python-in-specs)") {}

void install_python_policy_host(PythonPolicyResolver resolver) {
  PythonPolicyCatalog& c = python_catalog();
  std::lock_guard lock(c.mutex);
  c.resolver = std::move(resolver);
}

bool python_policy_host_installed() {
  PythonPolicyCatalog& c = python_catalog();
  std::lock_guard lock(c.mutex);
  return static_cast<bool>(c.resolver);
}

void add_python_policies(PolicyRegistry& registry) {
  if (!python_policy_host_installed()) return;
  registry.add(PolicyEntry<SelectionPolicy>{
      "python", kPythonPolicyDescription, kPythonPolicyParameters,
      [](const PolicyParams& params) { return resolve_python_policy(params, false).selection(); }});
  registry.add(PolicyEntry<CheckpointPolicy>{
      "python", kPythonPolicyDescription, kPythonPolicyParameters,
      [](const PolicyParams& params) { return resolve_python_policy(params, true).checkpoint(); }});
}

std::vector<LoadedPlugin> loaded_python_policies() {
  PythonPolicyCatalog& c = python_catalog();
  std::lock_guard lock(c.mutex);
  return c.modules;
}

}  // namespace spotsim
