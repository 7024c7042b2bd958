#include "optimum/migration_optimum.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>

#include "base/errors.hpp"
#include "optimum/offline_optimum.hpp"
#include "optimum/optimum_kernels.hpp"

namespace spotsim {
namespace {

using namespace optimum_kernels;  // Span, the array kernels, kInfinity

// The state space is bounded (kMaxTicks in optimum_kernels.hpp; cells here) so that a fine grid fails clearly.
constexpr std::int64_t kMaxCells = std::int64_t{1} << 27;  // doubles kept (1 GiB)

[[noreturn]] void reject_migration(const std::string& what) { throw InputError("migration optimum: " + what); }

int region_count(const MigrationOptimumRequest& r) {
  return r.zone_region.empty() ? 1 : *std::max_element(r.zone_region.begin(), r.zone_region.end()) + 1;
}
int region_of_zone(const MigrationOptimumRequest& r, std::size_t z) {
  return r.zone_region.empty() ? 0 : r.zone_region[z];
}
Millis transfer_ms(const MigrationOptimumRequest& r, int regions, int a, int b) {
  const std::size_t at = static_cast<std::size_t>(a) * static_cast<std::size_t>(regions) + static_cast<std::size_t>(b);
  return r.transfer.empty() ? Millis{0} : r.transfer[at];
}

void validate_migration(const MigrationOptimumRequest& r) {
  validate_optimum_basics("migration optimum", r.market, r.start, r.tick, r.work, r.changeover, r.deadline, r.nodes);
  if (r.grid < 0) reject_migration("grid must be >= 0");
  const std::size_t zones = r.market->zones.size();
  if (r.zone_region.empty()) {
    if (!r.transfer.empty() || !r.egress_usd.empty()) reject_migration("transfer and egress need zone_region");
    return;
  }
  if (r.zone_region.size() != zones) reject_migration("zone_region must have one entry per zone");
  const int regions = region_count(r);
  for (int region : r.zone_region) {
    if (region < 0) reject_migration("zone_region entries must be >= 0");
  }
  const std::size_t pairs = static_cast<std::size_t>(regions) * static_cast<std::size_t>(regions);
  if (r.transfer.size() != pairs || r.egress_usd.size() != pairs) {
    reject_migration("transfer and egress_usd must have regions x regions entries");
  }
  for (std::size_t i = 0; i < pairs; ++i) {
    if (r.transfer[i] < 0 || r.transfer[i] >= kNever) reject_migration("transfer times must be >= 0 and finite");
    if (!(r.egress_usd[i] >= 0.0) || !std::isfinite(r.egress_usd[i]))
      reject_migration("egress must be >= 0 and finite");
  }
}

// The grid: exact when every transfer is a multiple of q.
Millis choose_grid(const MigrationOptimumRequest& request, int regions) {
  const Millis base = std::gcd(std::gcd(request.tick, request.changeover), std::gcd(request.work, request.deadline));
  if (request.grid != 0) {
    if (base % request.grid != 0) {
      reject_migration("grid " + std::to_string(request.grid) +
                       " ms must divide gcd(tick, changeover, work, deadline) = " + std::to_string(base) + " ms");
    }
    return request.grid;
  }
  Millis exact_q = base;
  for (int a = 0; a < regions; ++a) {
    for (int b = 0; b < regions; ++b) exact_q = std::gcd(exact_q, transfer_ms(request, regions, a, b));
  }
  // The DP's work grows with ticks x progress steps x (kinds + regions): the exact grid if that stays within
  // kGridBudget (and kGridMaxSteps), else the finest divisor of base that does (base itself if none).
  const std::int64_t per_step = ceil_div(request.deadline, request.tick) *
                                (2 * regions + static_cast<std::int64_t>(request.market->zones.size()));
  auto affordable = [&](Millis step) { return request.work / step <= std::min(kGridBudget / per_step, kGridMaxSteps); };
  if (affordable(exact_q)) return exact_q;
  for (Millis divisor = 1; divisor <= base; ++divisor) {
    if (base % divisor == 0 && affordable(divisor)) return divisor;
  }
  return base;
}

// dst (span `span`, updated) = min(dst, src[p - by] + add) over p in shifted(from, by) within `limit`.
inline void accumulate(double* dst, Span& span, const double* src, Span from, std::int64_t by, double add, Span limit) {
  const Span to = meet(shifted(from, by), limit);
  if (to.empty()) return;
  if (span.empty()) {
    add_shifted(dst, src, by, add, to);
    span = to;
    return;
  }
  const Span all = hull(span, to);
  fill(dst, {all.lo, span.lo - 1}, kInfinity);
  fill(dst, {span.hi + 1, all.hi}, kInfinity);
  min_add_shifted(dst, src, by, add, to);
  span = all;
}
// dst's span (updated) grows to cover `to`, +inf where new.
inline void extend(double* dst, Span& span, Span to) {
  if (to.empty()) return;
  if (span.empty()) {
    fill(dst, to, kInfinity);
    span = to;
    return;
  }
  const Span all = hull(span, to);
  fill(dst, {all.lo, span.lo - 1}, kInfinity);
  fill(dst, {span.hi + 1, all.hi}, kInfinity);
  span = all;
}

// A launch array of the own class at a boundary starts empty, or at the start when it is in reach (own_limit.lo =
// 0): nothing saved, nothing to move, value 0.
inline Span own_launch_start(double* dst, Span own_limit) {
  if (own_limit.lo != 0) return Span{};
  dst[0] = 0.0;
  return Span{0, 0};
}

}  // namespace

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

MigrationOptimumSolver::Plan::Plan(const MigrationOptimumRequest& request, MigrationOptimum& result) {
  per_tick = request.per_tick_billing;
  schedule = request.want_schedule;
  regions = region_count(request);
  set_grid(request, choose_grid(request, regions));
  result.grid = q;
  add_kinds(request);
  result.exact = add_transfers(request);
  add_classes();
}

void MigrationOptimumSolver::Plan::set_grid(const MigrationOptimumRequest& request, Millis step) {
  q = step;
  g = request.tick / q;
  d = request.changeover / q;
  w = request.work / q;
  t = request.deadline / q;
  const std::int64_t tick_count = ceil_div(t, g);
  if (tick_count > kMaxTicks) reject_migration("deadline / tick is too large");
  ticks = static_cast<int>(tick_count);
}

// Kinds: on-demand per region in its cheapest zone, then spot per zone.
void MigrationOptimumSolver::Plan::add_kinds(const MigrationOptimumRequest& request) {
  const std::vector<Zone>& zones = request.market->zones;
  region_kinds.assign(static_cast<std::size_t>(regions), {});
  for (int b = 0; b < regions; ++b) {
    int cheapest = -1;
    for (std::size_t z = 0; z < zones.size(); ++z) {
      if (region_of_zone(request, z) != b) continue;
      if (cheapest < 0 ||
          zones[z].on_demand_price_per_hour < zones[static_cast<std::size_t>(cheapest)].on_demand_price_per_hour) {
        cheapest = static_cast<int>(z);
      }
    }
    if (cheapest < 0) reject_migration("region " + std::to_string(b) + " has no zone");
    region_kinds[static_cast<std::size_t>(b)].push_back(static_cast<int>(kind_region.size()));
    kind_region.push_back(b);
    kind_zone.push_back(cheapest);
    kind_spot.push_back(false);
  }
  for (std::size_t z = 0; z < zones.size(); ++z) {
    region_kinds[static_cast<std::size_t>(region_of_zone(request, z))].push_back(static_cast<int>(kind_region.size()));
    kind_region.push_back(region_of_zone(request, z));
    kind_zone.push_back(static_cast<int>(z));
    kind_spot.push_back(true);
  }
  kinds = static_cast<int>(kind_region.size());
}

// Transfers in steps (rounded down) and egress per pair of regions; false if any transfer was rounded.
bool MigrationOptimumSolver::Plan::add_transfers(const MigrationOptimumRequest& request) {
  const std::size_t NR = static_cast<std::size_t>(regions);
  tau.assign(NR * NR, 0);
  egress.assign(NR * NR, 0.0);
  bool exact = true;
  for (int a = 0; a < regions; ++a) {
    for (int b = 0; b < regions; ++b) {
      const Millis ms = a == b ? 0 : transfer_ms(request, regions, a, b);
      if (ms % q != 0) exact = false;
      tau[pair(a, b)] = ms / q;
      egress[pair(a, b)] = a == b || request.egress_usd.empty() ? 0.0 : request.egress_usd[pair(a, b)];
    }
  }
  return exact;
}

// The changeover classes into each region, their shared rows, and the layers kept.
void MigrationOptimumSolver::Plan::add_classes() {
  rows = regions + 2 * kinds;
  classes.assign(static_cast<std::size_t>(regions), {});
  std::int64_t longest = d;
  for (int b = 0; b < regions; ++b) {
    std::vector<Class>& list = classes[static_cast<std::size_t>(b)];
    list.push_back(Class{d, {}, -1});
    for (int a = 0; a < regions; ++a) {
      if (a == b) continue;
      const std::int64_t c = d + tau[pair(a, b)];
      auto same = std::find_if(list.begin(), list.end(), [&](const Class& cl) { return cl.changeover == c; });
      if (same == list.end()) {
        list.push_back(Class{c, {a}, rows++});
      } else {
        same->from.push_back(a);
      }
      longest = std::max(longest, c);
    }
  }
  layers = schedule ? ticks + 1 : static_cast<int>(last_tick(longest)) + 2;
  if (static_cast<std::int64_t>(layers) * rows > kMaxCells / w) {
    reject_migration("the state space is too large (" + std::to_string(w) + " progress steps of " + std::to_string(q) +
                     " ms" + (schedule ? ", with the schedule" : "") + "); use a coarser grid");
  }
}

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
  double cost = kInfinity;
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

std::size_t MigrationOptimumSolver::cell(std::int64_t k, int r) const {
  return static_cast<std::size_t>(k % layers_) * rows_ + static_cast<std::size_t>(r);
}
double* MigrationOptimumSolver::row(std::int64_t k, int r) { return values_.data() + cell(k, r) * steps_; }
optimum_kernels::Span MigrationOptimumSolver::span_of(std::int64_t k, int r) const {
  const std::int64_t* s = spans_.data() + cell(k, r) * 2;
  return Span{s[0], s[1]};
}
void MigrationOptimumSolver::set_span(std::int64_t k, int r, Span span) {
  std::int64_t* at = spans_.data() + cell(k, r) * 2;
  at[0] = span.lo;
  at[1] = span.hi;
}
double MigrationOptimumSolver::value_at(std::int64_t k, int r, std::int64_t p) const {
  return span_of(k, r).holds(p) ? values_[cell(k, r) * steps_ + static_cast<std::size_t>(p)] : kInfinity;
}
double* MigrationOptimumSolver::source(int a) { return sources_.data() + static_cast<std::size_t>(a) * steps_; }
optimum_kernels::Span MigrationOptimumSolver::source_span(int a) const {
  return Span{source_spans_[2 * static_cast<std::size_t>(a)], source_spans_[2 * static_cast<std::size_t>(a) + 1]};
}
double MigrationOptimumSolver::price(std::int64_t k, int y) const {
  return unit_price_[static_cast<std::size_t>(k) * kinds_ + static_cast<std::size_t>(y)];
}
bool MigrationOptimumSolver::allowed(std::int64_t k, int y) const {
  return allowed_[static_cast<std::size_t>(k) * kinds_ + static_cast<std::size_t>(y)] != 0;
}

MigrationOptimum MigrationOptimumSolver::solve(const MigrationOptimumRequest& request) {
  validate_migration(request);
  MigrationOptimum result;
  if (request.work + request.changeover > request.deadline) return result;
  const Plan P(request, result);
  prepare_prices(request, P);
  prepare_rows(P);
  Sweep sweep(P);
  for (std::int64_t k = 0; k < P.ticks; ++k) advance(P, k, sweep);

  const Finish& finish = sweep.finish;
  if (finish.k < 0) return result;  // cannot happen: on-demand from the start fits
  result.feasible = true;
  result.cost = finish.cost;
  const std::int64_t finish_r = finish.klass < 0 ? 0 : P.left_then(P.class_of(finish.kind, finish.klass).changeover);
  result.finish = (finish.k * P.g + finish_r + P.w - finish.p) * P.q;
  if (P.schedule) reconstruct(P, sweep, finish_r, result);
  return result;
}

// Prices per grid step (nodes included) and availability per tick and kind.
void MigrationOptimumSolver::prepare_prices(const MigrationOptimumRequest& request, const Plan& P) {
  const std::vector<Zone>& zones = request.market->zones;
  const std::size_t K = static_cast<std::size_t>(P.kinds);
  unit_price_.assign(static_cast<std::size_t>(P.ticks) * K, 0.0);
  allowed_.assign(static_cast<std::size_t>(P.ticks) * K, 1);
  const double per_step = static_cast<double>(P.q) * request.nodes / static_cast<double>(kMillisPerHour);
  for (std::size_t y = 0; y < K; ++y) {
    const Zone& zone = zones[static_cast<std::size_t>(P.kind_zone[y])];
    for (std::size_t k = 0; k < static_cast<std::size_t>(P.ticks); ++k) {
      const Millis t0 = request.start + static_cast<Millis>(k) * request.tick;
      if (!P.kind_spot[y]) {
        unit_price_[k * K + y] = zone.on_demand_price_per_hour * per_step;
        continue;
      }
      unit_price_[k * K + y] = zone.spot.price_per_hour.at(t0) * per_step;
      if (zone.spot.available) {
        const double nodes = request.nodes;
        const bool whole =
            zone.spot.available->at(t0) >= nodes &&
            zone.spot.available->next_time_where(t0, [nodes](double v) { return v < nodes; }) >= t0 + request.tick;
        allowed_[k * K + y] = whole ? 1 : 0;
      }
    }
  }
}

// The value rows (all empty), the sources and the partial stops' scratch, sized for the plan.
void MigrationOptimumSolver::prepare_rows(const Plan& P) {
  layers_ = P.layers;
  rows_ = static_cast<std::size_t>(P.rows);
  steps_ = static_cast<std::size_t>(P.w);
  kinds_ = static_cast<std::size_t>(P.kinds);
  const std::size_t W = steps_, NR = static_cast<std::size_t>(P.regions), G = static_cast<std::size_t>(P.g);
  values_.resize(static_cast<std::size_t>(P.layers) * rows_ * W);
  spans_.resize(static_cast<std::size_t>(P.layers) * rows_ * 2);
  for (std::size_t i = 0; i < spans_.size(); i += 2) spans_[i] = 0, spans_[i + 1] = -1;  // all empty
  sources_.resize(NR * W);
  source_spans_.assign(NR * 2, 0);
  virtual_.resize(W + G);
  positions_.resize(W + G);
  for (std::size_t i = 0; i < positions_.size(); ++i)
    positions_[i] = static_cast<double>(static_cast<std::int64_t>(i) - P.g);
  queue_value_.resize(W + G + 2);
  queue_position_.resize(W + G + 2);
}

// One tick of the forward DP: the states at boundary k + 1 from those at k (and the launches of past ticks).
void MigrationOptimumSolver::advance(const Plan& P, std::int64_t k, Sweep& sweep) {
  for (int r = 0; r < P.regions + P.kinds; ++r) set_span(k + 1, r, Span{});
  gather_sources(P, k, sweep);
  for (int b = 0; b < P.regions; ++b) launch_into(P, k, b);
  // Holding each kind through tick k: on to the state with the changeover over, finishing, or a partial stop.
  for (int y = 0; y < P.kinds; ++y) {
    if (!allowed(k, y)) continue;
    const int count = hold_sources(P, k, y, sweep.holds.data());
    hold_through(P, k, y, sweep.holds.data(), count, sweep.finish);
    if (!P.per_tick) partial_stops(P, k, y, sweep.holds.data(), count, sweep);
  }
}

// dst (span `span`) = min(dst, row r at boundary k) within `limit`.
void MigrationOptimumSolver::add_row(double* dst, Span& span, std::int64_t k, int r, Span limit) {
  accumulate(dst, span, row(k, r), span_of(k, r), 0, 0.0, limit);
}

// The cheapest state with the data in each region (p >= 1; p = 0 is the start, nothing saved), and idle at k + 1
// by releasing at the boundary.
void MigrationOptimumSolver::gather_sources(const Plan& P, std::int64_t k, Sweep& sweep) {
  const Span states = P.states();
  const Span idle_keep = P.idle_keep(k);
  for (int a = 0; a < P.regions; ++a) {
    Span span;
    double* dst = source(a);
    add_row(dst, span, k, P.idle_row(a), states);
    for (int x : P.kinds_in(a)) add_row(dst, span, k, P.held_row(x), states);
    source_spans_[2 * static_cast<std::size_t>(a)] = span.lo;
    source_spans_[2 * static_cast<std::size_t>(a) + 1] = span.hi;
    Span idle;
    accumulate(row(k + 1, P.idle_row(a)), idle, dst, span, 0, 0.0, idle_keep);
    set_span(k + 1, P.idle_row(a), idle);
    sweep.released[static_cast<std::size_t>(a)] = idle;
  }
}

// The launch arrays into region b at boundary k: its own class's row (per region, or per kind with the schedule),
// then one row per further class.
void MigrationOptimumSolver::launch_into(const Plan& P, std::int64_t k, int b) {
  const std::vector<Plan::Class>& list = P.classes_into(b);
  if (!P.schedule) {
    const Span own_limit = P.launch_limit(k, P.d);
    const int at = P.launch_row(P.kinds_in(b).front());
    double* dst = row(k, at);
    Span span = own_launch_start(dst, own_limit);
    const Span limit = meet(own_limit, P.states());
    accumulate(dst, span, source(b), source_span(b), 0, 0.0, limit);
    add_moves(P, b, list[0].from, dst, span, limit);
    set_span(k, at, span);
  } else {
    for (int y : P.kinds_in(b)) launch_kind(P, k, b, y);
  }
  for (std::size_t ci = 1; ci < list.size(); ++ci) {
    double* dst = row(k, list[ci].row);
    Span span;
    add_moves(P, b, list[ci].from, dst, span, meet(P.launch_limit(k, list[ci].changeover), P.states()));
    set_span(k, list[ci].row, span);
  }
}

// With the schedule, the launch of kind y of region b at k in its own class: from the start, idle in b, holding
// another kind of b, or moved from another region.
void MigrationOptimumSolver::launch_kind(const Plan& P, std::int64_t k, int b, int y) {
  const Span own_limit = P.launch_limit(k, P.d);
  double* dst = row(k, P.own_launch_row(y));
  Span span = own_launch_start(dst, own_limit);
  const Span limit = meet(own_limit, P.states());
  add_row(dst, span, k, P.idle_row(b), limit);
  for (int x : P.kinds_in(b)) {
    if (x != y) add_row(dst, span, k, P.held_row(x), limit);
  }
  add_moves(P, b, P.classes_into(b)[0].from, dst, span, limit);
  set_span(k, P.own_launch_row(y), span);
}

// dst (span `span`) = min(dst, the cheapest state with the data in a + egress(a -> b)) over the source regions a.
void MigrationOptimumSolver::add_moves(const Plan& P, int b, const std::vector<int>& from, double* dst, Span& span,
                                       Span limit) {
  for (int a : from) accumulate(dst, span, source(a), source_span(a), 0, P.egress[P.pair(a, b)], limit);
}

// The hold sources of kind y through tick k into `out` (at most 1 + classes); returns how many.
int MigrationOptimumSolver::hold_sources(const Plan& P, std::int64_t k, int y, HoldSource* out) {
  int count = 0;
  out[count++] = HoldSource{row(k, P.held_row(y)), span_of(k, P.held_row(y)), 0, 0.0, -1, k};
  const std::vector<Plan::Class>& list = P.classes_into(P.region_of(y));
  for (std::size_t ci = 0; ci < list.size(); ++ci) {
    const std::int64_t c = list[ci].changeover, j = k - P.last_tick(c);
    if (j < 0) continue;
    double offset = 0.0;
    bool held = true;
    for (std::int64_t i = j; i < k; ++i) {
      held = held && allowed(i, y);
      offset += price(i, y) * static_cast<double>(P.g);
    }
    if (!held) continue;
    const int r = ci == 0 ? P.launch_row(y) : list[ci].row;
    out[count++] = HoldSource{row(j, r), span_of(j, r), P.left_then(c), offset, static_cast<int>(ci), j};
  }
  return count;
}

// Holding y through tick k in full, on to the state with the changeover over, or finishing within the tick.
void MigrationOptimumSolver::hold_through(const Plan& P, std::int64_t k, int y, const HoldSource* holds, int count,
                                          Finish& finish) {
  const std::int64_t g = P.g, w = P.w;
  const double c = price(k, y);
  const double tick_cost = c * static_cast<double>(g);
  const Span held_keep{P.lowest(k + 1, 0), w - 1};
  double* held_next = row(k + 1, P.held_row(y));
  Span held_span;
  for (int i = 0; i < count; ++i) {
    const HoldSource& s = holds[i];
    if (s.from.empty()) continue;
    accumulate(held_next, held_span, s.values, s.from, g - std::min(s.r, g), s.offset + tick_cost, held_keep);
    if (s.r < g) {
      const Span done = meet(s.from, Span{std::max(w - (g - s.r), w + s.r + k * g - P.t), w - 1});
      for (std::int64_t p = done.lo; p <= done.hi; ++p) {
        const std::int64_t paid = P.per_tick ? g : s.r + w - p;
        const double cost = (s.values[p] + s.offset) + c * static_cast<double>(paid);
        if (cost < finish.cost) finish = Finish{cost, k, p, y, s.klass};
      }
    }
  }
  set_span(k + 1, P.held_row(y), held_span);
}

// Partial stops of y within tick k: held t in (r, g) steps, then released: idle in region(y) at p + t - r.
void MigrationOptimumSolver::partial_stops(const Plan& P, std::int64_t k, int y, const HoldSource* holds, int count,
                                           Sweep& sweep) {
  const std::int64_t g = P.g;
  const double c = price(k, y);
  const int a = P.region_of(y);
  const Span idle_keep = P.idle_keep(k);
  double* idle_next = row(k + 1, P.idle_row(a));
  Span idle_span = span_of(k + 1, P.idle_row(a));
  // Sources from the kind's own region are worth at least the release value there, so only where it rises steeply
  // can a partial stop from them help (optimum_kernels::partial_stop_runs); moves from elsewhere are not bounded
  // by it and take the whole window.
  const bool own_bounded = P.classes_into(a)[0].from.empty();
  Span all_out, bounded_out;
  for (int i = 0; i < count; ++i) {
    if (!holds[i].can_stop(g)) continue;
    const Span out = holds[i].stop_targets(g, idle_keep);
    all_out = hull(all_out, out);
    if (holds[i].bounded(own_bounded)) bounded_out = hull(bounded_out, out);
  }
  extend(idle_next, idle_span, all_out);
  partial_stop_runs(idle_next, sweep.released[static_cast<std::size_t>(a)], bounded_out, g - 1, c, sweep.runs);
  for (int i = 0; i < count; ++i) {
    const HoldSource& s = holds[i];
    if (!s.can_stop(g)) continue;
    const Span out = s.stop_targets(g, idle_keep);
    if (!s.bounded(own_bounded)) {
      slide_stop(s, c, g, out, idle_next);
      continue;
    }
    for (const Span run : sweep.runs) slide_stop(s, c, g, meet(run, out), idle_next);
  }
  set_span(k + 1, P.idle_row(a), idle_span);
}

// idle = min(idle, the partial stops from s (price c) into `into`), as a sliding-window minimum.
void MigrationOptimumSolver::slide_stop(const HoldSource& s, double c, std::int64_t g, Span into, double* idle) {
  if (into.empty()) return;
  double* u = virtual_.data() + g;
  const double* position = positions_.data() + g;
  const Span xs = shifted(s.from, -s.r);
  const Span used = meet(xs, Span{into.lo - (g - 1), into.hi - 1 - s.r});
  virtual_costs(u, s.values, position, s.r, s.offset, c, used, true);
  sliding_partial_stop<false>(u, used, s.r, g - 1, c, into, idle, queue_position_.data(), queue_value_.data(), nullptr,
                              0, 0);
}

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

MigrationOptimum solve_migration_optimum(const MigrationOptimumRequest& request) {
  MigrationOptimumSolver solver;
  return solver.solve(request);
}

}  // namespace spotsim
