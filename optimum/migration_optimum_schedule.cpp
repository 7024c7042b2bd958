#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

#include "base/errors.hpp"
#include "optimum/migration_optimum_plan.hpp"
#include "optimum/offline_optimum.hpp"
#include "optimum/optimum_kernels.hpp"

namespace spotsim {
namespace {
using namespace optimum_kernels;  // Span, kInfinity
}  // namespace

// A state on the walk back.
struct MigrationOptimumSolver::Node {
  enum Type { kIdle, kHeld, kLaunch, kNone };
  Type type = kNone;
  int id = 0;  // region, kind, or kind (own launch) / -(1 + shared row) for a class row
  std::int64_t k = 0, p = 0;
  int region = 0;  // of a launch: its target region

  // The state behind hold source `s` of kind y (then held through ticks s.launched..k-1 in full).
  static Node behind(const Plan& P, const HoldSource& s, int y, std::int64_t at) {
    if (s.klass < 0) return Node{kHeld, y, s.launched, at, P.region_of(y)};
    return Node{kLaunch, s.klass == 0 ? y : -(1 + P.class_of(y, s.klass).row), s.launched, at, P.region_of(y)};
  }
  // The walk ends at the start: idle, or launching in the own class, with nothing saved.
  bool at_start() const { return p == 0 && (type == kIdle || (type == kLaunch && id >= 0)); }
};

// Per tick up to the finishing one: the kind held (-1 none) and the steps held; the moves.
struct MigrationOptimumSolver::Walk {
  Walk(std::int64_t finish_k, std::int64_t step_g)
      : tick_kind(static_cast<std::size_t>(finish_k) + 1, -1), tick_held(tick_kind.size(), 0), g(step_g) {}
  std::vector<int> tick_kind;
  std::vector<std::int64_t> tick_held;
  std::int64_t g = 0;
  double egress = 0.0;
  int migrations = 0;

  void set(std::int64_t k, int y, std::int64_t held) {
    tick_kind[static_cast<std::size_t>(k)] = y;
    tick_held[static_cast<std::size_t>(k)] = held;
  }
  // y held in full through ticks from..to-1.
  void mark(std::int64_t from, std::int64_t to, int y) {
    for (std::int64_t i = from; i < to; ++i) set(i, y, g);
  }
};

// The schedule: walk back from the finish, at each state taking the cheapest way into it (recomputed from the
// stored values: every state's value is the least over its ways in).
void MigrationOptimumSolver::reconstruct(const Plan& P, Sweep& sweep, std::int64_t finish_r, MigrationOptimum& result) {
  const Finish& finish = sweep.finish;
  HoldSource* holds = sweep.holds.data();
  Walk walk(finish.k, P.g);
  Node node;
  const int count = hold_sources(P, finish.k, finish.kind, holds);
  for (int i = 0; i < count; ++i) {
    if (holds[i].klass != finish.klass) continue;
    node = Node::behind(P, holds[i], finish.kind, finish.p);
    walk.mark(holds[i].launched, finish.k, finish.kind);
  }
  walk.set(finish.k, finish.kind, finish_r + P.w - finish.p);
  while (node.type != Node::kNone && !node.at_start()) {
    double best = kInfinity;
    if (node.type == Node::kHeld) {
      node = back_from_held(P, node, holds, walk, best);
    } else if (node.type == Node::kIdle) {
      node = back_from_idle(P, node, holds, walk, best);
    } else {
      node = back_from_launch(P, node, walk, best);
    }
    assert(best < kInfinity);
  }
  write_schedule(P, walk, result);
}

// Into holding y at boundary k: held through tick k - 1 from one of its hold sources.
MigrationOptimumSolver::Node MigrationOptimumSolver::back_from_held(const Plan& P, const Node& node, HoldSource* holds,
                                                                    Walk& walk, double& best) {
  const std::int64_t k = node.k, p = node.p, g = P.g;
  assert(k >= 1);
  const int y = node.id;
  const int count = hold_sources(P, k - 1, y, holds);
  const double tick_cost = price(k - 1, y) * static_cast<double>(g);
  std::int64_t launched = k - 1;
  Node next;
  for (int i = 0; i < count; ++i) {
    const HoldSource& s = holds[i];
    const std::int64_t from = p - (g - std::min(s.r, g));
    if (!s.from.holds(from)) continue;
    const double v = s.values[from] + s.offset + tick_cost;
    if (v < best) best = v, next = Node::behind(P, s, y, from), launched = s.launched;
  }
  walk.mark(launched, k, y);
  return next;
}

// Into idle in region a at boundary k: released at the boundary, or a partial stop of a kind of a in tick k - 1.
MigrationOptimumSolver::Node MigrationOptimumSolver::back_from_idle(const Plan& P, const Node& node, HoldSource* holds,
                                                                    Walk& walk, double& best) {
  const std::int64_t k = node.k, p = node.p;
  assert(k >= 1);
  const int a = node.id;
  Node next = best_in_region(P, a, k - 1, p, best);
  int stop_kind = -1;
  std::int64_t stop_t = 0, launched = k - 1;
  for (int y : P.kinds_in(a)) {
    if (P.per_tick || !allowed(k - 1, y)) continue;
    const int count = hold_sources(P, k - 1, y, holds);
    for (int i = 0; i < count; ++i) {
      const HoldSource& s = holds[i];
      for (std::int64_t t = s.r + 1; t <= P.g - 1; ++t) {
        const std::int64_t from = p - (t - s.r);
        if (!s.from.holds(from)) continue;
        const double v = s.values[from] + s.offset + price(k - 1, y) * static_cast<double>(t);
        if (v < best) best = v, next = Node::behind(P, s, y, from), stop_kind = y, stop_t = t, launched = s.launched;
      }
    }
  }
  if (stop_kind >= 0) walk.mark(launched, k - 1, stop_kind);
  walk.set(k - 1, stop_kind, stop_t);
  return next;
}

// Into a launch at boundary k into region b: in the own class (node.id = the kind) from idle in b or holding
// another kind of b, or (either class) moved from a source region of the class, paying its egress.
MigrationOptimumSolver::Node MigrationOptimumSolver::back_from_launch(const Plan& P, const Node& node, Walk& walk,
                                                                      double& best) const {
  const std::int64_t k = node.k, p = node.p;
  const int b = node.region;
  Node next;
  if (node.id >= 0) {
    const int y = node.id;
    best = value_at(k, P.idle_row(b), p);
    next = Node{Node::kIdle, b, k, p, b};
    for (int x : P.kinds_in(b)) {
      const double v = value_at(k, P.held_row(x), p);
      if (x != y && v < best) best = v, next = Node{Node::kHeld, x, k, p, b};
    }
  }
  const int shared = node.id < 0 ? -1 - node.id : -1;
  for (const Plan::Class& cl : P.classes_into(b)) {
    if ((node.id >= 0) != (cl.row < 0) || (shared >= 0 && cl.row != shared)) continue;
    for (int a : cl.from) {
      double v = 0.0;
      const Node pick = best_in_region(P, a, k, p, v);
      v += P.egress[P.pair(a, b)];
      if (v < best) best = v, next = pick, next.region = -1 - a;  // marks a move
    }
  }
  if (next.region < 0) {
    const int a = -1 - next.region;
    next.region = a;
    walk.egress += P.egress[P.pair(a, b)];
    ++walk.migrations;
  }
  return next;
}

// The cheapest state with the data in region a at boundary k and progress p.
MigrationOptimumSolver::Node MigrationOptimumSolver::best_in_region(const Plan& P, int a, std::int64_t k,
                                                                    std::int64_t p, double& best) const {
  Node pick{Node::kIdle, a, k, p, a};
  best = value_at(k, P.idle_row(a), p);
  for (int x : P.kinds_in(a)) {
    const double v = value_at(k, P.held_row(x), p);
    if (v < best) best = v, pick = Node{Node::kHeld, x, k, p, a};
  }
  return pick;
}

// The walk's moves and, per tick, the kind, zone and time held, with the spot / on-demand split of the cost.
void MigrationOptimumSolver::write_schedule(const Plan& P, const Walk& walk, MigrationOptimum& result) const {
  result.egress_cost = walk.egress;
  result.migrations = walk.migrations;
  for (std::size_t k = 0; k < walk.tick_kind.size(); ++k) {
    const int y = walk.tick_kind[k];
    result.schedule.push_back(y < 0 ? '.' : P.kind_spot[static_cast<std::size_t>(y)] ? 's' : 'D');
    result.schedule_zones.push_back(y < 0 ? -1 : P.kind_zone[static_cast<std::size_t>(y)]);
    result.schedule_held.push_back(y < 0 ? 0 : walk.tick_held[k] * P.q);
    if (y < 0) continue;
    const std::int64_t billed = P.per_tick ? P.g : walk.tick_held[k];
    const double cost = price(static_cast<std::int64_t>(k), y) * static_cast<double>(billed);
    (P.kind_spot[static_cast<std::size_t>(y)] ? result.spot_cost : result.on_demand_cost) += cost;
  }
}

}  // namespace spotsim
