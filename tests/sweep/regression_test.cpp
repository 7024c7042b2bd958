// `spotsim regress`: the rule on hand-made numbers, and end to end — an unchanged policy passes, deliberately
// worsened ones are caught, --update rewrites the baseline, the committed baselines pass.
#include "app/sweep/regression.hpp"

#include <gtest/gtest.h>

#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

using namespace spotsim::testing;

Verdict verdict(const std::string& metric, const std::string& unit, MeanRecord base, MeanRecord fresh) {
  MetricComparison row;
  return judge(metric, unit, base, fresh, RegressionRule{}, row);
}

TEST(RegressRule, UnchangedNoiseRegressionAndImprovement) {
  EXPECT_EQ(verdict("cost_total", "USD", {500, 100.0, 5.0}, {500, 100.0, 5.0}), Verdict::kUnchanged);
  // +1% with se = sqrt(2 · 25/500) = 0.32: t = 3.2, p ≈ 0.0007 < 0.01, and 1.0 > 0.5% of 100: a regression.
  EXPECT_EQ(verdict("cost_total", "USD", {500, 100.0, 5.0}, {500, 101.0, 5.0}), Verdict::kRegression);
  // The same +1% with ten times the noise is not significant.
  EXPECT_EQ(verdict("cost_total", "USD", {500, 100.0, 50.0}, {500, 101.0, 50.0}), Verdict::kNoise);
  // Significant but below the practical threshold (0.3% < 0.5%).
  EXPECT_EQ(verdict("cost_total", "USD", {100000, 100.0, 5.0}, {100000, 100.3, 5.0}), Verdict::kNoise);
  EXPECT_EQ(verdict("cost_total", "USD", {500, 100.0, 5.0}, {500, 99.0, 5.0}), Verdict::kImprovement);
  // No noise at all (on-demand): any change beyond the threshold is real.
  EXPECT_EQ(verdict("cost_total", "USD", {500, 176.6, 0.0}, {500, 180.0, 0.0}), Verdict::kRegression);
  // Rates are better when higher.
  EXPECT_EQ(verdict("deadline_met", "fraction", {1000, 0.99, 0.0995}, {1000, 0.90, 0.30}), Verdict::kRegression);
  EXPECT_EQ(verdict("deadline_met", "fraction", {1000, 0.90, 0.30}, {1000, 0.99, 0.0995}), Verdict::kImprovement);
}

TEST(RegressRule, WelchPValueMatchesAHandComputation) {
  MetricComparison row;
  // d = 2, se = sqrt(16/10 + 4/20) = sqrt(1.8); dof = 1.8^2 / (1.6^2/9 + 0.2^2/19) = 11.29...
  judge("completion_hours", "h", {10, 50.0, 4.0}, {20, 52.0, 2.0}, RegressionRule{}, row);
  EXPECT_NEAR(row.worse_by, 2.0, 1e-12);
  EXPECT_NEAR(row.p_value, 0.0816, 0.002);  // one-sided t(11.3) tail above 2/sqrt(1.8) = 1.491
  EXPECT_EQ(row.verdict, Verdict::kNoise);
  EXPECT_NEAR(row.threshold, 0.25, 1e-12);  // 0.5% of 50 h
}

const char* kRegressSpec = R"({
  "format": "spotsim-experiment", "version": 1, "name": "regress-test", "seed": 3, "replications": 200,
  "description": "the test's baseline",
  "traces": ["us-west1"], "policies": ["adaptive", "spot-only", "on-demand"], "checkpoints": ["young-daly"],
  "job": {"work_hours": 48, "deadline_hours": 60}
})";

struct RecordedBaseline {
  fs::path file;
  RecordedBaseline() {
    const fs::path spec = write_file(fresh_dir("regress-spec") / "spec.json", kRegressSpec);
    file = fresh_dir("regress-baseline") / "baseline.json";
    fs::create_directories(file.parent_path());
    const Outcome o = regress({file.string(), "--update", "--from-spec", spec.string()});
    EXPECT_EQ(o.code, 0) << o.err;
  }
};

TEST(RegressCli, AnUnchangedPolicyPasses) {
  const RecordedBaseline baseline;
  const Outcome o = regress({baseline.file.string(), "--threads", "2"});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("12 metrics compared: 0 moved, 0 regressed"), std::string::npos) << o.out;
}

TEST(RegressCli, CatchesCheckpointsEveryTenMinutesInsteadOfDaly) {
  const RecordedBaseline baseline;
  const Outcome o = regress({baseline.file.string(), "--substitute", "young-daly=>fixed:interval=10m"});
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("REGRESSION  us-west1"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("completion_hours"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("regression(s) beyond Monte Carlo noise"), std::string::npos) << o.err;
}

TEST(RegressCli, CatchesAnAdaptivePolicyWithAHugeMargin) {
  const RecordedBaseline baseline;
  const Outcome o = regress({baseline.file.string(), "--substitute", "adaptive=>adaptive:margin=30h"});
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("REGRESSION  us-west1       job                    adaptive"), std::string::npos) << o.out;
}

TEST(RegressCli, UpdateRewritesTheBaselineDeliberately) {
  const RecordedBaseline baseline;
  const std::string before = file_text(baseline.file);
  ASSERT_EQ(regress({baseline.file.string(), "--update", "--substitute", "young-daly=>fixed:interval=10m"}).code, 0);
  EXPECT_NE(file_text(baseline.file), before);
  EXPECT_EQ(regress({baseline.file.string(), "--substitute", "young-daly=>fixed:interval=10m"}).code, 0);
  EXPECT_EQ(regress({baseline.file.string()}).code, 0) << "Daly is better than 10 minutes: an improvement never fails";
}

