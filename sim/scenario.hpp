#pragma once
// Everything a replication needs that does not change between replications: the market, the job and values
// derived from them once (e.g. each zone's mean time between preemptions). Shared read-only by all threads.
#include <vector>

#include "sim/job.hpp"
#include "traces/spot_market.hpp"

namespace spotsim {

struct TraceStart {
  bool random = true;  // uniform over the recording's span (one draw per replication), else `offset`
  Millis offset = 0;
};

class Scenario {
 public:
  Scenario(const SpotMarket& market, const JobSpec& job, TraceStart start = {});

  const SpotMarket& market() const { return *market_; }
  const JobSpec& job() const { return job_; }
  const TraceStart& trace_start() const { return start_; }
  Millis zone_spot_mtbf(int zone) const { return spot_mtbf_[static_cast<std::size_t>(zone)]; }
  double zone_spot_availability(int zone) const { return spot_availability_[static_cast<std::size_t>(zone)]; }
  int zone_count() const { return static_cast<int>(market_->zones.size()); }

 private:
  const SpotMarket* market_;
  JobSpec job_;
  TraceStart start_;
  std::vector<Millis> spot_mtbf_;
  std::vector<double> spot_availability_;
};

}  // namespace spotsim
