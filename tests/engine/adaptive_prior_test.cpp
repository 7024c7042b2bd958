// What the adaptive policy learns about a recorded zone, and where its prior may come from: this run's own record
// (SpotHistory), fitted parameters, or the long-run statistics of a calibration trace read once by the factory.
#include "policies/adaptive_prior.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "policies/adaptive_policy.hpp"
#include "policies/policy_registry.hpp"
#include "policies/spot_history.hpp"
#include "policy_test_support.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

constexpr Millis kH = kMillisPerHour;
const std::string kCalibration =
    std::string(SPOTSIM_REPO_DIR) + "/experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SpotHistory, BooksTimeToTheStateSeenAtThePreviousDecisionPoint) {
  testing::ObservationBuilder b;
  SpotHistory h;
  const auto at = [&](Millis t, bool available, Purchase purchase) {
    b.obs.elapsed = b.obs.now = t;
    b.zones[0].spot_available = available;
    b.obs.purchase = purchase;
    b.obs.zone = purchase == Purchase::kNone ? -1 : 0;
    h.observe(b.build());
  };
  at(0, true, Purchase::kNone);        // first look: nothing booked
  at(2 * kH, true, Purchase::kSpot);   // held spot since 0
  at(5 * kH, false, Purchase::kNone);  // preempted at 5 h: 5 h up, one drop
  at(6 * kH, true, Purchase::kNone);   // back at 6 h: 1 h down, one return
  at(7 * kH, false, Purchase::kOnDemand);
  const SpotHistory::ZoneRecord& r = h.zone(0);
  EXPECT_EQ(r.up, 6 * kH);
  EXPECT_EQ(r.down, kH);
  EXPECT_EQ(r.drops, 2);
  EXPECT_EQ(r.returns, 1);
  EXPECT_EQ(r.since, 7 * kH);
  // Estimates: availability (a0 w + up) / (w + seen); mean spells (m0 + exposure) / (1 + events).
  SpotPrior prior;
  prior.availability = 0.5;
  prior.mean_up = 2 * kH;
  prior.weight = 3 * kH;
  EXPECT_NEAR(h.availability(0, prior), (0.5 * 3 + 6) / (3.0 + 7.0), 1e-12);
  EXPECT_NEAR(h.mean_up(0, prior), static_cast<double>(2 * kH + 6 * kH) / 3.0, 1e-6);
  EXPECT_NEAR(h.mean_down(0, prior), static_cast<double>(2 * kH + kH) / 2.0, 1e-6);
  h.reset();
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.zone(0).up, 0);
}

TEST(AdaptivePrior, LongRunStatisticsOfARecording) {
  const SpotMarket m = read_trace_file(kCalibration);
  const SpotPrior p = long_run_prior(m.zones[0], 1, 6 * kH);
  const auto& a = *m.zones[0].spot.available;
  EXPECT_DOUBLE_EQ(p.availability, a.fraction_where([](double v) { return v >= 1; }));
  EXPECT_EQ(p.mean_up, spot_mean_time_between_preemptions(m.zones[0], 1));
  EXPECT_EQ(p.weight, 6 * kH);
  EXPECT_NEAR(p.mean_down(), static_cast<double>(p.mean_up) * (1 - p.availability) / p.availability, 1.0);
}

