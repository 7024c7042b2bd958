// `spotsim regress BASELINE.json...`: re-run the experiments committed baselines record and fail when a policy's
// cost, completion time or success rate got worse beyond Monte Carlo noise (rule: app/sweep/regression.hpp)
// or broke a hard rule (--require); the report as text, JSON or JUnit XML (app/sweep/regression_report.hpp).
#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "app/options/command_line.hpp"
#include "app/sweep/experiment_rerun.hpp"
#include "app/sweep/metric_requirement.hpp"
#include "app/sweep/regression.hpp"
#include "app/sweep/regression_report.hpp"
#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "base/text_escape.hpp"
#include "cli/command_options.hpp"
#include "cli/commands.hpp"
#include "cli/python_exec.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

constexpr int kRegressed = 1;

po::options_description regress_options() {
  po::options_description options("Options");
  options.add_options()("help,h", "show this help and exit")(
      "update",
      "rewrite the baseline(s) with the results of this build instead of comparing (deliberately: "
      "review the diff before committing it)")("from-spec", po::value<std::string>(),
                                               "with --update and one BASELINE: create it from this experiment spec")(
      "threads", po::value<std::string>()->default_value("0"),
      "worker threads (0 = all cores, at most 4096); never changes a result")(
      "substitute", po::value<std::vector<std::string>>(),
      "OLD=>NEW: run policy spec NEW wherever the baseline has OLD (try a policy change against the baseline, or "
      "check that a worse policy is caught); baselines without OLD are skipped with a note; repeatable")(
      "require", po::value<std::vector<std::string>>(),
      "METRIC OP VALUE, e.g. deadline_met>=1.0 (OP: >= <= > < ==): a hard rule every configuration's new mean "
      "must meet, whatever the noise; repeatable")("alpha", po::value<double>()->default_value(0.01, "0.01"),
                                                   "one-sided significance level of the Welch test")(
      "relative", po::value<double>()->default_value(0.005, "0.005"),
      "practical threshold: a change must also exceed this fraction of the baseline mean")(
      "all", "show every compared metric, not only those that moved (text format)")(
      "format,f", po::value<std::string>(),
      "text | json | junit (JUnit XML for CI test reports) [default: text, "
      "or from --output's extension: .json, .xml]")("output,o", po::value<std::string>(),
                                                    "write the report to this file (atomically) instead of stdout")(
      "baselines", po::value<std::vector<std::string>>(), "baseline JSON files (positional)");
  add_plugin_option(options);
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

std::string report_format(const po::variables_map& vm) {
  check_output_option(vm);
  std::string format = "text";
  if (vm.count("format")) {
    format = vm["format"].as<std::string>();
  } else if (vm.count("output")) {
    const std::string path = vm["output"].as<std::string>();
    if (path.ends_with(".json"))
      format = "json";
    else if (path.ends_with(".xml"))
      format = "junit";
  }
  if (format != "text" && format != "json" && format != "junit") {
    throw InputError("--format '" + format + "': expected text, json or junit");
  }
  return format;
}

template <class T>
std::vector<T> parsed_list(const po::variables_map& vm, const char* name, T (*parse)(const std::string&)) {
  std::vector<T> values;
  if (vm.count(name)) {
    for (const auto& text : vm[name].as<std::vector<std::string>>()) values.push_back(parse(text));
  }
  return values;
}

MetricRequirement parse_require(const std::string& text) { return parse_metric_requirement(text, "--require"); }

struct Invocation {
  bool update = false;
  int threads = 0;
  RegressionRule rule;
  std::vector<PolicySubstitution> substitutions;
  std::vector<MetricRequirement> requirements;
};

// The optimum's metrics exist only where the experiment computes the optimum.
void check_requirements_apply(const std::vector<MetricRequirement>& requirements, const Baseline& baseline,
                              const std::string& path) {
  for (const MetricRequirement& r : requirements) {
    if ((r.metric == "regret" || r.metric == "optimum_cost") && !baseline.spec.regret) {
      throw InputError("--require '" + r.text + "': " + path +
                       " records an experiment without the offline optimum "
                       "(its spec has no \"regret\": true), so it has no " +
                       r.metric);
    }
  }
}

// The substitutions that apply to `spec`; `skipped` says why none does.
std::vector<PolicySubstitution> applicable(const std::vector<PolicySubstitution>& all, const ExperimentSpec& spec,
                                           std::string& skipped) {
  std::vector<PolicySubstitution> subset;
  std::string missing;
  for (const PolicySubstitution& s : all) {
    if (experiment_runs_policy(spec, s.from))
      subset.push_back(s);
    else
      missing += (missing.empty() ? "'" : ", '") + s.from + "'";
  }
  if (subset.empty() && !all.empty()) {
    skipped = "its experiment runs no policy or checkpoint policy " + missing + " that --substitute replaces";
  }
  return subset;
}

// The plugins a baseline recorded, less the policies --substitute replaces (those need not be loaded).
std::vector<RecordedPlugin> plugins_to_check(const Baseline& baseline, const std::vector<PolicySubstitution>& all) {
  std::vector<RecordedPlugin> kept;
  for (RecordedPlugin plugin : baseline.plugins) {
    std::erase_if(plugin.policies, [&](const std::string& name) {
      return std::any_of(all.begin(), all.end(),
                         [&](const PolicySubstitution& s) { return s.from.substr(0, s.from.find(':')) == name; });
    });
    if (!plugin.policies.empty()) kept.push_back(std::move(plugin));
  }
  return kept;
}

// A Python policy that failed during the runs, named with the file whose experiment ran it.
template <typename Rerun>
ExperimentResults rerun_named(const std::string& file, Rerun rerun) {
  try {
    return rerun();
  } catch (const PythonPolicyFailed& e) {
    throw InputError(file + ": " + e.what());
  }
}

BaselineOutcome regress_one(const std::string& path, const Invocation& run, const std::string& program) {
  const Baseline baseline = read_baseline(path);
  BaselineOutcome outcome;
  outcome.file = path;
  outcome.description = baseline.description;
  const auto substitutions = applicable(run.substitutions, baseline.spec, outcome.skipped);
  if (!outcome.skipped.empty()) {
    std::cerr << program << ": skipped " << path << ": " << outcome.skipped << "\n";
    return outcome;
  }
  outcome.notes = plugin_changes(plugins_to_check(baseline, substitutions), path);
  for (const std::string& note : outcome.notes) std::cerr << program << ": " << path << ": " << note << "\n";
  const ExperimentResults results =
      rerun_named(path, [&] { return rerun_experiment(baseline.spec, path, run.threads, substitutions); });
  if (run.update) {
    write_file_atomically(
        path,
        json_text(baseline_json(baseline.description, results.plan, results.analysis, baseline.metrics), 2) + "\n");
    std::cerr << program << ": rewrote " << path << "\n";
    return outcome;
  }
  std::vector<std::string> metrics = baseline.metrics;
  for (const MetricRequirement& r : run.requirements) {
    if (std::find(metrics.begin(), metrics.end(), r.metric) == metrics.end()) metrics.push_back(r.metric);
  }
  const std::vector<BaselineEntry> fresh = baseline_entries(results.plan, results.analysis, metrics);
  outcome.configurations = results.plan.configurations.size();
  outcome.replications = baseline.spec.replications;
  outcome.comparisons = compare_with_baseline(baseline, fresh, run.rule, path);
  for (const BaselineEntry& entry : fresh) {
    for (RequirementCheck& check : check_requirements(entry, run.requirements)) {
      outcome.requirement_checks.push_back(std::move(check));
    }
  }
  return outcome;
}

// `regress --update --from-spec SPEC NEW.json`: a new baseline.
void create_baseline(const std::string& path, const std::string& spec_file, const Invocation& run,
                     const std::string& program) {
  const ExperimentSpec spec = read_experiment_spec(spec_file);
  const ExperimentResults results =
      rerun_named(spec_file, [&] { return rerun_experiment(spec, spec_file, run.threads, run.substitutions); });
  std::vector<std::string> metrics = kDefaultRegressionMetrics;
  if (spec.regret) metrics.push_back("regret");  // regret to the offline optimum, when the spec computes it
  write_file_atomically(path,
                        json_text(baseline_json(spec.description, results.plan, results.analysis, metrics), 2) + "\n");
  std::cerr << program << ": wrote " << path << " (" << results.plan.configurations.size() << " configurations)\n";
}

void print_help(const std::string& program, const po::options_description& options) {
  std::cout << "Usage: " << program << " BASELINE.json... [--substitute OLD=>NEW] [--require METRIC>=VALUE]\n"
            << "                      [--format text|json|junit] [-o FILE] [--update] [--threads N]\n\n"
            << "Re-run the experiments recorded in committed baselines (experiments/baselines/) and compare each\n"
            << "configuration's mean cost, completion time, completion and deadline rates with the recorded ones.\n"
            << "A metric regresses when it is worse by more than Monte Carlo noise explains (one-sided Welch\n"
            << "t-test at --alpha) AND by more than --relative of the baseline mean; a --require rule fails\n"
            << "whatever the noise. Exit codes: 0 no regression, 1 a regression or a broken rule, 2 bad input.\n"
            << "Rule, formats and a CI example: docs/experiments.md.\n\n"
            << options << "\n";
}

}  // namespace

