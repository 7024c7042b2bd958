#include "optimum/migration_optimum.hpp"

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

using namespace optimum_kernels;  // Span, the array kernels, kInfinity

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

MigrationOptimum solve_migration_optimum(const MigrationOptimumRequest& request) {
  MigrationOptimumSolver solver;
  return solver.solve(request);
}

}  // namespace spotsim
