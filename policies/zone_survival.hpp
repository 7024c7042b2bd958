#pragma once
// How long spot stays obtainable in each zone, learned from what the run itself has seen (no look-ahead): at every
// decision point the policy records which zones have spot; a maximal stretch seen obtainable is one "up-run". A
// run that has ended is a lifetime; the run under way is right-censored at its age. Per zone, the expected
// remaining length of the current run given its age is the mean residual life of the Kaplan-Meier estimate
// (model/market/kaplan_meier.hpp), with two safeguards for the few runs a job sees:
//  - beyond the longest run seen, the survival curve continues as an exponential tail whose mean is the Gamma
//    posterior mean of all zones' runs, (prior_mean + exposure) / (1 + ended runs), the prior worth one run;
//  - shrinkage toward the pooled estimate (all zones' runs in one Kaplan-Meier curve): with n ended runs in the
//    zone, (n x zone + k x pooled) / (n + k), k pseudo-runs of prior strength (empirical Bayes in spirit).
// Between two decision points the state seen at the first holds; a held spot instance counts as obtainable. A run
// already under way at the first decision point is counted from then (its true start is unknown).
#include <cstddef>
#include <vector>

#include "model/market/empirical_lifetime.hpp"
#include "model/market/kaplan_meier.hpp"
#include "model/observation.hpp"

namespace spotsim {

// The Kaplan-Meier estimate from `records` (hours), continued beyond the longest record by an exponential tail of
// mean `tail_mean_hours`.
class SurvivalCurve {
 public:
  SurvivalCurve() = default;
  SurvivalCurve(const std::vector<LifetimeRecord>& records, double tail_mean_hours);
  // Mean residual life E[T - age | T > age] (hours). Without records: the tail mean.
  double mean_residual_life(double age_hours) const;

 private:
  double survival(double t) const;

  std::vector<KaplanMeierStep> steps_;
  double longest_ = 0.0;
  double tail_ = 1.0;
};

inline double mean_residual_life_hours(const std::vector<LifetimeRecord>& records, double age_hours,
                                       double tail_mean_hours) {
  return SurvivalCurve(records, tail_mean_hours).mean_residual_life(age_hours);
}

struct SurvivalPrior {
  Millis mean_up = 2 * kMillisPerHour;  // expected up-run before anything is seen
  double strength = 3.0;                // k: pseudo-runs the pooled estimate is worth in a zone's estimate
  Millis mean_down = kMillisPerHour;    // expected down-run (spot not obtainable) before any has ended
};

class ZoneSurvival {
 public:
  explicit ZoneSurvival(SurvivalPrior prior = {}) : prior_(prior) {}

  // Forgets the run, keeping storage.
  void reset();
  // Records every zone's state at a decision point (held spot counts as obtainable).
  void observe(const Observation& obs);

  int ended_runs(int z) const { return static_cast<int>(zones_[static_cast<std::size_t>(z)].runs.size()); }
  bool up(int z) const { return zones_[static_cast<std::size_t>(z)].up; }
  // Age of zone z's current up-run at elapsed time `elapsed` (0 when down).
  Millis age(int z, Millis elapsed) const;
  // Expected remaining time (ms) zone z stays obtainable, given the age of its current run.
  Millis expected_remaining(int z, Millis elapsed) const;
  // Expected time (ms) until spot returns in zone z, now down: the mean residual life of the Kaplan-Meier estimate
  // of z's own down-runs (ended ones as events, the current one censored at its age), with an exponential tail of
  // the Gamma posterior mean (mean_down + time seen down) / (1 + ended down-runs). 0 when z is up.
  Millis expected_down_remaining(int z, Millis elapsed) const;

 private:
  struct Track {
    std::vector<double> runs;   // ended up-runs, hours
    std::vector<double> downs;  // ended down-runs, hours
    bool up = false;
    Millis since = 0;  // elapsed time the current run was first seen
  };
  void records_of(int z, Millis elapsed, std::vector<LifetimeRecord>& out) const;
  // The pooled curve and tail mean at `elapsed`, rebuilt once per decision point (they change only with it).
  void prepare_pooled(Millis elapsed) const;

  SurvivalPrior prior_;
  std::vector<Track> zones_;
  Millis last_ = -1;
  mutable std::vector<LifetimeRecord> scratch_;
  mutable SurvivalCurve pooled_;
  mutable double tail_ = 0.0;
  mutable Millis pooled_at_ = -1;  // elapsed time pooled_ was built for; -1 = stale
};

}  // namespace spotsim