boost::program_options::options_description regress_command_options() { return regress_options(); }

int regress_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "spotsim regress";
  std::vector<std::string> experiment_files;  // where a Python policy's module is looked for first
  try {
    const auto options = regress_options();
    po::positional_options_description positional;
    positional.add("baselines", -1);
    const po::variables_map vm = parse_command_line(argc, argv, options, positional);
    if (vm.count("help")) {
      print_help(program, options);
      return 0;
    }
    load_plugin_options(vm);  // before any baseline's policies are looked up
    if (!vm.count("baselines")) throw InputError("expected one or more baseline files: " + program + " BASELINE.json");
    const auto paths = vm["baselines"].as<std::vector<std::string>>();
    experiment_files = paths;
    if (vm.count("from-spec")) experiment_files.insert(experiment_files.begin(), vm["from-spec"].as<std::string>());
    Invocation run;
    run.update = vm.count("update") > 0;
    if (vm.count("from-spec") && (!run.update || paths.size() != 1)) {
      throw InputError("--from-spec: expected together with --update and exactly one BASELINE to create");
    }
    for (const char* option : {"require", "format", "output"}) {
      if (run.update && vm.count(option))
        throw InputError(std::string("--") + option + ": not with --update (nothing is compared)");
    }
    run.threads = thread_count_option(vm);
    run.rule = regression_rule(vm);
    const std::string format = report_format(vm);
    run.substitutions = parsed_list(vm, "substitute", &parse_substitution);
    run.requirements = parsed_list(vm, "require", &parse_require);
    for (const PolicySubstitution& s : run.substitutions) {  // before any baseline's output, so that it is not repeated
      if (s.to.starts_with(kPythonPolicyPrefix) && !python_policy_host_installed()) throw PythonHostNeeded(s.to);
    }
    if (vm.count("from-spec")) {
      create_baseline(paths.front(), vm["from-spec"].as<std::string>(), run, program);
      return 0;
    }
    // Every baseline is read and every substitution matched before the first is re-run (minutes), so a typo in
    // the last one fails at once.
    std::set<std::string> substituted;
    for (const std::string& path : paths) {
      const Baseline baseline = read_baseline(path);
      check_requirements_apply(run.requirements, baseline, path);
      (void)plugin_changes(plugins_to_check(baseline, run.substitutions), path);  // a plugin not loaded: at once
      for (const PolicySubstitution& s : run.substitutions) {
        if (experiment_runs_policy(baseline.spec, s.from)) substituted.insert(s.from);
      }
    }
    for (const PolicySubstitution& s : run.substitutions) {
      if (!substituted.count(s.from)) {
        throw InputError("--substitute '" + s.from + "=>" + s.to + "': '" + s.from +
                         "' is none of the policies or "
                         "checkpoint policies of " +
                         (paths.size() == 1 ? paths.front() : "any baseline given"));
      }
    }
    RegressionReport report;
    report.rule = run.rule;
    for (const MetricRequirement& r : run.requirements) report.requirements.push_back(r.text);
    for (const PolicySubstitution& s : run.substitutions) report.substitutions.push_back(s.from + "=>" + s.to);
    const bool stream_text = format == "text" && !vm.count("output");  // each baseline's table as soon as it is done
    for (const std::string& path : paths) {
      report.baselines.push_back(regress_one(path, run, program));
      if (stream_text && !run.update)
        std::cout << baseline_text(report.baselines.back(), vm.count("all") > 0) << std::flush;
    }
    if (run.update) return 0;
    if (!stream_text) {
      const std::string text = format == "json"    ? json_text(regression_json(report), 2) + "\n"
                               : format == "junit" ? regression_junit(report)
                                                   : regression_text(report, vm.count("all") > 0);
      emit_output(vm, text, program);
    }
    if (report.regressions() > 0) {
      std::cerr << program << ": " << report.regressions() << " regression(s) beyond Monte Carlo noise\n";
    }
    if (report.broken_requirements() > 0) {
      std::cerr << program << ": " << report.broken_requirements() << " broken rule(s) (--require)\n";
    }
    return report.passed() ? 0 : kRegressed;
  } catch (const PythonHostNeeded& why) {  // a Python class: the same command in Python, which can run it
    return rerun_command_in_python("regress", argc, argv, directories_of(experiment_files), why);
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim
