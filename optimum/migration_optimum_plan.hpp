#pragma once
// The multi-region optimum's solver, inside (optimum/migration_optimum.hpp is its interface): the request planned in
// grid steps (MigrationOptimumSolver::Plan, migration_optimum_plan.cpp) and the records its forward DP
// (migration_optimum.cpp) and the walk back to the schedule (migration_optimum_schedule.cpp) share. Only those three
// files include it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "optimum/migration_optimum.hpp"
#include "optimum/optimum_kernels.hpp"

namespace spotsim {

// InputError ("migration optimum: ...") unless the request is one the solver can plan.
void validate_migration(const MigrationOptimumRequest& r);

// The request in grid steps and the layout of the value rows. Rows per layer (boundary): idle with the data in
// region a (nR), holding kind Y with the changeover over (K), the launch of Y from its own region's class (K), and
// per region b and further changeover class the launch into b (shared by b's kinds: no exclusion needed).
struct MigrationOptimumSolver::Plan {
  Millis q = 1;
  std::int64_t g = 0, d = 0, w = 0, t = 0;
  int ticks = 0, regions = 1, kinds = 0, layers = 2;
  bool per_tick = false, schedule = false;
  std::vector<int> kind_region, kind_zone;  // kinds: on-demand per region (its cheapest zone), then spot per zone
  std::vector<bool> kind_spot;
  std::vector<std::vector<int>> region_kinds;
  std::vector<std::int64_t> tau;  // [a * regions + b] steps, rounded down
  std::vector<double> egress;
  struct Class {
    std::int64_t changeover = 0;  // steps
    std::vector<int> from;        // source regions other than b
    int row = -1;                 // shared row (classes after the first); the first uses the per-kind rows
  };
  std::vector<std::vector<Class>> classes;  // [b]: class 0 = changeover d
  int rows = 0;

  // Plans a validated, feasible request; sets result.grid and result.exact.
  Plan(const MigrationOptimumRequest& request, MigrationOptimum& result);

  std::size_t pair(int a, int b) const {
    return static_cast<std::size_t>(a) * static_cast<std::size_t>(regions) + static_cast<std::size_t>(b);
  }
  int region_of(int y) const { return kind_region[static_cast<std::size_t>(y)]; }
  const std::vector<int>& kinds_in(int b) const { return region_kinds[static_cast<std::size_t>(b)]; }
  const std::vector<Class>& classes_into(int b) const { return classes[static_cast<std::size_t>(b)]; }
  const Class& class_of(int y, int klass) const { return classes_into(region_of(y))[static_cast<std::size_t>(klass)]; }

  int idle_row(int a) const { return a; }
  int held_row(int y) const { return regions + y; }
  int own_launch_row(int y) const { return regions + kinds + y; }
  // The launch of y from its own region's class: per kind with the schedule (from any state but y itself, so that
  // the schedule replays); without it, one per region (relaunching the held kind is a real schedule never better
  // than continuing it, so the optimum is the same, with fewer rows).
  int launch_row(int y) const {
    return schedule ? own_launch_row(y) : regions + kinds + kind_region[static_cast<std::size_t>(y)];
  }
  std::int64_t lowest(std::int64_t k, std::int64_t r) const { return std::max<std::int64_t>(0, w + r - (t - k * g)); }
  // The tick a launch of `changeover` steps spends its last changeover step in, counted from the launch, and the
  // changeover left at that tick's start.
  std::int64_t last_tick(std::int64_t c) const { return c == 0 ? 0 : (c - 1) / g; }
  std::int64_t left_then(std::int64_t c) const { return c - last_tick(c) * g; }
  // The states a move or launch starts from: p >= 1 (p = 0 is the start, nothing saved).
  Span states() const { return Span{1, w - 1}; }
  // The progress a launch at k with `changeover` steps can still finish from, and idle at k + 1 likewise.
  Span launch_limit(std::int64_t k, std::int64_t changeover) const { return Span{lowest(k, changeover), w - 1}; }
  Span idle_keep(std::int64_t k) const { return Span{std::max<std::int64_t>(1, lowest(k + 1, d)), w - 1}; }

 private:
  void set_grid(const MigrationOptimumRequest& request, Millis step);
  void add_kinds(const MigrationOptimumRequest& request);
  bool add_transfers(const MigrationOptimumRequest& request);
  void add_classes();
};

// A source of holding kind y through tick k: the state with the changeover over, or the launch of a class in its
// last changeover tick (held and allowed since its launch), with the changeover r left at k.
struct MigrationOptimumSolver::HoldSource {
  const double* values = nullptr;
  Span from;
  std::int64_t r = 0;
  double offset = 0.0;
  int klass = -1;  // -1: the held state; else the class index
  std::int64_t launched = 0;

  // Partial stops (per-second billing): held t in (r, g) steps, then released at p + t - r, so r <= g - 2.
  bool can_stop(std::int64_t g) const { return !from.empty() && r <= g - 2; }
  Span stop_targets(std::int64_t g, Span idle_keep) const {
    const Span xs = shifted(from, -r);
    return meet(Span{xs.lo + 1 + r, xs.hi + g - 1}, idle_keep);
  }
  // Whether it is worth at least the release value in the kind's region (see partial_stops).
  bool bounded(bool own_bounded) const { return klass < 0 || (klass == 0 && own_bounded); }
};

struct MigrationOptimumSolver::Finish {
  double cost = optimum_kernels::kInfinity;
  std::int64_t k = -1, p = 0;
  int kind = 0, klass = -1;
};

struct MigrationOptimumSolver::Sweep {
  explicit Sweep(const Plan& plan)
      : holds(1 + static_cast<std::size_t>(plan.regions) + 1), released(static_cast<std::size_t>(plan.regions)) {}
  std::vector<HoldSource> holds;  // hold_sources' output
  std::vector<Span> released;     // per region: idle at k + 1 by releasing at the boundary
  std::vector<Span> runs;         // where a partial stop may beat releasing (partial_stop_runs)
  Finish finish;
};

}  // namespace spotsim
