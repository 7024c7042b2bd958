#pragma once
// A plain, independent implementation of the lossless tick model (optimum/offline_optimum.hpp) for the tests: it
// replays one per-tick decision sequence in milliseconds (with per-second billing a tick may be held part-way and
// then released: a partial stop), finds the cheapest sequence by trying them all, or by merging equal states for
// longer requests, and solves the per-second model with decisions at every grid step (launches inside ticks too),
// which the tick model must match when prices are constant. Written for obviousness, not speed; it shares no code
// with the dynamic programme it checks.
#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "optimum/offline_optimum.hpp"

namespace spotsim::testing {

struct TickChoice {
  char kind = '.';  // '.' nothing, 's' spot, 'D' on-demand
  int zone = -1;
  // 0: held for the whole tick. Otherwise (per-second billing only) released after `partial` ms, nothing held
  // until the next boundary.
  Millis partial = 0;
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
  const Millis held_for = choice.partial > 0 ? choice.partial : request.tick;
  const Millis useful = std::max<Millis>(held_for - state.overhead_left, 0);
  const Millis missing = request.work - state.progress;
  Millis billed = choice.partial > 0 ? choice.partial : request.tick;
  if (useful >= missing) {
    state.finished = true;
    state.finish = k * request.tick + state.overhead_left + missing;
    state.progress = request.work;
    if (!request.per_tick_billing) billed = state.overhead_left + missing;
  } else {
    state.progress += useful;
  }
  state.overhead_left = std::max<Millis>(state.overhead_left - held_for, 0);
  if (choice.partial > 0) state.held = TickChoice{};  // released part-way: the next tick starts from nothing
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

// `held`: time held per tick (OfflineOptimum::schedule_held); a tick before the last one held for less than a tick
// is a partial stop. Empty: every tick held in full.
inline ReplayOutcome replay_schedule(const OfflineOptimumRequest& request, const std::string& kinds,
                                     const std::vector<int>& zones, const std::vector<Millis>& held = {}) {
  TickModelState state;
  ReplayOutcome outcome;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    if (state.finished) return outcome;  // ticks after the finish
    TickChoice choice{kinds[k], zones[k]};
    if (!held.empty() && k + 1 < kinds.size() && kinds[k] != '.' && held[k] < request.tick) choice.partial = held[k];
    if (!hold_for_tick(request, state, static_cast<int>(k), choice)) return outcome;
  }
  outcome.valid = state.finished && state.finish <= request.deadline;
  outcome.spot_cost = state.spot_cost;
  outcome.on_demand_cost = state.on_demand_cost;
  outcome.cost = state.spot_cost + state.on_demand_cost;
  outcome.finish = state.finish;
  return outcome;
}

// The grid the tick model decides on: every duration of the request is a multiple of it.
inline Millis decision_grid(const OfflineOptimumRequest& request) {
  return std::gcd(std::gcd(request.tick, request.changeover), std::gcd(request.work, request.deadline));
}

// The least cost over every sequence of per-tick choices (infinity if none finishes by the deadline). With
// per-second billing the choices include, for each kind, a partial stop after every multiple of `step` inside the
// tick (default: the decision grid; a finer step checks that the grid loses nothing), unless partial_stops is false.
// Branches that already cost at least the best found plus the cheapest price of the missing work, or can no longer
// finish by the deadline, are cut.
inline double brute_force_optimum(const OfflineOptimumRequest& request, Millis step = 0, bool partial_stops = true) {
  if (step == 0) step = decision_grid(request);
  std::vector<TickChoice> choices;
  for (int z = 0; z < static_cast<int>(request.market->zones.size()); ++z) {
    choices.push_back({'s', z, 0});
    choices.push_back({'D', z, 0});
  }
  choices.push_back({'.', -1, 0});
  if (!request.per_tick_billing && partial_stops) {
    for (int z = 0; z < static_cast<int>(request.market->zones.size()); ++z) {
      for (Millis partial = step; partial < request.tick; partial += step) {
        choices.push_back({'s', z, partial});
        choices.push_back({'D', z, partial});
      }
    }
  }
  // Every ms of work still missing costs at least the cheapest price anywhere.
  double cheapest = std::numeric_limits<double>::infinity();
  for (const Zone& zone : request.market->zones) {
    cheapest = std::min({cheapest, zone.on_demand_price_per_hour, zone.spot.price_per_hour.min_value()});
  }
  const double least_per_ms = std::max(0.0, cheapest) * request.nodes / static_cast<double>(kMillisPerHour);
  double best = std::numeric_limits<double>::infinity();
  auto explore = [&](auto&& self, const TickModelState& state, int k) -> void {
    if (k * request.tick >= request.deadline) return;
    if (state.progress + (request.deadline - k * request.tick) < request.work) return;
    for (const TickChoice& choice : choices) {
      // A partial stop that ends before the changeover is over does no work: it leaves the state that holding
      // nothing leaves, at a cost.
      const bool continued = choice.kind == state.held.kind && choice.zone == state.held.zone;
      if (choice.partial > 0 && choice.partial <= (continued ? state.overhead_left : request.changeover)) continue;
      TickModelState next = state;
      if (!hold_for_tick(request, next, k, choice)) continue;
      const double cost = next.spot_cost + next.on_demand_cost;
      if (cost + least_per_ms * static_cast<double>(request.work - next.progress) >= best) continue;
      if (next.finished) {
        if (next.finish <= request.deadline) best = cost;
        continue;
      }
      self(self, next, k + 1);
    }
  };
  explore(explore, TickModelState{}, 0);
  return best;
}

// The same search as brute_force_optimum with equal states merged, for requests too long to enumerate: one tick
// at a time, every choice (partial stops on the decision grid included) from every distinct (what is held,
// changeover left, progress), each replayed with hold_for_tick.
inline double tick_model_by_states(const OfflineOptimumRequest& request) {
  const Millis q = decision_grid(request);
  std::vector<TickChoice> choices{{'.', -1, 0}};
  for (int z = 0; z < static_cast<int>(request.market->zones.size()); ++z) {
    choices.push_back({'s', z, 0});
    choices.push_back({'D', z, 0});
    for (Millis partial = q; !request.per_tick_billing && partial < request.tick; partial += q) {
      choices.push_back({'s', z, partial});
      choices.push_back({'D', z, partial});
    }
  }
  const int held_kinds = 1 + 2 * static_cast<int>(request.market->zones.size());
  auto held_index = [](const TickChoice& held) {
    return held.kind == '.' ? 0 : 1 + 2 * held.zone + (held.kind == 'D');
  };
  const Millis overheads = request.changeover / q + 1, progresses = request.work / q;
  auto at = [&](int held, Millis overhead, Millis progress) {
    return static_cast<std::size_t>((held * overheads + overhead) * progresses + progress);
  };
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<double> cost(static_cast<std::size_t>(held_kinds * overheads * progresses), infinity), next;
  cost[at(0, 0, 0)] = 0.0;
  double best = infinity;
  for (int k = 0; k * request.tick < request.deadline; ++k) {
    next.assign(cost.size(), infinity);
    for (int held = 0; held < held_kinds; ++held) {
      for (Millis overhead = 0; overhead < overheads; ++overhead) {
        for (Millis progress = 0; progress < progresses; ++progress) {
          const double value = cost[at(held, overhead, progress)];
          if (value == infinity) continue;
          TickModelState state;
          state.held = held == 0 ? TickChoice{} : TickChoice{(held - 1) % 2 == 0 ? 's' : 'D', (held - 1) / 2, 0};
          state.overhead_left = overhead * q;
          state.progress = progress * q;
          for (const TickChoice& choice : choices) {
            TickModelState after = state;
            if (!hold_for_tick(request, after, k, choice)) continue;
            const double paid = value + after.spot_cost + after.on_demand_cost;
            if (after.finished) {
              if (after.finish <= request.deadline) best = std::min(best, paid);
              continue;
            }
            const int after_held = held_index(after.held);
            double& cell = next[at(after_held, after_held == 0 ? 0 : after.overhead_left / q, after.progress / q)];
            cell = std::min(cell, paid);
          }
        }
      }
    }
    cost.swap(next);
  }
  return best;
}

// Per-second billing with decisions at every multiple of `step` (which divides the tick, the changeover, the work
// and the deadline): launches anywhere, not only at tick boundaries, as an event-driven policy may. A forward
// search over (what is held, changeover left, progress) per step, each step held or not as a whole. Availability
// and prices are those of the step's tick. The offline optimum must equal it when spot prices are constant.
inline double step_model_optimum(const OfflineOptimumRequest& request, Millis step) {
  const int zones = static_cast<int>(request.market->zones.size());
  const int choices = 1 + 2 * zones;  // 0 nothing, 1 + 2z spot in zone z, 2 + 2z on-demand in zone z
  const Millis overheads = request.changeover / step + 1, progresses = request.work / step;
  const Millis steps = request.deadline / step;
  auto at = [&](int held, Millis overhead, Millis progress) {
    return static_cast<std::size_t>((held * overheads + overhead) * progresses + progress);
  };
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<double> cost(static_cast<std::size_t>(choices * overheads * progresses), infinity), next;
  cost[at(0, 0, 0)] = 0.0;
  double best = infinity;
  for (Millis n = 0; n < steps; ++n) {
    const Millis tick_start = request.start + (n * step / request.tick) * request.tick;
    next.assign(cost.size(), infinity);
    for (int held = 0; held < choices; ++held) {
      for (Millis overhead = 0; overhead < overheads; ++overhead) {
        for (Millis progress = 0; progress < progresses; ++progress) {
          const double value = cost[at(held, overhead, progress)];
          if (value == infinity) continue;
          double& idle = next[at(0, 0, progress)];
          idle = std::min(idle, value);
          for (int choice = 1; choice < choices; ++choice) {
            const Zone& zone = request.market->zones[static_cast<std::size_t>((choice - 1) / 2)];
            const bool spot = (choice - 1) % 2 == 0;
            if (spot && zone.spot.available && zone.spot.available->at(tick_start) < request.nodes) continue;
            const double price = spot ? zone.spot.price_per_hour.at(tick_start) : zone.on_demand_price_per_hour;
            const double paid =
                value + price * request.nodes * static_cast<double>(step) / static_cast<double>(kMillisPerHour);
            const Millis left = choice == held ? overhead : request.changeover / step;
            if (left > 0) {
              double& cell = next[at(choice, left - 1, progress)];
              cell = std::min(cell, paid);
            } else if (progress + 1 == progresses) {
              best = std::min(best, paid);
            } else {
              double& cell = next[at(choice, 0, progress + 1)];
              cell = std::min(cell, paid);
            }
          }
        }
      }
    }
    cost.swap(next);
  }
  return best;
}

}  // namespace spotsim::testing
