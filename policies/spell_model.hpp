#pragma once
// How long spot stays up, and away, as seen at decision steps: the semi-Markov model the `planned` policy plans on
// (slack_plan.hpp). A spell of age a steps (a step: the decision step g) lasts another step with probability
// stay[a], for a = 0..A-1, the last age standing for every older spell (a geometric tail).
#include <utility>
#include <vector>

#include "base/time.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

struct SpellModel {
  std::vector<double> stay_up;    // [a]
  std::vector<double> stay_down;  // [a]
};

// Up and down spell lengths, in steps, of a 0/1 sequence; the first and the last spell (cut by the ends of the
// recording, so of unknown length) are left out.
void spell_lengths(const std::vector<bool>& up, std::vector<int>& ups, std::vector<int>& downs);

// stay[a] from spell lengths in steps: the Kaplan-Meier estimate (spells that reached age a + 1 among those that
// reached a; every spell here has ended), with one pseudo-spell of `prior_mean` steps so that every age is defined;
// the last age is a geometric tail with the mean residual of the spells that reached it.
std::vector<double> stay_probabilities(const std::vector<int>& lengths, int ages, double prior_mean);

// The model of a recording pooled over its zones: each zone's availability (at least `nodes` instances) sampled at
// every step g from its start, spells as above. `prior_mean` is the pseudo-spell's length (ms).
SpellModel recorded_spell_model(const SpotMarket& market, int nodes, Millis g, int ages, Millis prior_mean);

// The pooled model first (as recorded_spell_model), then one model per zone of the recording (its own spells only):
// a library of the regimes the recording shows, for a policy that picks the one the run looks like.
std::vector<SpellModel> recorded_zone_spell_models(const SpotMarket& market, int nodes, Millis g, int ages,
                                                   Millis prior_mean);

// Two regimes of a recording: its zones where spot is obtainable less often than on average over the zones (scarce),
// then the others (plentiful), each group's spells pooled as above. One model when every zone is on one side.
std::vector<SpellModel> recorded_regime_models(const SpotMarket& market, int nodes, Millis g, int ages,
                                               Millis prior_mean);

// A memoryless model: spells with mean `up` and gaps with mean `down` (ms), whatever their age.
SpellModel geometric_spell_model(Millis up, Millis down, Millis g, int ages);

}  // namespace spotsim
