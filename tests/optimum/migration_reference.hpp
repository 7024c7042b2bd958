#pragma once
// A plain, independent implementation of the migration model (optimum/migration_optimum.hpp) for the tests, in the
// style of tick_model_reference.hpp: one per-tick decision replayed in milliseconds, with the data region set the
// moment an instance's changeover completes (literally: even with no progress yet), the transfer added to the
// changeover and the egress paid at a launch from another region; and the cheapest decision sequence found by
// merging equal states tick by tick (every choice, partial stops on a given step included). No shared code with
// the dynamic programme it checks.
#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "optimum/migration_optimum.hpp"
#include "tests/optimum/tick_model_reference.hpp"

namespace spotsim::testing {

struct MigrationState {
  TickChoice held;
  Millis progress = 0;
  Millis overhead_left = 0;
  int data_region = -1;  // -1: nothing saved
  double spot_cost = 0.0, on_demand_cost = 0.0, egress = 0.0;
  int migrations = 0;
  bool finished = false;
  Millis finish = 0;
  double cost() const { return spot_cost + on_demand_cost + egress; }
};

inline int region_of_zone(const MigrationOptimumRequest& request, int zone) {
  return request.zone_region.empty() ? 0 : request.zone_region[static_cast<std::size_t>(zone)];
}

// Holds `choice` during tick k. False if not allowed (spot unavailable in that tick).
inline bool hold_with_migration(const MigrationOptimumRequest& request, MigrationState& state, int k,
                                TickChoice choice) {
  const Millis tick_start = request.start + k * request.tick;
  if (choice.kind == '.') {
    state.held = choice;
    return true;
  }
  const Zone& zone = request.market->zones[static_cast<std::size_t>(choice.zone)];
  if (choice.kind == 's' && zone.spot.available && zone.spot.available->at(tick_start) < request.nodes) return false;
  const int region = region_of_zone(request, choice.zone);
  if (choice.kind != state.held.kind || choice.zone != state.held.zone) {
    state.overhead_left = request.changeover;
    if (state.data_region >= 0 && state.data_region != region) {
      const std::size_t regions =
          static_cast<std::size_t>(*std::max_element(request.zone_region.begin(), request.zone_region.end()) + 1);
      const std::size_t pair = static_cast<std::size_t>(state.data_region) * regions + static_cast<std::size_t>(region);
      state.overhead_left += request.transfer[pair];
      state.egress += request.egress_usd[pair];
      ++state.migrations;
    }
  }
  state.held = choice;
  const Millis held_for = choice.partial > 0 ? choice.partial : request.tick;
  const Millis useful = std::max<Millis>(held_for - state.overhead_left, 0);
  const Millis missing = request.work - state.progress;
  Millis billed = held_for;
  if (held_for >= state.overhead_left) state.data_region = region;  // the changeover completed in this hold
  if (useful >= missing) {
    state.finished = true;
    state.finish = k * request.tick + state.overhead_left + missing;
    state.progress = request.work;
    if (!request.per_tick_billing) billed = state.overhead_left + missing;
  } else {
    state.progress += useful;
  }
  state.overhead_left = std::max<Millis>(state.overhead_left - held_for, 0);
  if (choice.partial > 0) state.held = TickChoice{};
  const double price = choice.kind == 's' ? zone.spot.price_per_hour.at(tick_start) : zone.on_demand_price_per_hour;
  const double cost = price * request.nodes * static_cast<double>(billed) / static_cast<double>(kMillisPerHour);
  (choice.kind == 's' ? state.spot_cost : state.on_demand_cost) += cost;
  return true;
}

struct MigrationReplay {
  bool valid = false;
  double cost = 0.0, spot_cost = 0.0, on_demand_cost = 0.0, egress = 0.0;
  int migrations = 0;
  Millis finish = 0;
};

inline MigrationReplay replay_with_migration(const MigrationOptimumRequest& request, const MigrationOptimum& result) {
  MigrationState state;
  MigrationReplay outcome;
  for (std::size_t k = 0; k < result.schedule.size(); ++k) {
    if (state.finished) return outcome;
    TickChoice choice{result.schedule[k], result.schedule_zones[k]};
    if (k + 1 < result.schedule.size() && choice.kind != '.' && result.schedule_held[k] < request.tick) {
      choice.partial = result.schedule_held[k];
    }
    if (!hold_with_migration(request, state, static_cast<int>(k), choice)) return outcome;
  }
  outcome.valid = state.finished && state.finish <= request.deadline;
  outcome.cost = state.cost();
  outcome.spot_cost = state.spot_cost;
  outcome.on_demand_cost = state.on_demand_cost;
  outcome.egress = state.egress;
  outcome.migrations = state.migrations;
  outcome.finish = state.finish;
  return outcome;
}

// The least cost over every sequence of per-tick choices (spot or on-demand in any zone, nothing, and with
// per-second billing a partial stop after every multiple of `step`), equal states merged tick by tick.
inline double migration_brute_force(const MigrationOptimumRequest& request, Millis step) {
  std::vector<TickChoice> choices{{'.', -1, 0}};
  for (int z = 0; z < static_cast<int>(request.market->zones.size()); ++z) {
    choices.push_back({'s', z, 0});
    choices.push_back({'D', z, 0});
    for (Millis partial = step; !request.per_tick_billing && partial < request.tick; partial += step) {
      choices.push_back({'s', z, partial});
      choices.push_back({'D', z, partial});
    }
  }
  using Key = std::tuple<char, int, Millis, Millis, int>;  // held kind, zone, changeover left, progress, data region
  std::map<Key, MigrationState> states{{Key{'.', -1, 0, 0, -1}, MigrationState{}}};
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k * request.tick < request.deadline; ++k) {
    std::map<Key, MigrationState> next;
    for (const auto& [key, state] : states) {
      for (const TickChoice& choice : choices) {
        MigrationState after = state;
        if (!hold_with_migration(request, after, k, choice)) continue;
        if (after.finished) {
          if (after.finish <= request.deadline) best = std::min(best, after.cost());
          continue;
        }
        const Key at{after.held.kind, after.held.zone, after.overhead_left, after.progress, after.data_region};
        auto [slot, fresh] = next.emplace(at, after);
        if (!fresh && after.cost() < slot->second.cost()) slot->second = after;
      }
    }
    states.swap(next);
  }
  return best;
}

}  // namespace spotsim::testing
