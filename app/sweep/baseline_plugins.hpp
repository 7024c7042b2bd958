#pragma once
// Which plugin files a baseline's policies came from (`spotsim regress`, docs/experiments.md#plugins): recorded
// with the baseline (path and content hash), and checked against the plugins loaded when it is re-run, so that a
// baseline says which build of a plugin it holds numbers for, and a changed plugin is named in the report.
#include <string>
#include <vector>

#include "app/sweep/experiment_spec.hpp"

namespace spotsim {

struct RecordedPlugin {
  std::string path;          // canonical path when recorded
  std::string content_hash;  // hex FNV-1a 64 of the file's bytes (a fingerprint, as for traces; not a signature)
  std::vector<std::string> policies;  // the policies of the experiment that came from it
};

// The loaded plugins that provide a policy or checkpoint policy `spec` runs, each with the names it provides.
std::vector<RecordedPlugin> plugins_used(const ExperimentSpec& spec);

// Against the plugins loaded now: an InputError naming the baseline, the policy and the recorded file when a
// recorded plugin's policy is provided by no loaded plugin (load it with --plugin); otherwise one note per
// recorded plugin whose policies now come from a file with other contents (or another path).
std::vector<std::string> plugin_changes(const std::vector<RecordedPlugin>& recorded, const std::string& baseline);

}  // namespace spotsim
