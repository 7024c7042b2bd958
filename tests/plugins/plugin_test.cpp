// Compiled policy plugins: the example's policies equal the built-ins they rewrite, run after run; every way a
// plugin can break the ABI's rules ends in an InputError that names the policy, its file and what was expected.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "app/simulation_request.hpp"
#include "base/errors.hpp"
#include "policies/plugin/plugin_loader.hpp"
#include "policies/policy_registry.hpp"
#include "tests/support/scratch_path.hpp"

namespace spotsim {
namespace {

SimulationRequest request(const std::string& trace, const std::string& policy, const std::string& checkpoint) {
  SimulationRequest r;
  r.trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/" + trace + ".json";
  r.policy = policy;
  r.checkpoint = checkpoint;
  r.job.work = 40 * kMillisPerHour;
  r.job.deadline = 60 * kMillisPerHour;
  r.replications = 400;
  r.seed = 11;
  r.threads = 2;
  return r;
}

void expect_same_runs(const SimulationReport& a, const SimulationReport& b) {
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (std::size_t i = 0; i < a.runs.size(); ++i) {
    EXPECT_EQ(a.runs[i].fingerprint, b.runs[i].fingerprint) << "run " << i;
    EXPECT_EQ(a.runs[i].cost_total, b.runs[i].cost_total) << "run " << i;
    EXPECT_EQ(a.runs[i].completion_hours, b.runs[i].completion_hours) << "run " << i;
    EXPECT_EQ(a.runs[i].checkpoints, b.runs[i].checkpoints) << "run " << i;
  }
}

// The message of the InputError `run` throws ("" if none).
template <typename Run>
std::string error_of(Run&& run) {
  try {
    run();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has(const PolicyRegistry& registry, const std::string& name) {
  for (const auto& e : registry.selection_policies())
    if (e.name == name) return true;
  for (const auto& e : registry.checkpoint_policies())
    if (e.name == name) return true;
  return false;
}

TEST(Plugins, ExamplePoliciesJoinTheRegistryOnce) {
  load_policy_plugin(EXAMPLE_PLUGIN);
  load_policy_plugin(EXAMPLE_PLUGIN);  // a second load of the same file changes nothing
  EXPECT_EQ(loaded_policy_plugins().size(), 1u);
  const PolicyRegistry registry = policy_registry();
  for (const char* name : {"plugin-spot-only", "slack-guard", "plugin-fixed"}) EXPECT_TRUE(has(registry, name)) << name;
  EXPECT_FALSE(has(builtin_policy_registry(), "slack-guard"));
  EXPECT_TRUE(has(registry, "adaptive"));
}

TEST(Plugins, PluginPoliciesGiveTheBuiltInsRunsExactly) {
  load_policy_plugin(EXAMPLE_PLUGIN);
  for (const char* trace : {"us-west1", "gcp-h100-13-zones", "aws-us-west-2-v100"}) {
    SCOPED_TRACE(trace);
    expect_same_runs(run_simulation(request(trace, "spot-only", "fixed:interval=45m,on_notice=true")),
                     run_simulation(request(trace, "plugin-spot-only", "plugin-fixed:interval=45m,on_notice=true")));
  }
}

TEST(Plugins, SlackGuardWithAMarginLargerThanTheSlackIsOnDemandFromTheStart) {
  load_policy_plugin(EXAMPLE_PLUGIN);
  const SimulationReport guard = run_simulation(request("us-west1", "slack-guard:slack=100h", "young-daly"));
  for (const RunResult& run : guard.runs) {
    EXPECT_EQ(run.spot_starts, 0);
    EXPECT_EQ(run.on_demand_starts, 1);
    EXPECT_TRUE(run.deadline_met);
  }
  // With no margin it stays on spot while the slack lasts, so it is cheaper on average.
  const SimulationReport spot = run_simulation(request("us-west1", "slack-guard:slack=0s", "young-daly"));
  EXPECT_LT(spot.summaries.front().mean, guard.summaries.front().mean);
}

TEST(Plugins, ParametersAreCheckedByTheHostsGetters) {
  load_policy_plugin(EXAMPLE_PLUGIN);
  const std::string misspelt =
      error_of([] { run_simulation(request("us-west1", "slack-guard:slak=2h", "young-daly")); });
  EXPECT_NE(misspelt.find("slak"), std::string::npos) << misspelt;
  const std::string malformed =
      error_of([] { run_simulation(request("us-west1", "slack-guard:slack=soon", "young-daly")); });
  EXPECT_NE(malformed.find("slack"), std::string::npos) << malformed;
  const std::string unknown = error_of([] { run_simulation(request("us-west1", "slack-gaurd", "young-daly")); });
  EXPECT_NE(unknown.find("unknown policy; expected one of:"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("slack-guard"), std::string::npos) << "the list names the plugin's policies: " << unknown;
}

struct Misbehaviour {
  const char* policy;
  const char* checkpoint;
  const char* expected;
};

TEST(Plugins, MisbehavingPoliciesStopTheRunWithTheirNameFileAndTime) {
  load_policy_plugin(MISBEHAVING_PLUGIN);
  const Misbehaviour cases[] = {
      {"bad-purchase", "young-daly", "returned purchase 7; expected SPOTSIM_PURCHASE_NONE (0)"},
      {"bad-zone", "young-daly", "returned zone 1; expected 0 to 0"},
      {"past-review", "young-daly", "expected a time after now"},
      {"failing", "young-daly", "the model file is missing"},
      {"spot-only", "zero-interval", "next_interval() returned 0 ms"},
  };
  for (const Misbehaviour& c : cases) {
    SCOPED_TRACE(c.policy);
    const std::string message = error_of([&] { run_simulation(request("us-west1", c.policy, c.checkpoint)); });
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    EXPECT_NE(message.find("at simulated time"), std::string::npos) << message;
    EXPECT_NE(message.find("libmisbehaving_policies.so"), std::string::npos) << message;
  }
  const std::string refused = error_of([] { run_simulation(request("us-west1", "refusing", "young-daly")); });
  EXPECT_NE(refused.find("plugin policy 'refusing'"), std::string::npos) << refused;
  EXPECT_NE(refused.find("no licence for this policy"), std::string::npos) << refused;
}

TEST(Plugins, PluginsThatBreakTheAbiAreRefusedAtLoad) {
  const std::string version = error_of([] { load_policy_plugin(REFUSED_OTHER_VERSION_PLUGIN); });
  EXPECT_NE(version.find("built against spotsim plugin ABI 2, but this spotsim speaks ABI 1"), std::string::npos)
      << version;
  EXPECT_NE(version.find("rebuild"), std::string::npos) << version;
  const std::string taken = error_of([] { load_policy_plugin(REFUSED_NAME_TAKEN_PLUGIN); });
  EXPECT_NE(taken.find("policy name 'spot-only' is already taken"), std::string::npos) << taken;
  const std::string entry = error_of([] { load_policy_plugin(REFUSED_NO_ENTRY_POINT_PLUGIN); });
  EXPECT_NE(entry.find("exports no spotsim_plugin_register()"), std::string::npos) << entry;
  for (const std::string& file : loaded_policy_plugins()) {
    EXPECT_EQ(file.find("refused_"), std::string::npos) << "a refused plugin adds nothing: " << file;
  }
  EXPECT_FALSE(has(policy_registry(), "from-the-future"));
}

TEST(Plugins, FilesThatAreNotPluginsAreRefusedByName) {
  const std::string missing = error_of([] { load_policy_plugin("/nonexistent/libnothing.so"); });
  EXPECT_NE(missing.find("/nonexistent/libnothing.so: no such file"), std::string::npos) << missing;
  const std::string text_file = spotsim::testing::scratch_path("not_a_library.so");
  std::ofstream(text_file) << "this is not an ELF file\n";
  const std::string unreadable = error_of([&] { load_policy_plugin(text_file); });
  EXPECT_NE(unreadable.find("is not a shared library"), std::string::npos) << unreadable;
}

}  // namespace
}  // namespace spotsim
