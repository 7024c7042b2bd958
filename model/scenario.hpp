#pragma once
// Everything a replication needs that does not change between replications: the market, the job and values
// derived from them once (e.g. each zone's mean time between preemptions). Shared read-only by all threads.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/job.hpp"
#include "model/market/spot_market.hpp"
#include "model/observation.hpp"

namespace spotsim {

struct TraceStart {
  bool random = true;  // uniform over the recording's span (one draw per replication), else `offset`
  Millis offset = 0;
};

// Where replication `replication` starts in a recording: uniform over its span, on a tick of the recording's
// clock when it has one (as the Can't Be Late windows do), so that per-tick decisions line up with the data.
Millis random_trace_start(const SpotMarket& market, std::uint64_t seed, std::uint64_t replication);

// Costs by window start, shared by the threads of a run (thread-safe).
class WindowCostCache {
 public:
  std::optional<double> find(Millis start) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = costs_.find(start);
    return it == costs_.end() ? std::nullopt : std::optional<double>(it->second);
  }
  void store(Millis start, double cost) {
    std::lock_guard<std::mutex> lock(mutex_);
    costs_.emplace(start, cost);
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<Millis, double> costs_;
};

// What moving the job's saved state into a zone costs (docs/migration.md): the transfer that follows the start-up
// (0 within a region: part of the restore) and the egress bill, paid once per move for the checkpoint.
struct MigrationCost {
  Millis transfer = 0;
  double egress_usd = 0.0;
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
  // What a policy sees of every zone at time t (model/observation.hpp), written into `views` (one per zone), with
  // the cost of moving there from `data_zone` (the zone whose region holds the saved state; -1 = none yet).
  void view_zones(Millis t, int data_zone, std::vector<ZoneView>& views) const;
  // Moving the saved state from zone `from` (-1: nothing saved, free) to zone `to`.
  const MigrationCost& migration(int from, int to) const {
    static constexpr MigrationCost kFree{};
    if (from < 0) return kFree;
    return migration_[zone_place_[static_cast<std::size_t>(from)] * place_count_ +
                      zone_place_[static_cast<std::size_t>(to)]];
  }
  // Index of the zone's region among the market's distinct regions (market_regions order).
  int zone_region(int zone) const { return zone_region_[static_cast<std::size_t>(zone)]; }
  int region_count() const { return region_count_; }
  // True when some move between zones costs transfer time or egress.
  bool has_migration_costs() const { return has_migration_costs_; }
  // The move from `from` to `to` when it costs transfer time or egress, else null (engines: a transfer phase or not).
  const MigrationCost* costly_move(int from, int to) const {
    if (!has_migration_costs_) return nullptr;
    const MigrationCost& move = migration(from, to);
    return move.transfer > 0 || move.egress_usd > 0.0 ? &move : nullptr;
  }

  // The Can't Be Late compatibility mode (engine/tick_simulation.hpp): decisions per tick of `tick` (0 = the
  // recording's own tick) instead of the event-driven engine.
  void use_cant_be_late_mode(Millis tick = 0) { cant_be_late_ = true, cant_be_late_tick_ = tick; }
  bool cant_be_late_mode() const { return cant_be_late_; }
  // Compute the offline optimum of each replication's window too (RunResult::optimum_cost, for regret). The
  // optimum depends only on the window, so every policy run on this scenario shares one cache of them.
  void compute_optimum(bool on) { optimum_cache_ = on ? std::make_shared<WindowCostCache>() : nullptr; }
  bool computes_optimum() const { return optimum_cache_ != nullptr; }
  WindowCostCache* optimum_cache() const { return optimum_cache_.get(); }
  Millis cant_be_late_tick() const { return cant_be_late_tick_; }

 private:
  void build_migration_costs();

  const SpotMarket* market_;
  JobSpec job_;
  TraceStart start_;
  std::vector<Millis> spot_mtbf_;
  std::vector<double> spot_availability_;
  // Moves cost the same between any zones of two (region, continent) places: priced per pair of places, so memory
  // grows with the square of the places (dozens), not of the zones (10,000 zones took 1.6 GB).
  std::vector<MigrationCost> migration_;  // [place(from) * place_count_ + place(to)]
  std::vector<std::size_t> zone_place_;
  std::size_t place_count_ = 0;
  std::vector<int> zone_region_;
  int region_count_ = 1;
  bool has_migration_costs_ = false;
  bool cant_be_late_ = false;
  std::shared_ptr<WindowCostCache> optimum_cache_;
  Millis cant_be_late_tick_ = 0;
};

}  // namespace spotsim
