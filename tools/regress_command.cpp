// `spotsim regress BASELINE.json...`: re-run the experiments committed baselines record and fail when a policy's
// cost, completion time or success rate got worse beyond Monte Carlo noise (rule: experiments/sweep/regression.hpp).
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "experiments/atomic_file.hpp"
#include "experiments/sweep/experiment_rerun.hpp"
#include "experiments/sweep/regression.hpp"
#include "sim/errors.hpp"
#include "sim/text_escape.hpp"
#include "tools/command_line.hpp"
#include "tools/commands.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

constexpr int kRegressed = 1;

po::options_description regress_options() {
  po::options_description options("Options");
  options.add_options()
      ("help,h", "show this help and exit")
      ("update", "rewrite the baseline(s) with the results of this build instead of comparing (deliberately: "
                 "review the diff before committing it)")
      ("from-spec", po::value<std::string>(), "with --update and one BASELINE: create it from this experiment spec")
      ("threads", po::value<std::string>()->default_value("0"), "worker threads (0 = all cores, at most 4096); never changes a result")
      ("substitute", po::value<std::vector<std::string>>(),
       "OLD=>NEW: run policy spec NEW wherever the baseline has OLD (try a policy change against the baseline, or "
       "check that a worse policy is caught); repeatable")
      ("alpha", po::value<double>()->default_value(0.01), "one-sided significance level of the Welch test")
      ("relative", po::value<double>()->default_value(0.005),
       "practical threshold: a change must also exceed this fraction of the baseline mean")
      ("all", "show every compared metric, not only those that moved")
      ("baselines", po::value<std::vector<std::string>>(), "baseline JSON files (positional)");
  return options;
}

// --alpha and --relative, checked before any baseline is re-run.
RegressionRule regression_rule(const po::variables_map& vm) {
  RegressionRule rule;
  rule.alpha = vm["alpha"].as<double>();
  rule.relative_threshold = vm["relative"].as<double>();
  if (!(rule.alpha > 0 && rule.alpha < 0.5)) throw InputError("--alpha: expected a level in (0, 0.5), e.g. 0.01");
  if (!(rule.relative_threshold >= 0 && rule.relative_threshold < 1)) {
    throw InputError("--relative: expected a fraction in [0, 1)");
  }
  return rule;
}

// Returns the number of regressions.
std::size_t regress_one(const std::string& path, const po::variables_map& vm, const std::string& program) {
  const bool update = vm.count("update") > 0;
  const int threads = thread_count_option(vm);
  std::vector<PolicySubstitution> substitutions;
  if (vm.count("substitute")) {
    for (const auto& s : vm["substitute"].as<std::vector<std::string>>()) substitutions.push_back(parse_substitution(s));
  }
  if (vm.count("from-spec")) {
    const std::string spec_file = vm["from-spec"].as<std::string>();
    const ExperimentSpec spec = read_experiment_spec(spec_file);
    const ExperimentResults results = rerun_experiment(spec, spec_file, threads, substitutions);
    std::vector<std::string> metrics = kDefaultRegressionMetrics;
    if (spec.regret) metrics.push_back("regret");  // regret to the offline optimum, when the spec computes it
    write_file_atomically(path, baseline_json(spec.description, results.plan, results.analysis, metrics).dump(2) + "\n");
    std::cerr << program << ": wrote " << path << " (" << results.plan.configurations.size() << " configurations)\n";
    return 0;
  }
  const Baseline baseline = read_baseline(path);
  const ExperimentResults results = rerun_experiment(baseline.spec, path, threads, substitutions);
  if (update) {
    write_file_atomically(path, baseline_json(baseline.description, results.plan, results.analysis, baseline.metrics).dump(2) + "\n");
    std::cerr << program << ": rewrote " << path << "\n";
    return 0;
  }
  const RegressionRule rule = regression_rule(vm);
  const auto rows = compare_with_baseline(baseline, baseline_entries(results.plan, results.analysis, baseline.metrics), rule, path);
  std::size_t regressions = 0, improvements = 0, moved = 0;
  for (const MetricComparison& r : rows) {
    regressions += r.verdict == Verdict::kRegression;
    improvements += r.verdict == Verdict::kImprovement;
    moved += r.verdict != Verdict::kUnchanged;
  }
  std::cout << path << ": " << results.plan.configurations.size() << " configurations x "
            << baseline.spec.replications << " replications, " << rows.size() << " metrics compared: " << moved
            << " moved, " << regressions << " regressed, " << improvements << " improved\n";
  if (moved > 0 || vm.count("all")) std::cout << regression_table(rows, vm.count("all") > 0);
  return regressions;
}

}  // namespace

int regress_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "spotsim regress";
  try {
    const auto options = regress_options();
    po::positional_options_description positional;
    positional.add("baselines", -1);
    const po::variables_map vm = parse_command_line(argc, argv, options, positional);
    if (vm.count("help")) {
      std::cout << "Usage: " << program << " BASELINE.json... [--update] [--threads N] [--substitute OLD=>NEW]\n\n"
                << "Re-run the experiments recorded in committed baselines (experiments/baselines/) and compare each\n"
                << "configuration's mean cost, completion time, completion and deadline rates with the recorded ones.\n"
                << "A metric regresses when it is worse by more than Monte Carlo noise explains (one-sided Welch\n"
                << "t-test at --alpha) AND by more than --relative of the baseline mean. Exit codes: 0 no regression,\n"
                << "1 regression, 2 bad input. Rule and examples: docs/experiments.md.\n\n"
                << options << "\n";
      return 0;
    }
    if (!vm.count("baselines")) throw InputError("expected one or more baseline files: " + program + " BASELINE.json");
    const auto paths = vm["baselines"].as<std::vector<std::string>>();
    if (vm.count("from-spec") && (!vm.count("update") || paths.size() != 1)) {
      throw InputError("--from-spec: expected together with --update and exactly one BASELINE to create");
    }
    thread_count_option(vm);
    regression_rule(vm);
    // Every baseline is read before the first is re-run (minutes), so a typo in the last one fails at once.
    if (!vm.count("from-spec")) {
      for (const std::string& path : paths) (void)read_baseline(path);
    }
    std::size_t regressions = 0;
    for (const std::string& path : paths) regressions += regress_one(path, vm, program);
    if (regressions > 0) {
      std::cerr << program << ": " << regressions << " regression(s) beyond Monte Carlo noise\n";
      return kRegressed;
    }
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim
