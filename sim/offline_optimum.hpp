#pragma once
// The offline optimum: the least a policy that knows the future spot availability and prices could pay to finish a
// job by its deadline, computed exactly by dynamic programming over the trace's ticks. It is the yardstick that
// online policies are compared with (Wu et al., "Can't Be Late", NSDI'24, Sec. 3: the lossless tick model).
//
// Model (all times relative to the job's start, which lies on a tick boundary of the recording):
//   * Time is cut into ticks [k g, (k+1) g). At each boundary the policy chooses what it holds for the tick:
//     nothing, spot in zone z (only if zone z has >= nodes spot instances for the whole tick), or on-demand.
//   * Progress is never lost. Every change to a different instance (idle -> X, spot <-> on-demand, another zone)
//     starts a changeover of d = `changeover` during which the instance is held and billed but does no work;
//     going idle is free and keeps nothing. Holding the same instance across a boundary continues the remaining
//     changeover r; a held tick does max(g - r, 0) work and leaves max(r - g, 0). A spot zone that is unavailable
//     at a boundary cannot be held in that tick (the instance is preempted; the previous tick's work counts).
//   * The job finishes at the exact moment progress reaches `work` (possibly inside a tick), by `deadline`.
//   * Billing, x nodes: per tick, every held tick costs a full tick at its start price (the finishing tick too);
//     per second, held time is paid exactly, so the finishing tick only up to the finish moment.
//     Billing minimums and increments are ignored: every hold lasts at least min(g, d + q) (a full tick, or a
//     changeover plus at least one grid step when launched in the finishing tick) and is a multiple of q, so with
//     the traces we use (g = 600 s, d >= 60 s, q a whole number of seconds) no minimum or rounding ever binds;
//     `billing_rules_cannot_bind` checks this for a request. Where they could bind the result is a lower bound.
//
// Why deciding at tick boundaries loses nothing (exchange argument, per-tick billing): inside a tick availability
// and prices are constant and every instance touched in it is paid for the whole tick. Take any schedule that
// switches inside tick k and let C be what it holds at the tick's end (or last, if nothing: release it at (k+1)g), x
// the moment C was launched, H what it held at the tick's start with remaining changeover rH <= d. If rH >= x - kg,
// launch C at kg instead; otherwise keep H for the whole tick and launch C at (k+1)g. Either way the bill does not
// grow and, with the same later decisions, progress is at every later moment at least as large (progress grows at
// rate <= 1 and later switches reset the changeover to d in both), so an optimum switching only at boundaries
// exists. Per-second billing is different: stopping part-way through a tick can pay (d = 0, work 1.3 g, deadline 2
// g, spot only in tick 1: 0.3 g of on-demand then a spot tick costs 0.3 od + spot; with per-tick decisions od + 0.3
// spot is the best), so there the result is the exact optimum of the tick-decision model, the setting of the paper,
// not of continuous decisions.
//
// State space and exactness: with q = gcd(g, d, work, deadline) every duration is an integer number of grid steps,
// so progress p takes the values 0..W-1 (W = work/q) and nothing is rounded. At boundary k a state is (p, what is
// held: nothing / on-demand / spot in zone z, remaining changeover r in {d - g, d - 2g, ...} clipped at 0); its
// value is the least cost of reaching it (forward DP, two rolling layers). On-demand is equally fast in every zone
// and its price constant, so only the cheapest on-demand zone is a state: moving every on-demand hold there loses no
// progress (it only turns switches between on-demand zones into continuations) and raises no price (equal prices:
// the lowest index, same cost). States that could not finish by the deadline even without further changeovers are
// pruned; with the progress reachable after one changeover this confines p to a band of at most (deadline - work -
// d)/q + 1 values.
// Complexity: time O(N B (Z+2) R), N = deadline/g ticks, B <= W band width, R = max(1, ceil(d/g)) changeover
// values; memory O(W (Z+2) R) doubles plus a 2-byte back-pointer per visited state for the schedule.
// A 48 h job with d = 720 s on 600 s ticks and an 80 h deadline (q = 120 s): N = 480, W = 1440, R = 2.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.hpp"
#include "traces/spot_market.hpp"

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
  double spot_cost = 0.0;
  double on_demand_cost = 0.0;
  Millis finish = 0;  // relative to start
  // With want_schedule: one entry per tick up to the finishing one, '.' nothing, 's' spot, 'D' on-demand,
  // and the zone index held in that tick (-1 for nothing).
  std::string schedule;
  std::vector<int> schedule_zones;
};

// True when the market's billing minimum and increment cannot change the cost of any schedule of `request`.
bool billing_rules_cannot_bind(const OfflineOptimumRequest& request);

// Reusable: keeps its buffers between solves, so sweeping thousands of windows allocates only when one grows.
class OfflineOptimumSolver {
 public:
  // Throws InputError on a request that makes no sense (no zones, tick <= 0, work <= 0, ...).
  OfflineOptimum solve(const OfflineOptimumRequest& request);

 private:
  struct Grid;  // the request in grid steps
  void prepare_ticks(const OfflineOptimumRequest& request, const Grid& grid);
  // Walks the back-pointers from the finishing state: fills finish, the spot / on-demand split and the schedule.
  void reconstruct(const Grid& grid, OfflineOptimum& result, int finish_tick, std::int64_t p, int state, int last_kind,
                   bool want_schedule);

  std::vector<double> unit_price_;         // [tick * kinds + kind]: USD per grid step held, nodes included
  std::vector<std::uint8_t> allowed_;      // [tick * kinds + kind]: may be held during the tick
  std::vector<double> current_, next_;     // [p * states + state]: least cost at a boundary
  std::vector<std::uint16_t> from_;        // back-pointers: predecessor state, per boundary band
  std::vector<std::int64_t> band_offset_;  // start of each boundary's band in from_
  std::vector<std::int64_t> band_low_;     // lowest progress kept per boundary
  std::vector<std::int64_t> band_high_;    // highest progress kept per boundary
  std::vector<double> kind_min_;           // per kind: least cost at one progress value
  std::vector<int> tick_kinds_;            // reconstructed kind held per tick
};

OfflineOptimum solve_offline_optimum(const OfflineOptimumRequest& request);

}  // namespace spotsim
