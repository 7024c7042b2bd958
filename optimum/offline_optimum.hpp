#pragma once
// The offline optimum: the least a policy that knows the future spot availability and prices could pay to finish a
// job by its deadline, computed exactly by dynamic programming over the trace's ticks. It is the yardstick that
// online policies are compared with (Wu et al., "Can't Be Late", NSDI'24, Sec. 3: the lossless tick model).
//
// The model (ticks, changeovers, billing, partial stops), why deciding at tick boundaries loses nothing, the state
// space, its layout and band, and the complexity are set out, with the proofs, in docs/offline-optimum.md: a change
// to the solver keeps that page true. In short: a forward DP over (progress, what is held, remaining changeover) at
// each tick boundary, exact on the grid q = gcd(g, d, work, deadline); per solve about 3 ms (600 s ticks) to
// 20-45 ms (195 s ticks) for a 48 h job (bench/offline_optimum_bench.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "base/time.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

struct OfflineOptimumRequest {
  const SpotMarket* market = nullptr;
  Millis start = 0;       // absolute trace time of the job's start, on a tick boundary
  Millis tick = 0;        // g
  Millis work = 0;        // compute time needed
  Millis changeover = 0;  // d: launch to first useful work (start-up; restore is free in the lossless model)
  Millis deadline = 0;    // relative to start
  int nodes = 1;          // instances held together; prices and availability are per instance
  bool per_tick_billing = false;
  bool want_schedule = false;
};

struct OfflineOptimum {
  bool feasible = false;  // false iff work + changeover > deadline (on-demand from the start is always possible)
  double cost = 0.0;      // USD
  // The split of cost, with want_schedule only (a cost-only solve keeps no back-pointers; these stay 0).
  double spot_cost = 0.0;
  double on_demand_cost = 0.0;
  Millis finish = 0;  // relative to start
  // With want_schedule: one entry per tick up to the finishing one, '.' nothing, 's' spot, 'D' on-demand, and the zone
  // index held in that tick (-1 for nothing).
  std::string schedule;
  std::vector<int> schedule_zones;
  // Time held in each tick: the tick for a full one, less for a partial stop (per-second billing: released after
  // it, nothing held until the next boundary) and for the finishing tick (up to the finish), 0 for '.'.
  std::vector<Millis> schedule_held;
};

// Throws InputError, prefixed with `solver`, unless the fields every optimum request shares make sense (a market
// with zones; positive, finite tick, work and deadline; changeover >= 0; start in range; nodes >= 1).
void validate_optimum_basics(const std::string& solver, const SpotMarket* market, Millis start, Millis tick,
                             Millis work, Millis changeover, Millis deadline, int nodes);

// True when the market's billing minimum and increment cannot change the cost of any schedule of `request`.
bool billing_rules_cannot_bind(const OfflineOptimumRequest& request);

// The progress grid q = gcd(tick, changeover, work, deadline) on which both optima are exact (the multi-region one
// also needs every transfer time on it).
Millis progress_grid(Millis tick, Millis changeover, Millis work, Millis deadline);

// Reusable: keeps its buffers between solves, so sweeping thousands of windows reallocates only when one grows.
class OfflineOptimumSolver {
 public:
  // Throws InputError on a request that makes no sense (no zones, tick <= 0, work <= 0, ...).
  OfflineOptimum solve(const OfflineOptimumRequest& request);

 private:
  struct Grid;    // the request in grid steps
  struct Finish;  // the cheapest finishing move found so far
  // Where one boundary's back-pointers start (want_schedule only): switch sources over [switch_low, ...] and
  // idle states over [idle_low, ...], each at the given offset into its array.
  struct BoundaryIndex {
    std::int64_t switch_low = 0, switch_offset = 0;
    std::int64_t idle_low = 0, idle_offset = 0;
  };
  struct HeldIndex {  // the same for the states that hold a kind with the changeover over, per boundary and kind
    std::int64_t low = 0, offset = 0;
  };
  struct RowSource {  // a stored row at the current boundary, for the back-pointer pass
    const double* values = nullptr;
    std::int64_t low = 0, high = -1;
    int state = 0;
  };

  void prepare_ticks(const OfflineOptimumRequest& request, const Grid& grid);
  // The forward DP over all ticks; kTrack also records the back-pointers.
  template <bool kTrack>
  void sweep(const Grid& grid, Finish& finish);
  // Walks the back-pointers from the finishing move: the spot / on-demand split and the schedule.
  void reconstruct(const Grid& grid, const Finish& finish, OfflineOptimum& result);

  std::vector<double> unit_price_;     // [tick * held kinds + kind]: USD per grid step held, nodes included
  std::vector<std::uint8_t> allowed_;  // [tick * held kinds + kind]: may be held during the tick
  // Least cost at a boundary, [layer][row][progress] for two layers; rows: nothing held, then per kind the state
  // with the changeover over. Spans: [layer][row][low, high], the progress values kept (empty if low > high).
  std::vector<double> values_;
  std::vector<std::int64_t> spans_;
  // [tick % R][kind][progress]: least cost over the states a launch of the kind may start from, for the last R
  // ticks (the states still in their changeover are these launches, priced on the way), and their spans.
  std::vector<double> launch_;
  std::vector<std::int64_t> launch_spans_;
  std::vector<double> scratch_;               // [progress]: suffix minima over kinds (more than two kinds)
  std::vector<double> virtual_;               // [g + x]: a partial stop's cost less progress x price, at x = p - r
  std::vector<double> positions_;             // [g + x]: x, as a double
  std::vector<std::int64_t> queue_position_;  // the monotone deque of a partial stop's sliding window
  std::vector<double> queue_value_;
  // Back-pointers (want_schedule only).
  std::vector<BoundaryIndex> boundary_index_;  // [boundary]
  std::vector<HeldIndex> held_index_;          // [boundary * held kinds + kind]
  std::vector<std::uint16_t> best_state_;      // per boundary and progress: the cheapest switch source...
  std::vector<std::uint16_t> other_state_;     // ...and the cheapest one of another kind
  std::vector<std::uint32_t> idle_from_;       // 0: released at the boundary; else the partial stop's source
  std::vector<std::uint8_t> held_from_;        // 1: continued; 0: from the state one changeover tick earlier
  std::vector<RowSource> sources_;             // [row]
  std::vector<double*> launches_;              // [kind]: this tick's launch arrays
  std::vector<int> tick_kinds_;                // reconstructed kind held per tick (-1 nothing)
  std::vector<std::int64_t> tick_held_;        // reconstructed grid steps held per tick
};

OfflineOptimum solve_offline_optimum(const OfflineOptimumRequest& request);

}  // namespace spotsim
