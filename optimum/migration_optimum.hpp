#pragma once
// The offline optimum across zones and regions when moving the saved progress between regions costs transfer time
// and egress (docs/multi-region-optimum.md). It extends the lossless tick model of optimum/offline_optimum.hpp (read
// its header first: ticks, changeover d, partial stops, billing, the grid q) with where the progress lives.
//
// Model: the data region is the region of the last instance whose changeover completed (none before any progress).
// Launching kind Y (spot in a zone; on-demand in a region, in its cheapest zone) from data region A takes a
// changeover of d + transfer(A -> region(Y)) (0 within a region or with nothing saved), pays egress(A -> region(Y))
// at the launch, and moves the data region to region(Y) when the changeover is over; releasing or losing the
// instance before that leaves it in A. Billing per tick or per second as in optimum/offline_optimum.hpp.
//
// Why the boundary decisions of optimum/offline_optimum.hpp still lose nothing: the exchange arguments there move a
// launch inside tick k to a boundary of the same tick. A launch at x inside tick k from held H (launched earlier,
// changeover rH left at kg) sees data region A (H's source) if H's changeover is not over by x, region(H) if it is;
// the first case is rH >= x - kg, where the argument launches at kg (data still in A: same changeover and egress),
// the second is rH < x - kg, where it keeps H and launches at (k+1)g (data in region(H): same again). Per second the
// argument moves holds within one tick without changing which changeovers complete, so it carries over as well.
//
// State at boundary k: progress p (grid steps), and one of: idle with the data in region a (idle with p = 0 is the
// start: nothing saved), holding Y with the changeover over (data in region(Y)), or holding Y in a changeover
// launched i ticks ago from data region a. A state in its changeover did no work since its launch, so releasing it
// or switching from it is never better than not having launched (the launch, egress included, only cost): such
// states only continue, and they are the launch arrays of past ticks plus the prices paid since (no copies). The
// launches into region b are grouped by changeover length (d, d + same-continent transfer, d + cross-continent
// transfer: at most a few classes however many regions), each class one array per tick: min over its source regions
// a of (cheapest state with data in a) + egress(a -> b).
//
// Grid: with q = gcd(tick, d, work, deadline, every transfer time) nothing is rounded and the result is exact (as
// exact as optimum/offline_optimum.hpp). Transfer times of real checkpoints are arbitrary seconds (50 GB at 8.2 Gbit/s:
// 49 s), so that q is often 1 s, too fine to be fast for a 40 h job. Then (grid = 0, automatic) a coarser q, a
// divisor of gcd(tick, d, work, deadline), is used with every transfer time rounded DOWN to it: a lower bound on the
// optimum (every schedule of the real model is feasible and no dearer with shorter transfers; a hold released within
// its changeover does nothing and is dropped first, so which changeovers complete is unchanged), flagged exact =
// false. The automatic choice: the exact q when ticks x work/q <= kGridBudgetPerRow and work/q <= kGridMaxSteps, else
// the finest divisor that keeps within both.
//
// Complexity per solve: O(ticks x B x (kinds x (1 + classes) + regions)) array operations plus, per second, one
// sliding-window minimum per kind and source (B = band of progress values, <= work / q); memory O(L x rows x W)
// with L = the longest changeover in ticks + 2 (all ticks with want_schedule, which recomputes back-pointers from
// the stored values).
#include <cstdint>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "base/time.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

// The request's state space (schedule included, with want_schedule) needs more memory than the solver may keep on
// this grid: a coarser grid may fit. Every other InputError of the solver is the request's own.
class MigrationStateSpaceTooLarge : public InputError {
 public:
  using InputError::InputError;
};

namespace optimum_kernels {
struct Span;  // optimum/optimum_kernels.hpp
}

struct MigrationOptimumRequest {
  const SpotMarket* market = nullptr;
  Millis start = 0;  // absolute trace time of the job's start, on a tick boundary
  Millis tick = 0;   // g
  Millis work = 0;
  Millis changeover = 0;  // d: start-up (launch to first useful work, before any transfer)
  Millis deadline = 0;    // relative to start
  int nodes = 1;
  bool per_tick_billing = false;
  bool want_schedule = false;
  // Region index of each zone (0..regions-1) and, per ordered pair of regions [from * regions + to], the transfer
  // time and the egress bill of moving the checkpoint (0 on the diagonal). Empty: one region, nothing to move.
  std::vector<int> zone_region;
  std::vector<Millis> transfer;
  std::vector<double> egress_usd;
  // Grid step q in ms: 0 chooses (see above); otherwise it must divide gcd(tick, changeover, work, deadline), and
  // transfers that are not multiples of it are rounded down (exact = false).
  Millis grid = 0;
};

struct MigrationOptimum {
  bool feasible = false;  // false iff work + changeover > deadline
  bool exact = true;      // false: transfers were rounded down to the grid, cost is a lower bound
  Millis grid = 0;        // the q used
  double cost = 0.0;      // USD, egress included
  Millis finish = 0;      // relative to start
  // With want_schedule only (0 / empty otherwise): the split of cost, the moves, and per tick up to the finishing
  // one '.' nothing, 's' spot, 'D' on-demand, the zone held (-1 none) and the time held (as OfflineOptimum).
  double spot_cost = 0.0, on_demand_cost = 0.0, egress_cost = 0.0;
  int migrations = 0;
  std::string schedule;
  std::vector<int> schedule_zones;
  std::vector<Millis> schedule_held;
};

