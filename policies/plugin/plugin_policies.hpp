#pragma once
// Policies from a plugin's C tables (spotsim_plugin.h) as registry entries: the adapters call the plugin's
// functions, check what comes back, and turn a failure into an InputError that names the policy, its file and the
// simulated time.
#include <memory>
#include <string>

#include "policies/plugin/spotsim_plugin.h"
#include "policies/policy_registry.hpp"

namespace spotsim {

// `file` names the plugin in messages. The tables are copied (their strings too), so the plugin's statics may go.
PolicyEntry<SelectionPolicy> plugin_selection_entry(const spotsim_selection_policy& table, const std::string& file);
PolicyEntry<CheckpointPolicy> plugin_checkpoint_entry(const spotsim_checkpoint_policy& table, const std::string& file);

}  // namespace spotsim