TEST(AdaptivePrior, ParametersAndCalibrationTrace) {
  const AdaptiveSettings plain = AdaptiveSettings::from(PolicyParams::parse("adaptive", "--policy"));
  EXPECT_FALSE(plain.prior.calibration);
  std::vector<SpotPrior> priors;
  plain.prior.priors_for(priors, 2, 1);
  ASSERT_EQ(priors.size(), 2u);
  EXPECT_EQ(priors[1].availability, SpotPrior{}.availability);
  EXPECT_EQ(priors[1].mean_up, SpotPrior{}.mean_up);

  const AdaptiveSettings fitted =
      AdaptiveSettings::from(PolicyParams::parse("adaptive:prior_availability=0.8,prior_mtbf=5h", "--policy"));
  fitted.prior.priors_for(priors, 1, 1);
  EXPECT_EQ(priors[0].availability, 0.8);
  EXPECT_EQ(priors[0].mean_up, 5 * kH);

  const AdaptiveSettings calibrated =
      AdaptiveSettings::from(PolicyParams::parse("adaptive:calibration=" + kCalibration, "--policy"));
  ASSERT_TRUE(calibrated.prior.calibration);
  calibrated.prior.priors_for(priors, 1, 1);
  const SpotPrior expected = long_run_prior(read_trace_file(kCalibration).zones[0], 1, SpotPrior{}.weight);
  EXPECT_EQ(priors[0].availability, expected.availability);
  EXPECT_EQ(priors[0].mean_up, expected.mean_up);
  // Fitted parameters override the calibration.
  const AdaptiveSettings both = AdaptiveSettings::from(
      PolicyParams::parse("adaptive:calibration=" + kCalibration + ",prior_mtbf=1h", "--policy"));
  both.prior.priors_for(priors, 1, 1);
  EXPECT_EQ(priors[0].availability, expected.availability);
  EXPECT_EQ(priors[0].mean_up, kH);
}

TEST(AdaptivePrior, CalibrationErrorsNameTheParameterAndTheFile) {
  const PolicyRegistry registry = builtin_policy_registry();
  const std::string missing = "/nonexistent/calibration.json";
  const std::string e = error_of([&] { registry.selection_factory("adaptive:calibration=" + missing); });
  EXPECT_NE(e.find("parameter 'calibration'"), std::string::npos) << e;
  EXPECT_NE(e.find(missing), std::string::npos) << e;
  // A file that is not a trace.
  const std::string not_trace = std::string(SPOTSIM_REPO_DIR) + "/experiments/specs/cant-be-late-single-zone.json";
  const std::string e2 = error_of([&] { registry.selection_factory("adaptive:calibration=" + not_trace); });
  EXPECT_NE(e2.find("parameter 'calibration'"), std::string::npos) << e2;
  EXPECT_NE(e2.find(not_trace), std::string::npos) << e2;
  // A different number of zones than the market: an error at the first decision, naming both.
  const std::string two_zones = std::string(SPOTSIM_REPO_DIR) + "/traces/library/aws-us-west-2-v100.json";
  auto policy = registry.selection_factory("adaptive:calibration=" + two_zones)();
  testing::ObservationBuilder b;
  const std::string e3 = error_of([&] { policy->decide(b.build()); });
  EXPECT_NE(e3.find("parameter 'calibration'"), std::string::npos) << e3;
  EXPECT_NE(e3.find(two_zones), std::string::npos) << e3;
  EXPECT_NE(e3.find("2 zone(s)"), std::string::npos) << e3;
  // Bad fitted parameters.
  EXPECT_NE(error_of([&] { registry.selection_factory("adaptive:prior_availability=1.5"); }), "");
  EXPECT_NE(error_of([&] { registry.selection_factory("adaptive:prior_mtbf=0s"); }), "");
  EXPECT_NE(error_of([&] { registry.selection_factory("adaptive:calibrate=x.json"); }).find("unknown parameter"),
            std::string::npos);
}

TEST(AdaptivePrior, TextParameterReadsTheValueAndMarksTheKeyUsed) {
  const PolicyParams p = PolicyParams::parse("adaptive:margin=1h,calibration=a/b c.json,reserve=0.1", "--policy");
  EXPECT_EQ(text_parameter(p, "calibration"), "a/b c.json");
  EXPECT_EQ(text_parameter(p, "calib"), "");
  (void)p.duration("margin", 0);
  (void)p.number("reserve", 0, 0, 1);
  EXPECT_NO_THROW(p.reject_unused());
}

}  // namespace
}  // namespace spotsim
