#include "sim/offline_optimum.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <numeric>

#include "sim/errors.hpp"

namespace spotsim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// What is held, as the first index of a state: nothing, on-demand in the cheapest zone, spot in zone kind - 2.
constexpr int kIdle = 0;
constexpr int kOnDemand = 1;
constexpr int kFirstSpot = 2;

// A needlessly fine grid (q of a few ms) fails with a clear message instead of exhausting memory.
constexpr std::int64_t kMaxTicks = std::int64_t{1} << 22;
constexpr std::int64_t kMaxLayerCells = std::int64_t{1} << 24;
constexpr std::int64_t kMaxBackPointers = std::int64_t{1} << 28;

[[noreturn]] void reject(const std::string& what) { throw InputError("offline optimum: " + what); }

void validate(const OfflineOptimumRequest& r) {
  auto positive_finite = [](Millis value, const char* name) {
    if (value <= 0 || value >= kNever) {
      reject(std::string(name) + " must be positive and finite, got " + std::to_string(value) + " ms");
    }
  };
  if (r.market == nullptr || r.market->zones.empty()) reject("the market has no zones");
  positive_finite(r.tick, "tick");
  positive_finite(r.work, "work");
  positive_finite(r.deadline, "deadline");
  if (r.changeover < 0 || r.changeover >= kNever) {
    reject("changeover must be >= 0 and finite, got " + std::to_string(r.changeover) + " ms");
  }
  if (r.start <= -kNever || r.start >= kNever) reject("start is out of range: " + std::to_string(r.start) + " ms");
  if (r.nodes < 1) reject("nodes must be >= 1, got " + std::to_string(r.nodes));
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

// The request in grid steps of q ms, and the layout of a boundary's states: [progress][kind][changeover index].
struct OfflineOptimumSolver::Grid {
  Millis q = 1;
  std::int64_t g = 0, d = 0, w = 0, t = 0;  // tick, changeover, work, deadline
  int ticks = 0;                            // ticks that start before the deadline
  int kinds = 0;                            // 2 + zones
  int overheads = 1;                        // R: distinct remaining changeovers after a held tick
  int states = 0;                           // kinds * overheads
  int on_demand_zone = 0;
  bool per_tick = false;

  // Remaining changeover at a boundary for changeover index i: d - (i+1) g, clipped at 0.
  std::int64_t remaining(int i) const { return std::max<std::int64_t>(d - (i + 1) * g, 0); }
  std::int64_t work_in_tick(std::int64_t r) const { return std::max<std::int64_t>(g - r, 0); }
};

bool billing_rules_cannot_bind(const OfflineOptimumRequest& request) {
  validate(request);
  const Billing& billing = request.market->billing;
  const Millis q = std::gcd(std::gcd(request.tick, request.changeover), std::gcd(request.work, request.deadline));
  const Millis shortest_hold = request.per_tick_billing ? request.tick : std::min(request.tick, request.changeover + q);
  const Millis step = request.per_tick_billing ? request.tick : q;
  return shortest_hold >= billing.minimum && (billing.increment <= 1 || step % billing.increment == 0);
}

void OfflineOptimumSolver::prepare_ticks(const OfflineOptimumRequest& request, const Grid& grid) {
  const std::size_t kinds = static_cast<std::size_t>(grid.kinds);
  unit_price_.assign(static_cast<std::size_t>(grid.ticks) * kinds, 0.0);
  allowed_.assign(static_cast<std::size_t>(grid.ticks) * kinds, 1);
  const double per_step = static_cast<double>(grid.q) * request.nodes / static_cast<double>(kMillisPerHour);
  const double nodes = request.nodes;
  const std::vector<Zone>& zones = request.market->zones;
  const double on_demand = zones[static_cast<std::size_t>(grid.on_demand_zone)].on_demand_price_per_hour * per_step;
  for (std::size_t k = 0; k < static_cast<std::size_t>(grid.ticks); ++k) unit_price_[k * kinds + kOnDemand] = on_demand;
  for (std::size_t z = 0; z < zones.size(); ++z) {
    const SpotOffer& spot = zones[z].spot;
    const std::size_t kind = kFirstSpot + z;
    Millis next_drop = kNever + 1;  // while t0 + tick <= next_drop, the zone stays available: no search
    Millis known_from = kNever;     // next_drop is valid for tick starts in [known_from, next_drop)
    for (std::size_t k = 0; k < static_cast<std::size_t>(grid.ticks); ++k) {
      const Millis t0 = request.start + static_cast<Millis>(k) * request.tick;
      unit_price_[k * kinds + kind] = spot.price_per_hour.at(t0) * per_step;
      if (!spot.available) continue;
      // Available for the whole tick: enough instances at its start and no drop before its end.
      if (!(t0 >= known_from && t0 < next_drop)) {
        if (spot.available->at(t0) < nodes) {
          allowed_[k * kinds + kind] = 0;
          continue;
        }
        known_from = t0;
        next_drop = spot.available->next_time_where(t0, [nodes](double v) { return v < nodes; });
      }
      allowed_[k * kinds + kind] = t0 + request.tick <= next_drop ? 1 : 0;
    }
  }
}

OfflineOptimum OfflineOptimumSolver::solve(const OfflineOptimumRequest& request) {
  validate(request);
  OfflineOptimum result;
  if (request.work + request.changeover > request.deadline) return result;  // not even on-demand from the start

  Grid grid;
  grid.q = std::gcd(std::gcd(request.tick, request.changeover), std::gcd(request.work, request.deadline));
  grid.g = request.tick / grid.q;
  grid.d = request.changeover / grid.q;
  grid.w = request.work / grid.q;
  grid.t = request.deadline / grid.q;
  grid.per_tick = request.per_tick_billing;
  const std::vector<Zone>& zones = request.market->zones;
  grid.kinds = kFirstSpot + static_cast<int>(zones.size());
  const std::int64_t ticks = ceil_div(grid.t, grid.g);
  const std::int64_t overheads = grid.d == 0 ? 1 : ceil_div(grid.d, grid.g);
  if (ticks > kMaxTicks) reject("deadline / tick is too large: " + std::to_string(ticks) + " ticks");
  if (overheads * grid.kinds > std::numeric_limits<std::uint16_t>::max()) reject("changeover / tick is too large");
  grid.ticks = static_cast<int>(ticks);
  grid.overheads = static_cast<int>(overheads);
  grid.states = grid.kinds * grid.overheads;
  if (grid.w > kMaxLayerCells / grid.states) {
    reject("the progress grid is too fine: work / gcd(tick, changeover, work, deadline) = " + std::to_string(grid.w) +
           " steps; round work and deadline to whole ticks or minutes");
  }
  for (std::size_t z = 1; z < zones.size(); ++z) {
    if (zones[z].on_demand_price_per_hour <
        zones[static_cast<std::size_t>(grid.on_demand_zone)].on_demand_price_per_hour) {
      grid.on_demand_zone = static_cast<int>(z);
    }
  }
  prepare_ticks(request, grid);

  // Progress band per boundary: below it the deadline is out of reach, above it unreachable (one changeover paid).
  const int n = grid.ticks;
  const std::int64_t S = grid.states;
  band_low_.resize(static_cast<std::size_t>(n) + 1);
  band_high_.resize(static_cast<std::size_t>(n) + 1);
  band_offset_.resize(static_cast<std::size_t>(n) + 2);
  band_offset_[0] = 0;
  for (int k = 0; k <= n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    band_low_[kk] = std::max<std::int64_t>(0, grid.w - (grid.t - k * grid.g));
    band_high_[kk] = std::min<std::int64_t>(grid.w - 1, std::max<std::int64_t>(0, k * grid.g - grid.d));
    const std::int64_t rows = std::max<std::int64_t>(0, band_high_[kk] - band_low_[kk] + 1);
    band_offset_[kk + 1] = band_offset_[kk] + rows * S;
    if (band_offset_[kk + 1] > kMaxBackPointers) reject("the state space is too large for a schedule");
  }
  from_.resize(static_cast<std::size_t>(band_offset_[static_cast<std::size_t>(n) + 1]));
  current_.resize(static_cast<std::size_t>(grid.w * S));
  next_.resize(static_cast<std::size_t>(grid.w * S));
  std::fill(current_.begin(), current_.begin() + S, kInfinity);
  current_[kIdle] = 0.0;  // boundary 0: nothing held, no progress

  const int R = grid.overheads;
  const int K = grid.kinds;
  const std::int64_t launch_work = grid.work_in_tick(grid.d);
  const int launch_index = 0;
  double best = kInfinity;
  int best_tick = -1, best_state = 0, best_kind = 0;
  std::int64_t best_p = 0;
  // Holding `kind` through tick k from progress p with changeover r left finishes inside the tick.
  auto finish = [&](double value, int k, std::int64_t p, int state, int kind, std::int64_t r) {
    const std::int64_t held = grid.per_tick ? grid.g : r + grid.w - p;
    const double cost = value + unit_price_[static_cast<std::size_t>(k * K + kind)] * static_cast<double>(held);
    if (cost < best) best = cost, best_tick = k, best_p = p, best_state = state, best_kind = kind;
  };

  kind_min_.resize(static_cast<std::size_t>(K));
  double* const kind_min = kind_min_.data();
  for (int k = 0; k < n; ++k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    const std::int64_t now = k * grid.g;
    const std::int64_t lo = band_low_[kk], hi = band_high_[kk];
    const std::int64_t next_lo = band_low_[kk + 1], next_hi = band_high_[kk + 1];
    if (next_hi >= next_lo) std::fill(next_.begin() + next_lo * S, next_.begin() + (next_hi + 1) * S, kInfinity);
    const std::int64_t from_base = band_offset_[kk + 1] - next_lo * S;  // + np * S + state
    const double* price = unit_price_.data() + kk * static_cast<std::size_t>(K);
    const std::uint8_t* allowed = allowed_.data() + kk * static_cast<std::size_t>(K);
    // A state at the next boundary is kept only if it could still finish in time without another changeover.
    const std::int64_t slack_next = grid.t - (now + grid.g) - grid.w;  // need r - np <= slack_next
    auto relax = [&](std::int64_t np, int state, double value, int from_state) {
      assert(np >= next_lo && np <= next_hi);
      double& cell = next_[static_cast<std::size_t>(np * S + state)];
      if (value < cell) {
        cell = value;
        from_[static_cast<std::size_t>(from_base + np * S + state)] = static_cast<std::uint16_t>(from_state);
      }
    };
    for (std::int64_t p = lo; p <= hi; ++p) {
      const double* row = current_.data() + p * S;
      double best_here = kInfinity, second_here = kInfinity;
      int best_kind_here = -1, best_arg = 0, second_arg = 0;
      for (int kind = 0; kind < K; ++kind) {
        double m = kInfinity;
        int arg = kind * R;
        for (int i = 0; i < (kind == kIdle ? 1 : R); ++i) {
          if (row[kind * R + i] < m) m = row[kind * R + i], arg = kind * R + i;
        }
        kind_min[kind] = m;
        if (m < best_here) {
          second_here = best_here, second_arg = best_arg;
          best_here = m, best_arg = arg, best_kind_here = kind;
        } else if (m < second_here) {
          second_here = m, second_arg = arg;
        }
      }
      if (best_here == kInfinity) continue;
      // Go (or stay) idle: free, keeps the progress.
      if (grid.d - p <= slack_next) relax(p, kIdle, best_here, best_arg);
      for (int kind = 1; kind < K; ++kind) {
        if (!allowed[kind]) continue;  // spot unavailable this tick: a held spot instance is lost
        const double tick_cost = price[kind] * static_cast<double>(grid.g);
        // Keep holding it: the changeover continues.
        if (kind_min[kind] < kInfinity) {
          for (int i = 0; i < R; ++i) {
            const double value = row[kind * R + i];
            if (value == kInfinity) continue;
            const std::int64_t r = grid.remaining(i);
            const std::int64_t np = p + grid.work_in_tick(r);
            if (np >= grid.w) {
              if (now + r + grid.w - p <= grid.t) finish(value, k, p, kind * R + i, kind, r);
              continue;
            }
            const int ni = std::min(i + 1, R - 1);
            if (grid.remaining(ni) - np <= slack_next) relax(np, kind * R + ni, value + tick_cost, kind * R + i);
          }
        }
        // Launch it: from the cheapest state holding something else.
        const double base = kind == best_kind_here ? second_here : best_here;
        if (base == kInfinity) continue;
        const int base_state = kind == best_kind_here ? second_arg : best_arg;
        const std::int64_t np = p + launch_work;
        if (np >= grid.w) {
          if (now + grid.d + grid.w - p <= grid.t) finish(base, k, p, base_state, kind, grid.d);
          continue;
        }
        if (grid.remaining(launch_index) - np <= slack_next) {
          relax(np, kind * R + launch_index, base + tick_cost, base_state);
        }
      }
    }
    std::swap(current_, next_);
  }
  if (best_tick < 0) return result;  // cannot happen: on-demand from the start fits (checked above)
  result.feasible = true;
  result.cost = best;
  reconstruct(grid, result, best_tick, best_p, best_state, best_kind, request.want_schedule);
  return result;
}

void OfflineOptimumSolver::reconstruct(const Grid& grid, OfflineOptimum& result, int finish_tick, std::int64_t p,
                                       int state, int last_kind, bool want_schedule) {
  const int R = grid.overheads;
  const std::int64_t S = grid.states;
  std::vector<int>& kinds = tick_kinds_;
  kinds.assign(static_cast<std::size_t>(finish_tick) + 1, kIdle);
  kinds.back() = last_kind;
  const std::int64_t finish_p = p;
  const int finish_state = state;
  for (int k = finish_tick; k > 0; --k) {
    const std::size_t kk = static_cast<std::size_t>(k);
    const int kind = state / R;
    kinds[kk - 1] = kind;
    const int previous = from_[static_cast<std::size_t>(band_offset_[kk] + (p - band_low_[kk]) * S + state)];
    if (kind != kIdle) p -= grid.work_in_tick(previous / R == kind ? grid.remaining(previous % R) : grid.d);
    state = previous;
  }
  assert(p == 0 && state == kIdle);
  // The finish moment: the changeover left at the finishing tick's start (all of it after a launch), then the
  // missing work.
  const std::int64_t r = finish_state / R == last_kind ? grid.remaining(finish_state % R) : grid.d;
  const std::int64_t finish_offset = r + grid.w - finish_p;
  result.finish = (finish_tick * grid.g + finish_offset) * grid.q;
  const std::int64_t last_held = grid.per_tick ? grid.g : finish_offset;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const int kind = kinds[k];
    if (kind == kIdle) continue;
    const std::int64_t held = k + 1 == kinds.size() ? last_held : grid.g;
    const double cost = unit_price_[k * static_cast<std::size_t>(grid.kinds) + static_cast<std::size_t>(kind)] *
                        static_cast<double>(held);
    (kind == kOnDemand ? result.on_demand_cost : result.spot_cost) += cost;
  }
  if (!want_schedule) return;
  result.schedule.clear();
  result.schedule_zones.clear();
  for (const int kind : kinds) {
    result.schedule.push_back(kind == kIdle ? '.' : kind == kOnDemand ? 'D' : 's');
    result.schedule_zones.push_back(kind == kIdle ? -1 : kind == kOnDemand ? grid.on_demand_zone : kind - kFirstSpot);
  }
}

OfflineOptimum solve_offline_optimum(const OfflineOptimumRequest& request) {
  OfflineOptimumSolver solver;
  return solver.solve(request);
}

}  // namespace spotsim