// The automatic grid's budget of ticks x progress steps per row of the DP (a row per kind and per region; kinds =
// on-demand per region + spot per zone): the whole budget grows with the rows, so the solve's time grows with zones
// (before, a fixed budget made 9 zones faster than 3 with a coarser grid). 160,000,000 / 15: the 9 zones in 3
// regions of bench/migration_optimum_bench.cpp keep their grid, about 0.3 s per solve on the 2-core dev machine.
constexpr std::int64_t kGridBudgetPerRow = 160'000'000 / 15;
// ...and at most this many progress steps (a 40 h job at 1 s), so that short jobs do not get millisecond grids.
constexpr std::int64_t kGridMaxSteps = 144'000;

// The grid the automatic choice (or request.grid) gives `request`, and whether the optimum on it is exact (every
// transfer a multiple of it) or a lower bound, without solving: the same for every window of a scenario, so outputs
// can say it once per configuration. Throws InputError as solve() does.
struct MigrationOptimumGrid {
  Millis grid = 0;
  bool exact = true;
};
MigrationOptimumGrid migration_optimum_grid(const MigrationOptimumRequest& request);

// Reusable: keeps its buffers between solves.
class MigrationOptimumSolver {
 public:
  // Throws InputError on a request that makes no sense.
  MigrationOptimum solve(const MigrationOptimumRequest& request);

 private:
  using Span = optimum_kernels::Span;
  struct Plan;        // the request in grid steps: kinds, changeover classes, the layout of the value rows
  struct HoldSource;  // one way of holding a kind through a tick
  struct Finish;      // the cheapest finishing move found so far
  struct Sweep;       // the forward pass's scratch and its finish
  struct Node;        // a state on the walk back from the finish
  struct Walk;        // the schedule being walked back

  void prepare_prices(const MigrationOptimumRequest& request, const Plan& plan);
  void prepare_rows(const Plan& plan);

  // The forward DP, one tick (boundary k to k + 1), in its phases.
  void advance(const Plan& plan, std::int64_t k, Sweep& sweep);
  void gather_sources(const Plan& plan, std::int64_t k, Sweep& sweep);
  void launch_into(const Plan& plan, std::int64_t k, int b);
  void launch_kind(const Plan& plan, std::int64_t k, int b, int y);
  void add_moves(const Plan& plan, int b, const std::vector<int>& from, double* dst, Span& span, Span limit);
  void add_row(double* dst, Span& span, std::int64_t k, int r, Span limit);
  int hold_sources(const Plan& plan, std::int64_t k, int y, HoldSource* out);
  void hold_through(const Plan& plan, std::int64_t k, int y, const HoldSource* holds, int count, Finish& finish);
  void partial_stops(const Plan& plan, std::int64_t k, int y, const HoldSource* holds, int count, Sweep& sweep);
  void slide_stop(const HoldSource& s, double c, std::int64_t g, Span into, double* idle);

  // The schedule, walked back from the finish.
  void reconstruct(const Plan& plan, Sweep& sweep, std::int64_t finish_r, MigrationOptimum& result);
  Node back_from_held(const Plan& plan, const Node& node, HoldSource* holds, Walk& walk, double& best);
  Node back_from_idle(const Plan& plan, const Node& node, HoldSource* holds, Walk& walk, double& best);
  Node back_from_launch(const Plan& plan, const Node& node, Walk& walk, double& best) const;
  Node best_in_region(const Plan& plan, int a, std::int64_t k, std::int64_t p, double& best) const;
  void write_schedule(const Plan& plan, const Walk& walk, MigrationOptimum& result) const;

  // The buffers by boundary k (layers reused), row r, region a and tick and kind y.
  std::size_t cell(std::int64_t k, int r) const;
  double* row(std::int64_t k, int r);
  Span span_of(std::int64_t k, int r) const;
  void set_span(std::int64_t k, int r, Span span);
  double value_at(std::int64_t k, int r, std::int64_t p) const;
  double* source(int a);
  Span source_span(int a) const;
  double price(std::int64_t k, int y) const;
  bool allowed(std::int64_t k, int y) const;

  // The layout of this solve: values_ is [layer][row][progress step], spans_ [layer][row][lo, hi].
  std::int64_t layers_ = 0;
  std::size_t rows_ = 0, steps_ = 0, kinds_ = 0;
  std::vector<double> values_;
  std::vector<std::int64_t> spans_;
  std::vector<double> unit_price_;     // [tick * kinds + kind]: USD per grid step held, nodes included
  std::vector<std::uint8_t> allowed_;  // [tick * kinds + kind]: may be held through the tick
  std::vector<double> sources_;        // per region: the cheapest state with the data there (this boundary)
  std::vector<std::int64_t> source_spans_;
  std::vector<double> virtual_, positions_, queue_value_;  // a partial stop's sliding window (optimum_kernels)
  std::vector<std::int64_t> queue_position_;
};

MigrationOptimum solve_migration_optimum(const MigrationOptimumRequest& request);

}  // namespace spotsim
