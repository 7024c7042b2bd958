#pragma once
// Runs a whole experiment in memory and analyses it: what `spotsim regress` does with the spec a baseline
// records. Substitutions run another policy spec under an existing one's name ("young-daly" => "fixed:interval=
// 10m"): to try a new version of a policy against the committed baseline, or to check that the baseline would
// catch a worse one.
#include <string>
#include <utility>
#include <vector>

#include "app/sweep/experiment_spec.hpp"
#include "app/sweep/sweep_analysis.hpp"
#include "app/sweep/sweep_plan.hpp"

namespace spotsim {

struct PolicySubstitution {
  std::string from;  // a selection or checkpoint policy spec of the experiment
  std::string to;    // what runs in its place
};
// "OLD=>NEW"; InputError otherwise.
PolicySubstitution parse_substitution(const std::string& text);
// Whether `policy` is one of the spec's selection or checkpoint policy specs (what a substitution can replace).
bool experiment_runs_policy(const ExperimentSpec& spec, const std::string& policy);

struct ExperimentResults {
  SweepPlan plan;  // labels as in the spec, substitutions or not
  SweepAnalysis analysis;
};

// `file` locates relative trace paths and names the spec in error messages.
ExperimentResults rerun_experiment(const ExperimentSpec& spec, const std::string& file, int threads,
                                   const std::vector<PolicySubstitution>& substitutions = {});

}  // namespace spotsim