TEST(RegressCli, BadInputIsExitCode2) {
  const RecordedBaseline baseline;
  EXPECT_EQ(regress({baseline.file.string(), "--substitute", "greedy=>spot-only"}).code, 2);
  EXPECT_EQ(regress({baseline.file.string(), "--substitute", "nonsense"}).code, 2);
  EXPECT_EQ(regress({(fresh_dir("none") / "missing.json").string()}).code, 2);
  const fs::path edited = write_file(fresh_dir("edited") / "b.json", [&] {
    auto doc = nlohmann::json::parse(file_text(baseline.file));
    doc["configurations"].erase(0);
    return doc.dump();
  }());
  const Outcome o = regress({edited.string()});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("--update"), std::string::npos) << o.err;
}

// Nothing moved, so the noise rule passes; a hard rule on a number the unchanged build misses fails anyway.
TEST(RegressCli, RequireFailsWhatTheNoiseRulePasses) {
  const RecordedBaseline baseline;
  const Outcome o = regress({baseline.file.string(), "--require", "cost_total<=150"});  // on-demand costs $176.63
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("0 moved, 0 regressed, 0 improved; 3 rule checks: 1 broken"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("cost_total<=150 us-west1"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("on-demand"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("1 broken rule(s) (--require)"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("regression(s)"), std::string::npos) << o.err;
  // Rules every configuration meets pass, on metrics the baseline records or not.
  EXPECT_EQ(regress({baseline.file.string(), "--require", "deadline_met>=1.0", "--require", "preemptions>=0"}).code, 0);
  EXPECT_EQ(regress({baseline.file.string(), "--require", "deadline_met>1"}).code, 1);
}

TEST(RegressCli, JunitAndJsonReportsAreWrittenAtomically) {
  const RecordedBaseline baseline;
  const fs::path dir = fresh_dir("regress-reports");
  fs::create_directories(dir);
  const fs::path xml = dir / "regress.xml";
  const Outcome o = regress({baseline.file.string(), "--substitute", "young-daly=>fixed:interval=10m", "--require",
                             "completed>=0.9", "-o", xml.string()});
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  const std::string text = file_text(xml);
  EXPECT_EQ(text.rfind("<?xml", 0), 0u) << text;
  EXPECT_NE(text.find("<testsuite name=\"" + baseline.file.string() + "\" tests=\"15\""), std::string::npos) << text;
  EXPECT_NE(text.find("type=\"regression\""), std::string::npos);
  const fs::path json = dir / "regress.json";
  EXPECT_EQ(regress({baseline.file.string(), "-o", json.string()}).code, 0);
  const auto doc = nlohmann::json::parse(file_text(json));
  EXPECT_EQ(doc["passed"], true);
  EXPECT_EQ(doc["baselines"][0]["comparisons"].size(), 12u);
  const Outcome to_stdout = regress({baseline.file.string(), "--format", "junit"});
  EXPECT_EQ(to_stdout.code, 0);
  EXPECT_NE(to_stdout.out.find("failures=\"0\""), std::string::npos) << to_stdout.out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST(RegressCli, SubstituteSkipsBaselinesWithoutThePolicy) {
  const RecordedBaseline with_adaptive;
  const fs::path spec = write_file(fresh_dir("regress-spec-2") / "spec.json", R"({
    "format": "spotsim-experiment", "version": 1, "name": "no-adaptive", "seed": 3, "replications": 50,
    "traces": ["us-west1"], "policies": ["spot-only"], "job": {"work_hours": 12}})");
  const fs::path without = fresh_dir("regress-baseline-2") / "without.json";
  fs::create_directories(without.parent_path());
  ASSERT_EQ(regress({without.string(), "--update", "--from-spec", spec.string()}).code, 0);
  const Outcome o =
      regress({with_adaptive.file.string(), without.string(), "--substitute", "adaptive=>adaptive:margin=30h"});
  EXPECT_EQ(o.code, 1) << o.out << o.err;  // the margin is still caught in the baseline that has adaptive
  EXPECT_NE(
      o.err.find("skipped " + without.string() + ": its experiment runs no policy or checkpoint policy 'adaptive'"),
      std::string::npos)
      << o.err;
  EXPECT_NE(o.out.find(without.string() + ": skipped ("), std::string::npos) << o.out;
  // No baseline has the policy: bad input, before anything is re-run.
  const Outcome none = regress({without.string(), "--substitute", "adaptive=>spot-only"});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("'adaptive' is none of the policies or checkpoint policies of " + without.string()),
            std::string::npos)
      << none.err;
}

TEST(RegressCli, CommittedBaselinesPass) {
  std::vector<std::string> args;
  for (const auto& entry : fs::directory_iterator(fs::path(SPOTSIM_REPO_DIR) / "experiments" / "baselines")) {
    if (entry.path().extension() == ".json") args.push_back(entry.path().string());
  }
  ASSERT_FALSE(args.empty());
  const Outcome o = regress(args);
  EXPECT_EQ(o.code, 0) << o.out << o.err;
}

}  // namespace
}  // namespace spotsim
