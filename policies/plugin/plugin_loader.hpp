#pragma once
// Loading policy plugins (shared libraries built against policies/plugin/spotsim_plugin.h) into the process-wide
// list that policy_registry() adds to the built-in policies. Load before any simulation starts: the list is only
// read afterwards, from any thread.
#include <string>
#include <vector>

#include "policies/policy_registry.hpp"

namespace spotsim {

// dlopen()s the file and calls its spotsim_plugin_register(). InputError naming the file when it cannot be
// opened, lacks the function, was built against another ABI version, registers a name already taken (a built-in
// policy's or another plugin's) or fails. Loading the same file twice is a no-op.
void load_policy_plugin(const std::string& path);

// The files loaded so far, in order.
std::vector<std::string> loaded_policy_plugins();

// A loaded plugin: its file (canonical path) and the names of the policies it added, selection and checkpoint.
struct LoadedPlugin {
  std::string file;
  std::vector<std::string> policies;
};
std::vector<LoadedPlugin> loaded_plugins();

// Adds every loaded plugin's policies to `registry`.
void add_plugin_policies(PolicyRegistry& registry);

}  // namespace spotsim
