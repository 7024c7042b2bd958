#pragma once
// Policies by name (SimGrid-style plugin registry, built explicitly rather than by static initialisers, which a
// static library may drop). Adding a policy = one source file with a register_* function and one line in
// builtin_policies.cpp; the engine never changes.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/node_policy.hpp"
#include "model/policy_interfaces.hpp"
#include "policies/policy_params.hpp"

namespace spotsim {

template <typename Policy>
struct PolicyEntry {
  std::string name;
  std::string description;  // one line: the rule and its source
  std::string parameters;   // "key=default (meaning), ..." or empty
  std::function<std::unique_ptr<Policy>(const PolicyParams&)> create;
};

class PolicyRegistry {
 public:
  void add(PolicyEntry<SelectionPolicy> entry);
  void add(PolicyEntry<CheckpointPolicy> entry);
  void add(PolicyEntry<NodePolicy> entry);

  const std::vector<PolicyEntry<SelectionPolicy>>& selection_policies() const { return selection_; }
  const std::vector<PolicyEntry<CheckpointPolicy>>& checkpoint_policies() const { return checkpoint_; }
  // Policies of multi-node jobs in the elastic engine (model/node_policy.hpp).
  const std::vector<PolicyEntry<NodePolicy>>& node_policies() const { return node_; }

  // Factories that validate the spec once, here (so bad parameters fail before any thread starts), then build
  // a fresh policy per call. InputError for unknown names or parameters.
  std::function<std::unique_ptr<SelectionPolicy>()> selection_factory(const std::string& spec) const;
  std::function<std::unique_ptr<CheckpointPolicy>()> checkpoint_factory(const std::string& spec) const;
  std::function<std::unique_ptr<NodePolicy>()> node_factory(const std::string& spec) const;
  // Whether the spec names a multi-node policy.
  bool is_node_policy(const std::string& spec) const;

 private:
  std::vector<PolicyEntry<SelectionPolicy>> selection_;
  std::vector<PolicyEntry<CheckpointPolicy>> checkpoint_;
  std::vector<PolicyEntry<NodePolicy>> node_;
};

// Every policy that ships with spotsim.
PolicyRegistry builtin_policy_registry();
// The built-in policies and those of every loaded plugin (policies/plugin/plugin_loader.hpp): what the commands
// and the Python module offer by name.
PolicyRegistry policy_registry();

}  // namespace spotsim
