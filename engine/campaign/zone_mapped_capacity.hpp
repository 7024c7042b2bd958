#pragma once
// The campaign's capacity as a job limited to some of the trace's zones sees it (a job of one instance shape on a
// trace holding several, docs/campaign.md#instance-types): the job's engine runs on a market of its zones only and
// numbers them 0..k-1; this forwards every call with the campaign's number of the zone.
#include <utility>
#include <vector>

#include "engine/shared_capacity.hpp"

namespace spotsim {

class ZoneMappedCapacity final : public SharedCapacity {
 public:
  // `global[i]`: the campaign's number of the job's zone i.
  ZoneMappedCapacity(SharedCapacity& campaign, std::vector<int> global)
      : SharedCapacity(0), campaign_(campaign), global_(std::move(global)) {}

  int held(int zone) const override { return campaign_.held(global(zone)); }
  void on_spot_acquired(int job, int zone, int nodes, Millis at) override {
    campaign_.on_spot_acquired(job, global(zone), nodes, at);
  }
  void on_spot_released(int job, int zone, int nodes, Millis at) override {
    campaign_.on_spot_released(job, global(zone), nodes, at);
  }
  bool on_milestone(int job, int index, Millis at) override { return campaign_.on_milestone(job, index, at); }

  int global(int zone) const { return global_[static_cast<std::size_t>(zone)]; }
  const std::vector<int>& zones() const { return global_; }

 private:
  SharedCapacity& campaign_;
  std::vector<int> global_;
};

}  // namespace spotsim
