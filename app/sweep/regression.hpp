#pragma once
// The CI regression check of policies (`spotsim regress`): re-run the experiment a committed baseline records and
// compare each configuration's metric means with the recorded ones.
//
// The rule (docs/experiments.md#the-regression-rule). Let d be the change of the mean in the "worse" direction
// (new − baseline for costs and times, baseline − new for completed and deadline_met). A metric regresses when
//   1. d is significant against Monte Carlo noise: Welch's one-sided t-test, d > t(ν, 1 − α)·se with
//      se = sqrt(s_b²/n_b + s_n²/n_n) and ν the Welch–Satterthwaite degrees of freedom (Welch, Biometrika 34,
//      1947), α = 0.01 by default; when both standard deviations are 0 any d > 0 is significant; and
//   2. d is large enough to matter: d > max(0.5% of |baseline mean|, a floor per unit — 1 cent, 36 s (0.01 h),
//      0.005 of a fraction, 0.01 of a count).
// An improvement is the mirror image; it is reported and never fails. With the baseline's seeds a re-run of an
// unchanged policy is bit-identical (d = 0), so it never trips; the test is what keeps changes of the engine
// that only reshuffle random draws from failing CI.
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "app/sweep/baseline_plugins.hpp"
#include "app/sweep/experiment_spec.hpp"
#include "app/sweep/sweep_analysis.hpp"
#include "app/sweep/sweep_plan.hpp"

namespace spotsim {

struct MeanRecord {
  std::size_t n = 0;
  double mean = 0.0;
  double sd = 0.0;
};

struct BaselineEntry {
  std::string trace, job, policy, checkpoint;
  std::map<std::string, MeanRecord> metrics;
};

struct Baseline {
  std::string description;
  ExperimentSpec spec;
  std::vector<std::string> metrics;  // which metrics are checked
  std::vector<BaselineEntry> entries;
  std::vector<RecordedPlugin> plugins;  // where its plugin policies came from (none in baselines before them)
};

inline const std::vector<std::string> kDefaultRegressionMetrics = {"cost_total", "completion_hours", "completed",
                                                                   "deadline_met"};

Baseline read_baseline(const std::string& path);
// The baseline document for a spec and its analysed results.
nlohmann::json baseline_json(const std::string& description, const SweepPlan& plan, const SweepAnalysis& analysis,
                             const std::vector<std::string>& metrics);
std::vector<BaselineEntry> baseline_entries(const SweepPlan& plan, const SweepAnalysis& analysis,
                                            const std::vector<std::string>& metrics);

struct RegressionRule {
  double alpha = 0.01;                // one-sided significance level of the Welch test
  double relative_threshold = 0.005;  // practical threshold, a fraction of |baseline mean|
};

enum class Verdict { kUnchanged, kNoise, kRegression, kImprovement };

// Which configuration a comparison or a rule check is about, as the baseline names it.
struct ConfigurationLabel {
  std::string trace, job, policy, checkpoint;
};

struct MetricComparison {
  ConfigurationLabel configuration;
  std::string metric;
  MeanRecord baseline, fresh;
  double worse_by = 0.0;   // d: positive = worse
  double p_value = 1.0;    // one-sided, for "worse" when d > 0 and for "better" when d < 0
  double threshold = 0.0;  // the practical threshold of rule 2
  Verdict verdict = Verdict::kUnchanged;
};

Verdict judge(const std::string& metric, const std::string& unit, const MeanRecord& baseline, const MeanRecord& fresh,
              const RegressionRule& rule, MetricComparison& out);

// Compares fresh results with the baseline, entry by entry (matched by trace, job, policy and checkpoint);
// InputError naming `file` when they do not describe the same configurations.
std::vector<MetricComparison> compare_with_baseline(const Baseline& baseline, const std::vector<BaselineEntry>& fresh,
                                                    const RegressionRule& rule, const std::string& file);

const char* verdict_name(Verdict verdict);  // "regression", "improvement", "noise", "unchanged"

}  // namespace spotsim
