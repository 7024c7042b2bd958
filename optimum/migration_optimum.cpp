#include "optimum/migration_optimum.hpp"

#include <algorithm>
#include <cassert>
#include <limits>
#include <cmath>
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

void validate_migration(const MigrationOptimumRequest& r) {
  validate_optimum_basics("migration optimum", r.market, r.start, r.tick, r.work, r.changeover, r.deadline, r.nodes);
  if (r.grid < 0) reject_migration("grid must be >= 0");
  const std::size_t zones = r.market->zones.size();
  if (r.zone_region.empty()) {
    if (!r.transfer.empty() || !r.egress_usd.empty()) reject_migration("transfer and egress need zone_region");
    return;
  }
  if (r.zone_region.size() != zones) reject_migration("zone_region must have one entry per zone");
  const int regions = *std::max_element(r.zone_region.begin(), r.zone_region.end()) + 1;
  for (int region : r.zone_region) {
    if (region < 0) reject_migration("zone_region entries must be >= 0");
  }
  const std::size_t pairs = static_cast<std::size_t>(regions) * static_cast<std::size_t>(regions);
  if (r.transfer.size() != pairs || r.egress_usd.size() != pairs) {
    reject_migration("transfer and egress_usd must have regions x regions entries");
  }
  for (std::size_t i = 0; i < pairs; ++i) {
    if (r.transfer[i] < 0 || r.transfer[i] >= kNever) reject_migration("transfer times must be >= 0 and finite");
    if (!(r.egress_usd[i] >= 0.0) || !std::isfinite(r.egress_usd[i])) reject_migration("egress must be >= 0 and finite");
  }
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

  int idle_row(int a) const { return a; }
  int held_row(int y) const { return regions + y; }
  int own_launch_row(int y) const { return regions + kinds + y; }
  // The launch of y from its own region's class: per kind with the schedule (from any state but y itself, so that
  // the schedule replays); without it, one per region (relaunching the held kind is a real schedule never better
  // than continuing it, so the optimum is the same, with fewer rows).
  int launch_row(int y) const { return schedule ? own_launch_row(y) : regions + kinds + kind_region[static_cast<std::size_t>(y)]; }
  std::int64_t lowest(std::int64_t k, std::int64_t r) const { return std::max<std::int64_t>(0, w + r - (t - k * g)); }
  // The tick a launch of `changeover` steps spends its last changeover step in, counted from the launch, and the
  // changeover left at that tick's start.
  std::int64_t last_tick(std::int64_t c) const { return c == 0 ? 0 : (c - 1) / g; }
  std::int64_t left_then(std::int64_t c) const { return c - last_tick(c) * g; }
};

