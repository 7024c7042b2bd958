#pragma once
// A plain, independent implementation of the lossless tick model (sim/offline_optimum.hpp) for the tests: it
// replays one per-tick decision sequence in milliseconds, and finds the cheapest sequence by trying them all.
// Written for obviousness, not speed; it shares no code with the dynamic programme it checks.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "sim/offline_optimum.hpp"

namespace spotsim::testing {

struct TickChoice {
  char kind = '.';  // '.' nothing, 's' spot, 'D' on-demand
  int zone = -1;
};

struct TickModelState {
  TickChoice held;
  Millis progress = 0;
  Millis overhead_left = 0;  // changeover still to sit through on the held instance
  double spot_cost = 0.0;
  double on_demand_cost = 0.0;
  bool finished = false;
  Millis finish = 0;  // relative to the start
};

// Holds `choice` during tick k. False if the choice is not allowed (spot not available in that tick).
inline bool hold_for_tick(const OfflineOptimumRequest& request, TickModelState& state, int k, TickChoice choice) {
  const Millis tick_start = request.start + k * request.tick;
  if (choice.kind == '.') {
    state.held = choice;  // going idle keeps nothing
    return true;
  }
  const Zone& zone = request.market->zones[static_cast<std::size_t>(choice.zone)];
  if (choice.kind == 's' && zone.spot.available && zone.spot.available->at(tick_start) < request.nodes) return false;
  if (choice.kind != state.held.kind || choice.zone != state.held.zone) state.overhead_left = request.changeover;
  state.held = choice;
  const Millis useful = std::max<Millis>(request.tick - state.overhead_left, 0);
  const Millis missing = request.work - state.progress;
  Millis billed = request.tick;
  if (useful >= missing) {
    state.finished = true;
    state.finish = k * request.tick + state.overhead_left + missing;
    state.progress = request.work;
    if (!request.per_tick_billing) billed = state.overhead_left + missing;
  } else {
    state.progress += useful;
  }
  state.overhead_left = std::max<Millis>(state.overhead_left - request.tick, 0);
  const double price = choice.kind == 's' ? zone.spot.price_per_hour.at(tick_start) : zone.on_demand_price_per_hour;
  const double cost = price * request.nodes * static_cast<double>(billed) / static_cast<double>(kMillisPerHour);
  (choice.kind == 's' ? state.spot_cost : state.on_demand_cost) += cost;
  return true;
}

struct ReplayOutcome {
  bool valid = false;  // every choice allowed and the job finished by the deadline in the last tick
  double cost = 0.0, spot_cost = 0.0, on_demand_cost = 0.0;
  Millis finish = 0;
};

inline ReplayOutcome replay_schedule(const OfflineOptimumRequest& request, const std::string& kinds,
                                     const std::vector<int>& zones) {
  TickModelState state;
  ReplayOutcome outcome;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    if (state.finished) return outcome;  // ticks after the finish
    if (!hold_for_tick(request, state, static_cast<int>(k), TickChoice{kinds[k], zones[k]})) return outcome;
  }
  outcome.valid = state.finished && state.finish <= request.deadline;
  outcome.spot_cost = state.spot_cost;
  outcome.on_demand_cost = state.on_demand_cost;
  outcome.cost = state.spot_cost + state.on_demand_cost;
  outcome.finish = state.finish;
  return outcome;
}

// The least cost over every sequence of per-tick choices (infinity if none finishes by the deadline).
inline double brute_force_optimum(const OfflineOptimumRequest& request) {
  std::vector<TickChoice> choices{{'.', -1}};
  for (int z = 0; z < static_cast<int>(request.market->zones.size()); ++z) {
    choices.push_back({'s', z});
    choices.push_back({'D', z});
  }
  double best = std::numeric_limits<double>::infinity();
  auto explore = [&](auto&& self, const TickModelState& state, int k) -> void {
    if (k * request.tick >= request.deadline) return;
    for (const TickChoice& choice : choices) {
      TickModelState next = state;
      if (!hold_for_tick(request, next, k, choice)) continue;
      if (next.finished) {
        if (next.finish <= request.deadline) best = std::min(best, next.spot_cost + next.on_demand_cost);
        continue;
      }
      self(self, next, k + 1);
    }
  };
  explore(explore, TickModelState{}, 0);
  return best;
}

}  // namespace spotsim::testing
