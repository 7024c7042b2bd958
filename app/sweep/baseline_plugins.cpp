#include "app/sweep/baseline_plugins.hpp"

#include <algorithm>

#include "base/errors.hpp"
#include "base/text_lines.hpp"
#include "policies/plugin/plugin_loader.hpp"
#include "policies/plugin/python_policy_source.hpp"

namespace spotsim {

namespace {

std::string policy_name(const std::string& spec) { return spec.substr(0, spec.find(':')); }

// `name` is a compiled plugin's policy name, or a whole Python policy spec (python:MODULE:Class).
bool spec_runs(const ExperimentSpec& spec, const std::string& name) {
  const auto named = [&](const std::string& s) { return s == name || policy_name(s) == name; };
  return std::any_of(spec.policies.begin(), spec.policies.end(), named) ||
         std::any_of(spec.checkpoints.begin(), spec.checkpoints.end(), named);
}

std::string content_hash(const std::string& file) { return hex64(fnv1a64(read_text_file(file))); }

// Compiled plugins, then the modules of Python policies: both are files a baseline's numbers depend on.
std::vector<LoadedPlugin> policy_files() {
  std::vector<LoadedPlugin> files = loaded_plugins();
  for (LoadedPlugin& module : loaded_python_policies()) files.push_back(std::move(module));
  return files;
}

}  // namespace

std::vector<RecordedPlugin> plugins_used(const ExperimentSpec& spec) {
  std::vector<RecordedPlugin> used;
  for (const LoadedPlugin& plugin : policy_files()) {
    RecordedPlugin record{plugin.file, {}, {}};
    for (const std::string& name : plugin.policies) {
      if (spec_runs(spec, name)) record.policies.push_back(name);
    }
    if (record.policies.empty()) continue;  // loaded for another baseline, or not at all by this experiment
    record.content_hash = content_hash(plugin.file);
    used.push_back(std::move(record));
  }
  return used;
}

std::vector<std::string> plugin_changes(const std::vector<RecordedPlugin>& recorded, const std::string& baseline) {
  const std::vector<LoadedPlugin> loaded = policy_files();
  std::vector<std::string> notes;
  for (const RecordedPlugin& r : recorded) {
    for (const std::string& name : r.policies) {
      const auto from = std::find_if(loaded.begin(), loaded.end(), [&](const LoadedPlugin& p) {
        return std::find(p.policies.begin(), p.policies.end(), name) != p.policies.end();
      });
      if (from == loaded.end() && name.starts_with(kPythonPolicyPrefix)) {
        throw InputError(baseline + ": policy '" + name + "' was recorded from the module " + r.path +
                         " (content hash " + r.content_hash + ") and is not run by this baseline's spec");
      }
      if (from == loaded.end()) {
        throw InputError(baseline + ": policy '" + name + "' was recorded from the plugin " + r.path +
                         " (content hash " + r.content_hash + "); load it with --plugin FILE");
      }
      const std::string now = content_hash(from->file);
      if (now == r.content_hash && from->file == r.path) continue;
      std::string note = "policy '" + name + "' now comes from " + from->file + " (content hash " + now + ")";
      const char* kind = name.starts_with(kPythonPolicyPrefix) ? "module" : "plugin";
      note += now == r.content_hash ? ", the same contents as the recorded " + r.path
                                    : "; the baseline was recorded with " + r.path + " (content hash " +
                                          r.content_hash + "): the " + kind + " changed since";
      notes.push_back(std::move(note));
    }
  }
  return notes;
}

}  // namespace spotsim
