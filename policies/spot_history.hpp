#pragma once
// What a run has seen of each zone's spot availability, from its own decision points only: how long spot was
// obtainable and not, and how often it dropped and returned. Decision-time information only (no look-ahead):
// this is what lets the adaptive policy learn a recorded zone's availability instead of reading the recording's
// long-run statistics, which include the future of the window being replayed.
//
// Between two decision points the state seen at the first one is assumed to hold (a held spot instance counts as
// obtainable: it is preempted when availability drops, and the engine then asks the policy). Policies that watch
// the market while they wait or run on on-demand (SelectionDecision::wake_on_spot) are told of every return, so
// in one zone the record is then exact.
//
// Estimates combine the record with a prior (SpotPrior) in the conjugate way:
//  - availability: a Beta-like mean, (a0 w + up) / (w + up + down), the prior worth w of observation;
//  - mean length of an obtainable spell (time between drops) and of an unobtainable one: the exponential model's
//    Gamma posterior mean, (m0 + exposure) / (1 + events), the prior worth one spell of its mean length m0.
#include <cstddef>
#include <vector>

#include "model/observation.hpp"

namespace spotsim {

struct SpotPrior {
  double availability = 0.5;            // long-run fraction of time spot can be obtained
  Millis mean_up = 2 * kMillisPerHour;  // mean time spot stays obtainable (time between drops)
  Millis weight = 6 * kMillisPerHour;   // how much observed time the availability prior is worth
  // The mean unobtainable spell implied by the other two: an alternating process spends a = up / (up + down).
  double mean_down() const;
};

class SpotHistory {
 public:
  struct ZoneRecord {
    Millis up = 0;    // time seen obtainable (or held)
    Millis down = 0;  // time seen unobtainable
    int drops = 0;    // obtainable -> not
    int returns = 0;  // not -> obtainable
    bool was_up = false;
    Millis since = 0;  // elapsed time at which the current spell was first seen
  };

  // Forgets the run (keeps the storage: no allocation per replication once the zone count is known).
  void reset();
  // Books the time since the previous decision point to each zone's state then. Allocates only the first time a
  // given number of zones is seen.
  void observe(const Observation& obs);
  bool empty() const { return last_ < 0; }
  const ZoneRecord& zone(int z) const { return zones_[static_cast<std::size_t>(z)]; }

  // Estimates for zone z under `prior` (all in ms, or a fraction).
  double availability(int z, const SpotPrior& prior) const;
  double mean_up(int z, const SpotPrior& prior) const;
  double mean_down(int z, const SpotPrior& prior) const;

 private:
  std::vector<ZoneRecord> zones_;
  Millis last_ = -1;         // elapsed time of the previous decision point; -1 = none yet
  int held_spot_zone_ = -1;  // zone of the spot instance held at the previous decision point
};

}  // namespace spotsim