MigrationOptimum MigrationOptimumSolver::solve(const MigrationOptimumRequest& request) {
  validate_migration(request);
  MigrationOptimum result;
  if (request.work + request.changeover > request.deadline) return result;

  const std::vector<Zone>& zones = request.market->zones;
  Plan P;
  P.per_tick = request.per_tick_billing;
  P.schedule = request.want_schedule;
  P.regions = request.zone_region.empty() ? 1
                                          : *std::max_element(request.zone_region.begin(), request.zone_region.end()) + 1;
  auto region_of_zone = [&](std::size_t z) { return request.zone_region.empty() ? 0 : request.zone_region[z]; };
  const std::size_t NR = static_cast<std::size_t>(P.regions);
  auto transfer_ms = [&](int a, int b) {
    return request.transfer.empty() ? Millis{0} : request.transfer[static_cast<std::size_t>(a) * NR + b];
  };

  // The grid: exact when every transfer is a multiple of q.
  const Millis base = std::gcd(std::gcd(request.tick, request.changeover), std::gcd(request.work, request.deadline));
  Millis exact_q = base;
  for (int a = 0; a < P.regions; ++a) {
    for (int b = 0; b < P.regions; ++b) exact_q = std::gcd(exact_q, transfer_ms(a, b));
  }
  Millis q = request.grid;
  if (q == 0) {
    // The DP's work grows with ticks x progress steps x (kinds + regions): the exact grid if that stays within
    // kGridBudget (and kGridMaxSteps), else the finest divisor of base that does (base itself if none).
    const std::int64_t per_step = ceil_div(request.deadline, request.tick) *
                                  (2 * P.regions + static_cast<std::int64_t>(zones.size()));
    auto affordable = [&](Millis step) {
      return request.work / step <= std::min(kGridBudget / per_step, kGridMaxSteps);
    };
    if (affordable(exact_q)) {
      q = exact_q;
    } else {
      q = base;
      for (Millis divisor = 1; divisor <= base; ++divisor) {
        if (base % divisor == 0 && affordable(divisor)) {
          q = divisor;
          break;
        }
      }
    }
  } else if (base % q != 0) {
    reject_migration("grid " + std::to_string(q) + " ms must divide gcd(tick, changeover, work, deadline) = " +
           std::to_string(base) + " ms");
  }
  P.q = q;
  result.grid = q;
  P.g = request.tick / q;
  P.d = request.changeover / q;
  P.w = request.work / q;
  P.t = request.deadline / q;
  const std::int64_t ticks = ceil_div(P.t, P.g);
  if (ticks > kMaxTicks) reject_migration("deadline / tick is too large");
  P.ticks = static_cast<int>(ticks);

  // Kinds.
  P.region_kinds.assign(NR, {});
  for (int b = 0; b < P.regions; ++b) {
    int cheapest = -1;
    for (std::size_t z = 0; z < zones.size(); ++z) {
      if (region_of_zone(z) != b) continue;
      if (cheapest < 0 || zones[z].on_demand_price_per_hour < zones[static_cast<std::size_t>(cheapest)].on_demand_price_per_hour) {
        cheapest = static_cast<int>(z);
      }
    }
    if (cheapest < 0) reject_migration("region " + std::to_string(b) + " has no zone");
    P.region_kinds[static_cast<std::size_t>(b)].push_back(static_cast<int>(P.kind_region.size()));
    P.kind_region.push_back(b);
    P.kind_zone.push_back(cheapest);
    P.kind_spot.push_back(false);
  }
  for (std::size_t z = 0; z < zones.size(); ++z) {
    P.region_kinds[static_cast<std::size_t>(region_of_zone(z))].push_back(static_cast<int>(P.kind_region.size()));
    P.kind_region.push_back(region_of_zone(z));
    P.kind_zone.push_back(static_cast<int>(z));
    P.kind_spot.push_back(true);
  }
  P.kinds = static_cast<int>(P.kind_region.size());
  const std::size_t K = static_cast<std::size_t>(P.kinds);

  // Transfers (rounded down) and the changeover classes into each region.
  P.tau.assign(NR * NR, 0);
  P.egress.assign(NR * NR, 0.0);
  result.exact = true;
  for (int a = 0; a < P.regions; ++a) {
    for (int b = 0; b < P.regions; ++b) {
      const Millis ms = a == b ? 0 : transfer_ms(a, b);
      if (ms % q != 0) result.exact = false;
      P.tau[static_cast<std::size_t>(a) * NR + b] = ms / q;
      P.egress[static_cast<std::size_t>(a) * NR + b] =
          a == b || request.egress_usd.empty() ? 0.0 : request.egress_usd[static_cast<std::size_t>(a) * NR + b];
    }
  }
  P.rows = P.regions + 2 * P.kinds;
  P.classes.assign(NR, {});
  std::int64_t longest = P.d;
  for (int b = 0; b < P.regions; ++b) {
    std::vector<Plan::Class>& list = P.classes[static_cast<std::size_t>(b)];
    list.push_back(Plan::Class{P.d, {}, -1});
    for (int a = 0; a < P.regions; ++a) {
      if (a == b) continue;
      const std::int64_t c = P.d + P.tau[static_cast<std::size_t>(a) * NR + b];
      auto same = std::find_if(list.begin(), list.end(), [&](const Plan::Class& cl) { return cl.changeover == c; });
      if (same == list.end()) {
        list.push_back(Plan::Class{c, {a}, P.rows++});
      } else {
        same->from.push_back(a);
      }
      longest = std::max(longest, c);
    }
  }
  P.layers = P.schedule ? P.ticks + 1 : static_cast<int>(P.last_tick(longest)) + 2;
  const std::size_t W = static_cast<std::size_t>(P.w);
  if (static_cast<std::int64_t>(P.layers) * P.rows > kMaxCells / P.w) {
    reject_migration("the state space is too large (" + std::to_string(P.w) + " progress steps of " + std::to_string(q) +
           " ms" + (P.schedule ? ", with the schedule" : "") + "); use a coarser grid");
  }

  // Prices per grid step (nodes included) and availability per tick and kind.
  unit_price_.assign(static_cast<std::size_t>(P.ticks) * K, 0.0);
  allowed_.assign(static_cast<std::size_t>(P.ticks) * K, 1);
  const double per_step = static_cast<double>(q) * request.nodes / static_cast<double>(kMillisPerHour);
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
        const bool whole = zone.spot.available->at(t0) >= nodes &&
                           zone.spot.available->next_time_where(t0, [nodes](double v) { return v < nodes; }) >=
                               t0 + request.tick;
        allowed_[k * K + y] = whole ? 1 : 0;
      }
    }
  }

  const std::size_t rows = static_cast<std::size_t>(P.rows);
  values_.resize(static_cast<std::size_t>(P.layers) * rows * W);
  spans_.resize(static_cast<std::size_t>(P.layers) * rows * 2);
  for (std::size_t i = 0; i < spans_.size(); i += 2) spans_[i] = 0, spans_[i + 1] = -1;  // all empty
  sources_.resize(NR * W);
  source_spans_.assign(NR * 2, 0);
  virtual_.resize(W + static_cast<std::size_t>(P.g));
  positions_.resize(W + static_cast<std::size_t>(P.g));
  for (std::size_t i = 0; i < positions_.size(); ++i) positions_[i] = static_cast<double>(static_cast<std::int64_t>(i) - P.g);
  queue_value_.resize(W + static_cast<std::size_t>(P.g) + 2);
  queue_position_.resize(W + static_cast<std::size_t>(P.g) + 2);

  const std::int64_t g = P.g, w = P.w;
  auto layer_of = [&](std::int64_t k) { return static_cast<std::size_t>(k % P.layers); };
  auto row = [&](std::int64_t k, int r) { return values_.data() + (layer_of(k) * rows + static_cast<std::size_t>(r)) * W; };
  auto span_ref = [&](std::int64_t k, int r) -> std::int64_t* { return spans_.data() + (layer_of(k) * rows + static_cast<std::size_t>(r)) * 2; };
  auto span_of = [&](std::int64_t k, int r) { const std::int64_t* s = span_ref(k, r); return Span{s[0], s[1]}; };
  auto set_span = [&](std::int64_t k, int r, Span s) { std::int64_t* at = span_ref(k, r); at[0] = s.lo; at[1] = s.hi; };
  auto value_at = [&](std::int64_t k, int r, std::int64_t p) { return span_of(k, r).holds(p) ? row(k, r)[p] : kInfinity; };
  auto price = [&](std::int64_t k, int y) { return unit_price_[static_cast<std::size_t>(k) * K + static_cast<std::size_t>(y)]; };
  auto allowed = [&](std::int64_t k, int y) { return allowed_[static_cast<std::size_t>(k) * K + static_cast<std::size_t>(y)] != 0; };
  auto region_of = [&](int y) { return P.kind_region[static_cast<std::size_t>(y)]; };
  double* const source_values = sources_.data();
  auto source = [&](int a) { return source_values + static_cast<std::size_t>(a) * W; };
  auto source_span = [&](int a) { return Span{source_spans_[2 * static_cast<std::size_t>(a)], source_spans_[2 * static_cast<std::size_t>(a) + 1]}; };

  // dst (span `span`, updated) = min(dst, src[p - by] + add) over p in shifted(from, by) within `limit`.
  auto accumulate = [&](double* dst, Span& span, const double* src, Span from, std::int64_t by, double add, Span limit) {
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
  };
  auto extend = [&](double* dst, Span& span, Span to) {
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
  };

  // A source of holding kind y through tick k: the state with the changeover over, or the launch of a class in its
  // last changeover tick (held and allowed since its launch), with the changeover r left at k.
  struct HoldSource {
    const double* values = nullptr;
    Span from;
    std::int64_t r = 0;
    double offset = 0.0;
    int klass = -1;  // -1: the held state; else the class index
    std::int64_t launched = 0;
  };
  auto hold_sources = [&](std::int64_t k, int y, HoldSource* out) {
    int count = 0;
    out[count++] = HoldSource{row(k, P.held_row(y)), span_of(k, P.held_row(y)), 0, 0.0, -1, k};
    const auto& list = P.classes[static_cast<std::size_t>(region_of(y))];
    for (std::size_t ci = 0; ci < list.size(); ++ci) {
      const std::int64_t c = list[ci].changeover, j = k - P.last_tick(c);
      if (j < 0) continue;
      double offset = 0.0;
      bool held = true;
      for (std::int64_t i = j; i < k; ++i) {
        held = held && allowed(i, y);
        offset += price(i, y) * static_cast<double>(g);
      }
      if (!held) continue;
      const int r = ci == 0 ? P.launch_row(y) : list[ci].row;
      out[count++] = HoldSource{row(j, r), span_of(j, r), P.left_then(c), offset, static_cast<int>(ci), j};
    }
    return count;
  };
  std::vector<HoldSource> holds(1 + NR + 1);
  std::vector<Span> released(NR), runs;  // per region: idle at k + 1 by releasing at the boundary

  struct Finish {
    double cost = kInfinity;
    std::int64_t k = -1, p = 0;
    int kind = 0, klass = -1;
  } finish;

  for (std::int64_t k = 0; k < P.ticks; ++k) {
    const std::int64_t nxt = k + 1;
    for (int r = 0; r < P.regions + P.kinds; ++r) set_span(nxt, r, Span{});
    const Span states{1, w - 1};
    // The cheapest state with the data in each region (p >= 1; p = 0 is the start, nothing saved), and idle at
    // k + 1 by releasing at the boundary.
    const Span idle_keep{std::max<std::int64_t>(1, P.lowest(nxt, P.d)), w - 1};
    for (int a = 0; a < P.regions; ++a) {
      Span span;
      double* dst = source(a);
      accumulate(dst, span, row(k, P.idle_row(a)), span_of(k, P.idle_row(a)), 0, 0.0, states);
      for (int x : P.region_kinds[static_cast<std::size_t>(a)]) {
        accumulate(dst, span, row(k, P.held_row(x)), span_of(k, P.held_row(x)), 0, 0.0, states);
      }
      source_spans_[2 * static_cast<std::size_t>(a)] = span.lo;
      source_spans_[2 * static_cast<std::size_t>(a) + 1] = span.hi;
      Span idle;
      accumulate(row(nxt, P.idle_row(a)), idle, dst, span, 0, 0.0, idle_keep);
      set_span(nxt, P.idle_row(a), idle);
      released[static_cast<std::size_t>(a)] = idle;
    }
    // Launch arrays at k.
    for (int b = 0; b < P.regions; ++b) {
      const auto& list = P.classes[static_cast<std::size_t>(b)];
      const Span own_limit{P.lowest(k, P.d), w - 1};
      if (!P.schedule) {
        const int at = P.launch_row(P.region_kinds[static_cast<std::size_t>(b)].front());
        double* dst = row(k, at);
        Span span;
        if (own_limit.lo == 0) {  // the start: nothing saved, nothing to move
          dst[0] = 0.0;
          span = {0, 0};
        }
        const Span limit = meet(own_limit, states);
        accumulate(dst, span, source(b), source_span(b), 0, 0.0, limit);
        for (int a : list[0].from) {
          accumulate(dst, span, source(a), source_span(a), 0, P.egress[static_cast<std::size_t>(a) * NR + b], limit);
        }
        set_span(k, at, span);
      }
      for (int y : P.region_kinds[static_cast<std::size_t>(b)]) {
        if (!P.schedule) break;
        double* dst = row(k, P.own_launch_row(y));
        Span span;
        if (own_limit.lo == 0) {  // the start: nothing saved, nothing to move
          dst[0] = 0.0;
          span = {0, 0};
        }
        const Span limit = meet(own_limit, states);
        accumulate(dst, span, row(k, P.idle_row(b)), span_of(k, P.idle_row(b)), 0, 0.0, limit);
        for (int x : P.region_kinds[static_cast<std::size_t>(b)]) {
          if (x != y) accumulate(dst, span, row(k, P.held_row(x)), span_of(k, P.held_row(x)), 0, 0.0, limit);
        }
        for (int a : list[0].from) {
          accumulate(dst, span, source(a), source_span(a), 0, P.egress[static_cast<std::size_t>(a) * NR + b], limit);
        }
        set_span(k, P.own_launch_row(y), span);
      }
      for (std::size_t ci = 1; ci < list.size(); ++ci) {
        double* dst = row(k, list[ci].row);
        Span span;
        const Span limit = meet(Span{P.lowest(k, list[ci].changeover), w - 1}, states);
        for (int a : list[ci].from) {
          accumulate(dst, span, source(a), source_span(a), 0, P.egress[static_cast<std::size_t>(a) * NR + b], limit);
        }
        set_span(k, list[ci].row, span);
      }
    }
    // Holding each kind through tick k: on to the state with the changeover over, finishing, or a partial stop.
    const Span held_keep{P.lowest(nxt, 0), w - 1};
    for (int y = 0; y < P.kinds; ++y) {
      if (!allowed(k, y)) continue;
      const double c = price(k, y);
      const double tick_cost = c * static_cast<double>(g);
      const int count = hold_sources(k, y, holds.data());
      double* held_next = row(nxt, P.held_row(y));
      Span held_span;
      double* idle_next = row(nxt, P.idle_row(region_of(y)));
      Span idle_span = span_of(nxt, P.idle_row(region_of(y)));
      for (int i = 0; i < count; ++i) {
        const HoldSource& s = holds[static_cast<std::size_t>(i)];
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
      if (!P.per_tick) {
        // Partial stops: held t in (r, g) steps, then released: idle in region(y) at p + t - r. Sources from the
        // kind's own region are worth at least the release value there, so only where it rises steeply can a
        // partial stop from them help (optimum_kernels::partial_stop_runs); moves from elsewhere are not bounded
        // by it and take the whole window.
        const bool own_bounded = P.classes[static_cast<std::size_t>(region_of(y))][0].from.empty();
        Span all_out, bounded_out;
        for (int i = 0; i < count; ++i) {
          const HoldSource& s = holds[static_cast<std::size_t>(i)];
          if (s.from.empty() || s.r > g - 2) continue;
          const Span xs = shifted(s.from, -s.r);
          const Span out = meet(Span{xs.lo + 1 + s.r, xs.hi + g - 1}, idle_keep);
          all_out = hull(all_out, out);
          if (s.klass < 0 || (s.klass == 0 && own_bounded)) bounded_out = hull(bounded_out, out);
        }
        extend(idle_next, idle_span, all_out);
        partial_stop_runs(idle_next, released[static_cast<std::size_t>(region_of(y))], bounded_out, g - 1, c, runs);
        for (int i = 0; i < count; ++i) {
          const HoldSource& s = holds[static_cast<std::size_t>(i)];
          if (s.from.empty() || s.r > g - 2) continue;
          const Span xs = shifted(s.from, -s.r);
          const Span out = meet(Span{xs.lo + 1 + s.r, xs.hi + g - 1}, idle_keep);
          const bool bounded = s.klass < 0 || (s.klass == 0 && own_bounded);
          auto slide = [&](Span into) {
            if (into.empty()) return;
            double* u = virtual_.data() + g;
            const double* position = positions_.data() + g;
            const Span used = meet(xs, Span{into.lo - (g - 1), into.hi - 1 - s.r});
            virtual_costs(u, s.values, position, s.r, s.offset, c, used, true);
            sliding_partial_stop<false>(u, used, s.r, g - 1, c, into, idle_next, queue_position_.data(),
                                        queue_value_.data(), nullptr, 0, 0);
          };
          if (!bounded) {
            slide(out);
            continue;
          }
          for (const Span run : runs) slide(meet(run, out));
        }
      }
      set_span(nxt, P.held_row(y), held_span);
      set_span(nxt, P.idle_row(region_of(y)), idle_span);
    }
  }
  if (finish.k < 0) return result;  // cannot happen: on-demand from the start fits
  result.feasible = true;
  result.cost = finish.cost;
  const std::int64_t finish_r =
      finish.klass < 0 ? 0 : P.left_then(P.classes[static_cast<std::size_t>(region_of(finish.kind))]
                                                  [static_cast<std::size_t>(finish.klass)].changeover);
  result.finish = (finish.k * g + finish_r + w - finish.p) * q;
  if (!P.schedule) return result;

  // The schedule: walk back from the finish, at each state taking the cheapest way into it (recomputed from the
  // stored values: every state's value is the least over its ways in).
  std::vector<int> tick_kind(static_cast<std::size_t>(finish.k) + 1, -1);
  std::vector<std::int64_t> tick_held(tick_kind.size(), 0);
  enum class Type { kIdle, kHeld, kLaunch, kNone };
  struct Node {
    Type type = Type::kNone;
    int id = 0;  // region, kind, or kind (own launch) / -(1 + shared row) for a class row
    std::int64_t k = 0, p = 0;
    int region = 0;  // of a launch: its target region
  };
  // The state behind hold source `s` of kind y (then held through ticks s.launched..k-1 in full: `mark`).
  auto enter = [&](const HoldSource& s, int y, std::int64_t p) {
    if (s.klass < 0) return Node{Type::kHeld, y, s.launched, p, region_of(y)};
    const auto& cl = P.classes[static_cast<std::size_t>(region_of(y))][static_cast<std::size_t>(s.klass)];
    return Node{Type::kLaunch, s.klass == 0 ? y : -(1 + cl.row), s.launched, p, region_of(y)};
  };
  auto mark = [&](std::int64_t from, std::int64_t to, int y) {
    for (std::int64_t i = from; i < to; ++i) {
      tick_kind[static_cast<std::size_t>(i)] = y;
      tick_held[static_cast<std::size_t>(i)] = g;
    }
  };
  Node node;
  {
    const int count = hold_sources(finish.k, finish.kind, holds.data());
    for (int i = 0; i < count; ++i) {
      const HoldSource& s = holds[static_cast<std::size_t>(i)];
      if (s.klass != finish.klass) continue;
      node = enter(s, finish.kind, finish.p);
      mark(s.launched, finish.k, finish.kind);
    }
    tick_kind.back() = finish.kind;
    tick_held.back() = finish_r + w - finish.p;
  }
  double egress = 0.0;
  int migrations = 0;
  // The cheapest state with the data in region a at boundary k and progress p.
  auto best_in_region = [&](int a, std::int64_t k, std::int64_t p, double& best) {
    Node pick{Type::kIdle, a, k, p, a};
    best = value_at(k, P.idle_row(a), p);
    for (int x : P.region_kinds[static_cast<std::size_t>(a)]) {
      const double v = value_at(k, P.held_row(x), p);
      if (v < best) best = v, pick = Node{Type::kHeld, x, k, p, a};
    }
    return pick;
  };
  while (node.type != Type::kNone) {
    const std::int64_t k = node.k, p = node.p;
    if (node.type == Type::kIdle && p == 0) break;
    double best = kInfinity;
    Node next;
    if (node.type == Type::kHeld) {
      assert(k >= 1);
      const int y = node.id;
      const int count = hold_sources(k - 1, y, holds.data());
      const double tick_cost = price(k - 1, y) * static_cast<double>(g);
      std::int64_t launched = k - 1;
      for (int i = 0; i < count; ++i) {
        const HoldSource& s = holds[static_cast<std::size_t>(i)];
        const std::int64_t from = p - (g - std::min(s.r, g));
        if (!s.from.holds(from)) continue;
        const double v = s.values[from] + s.offset + tick_cost;
        if (v < best) best = v, next = enter(s, y, from), launched = s.launched;
      }
      mark(launched, k - 1, y);
      tick_kind[static_cast<std::size_t>(k - 1)] = y;
      tick_held[static_cast<std::size_t>(k - 1)] = g;
    } else if (node.type == Type::kIdle) {
      assert(k >= 1);
      const int a = node.id;
      next = best_in_region(a, k - 1, p, best);
      int stop_kind = -1;
      std::int64_t stop_t = 0, launched = k - 1;
      for (int y : P.region_kinds[static_cast<std::size_t>(a)]) {
        if (P.per_tick || !allowed(k - 1, y)) continue;
        const int count = hold_sources(k - 1, y, holds.data());
        for (int i = 0; i < count; ++i) {
          const HoldSource& s = holds[static_cast<std::size_t>(i)];
          for (std::int64_t t = s.r + 1; t <= g - 1; ++t) {
            const std::int64_t from = p - (t - s.r);
            if (!s.from.holds(from)) continue;
            const double v = s.values[from] + s.offset + price(k - 1, y) * static_cast<double>(t);
            if (v < best) best = v, next = enter(s, y, from), stop_kind = y, stop_t = t, launched = s.launched;
          }
        }
      }
      if (stop_kind >= 0) mark(launched, k - 1, stop_kind);
      tick_kind[static_cast<std::size_t>(k - 1)] = stop_kind;
      tick_held[static_cast<std::size_t>(k - 1)] = stop_t;
    } else {  // a launch at boundary k into region b
      const int b = node.region;
      if (node.id >= 0) {  // own class: from the start, region b (not the kind itself), or another region
        const int y = node.id;
        if (p == 0) break;
        best = value_at(k, P.idle_row(b), p);
        next = Node{Type::kIdle, b, k, p, b};
        for (int x : P.region_kinds[static_cast<std::size_t>(b)]) {
          const double v = value_at(k, P.held_row(x), p);
          if (x != y && v < best) best = v, next = Node{Type::kHeld, x, k, p, b};
        }
      }
      const int shared = node.id < 0 ? -1 - node.id : -1;
      for (const auto& cl : P.classes[static_cast<std::size_t>(b)]) {
        if ((node.id >= 0) != (cl.row < 0) || (shared >= 0 && cl.row != shared)) continue;
        for (int a : cl.from) {
          double v = 0.0;
          const Node pick = best_in_region(a, k, p, v);
          v += P.egress[static_cast<std::size_t>(a) * NR + b];
          if (v < best) best = v, next = pick, next.region = -1 - a;  // marks a move
        }
      }
      if (next.region < 0) {
        const int a = -1 - next.region;
        next.region = a;
        egress += P.egress[static_cast<std::size_t>(a) * NR + b];
        ++migrations;
      }
    }
    assert(best < kInfinity);
    node = next;
  }

  result.egress_cost = egress;
  result.migrations = migrations;
  for (std::size_t k = 0; k < tick_kind.size(); ++k) {
    const int y = tick_kind[k];
    result.schedule.push_back(y < 0 ? '.' : P.kind_spot[static_cast<std::size_t>(y)] ? 's' : 'D');
    result.schedule_zones.push_back(y < 0 ? -1 : P.kind_zone[static_cast<std::size_t>(y)]);
    result.schedule_held.push_back(y < 0 ? 0 : tick_held[k] * q);
    if (y < 0) continue;
    const std::int64_t billed = P.per_tick ? g : tick_held[k];
    const double cost = price(static_cast<std::int64_t>(k), y) * static_cast<double>(billed);
    (P.kind_spot[static_cast<std::size_t>(y)] ? result.spot_cost : result.on_demand_cost) += cost;
  }
  return result;
}

MigrationOptimum solve_migration_optimum(const MigrationOptimumRequest& request) {
  MigrationOptimumSolver solver;
  return solver.solve(request);
}

}  // namespace spotsim
