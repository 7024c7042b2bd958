#pragma once
// What a job running inside a campaign (engine/campaign/) shares with the campaign's other jobs: the spot capacity of
// each zone, and the decision whether a trial goes on at an early-stopping rung. A JobSimulation with none attached
// (every single-job run) never calls it.
#include <cstdint>
#include <vector>

#include "base/time.hpp"

namespace spotsim {

class SharedCapacity {
 public:
  explicit SharedCapacity(int zones) : held_(static_cast<std::size_t>(zones), 0) {}
  virtual ~SharedCapacity() = default;

  // Spot instances the campaign's jobs hold in `zone` now (all jobs, the asking one included). Virtual for a job
  // that sees only some of the campaign's zones (ZoneMappedCapacity), whose zone numbers are its own.
  virtual int held(int zone) const { return held_[static_cast<std::size_t>(zone)]; }

  // A job's spot instances in `zone` were acquired / released at `at` (the implementation updates held()).
  virtual void on_spot_acquired(int job, int zone, int nodes, Millis at) = 0;
  virtual void on_spot_released(int job, int zone, int nodes, Millis at) = 0;
  // The job's progress reached the milestone `index` (an early-stopping rung) at `at`: true = go on, false = stop.
  virtual bool on_milestone(int job, int index, Millis at) = 0;

 protected:
  std::vector<int> held_;
};

}  // namespace spotsim
