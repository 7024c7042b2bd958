// The adaptive policy decides from what is known at decision time only (no look-ahead): on two recordings that
// are identical up to a time T and differ afterwards, every decision before T, and the whole run of a job that
// ends before T, must be identical. The engine hands the policy the recording's long-run statistics
// (ZoneView::spot_availability, spot_mtbf), which include the future; a policy that read them for a recorded zone
// would fail here, as the cheating policy below shows. (Checkpoint policies that size their interval from
// spot_mtbf, such as young-daly, read them too: the non-lossless cases use fixed intervals.)
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "engine/job_simulation.hpp"
#include "model/scenario.hpp"
#include "policies/policy_registry.hpp"
#include "test_markets.hpp"

namespace spotsim {
namespace {

constexpr Millis kH = kMillisPerHour;
constexpr Millis kSame = 30 * kH;  // T: the two recordings agree on [0, T)

// One recorded zone; on [0, T) spot comes and goes (short and long gaps), after T it is always obtainable
// (`future_up`) or never.
SpotMarket market(bool future_up) {
  SpotMarket m = testing::single_zone_market(std::nullopt, 1.0, 3.0);
  m.span = 200 * kH;
  m.zones[0].spot.notice = 2 * kMillisPerMinute;
  m.zones[0].spot.available =
      StepSeries({0, 3 * kH, 5 * kH, 6 * kH, 12 * kH, 20 * kH, 21 * kH, 22 * kH, 23 * kH, kSame},
                 {1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, future_up ? 1.0 : 0.0}, m.span);
  return m;
}

struct Decision {
  Millis now;
  Purchase purchase;
  int zone;
  Millis review_at;
  bool wake_on_spot;
  bool operator==(const Decision&) const = default;
};

// Records every decision of the policy it wraps.
class Recorder final : public SelectionPolicy {
 public:
  explicit Recorder(std::unique_ptr<SelectionPolicy> inner) : inner_(std::move(inner)) {}
  void reset() override { inner_->reset(); }
  SelectionDecision decide(const Observation& obs) override {
    const SelectionDecision d = inner_->decide(obs);
    log.push_back({obs.now, d.purchase, d.zone, d.review_at, d.wake_on_spot});
    return d;
  }
  std::vector<Decision> log;

