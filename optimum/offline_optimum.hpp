#pragma once
// The offline optimum: the least a policy that knows the future spot availability and prices could pay to finish a
// job by its deadline, computed exactly by dynamic programming over the trace's ticks. It is the yardstick that
// online policies are compared with (Wu et al., "Can't Be Late", NSDI'24, Sec. 3: the lossless tick model).
//
// Model (all times relative to the job's start, which lies on a tick boundary of the recording; availability and
// prices change only at tick boundaries, as in the recordings):
//   * Time is cut into ticks [k g, (k+1) g). At each boundary the policy chooses what it holds in the tick:
//     nothing, spot in zone z (only if zone z has >= nodes spot instances for the whole tick), or on-demand.
//   * Progress is never lost. Every change to a different instance (idle -> X, spot <-> on-demand, another zone)
//     starts a changeover of d = `changeover` during which the instance is held and billed but does no work;
//     going idle is free and keeps nothing. Holding the same instance across a boundary continues the remaining
//     changeover r; a held tick does max(g - r, 0) work and leaves max(r - g, 0). A spot zone that is unavailable
//     at a boundary cannot be held in that tick (the instance is preempted; the previous tick's work counts).
//   * Per-second billing only: the instance held in a tick may be released part-way, after t in (r, g) (a multiple
//     of q), doing t - r work and paying t; nothing is then held until the next boundary ("partial stop").
//   * The job finishes at the exact moment progress reaches `work` (possibly inside a tick), by `deadline`.
//   * Billing, x nodes: per tick, every held tick costs a full tick at its start price (the finishing tick too);
//     per second, held time is paid exactly: a partial stop up to the release, the finishing tick up to the finish.
//     Billing minimums and increments are ignored: every hold lasts at least min(g, d + q) (a full tick, or a
//     changeover plus at least one grid step when launched in a tick it is released or finishes in) and is a
//     multiple of q, so with the traces we use (g = 600 s or 195 s, d >= 60 s, q a whole number of seconds) no
//     minimum or rounding ever binds; `billing_rules_cannot_bind` checks this for a request. Where they could bind
//     the result is a lower bound.
//
// Why deciding at tick boundaries loses nothing (exchange argument, per-tick billing): inside a tick availability
// and prices are constant and every instance touched in it is paid for the whole tick. Take any schedule that
// switches inside tick k and let C be what it holds at the tick's end (or last, if nothing: release it at (k+1)g), x
// the moment C was launched, H what it held at the tick's start with remaining changeover rH <= d. If rH >= x - kg,
// launch C at kg instead; otherwise keep H for the whole tick and launch C at (k+1)g. Either way the bill does not
// grow and, with the same later decisions, progress is at every later moment at least as large (progress grows at
// rate <= 1 and later switches reset the changeover to d in both), so an optimum switching only at boundaries
// exists.
//
// Per-second billing: launching only at boundaries, releasing anywhere (partial stops), loses nothing against a
// policy that launches and releases at any moment (an event-driven one), so the result is a true lower bound on
// such policies. Take a continuous-time schedule (holds are disjoint intervals; drop any hold not longer than d,
// which does no work and only costs) and its earliest hold J = [a, e), of kind Y, with kg < a < (k+1)g, all earlier
// holds starting on boundaries. (i) Move J earlier, keeping its length, to start at s = max(kg, end of the previous
// hold): its work is the same and done earlier. Its time moves from its last tick to tick k, so the bill is unchanged
// exactly when Y's price is the same in every tick J touches: always for on-demand (constant price), for spot when its
// price is constant over the hold's ticks. If s = kg, J now starts on a boundary. (ii) Otherwise J starts at the end m
// of the previous hold P (kind X, launched at a boundary <= kg, held > d, so working at m). If Y costs no more than X
// in tick k, end P at kg and start J at kg, keeping its end: the bill changes by (Y - X)(m - kg) <= 0, P loses at
// most m - kg work and J gains m - kg. Otherwise extend P to m' = min(e, (k+1)g) and start J at m' (dropping it if
// empty): the bill changes by (X - Y)(m' - m) < 0, P gains what J loses. Both use only tick k's prices and
// availability, and progress is not lower from the moment J does work on, so the finish is not later. Each step
// removes a hold starting inside a tick; repeating gives a schedule no dearer whose holds all start on boundaries,
// and a hold ending inside a tick is followed by nothing until the next boundary: a partial stop. Finally the
// release moments can be taken on the q grid: with the ticks of each hold fixed, bill and work are linear in the
// time each hold spends in its last tick (0, or between its remaining changeover and g), under one equality (total
// work), so an optimal vertex has all but one of them at a bound (a multiple of q) and the last one then a
// multiple of q as well. So the per-second result is exact against continuous-time schedules when spot prices are
// constant over each hold's ticks (the Can't Be Late traces: constant prices); where spot prices vary from tick to
// tick, it is the exact optimum over schedules whose holds start on tick boundaries (and release anywhere).
// (tests/optimum checks this against decisions at every grid step.) Counterexample without partial stops: d = 0,
// work 1.3 g, deadline 2 g, spot only in tick 1: 0.3 g on-demand then a spot tick costs 0.3 od + spot; deciding per
// tick, od + 0.3 spot is the best.
//
// State space and exactness: with q = gcd(g, d, work, deadline) every duration is an integer number of grid steps,
// so progress p takes the values 0..W-1 (W = work/q) and nothing is rounded. At boundary k a state is (p, what is
// held: nothing / on-demand / spot in zone z, remaining changeover r in {d - g, d - 2g, ...} clipped at 0: R =
// max(1, ceil(d/g)) values); its value is the least cost of reaching it (forward DP). On-demand is equally fast in
// every zone and its price constant, so only the cheapest on-demand zone is a state: moving every on-demand hold
// there loses no progress (it only turns switches between on-demand zones into continuations) and raises no price
// (equal prices: the lowest index, same cost).
// Layout: values are stored [state][progress], so every transition is an element-wise add or min of a contiguous
// array shifted by the same amount for every p, which the compiler vectorises. Two rolling layers hold "nothing"
// and, per kind, the state whose changeover is over; a state still in its changeover did no work since its launch
// i ticks ago, so it is that launch's array plus the prices paid since: a ring of the last R launch arrays per
// kind stands for them, without copies.
// Switches start from the cheapest of "nothing held" and the states whose changeover is over: a state still in its
// changeover did no work since its launch, so releasing there instead is no dearer. A launch of X starts from the
// cheapest state not holding X (relaunching the held kind is never better than continuing it).
// Partial stops: releasing after t in (r, g) steps an instance with r left, priced c per step, is a sliding-window
// minimum with a linear cost, idle'[p'] = (p' + r) c + min over p in [p' - (g - r - 1), p' - 1] of (cur[p] - p c),
// computed with a monotone deque in time linear in the band. Two savings, both exact: (a) every source is worth at
// least the release value v[p] (see the .cpp), so a partial stop can only lower idle'[p'] within g - 1 steps after
// a place where v rises by more than c per step; the deque runs only there (where c is the dearest price, on-demand,
// that is a few percent of the band). (b) Without the schedule, the sources of one kind share one deque, in
// "virtual progress" p - r; this adds holds of t <= r booked as less progress than they keep, never cheaper than
// releasing at the boundary, so the optimum is unchanged (the schedule, which must replay, keeps them apart).
// Band: a state with r left at boundary k is kept only if it could still finish in time without another
// changeover, p >= work/q + r - (deadline - k g)/q; reachable values (p <= k g - d) follow from the transitions,
// and states (or kinds in ticks where their spot zone is unavailable) that cannot be reached are skipped.
// Complexity: time O(N B (zones + 2)), N = deadline/g ticks, B <= W band width (at most (deadline - work - d)/q + 1
// values once the deadline is in sight); memory O((R + 2)(zones + 1) W) doubles, plus, with want_schedule only,
// back-pointers of 8 + (zones + 1) bytes per boundary and progress value in the band (4 fewer with per-tick
// billing).
// A 48 h job with d = 720 s and an 80 h deadline: 600 s ticks, q = 120 s: N = 480, W = 1440, R = 2; 195 s ticks,
// q = 15 s: N = 1477, W = 11520, R = 4. Cost only, per solve on the 2-core dev machine: about 3 ms and 20-45 ms
// (bench/offline_optimum_bench.cpp).
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
void validate_optimum_basics(const std::string& solver, const SpotMarket* market, Millis start, Millis tick, Millis work,
                             Millis changeover, Millis deadline, int nodes);

// True when the market's billing minimum and increment cannot change the cost of any schedule of `request`.
bool billing_rules_cannot_bind(const OfflineOptimumRequest& request);

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
