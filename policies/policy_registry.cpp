#include "policies/policy_registry.hpp"

#include <algorithm>

#include "base/errors.hpp"
#include "policies/plugin/python_policy_source.hpp"

namespace spotsim {

namespace {
template <typename Policy>
std::function<std::unique_ptr<Policy>()> factory_for(const std::vector<PolicyEntry<Policy>>& entries,
                                                     const std::string& spec, const std::string& option) {
  const PolicyParams params = PolicyParams::parse(spec, option);
  auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.name == params.name(); });
  if (it == entries.end()) {
    // `sweep` and `regress` answer this by re-running inside Python; other commands report it.
    if (params.name() == "python" && !python_policy_host_installed()) throw PythonHostNeeded(spec);
    std::string names;
    for (const auto& e : entries) names += (names.empty() ? "" : ", ") + e.name;
    throw InputError(option + " '" + params.name() + "': unknown policy; expected one of: " + names);
  }
  it->create(params);  // validates every parameter now
  params.reject_unused();
  auto create = it->create;
  return [create, params]() { return create(params); };
}
}  // namespace

void PolicyRegistry::add(PolicyEntry<SelectionPolicy> entry) { selection_.push_back(std::move(entry)); }
void PolicyRegistry::add(PolicyEntry<CheckpointPolicy> entry) { checkpoint_.push_back(std::move(entry)); }
void PolicyRegistry::add(PolicyEntry<NodePolicy> entry) { node_.push_back(std::move(entry)); }

std::function<std::unique_ptr<SelectionPolicy>()> PolicyRegistry::selection_factory(const std::string& spec) const {
  return factory_for(selection_, spec, "--policy");
}

std::function<std::unique_ptr<CheckpointPolicy>()> PolicyRegistry::checkpoint_factory(const std::string& spec) const {
  return factory_for(checkpoint_, spec, "--checkpoint");
}

bool PolicyRegistry::is_node_policy(const std::string& spec) const {
  const std::string name = spec.substr(0, spec.find(':'));
  return std::any_of(node_.begin(), node_.end(), [&](const auto& e) { return e.name == name; });
}

std::function<std::unique_ptr<NodePolicy>()> PolicyRegistry::node_factory(const std::string& spec) const {
  return factory_for(node_, spec, "--policy (a job with --min-nodes)");
}

}  // namespace spotsim