 private:
  std::unique_ptr<SelectionPolicy> inner_;
};

// A policy that peeks at the recording's long-run availability: it must be caught.
class PeekingPolicy final : public SelectionPolicy {
 public:
  SelectionDecision decide(const Observation& obs) override {
    if (obs.zones[0].spot_available) return SelectionDecision::spot(0);
    if (obs.zones[0].spot_availability > 0.5) return SelectionDecision::wait();
    return SelectionDecision::on_demand(0);
  }
};

struct Outcome {
  RunResult result;
  std::vector<Decision> decisions;
};

Outcome run(const SpotMarket& m, const JobSpec& job, std::unique_ptr<SelectionPolicy> selection,
            const std::string& checkpoint) {
  const Scenario scenario(m, job, TraceStart{false, 0});
  Recorder recorder(std::move(selection));
  auto ckpt = builtin_policy_registry().checkpoint_factory(checkpoint)();
  JobSimulation simulation(scenario, recorder, *ckpt);
  Outcome o;
  o.result = simulation.run(7, 0);
  o.decisions = recorder.log;
  return o;
}

void expect_same_run(const Outcome& a, const Outcome& b) {
  EXPECT_EQ(a.decisions, b.decisions);
  EXPECT_EQ(a.result.fingerprint, b.result.fingerprint);
  EXPECT_EQ(a.result.events, b.result.events);
  EXPECT_EQ(a.result.completion_hours, b.result.completion_hours);
  EXPECT_EQ(a.result.cost_total, b.result.cost_total);
  EXPECT_EQ(a.result.spot_hours, b.result.spot_hours);
  EXPECT_EQ(a.result.on_demand_hours, b.result.on_demand_hours);
  EXPECT_EQ(a.result.wait_hours, b.result.wait_hours);
  EXPECT_EQ(a.result.preemptions, b.result.preemptions);
}

struct Case {
  double work_hours, deadline_hours;
  std::string selection, checkpoint;
  Millis restore, write;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.work_hours << " h of work, deadline " << c.deadline_hours << " h, " << c.selection << ", " << c.checkpoint;
}

class AdaptiveLookAhead : public ::testing::TestWithParam<Case> {};

TEST_P(AdaptiveLookAhead, RecordingsThatAgreeUntilTheJobEndsGiveIdenticalRuns) {
  const Case& c = GetParam();
  const SpotMarket up = market(true), down = market(false);
  JobSpec job = testing::job(c.work_hours, c.write, c.restore, 12 * kMillisPerMinute);
  job.deadline = millis_from_hours(c.deadline_hours);
  // The statistics the engine offers differ a lot: reading them would show.
  const Scenario su(up, job, TraceStart{false, 0}), sd(down, job, TraceStart{false, 0});
  ASSERT_GT(su.zone_spot_availability(0) - sd.zone_spot_availability(0), 0.5);
  ASSERT_NE(su.zone_spot_mtbf(0), sd.zone_spot_mtbf(0));

  const PolicyRegistry registry = builtin_policy_registry();
  const Outcome a = run(up, job, registry.selection_factory(c.selection)(), c.checkpoint);
  const Outcome b = run(down, job, registry.selection_factory(c.selection)(), c.checkpoint);
  ASSERT_TRUE(a.result.completed);
  ASSERT_TRUE(a.result.deadline_met);
  ASSERT_LT(a.result.completion_hours, to_hours(kSame));
  expect_same_run(a, b);
  // The case exercises the policy: spot, waiting and on-demand all occur.
  bool spot = false, wait = false, od = false;
  for (const Decision& d : a.decisions) {
    spot |= d.purchase == Purchase::kSpot;
    wait |= d.purchase == Purchase::kNone;
    od |= d.purchase == Purchase::kOnDemand;
  }
  EXPECT_TRUE(spot && wait && od) << "spot " << spot << ", wait " << wait << ", on-demand " << od;
}

INSTANTIATE_TEST_SUITE_P(
    Jobs, AdaptiveLookAhead,
    ::testing::Values(Case{16.0, 24.0, "adaptive", "continuous", 0, 0},
                      Case{20.0, 26.0, "adaptive", "continuous", 0, 0}, Case{16.0, 24.0, "planned", "continuous", 0, 0},
                      Case{16.0, 24.0, "planned:calibration=none", "continuous", 0, 0},
                      Case{14.0, 22.0, "adaptive:reserve=0.5", "continuous", 0, 0},
                      Case{16.0, 25.0, "adaptive", "fixed:interval=1h", kMillisPerMinute, kMillisPerMinute},
                      Case{12.0, 20.0, "adaptive:prior_availability=0.9,prior_mtbf=1h", "fixed:interval=30m",
                           kMillisPerMinute, kMillisPerMinute}));

TEST(AdaptiveLookAhead, DecisionsBeforeTheRecordingsDifferAreIdenticalForLongerJobs) {
  // A job that outlives T: every decision taken before T is the same on both recordings.
  JobSpec job = testing::job(40.0, 0, 0, 12 * kMillisPerMinute);
  job.deadline = 60 * kH;
  const PolicyRegistry registry = builtin_policy_registry();
  const Outcome a = run(market(true), job, registry.selection_factory("adaptive")(), "continuous");
  const Outcome b = run(market(false), job, registry.selection_factory("adaptive")(), "continuous");
  std::vector<Decision> before_a, before_b;
  for (const Decision& d : a.decisions)
    if (d.now < kSame) before_a.push_back(d);
  for (const Decision& d : b.decisions)
    if (d.now < kSame) before_b.push_back(d);
  ASSERT_GT(before_a.size(), 5u);
  EXPECT_EQ(before_a, before_b);
}

TEST(AdaptiveLookAhead, APolicyThatPeeksIsCaught) {
  JobSpec job = testing::job(16.0, 0, 0, 12 * kMillisPerMinute);
  const Outcome a = run(market(true), job, std::make_unique<PeekingPolicy>(), "continuous");
  const Outcome b = run(market(false), job, std::make_unique<PeekingPolicy>(), "continuous");
  EXPECT_NE(a.decisions, b.decisions);
}

}  // namespace
}  // namespace spotsim
