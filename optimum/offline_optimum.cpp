#include "optimum/offline_optimum.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <limits>
#include <numeric>

#include "base/errors.hpp"
#include "optimum/optimum_kernels.hpp"

namespace spotsim {
void validate_optimum_basics(const std::string& solver, const SpotMarket* market, Millis start, Millis tick,
                             Millis work, Millis changeover, Millis deadline, int nodes) {
  const auto reject = [&solver](const std::string& what) { throw InputError(solver + ": " + what); };
  const auto positive_finite = [&reject](Millis value, const char* name) {
    if (value <= 0 || value >= kNever) {
      reject(std::string(name) + " must be positive and finite, got " + std::to_string(value) + " ms");
    }
  };
  if (market == nullptr || market->zones.empty()) reject("the market has no zones");
  positive_finite(tick, "tick");
  positive_finite(work, "work");
  positive_finite(deadline, "deadline");
  if (changeover < 0 || changeover >= kNever) {
    reject("changeover must be >= 0 and finite, got " + std::to_string(changeover) + " ms");
  }
  if (start <= -kNever || start >= kNever) reject("start is out of range: " + std::to_string(start) + " ms");
  if (nodes < 1) reject("nodes must be >= 1, got " + std::to_string(nodes));
}

namespace {

using namespace optimum_kernels;  // Span and the kernels; kInfinity
constexpr int kIdle = 0;          // state 0: nothing held
// Held kinds: on-demand in the cheapest zone, then spot in zone kind - kFirstSpot.
constexpr int kOnDemand = 0;
constexpr int kFirstSpot = 1;
constexpr std::uint16_t kNoState = std::numeric_limits<std::uint16_t>::max();

// The state space is bounded (kMaxTicks in optimum_kernels.hpp; cells and back pointers here).
constexpr std::int64_t kMaxLayerCells = std::int64_t{1} << 24;
constexpr std::int64_t kMaxBackPointerBytes = std::int64_t{1} << 30;

[[noreturn]] void reject_offline(const std::string& what) { throw InputError("offline optimum: " + what); }

void validate_offline(const OfflineOptimumRequest& r) {
  validate_optimum_basics("offline optimum", r.market, r.start, r.tick, r.work, r.changeover, r.deadline, r.nodes);
}

}  // namespace

// The request in grid steps of q ms. States at a boundary: 0 nothing held, then per held kind its R changeover
// indices (state(kind, i): remaining changeover `remaining(i)`; index R - 1 is "changeover over").
struct OfflineOptimumSolver::Grid {
  Millis q = 1;
  std::int64_t g = 0, d = 0, w = 0, t = 0;  // tick, changeover, work, deadline
  int ticks = 0;                            // ticks that start before the deadline
  int held = 0;                             // held kinds: on-demand + zones
  int overheads = 1;                        // R: distinct remaining changeovers after a held tick
  int states = 0;                           // 1 + held * R
  int on_demand_zone = 0;
  bool per_tick = false;

  // Remaining changeover at a boundary for changeover index i: d - (i+1) g, clipped at 0.
  std::int64_t remaining(int i) const { return std::max<std::int64_t>(d - (i + 1) * g, 0); }
  std::int64_t work_in_tick(std::int64_t r) const { return std::max<std::int64_t>(g - r, 0); }
  int state(int kind, int i) const { return 1 + kind * overheads + i; }
  // The least progress at boundary k from which, with r changeover left, the deadline is still in reach.
  std::int64_t lowest(std::int64_t k, std::int64_t r) const { return std::max<std::int64_t>(0, w + r - (t - k * g)); }
};

struct OfflineOptimumSolver::Finish {
  double cost = kInfinity;
  int tick = -1;
  int kind = 0;
  int variant = 0;  // the changeover index of the state continued, or `overheads` for a launch
  std::int64_t p = 0;
};

Millis progress_grid(Millis tick, Millis changeover, Millis work, Millis deadline) {
  return std::gcd(std::gcd(tick, changeover), std::gcd(work, deadline));
}

bool billing_rules_cannot_bind(const OfflineOptimumRequest& request) {
  validate_offline(request);
  const Billing& billing = request.market->billing;
  const Millis q = progress_grid(request.tick, request.changeover, request.work, request.deadline);
  const Millis shortest_hold = request.per_tick_billing ? request.tick : std::min(request.tick, request.changeover + q);
  const Millis step = request.per_tick_billing ? request.tick : q;
  return shortest_hold >= billing.minimum && (billing.increment <= 1 || step % billing.increment == 0);
}

void OfflineOptimumSolver::prepare_ticks(const OfflineOptimumRequest& request, const Grid& grid) {
  const std::size_t kinds = static_cast<std::size_t>(grid.held);
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
  validate_offline(request);
  OfflineOptimum result;
  if (request.work + request.changeover > request.deadline) return result;  // not even on-demand from the start

  Grid grid;
  grid.q = progress_grid(request.tick, request.changeover, request.work, request.deadline);
  grid.g = request.tick / grid.q;
  grid.d = request.changeover / grid.q;
  grid.w = request.work / grid.q;
  grid.t = request.deadline / grid.q;
  grid.per_tick = request.per_tick_billing;
  const std::vector<Zone>& zones = request.market->zones;
  grid.held = kFirstSpot + static_cast<int>(zones.size());
  const std::int64_t ticks = ceil_div(grid.t, grid.g);
  const std::int64_t overheads = grid.d == 0 ? 1 : ceil_div(grid.d, grid.g);
  if (ticks > kMaxTicks) reject_offline("deadline / tick is too large: " + std::to_string(ticks) + " ticks");
  if (1 + overheads * grid.held >= kNoState) reject_offline("changeover / tick is too large");
  grid.ticks = static_cast<int>(ticks);
  grid.overheads = static_cast<int>(overheads);
  grid.states = 1 + grid.held * grid.overheads;
  if (grid.w > kMaxLayerCells / grid.states) {
    reject_offline("the progress grid is too fine: work / gcd(tick, changeover, work, deadline) = " +
                   std::to_string(grid.w) + " steps; round work and deadline to whole ticks or minutes");
  }
  for (std::size_t z = 1; z < zones.size(); ++z) {
    if (zones[z].on_demand_price_per_hour <
        zones[static_cast<std::size_t>(grid.on_demand_zone)].on_demand_price_per_hour) {
      grid.on_demand_zone = static_cast<int>(z);
    }
  }
  prepare_ticks(request, grid);

  Finish finish;
  if (request.want_schedule) {
    // Back-pointers: per boundary and progress value in the band, two switch sources (2 bytes each), the idle
    // state's origin (4 bytes, per-second billing) and one byte per held kind.
    const std::int64_t per_value = 4 + (grid.per_tick ? 0 : 4) + grid.held;
    std::int64_t values = 0;
    for (std::int64_t k = 0; k <= ticks; ++k) {
      values += std::max<std::int64_t>(0, std::min(grid.w - 1, k * grid.g) - grid.lowest(k, 0) + 1);
    }
    if (values > kMaxBackPointerBytes / per_value) reject_offline("the state space is too large for a schedule");
    const std::int64_t codes = 1 + grid.held * (overheads + 1) * grid.g;
    if (!grid.per_tick && codes > std::numeric_limits<std::uint32_t>::max()) {
      reject_offline("tick / gcd(tick, changeover, work, deadline) is too large for a schedule");
    }
    const std::size_t reserve = static_cast<std::size_t>(values);
    best_state_.clear();
    other_state_.clear();
    idle_from_.clear();
    held_from_.clear();
    best_state_.reserve(reserve);
    other_state_.reserve(reserve);
    if (!grid.per_tick) idle_from_.reserve(reserve);
    held_from_.reserve(reserve * static_cast<std::size_t>(grid.held));
    boundary_index_.assign(static_cast<std::size_t>(ticks) + 1, BoundaryIndex{});
    held_index_.assign((static_cast<std::size_t>(ticks) + 1) * static_cast<std::size_t>(grid.held), HeldIndex{});
    sweep<true>(grid, finish);
  } else {
    sweep<false>(grid, finish);
  }
  if (finish.tick < 0) return result;  // cannot happen: on-demand from the start fits (checked above)
  result.feasible = true;
  result.cost = finish.cost;
  const std::int64_t r = finish.variant == grid.overheads ? grid.d : grid.remaining(finish.variant);
  result.finish = (finish.tick * grid.g + r + grid.w - finish.p) * grid.q;
  if (request.want_schedule) reconstruct(grid, finish, result);
  return result;
}

template <bool kTrack>
void OfflineOptimumSolver::sweep(const Grid& grid, Finish& finish) {
  const int H = grid.held, R = grid.overheads;
  const int rows = 1 + H;  // stored per boundary: nothing held, and per kind the state with the changeover over
  const std::int64_t W = grid.w, g = grid.g, d = grid.d, T = grid.t;
  const std::size_t width = static_cast<std::size_t>(W);
  values_.resize(2 * static_cast<std::size_t>(rows) * width);
  spans_.resize(4 * static_cast<std::size_t>(rows));
  // The states still in their changeover are launches of the last R - 1 ticks, priced on the way: a ring of the
  // launch arrays of the last R ticks (the current one included) instead of copies.
  launch_.resize(static_cast<std::size_t>(R * H) * width);
  launch_spans_.resize(2 * static_cast<std::size_t>(R));
  scratch_.resize(width);
  virtual_.resize(width + static_cast<std::size_t>(g));
  queue_position_.resize(width + static_cast<std::size_t>(g) + 2);
  queue_value_.resize(width + static_cast<std::size_t>(g) + 2);

  auto row = [&](int layer, int r) { return values_.data() + static_cast<std::size_t>(layer * rows + r) * width; };
  auto span_of = [&](int layer, int r) {
    const std::size_t at = 2 * static_cast<std::size_t>(layer * rows + r);
    return Span{spans_[at], spans_[at + 1]};
  };
  auto set_span = [&](int layer, int r, Span span) {
    const std::size_t at = 2 * static_cast<std::size_t>(layer * rows + r);
    spans_[at] = span.lo;
    spans_[at + 1] = span.hi;
  };
  auto launch = [&](std::int64_t tick, int kind) {
    return launch_.data() + static_cast<std::size_t>((tick % R) * H + kind) * width;
  };
  auto launch_span = [&](std::int64_t tick) {
    const std::size_t at = 2 * static_cast<std::size_t>(tick % R);
    return Span{launch_spans_[at], launch_spans_[at + 1]};
  };
  double* const scratch = scratch_.data();
  double* const u = virtual_.data() + g;  // u[x] for x >= -g
  positions_.resize(width + static_cast<std::size_t>(g));
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    positions_[i] = static_cast<double>(static_cast<std::int64_t>(i) - g);
  }
  const double* const position = positions_.data() + g;  // position[x] = x for x >= -g

  for (int layer = 0; layer < 2; ++layer) {
    for (int r = 0; r < rows; ++r) set_span(layer, r, Span{});
  }
  set_span(0, kIdle, {0, 0});
  row(0, kIdle)[0] = 0.0;  // boundary 0: nothing held, no progress

  // Sources of partial stops per held kind: the state with the changeover over, the one in its last changeover
  // tick, and (d < g) a launch; each with its remaining changeover r.
  struct StopSource {
    const double* src = nullptr;
    Span from;
    std::int64_t r = 0;
    double offset = 0.0;
    int variant = 0;
  };
  struct KindStops {
    int kind = 0;
    double c = 0.0;
    int count = 0;
    StopSource sources[3];
    std::size_t runs_begin = 0, runs_end = 0;  // its runs in `runs`
  };
  std::vector<KindStops> stops;
  std::vector<Span> runs, kind_runs;
  stops.reserve(static_cast<std::size_t>(H));
  const bool partial_stops = !grid.per_tick && g >= 2;
  const std::int64_t reach = g - 1;

  for (int k = 0; k < grid.ticks; ++k) {
    const int cur = k & 1, nxt = cur ^ 1;
    const std::int64_t now = k * g;
    for (int r = 0; r < rows; ++r) set_span(nxt, r, Span{});

    // Switch sources at boundary k: nothing held, or a kind with its changeover over (see the header), where
    // the deadline can still be met after a new changeover.
    Span m{grid.lowest(k, d), -1};
    {
      std::int64_t low = W;
      for (int r = 0; r < rows; ++r) {
        const Span span = span_of(cur, r);
        if (span.empty()) continue;
        low = std::min(low, span.lo);
        m.hi = std::max(m.hi, span.hi);
      }
      m.lo = std::max(m.lo, low);
    }
    {
      const std::size_t at = 2 * static_cast<std::size_t>(k % R);
      launch_spans_[at] = m.lo;
      launch_spans_[at + 1] = m.hi;
    }
    const Span idle_keep{grid.lowest(k + 1, d), W - 1};
    const Span released = meet(m, idle_keep);  // idle at k + 1 by releasing at the boundary
    double* const idle_next = row(nxt, kIdle);
    if (!m.empty()) {
      // launch(k, X)[p]: the cheapest state at p not holding X; idle_next: the cheapest of all.
      if constexpr (kTrack) {
        BoundaryIndex& index = boundary_index_[static_cast<std::size_t>(k)];
        index.switch_low = m.lo;
        index.switch_offset = static_cast<std::int64_t>(best_state_.size());
        best_state_.resize(best_state_.size() + static_cast<std::size_t>(m.size()));
        other_state_.resize(best_state_.size());
        // Per row: its values, span and state; per kind: its launch array.
        sources_.resize(static_cast<std::size_t>(rows));
        for (int r = 0; r < rows; ++r) {
          const Span span = span_of(cur, r);
          sources_[static_cast<std::size_t>(r)] = {row(cur, r), span.lo, span.hi,
                                                   r == 0 ? kIdle : grid.state(r - 1, R - 1)};
        }
        launches_.resize(static_cast<std::size_t>(H));
        for (int kind = 0; kind < H; ++kind) launches_[static_cast<std::size_t>(kind)] = launch(k, kind);
        std::uint16_t* const best_states = best_state_.data() + index.switch_offset;  // [p - m.lo]
        std::uint16_t* const other_states = other_state_.data() + index.switch_offset;
        for (std::int64_t p = m.lo; p <= m.hi; ++p) {
          // The cheapest and second cheapest row, without branches (their outcome is data, not pattern).
          double best = kInfinity, other = kInfinity;
          int best_state = kNoState, other_state = kNoState;
          for (const RowSource& source : sources_) {
            const double value = p >= source.low && p <= source.high ? source.values[p] : kInfinity;
            const bool first = value < best, second = !first && value < other;
            other_state = first ? best_state : second ? source.state : other_state;
            other = first ? best : second ? value : other;
            best_state = first ? source.state : best_state;
            best = first ? value : best;
          }
          for (int kind = 0; kind < H; ++kind) {
            launches_[static_cast<std::size_t>(kind)][p] = best_state == grid.state(kind, R - 1) ? other : best;
          }
          if (released.holds(p)) idle_next[p] = best;
          best_states[p - m.lo] = static_cast<std::uint16_t>(best_state);
          other_states[p - m.lo] = static_cast<std::uint16_t>(other_state);
        }
      } else {
        // Prefix minima (nothing held, kinds below X), then suffix minima (kinds above X).
        assign(launch(k, 0), m, row(cur, kIdle), span_of(cur, kIdle));
        for (int kind = 1; kind < H; ++kind) {
          min_of_partial(launch(k, kind), launch(k, kind - 1), m, row(cur, kind), span_of(cur, kind));
        }
        if (!released.empty()) {
          min_of_partial(idle_next, launch(k, H - 1), released, row(cur, H), span_of(cur, H));
        }
        const double* suffix = nullptr;
        Span suffix_span;
        for (int kind = H - 2; kind >= 0; --kind) {
          const int r = 2 + kind;  // the row of kind + 1
          if (suffix == nullptr) {
            suffix = row(cur, r);
            suffix_span = span_of(cur, r);
          } else {
            if (suffix != scratch) {
              assign(scratch, m, suffix, suffix_span);
              suffix = scratch;
              suffix_span = m;
            }
            min_into(scratch, row(cur, r), meet(m, span_of(cur, r)));
          }
          min_into(launch(k, kind), suffix, meet(m, suffix_span));
        }
      }
    }

    const double* price = unit_price_.data() + static_cast<std::size_t>(k) * static_cast<std::size_t>(H);
    const std::uint8_t* allowed = allowed_.data() + static_cast<std::size_t>(k) * static_cast<std::size_t>(H);
    // Holding the kind through tick k from progress p (value src[p] + offset) with r changeover left finishes
    // inside the tick.
    auto finish_from = [&](const double* src, Span from, std::int64_t r, double offset, int kind, int variant) {
      if (r >= g) return;
      const double c = price[kind];
      const Span done = meet(from, Span{std::max(W - (g - r), W + r + now - T), W - 1});
      for (std::int64_t p = done.lo; p <= done.hi; ++p) {
        const std::int64_t held = grid.per_tick ? g : r + W - p;
        const double cost = (src[p] + offset) + c * static_cast<double>(held);
        if (cost < finish.cost) finish = Finish{cost, k, kind, variant, p};
      }
    };
    stops.clear();
    for (int kind = 0; kind < H; ++kind) {
      if (!allowed[kind]) continue;  // spot unavailable this tick: its states are lost
      const double c = price[kind];
      const double tick_cost = c * static_cast<double>(g);
      const int top = 1 + kind;
      const Span top_span = span_of(cur, top);
      // The state in its last changeover tick (R >= 2): launched at k - R + 1, held since, no work yet.
      const double* before = nullptr;
      Span before_span;
      double before_offset = 0.0;
      if (R >= 2 && k >= R - 1) {
        bool held = true;
        for (int j = k - R + 1; j < k; ++j) {
          const std::size_t at = static_cast<std::size_t>(j * H + kind);
          held = held && allowed_[at] != 0;
          before_offset += unit_price_[at] * static_cast<double>(g);
        }
        if (held) {
          before = launch(k - R + 1, kind);
          before_span = launch_span(k - R + 1);
        }
      }
      finish_from(launch(k, kind), m, d, 0.0, kind, R);
      if (before != nullptr) finish_from(before, before_span, grid.remaining(R - 2), before_offset, kind, R - 2);
      finish_from(row(cur, top), top_span, 0, 0.0, kind, R - 1);

      // Hold it through the tick into the state with the changeover over: from a launch (R = 1) or the state in
      // its last changeover tick, and from itself.
      {
        const Span keep{grid.lowest(k + 1, 0), W - 1};
        const double* src = R == 1 ? launch(k, kind) : before;
        const Span from = R == 1 ? m : before_span;
        const std::int64_t by = grid.work_in_tick(R == 1 ? d : grid.remaining(R - 2));
        const double add = R == 1 ? tick_cost : before_offset + tick_cost;
        const Span first = src == nullptr ? Span{} : meet(shifted(from, by), keep);
        const Span self = meet(shifted(top_span, g), keep);
        const Span out = hull(first, self);
        if (!out.empty()) {
          double* const dst = row(nxt, top);
          if constexpr (kTrack) {
            assign_shifted(dst, out, src, first.empty() ? Span{} : from, by, add);
            HeldIndex& index = held_index_[static_cast<std::size_t>((k + 1) * H + kind)];
            index.low = out.lo;
            index.offset = static_cast<std::int64_t>(held_from_.size());
            held_from_.resize(held_from_.size() + static_cast<std::size_t>(out.size()), 0);
            min_add_shifted_tracked<std::uint8_t>(dst, row(cur, top), g, tick_cost, self,
                                                  held_from_.data() + index.offset, out.lo, 1);
          } else {
            assign_min_shifted(dst, out, src, first.empty() ? Span{} : from, by, add, row(cur, top), top_span, g,
                               tick_cost);
          }
          set_span(nxt, top, out);
        }
      }
      if (!partial_stops) continue;
      KindStops entry;
      entry.kind = kind;
      entry.c = c;
      auto add_source = [&](const double* src, Span from, std::int64_t r, double offset, int variant) {
        if (src != nullptr && !from.empty() && r <= g - 2) {
          entry.sources[entry.count++] = {src, from, r, offset, variant};
        }
      };
      add_source(row(cur, top), top_span, 0, 0.0, R - 1);
      if (R >= 2) add_source(before, before_span, grid.remaining(R - 2), before_offset, R - 2);
      if (R == 1) add_source(launch(k, kind), m, d, 0.0, R);
      if (entry.count > 0) stops.push_back(entry);
    }

    // Idle at k + 1: released at the boundary, or after a partial stop. Without the schedule, the partial stops of
    // one kind share one window: a source with r > 0 then also offers holds t <= r, which do no work but are booked
    // as r - t steps less progress than the state has; releasing it at the boundary instead (which the DP offers)
    // is cheaper and keeps more progress, so these never make anything cheaper and the optimum is unchanged.
    auto xs_of = [](const StopSource& source) { return shifted(source.from, -source.r); };
    auto out_of = [&](Span xs, std::int64_t lag) { return meet(Span{xs.lo + 1 + lag, xs.hi + reach}, idle_keep); };
    Span idle_span = released;
    for (const KindStops& entry : stops) {
      for (int i = 0; i < entry.count; ++i) {
        const StopSource& source = entry.sources[i];
        idle_span = hull(idle_span, out_of(xs_of(source), kTrack ? source.r : 0));
      }
    }
    if (!idle_span.empty()) {
      if (released.empty()) {
        fill(idle_next, idle_span, kInfinity);
      } else {
        fill(idle_next, {idle_span.lo, released.lo - 1}, kInfinity);
        fill(idle_next, {released.hi + 1, idle_span.hi}, kInfinity);
      }
      std::uint32_t* tags = nullptr;
      if constexpr (kTrack) {
        if (!grid.per_tick) {
          BoundaryIndex& index = boundary_index_[static_cast<std::size_t>(k) + 1];
          index.idle_low = idle_span.lo;
          index.idle_offset = static_cast<std::int64_t>(idle_from_.size());
          idle_from_.resize(idle_from_.size() + static_cast<std::size_t>(idle_span.size()), 0);
          tags = idle_from_.data() + index.idle_offset;
        }
      }
      // Where each kind's partial stops can matter, from the release values before any partial stop is applied
      // (so that the schedule and the cost-only solve decide alike).
      runs.clear();
      for (KindStops& entry : stops) {
        Span xs;
        for (int i = 0; i < entry.count; ++i) xs = hull(xs, xs_of(entry.sources[i]));
        entry.runs_begin = runs.size();
        partial_stop_runs(idle_next, released, out_of(xs, 0), reach, entry.c, kind_runs);
        runs.insert(runs.end(), kind_runs.begin(), kind_runs.end());
        entry.runs_end = runs.size();
      }
      for (const KindStops& entry : stops) {
        for (std::size_t at = entry.runs_begin; at < entry.runs_end; ++at) {
          const Span run = runs[at];
          if constexpr (kTrack) {
            for (int i = 0; i < entry.count; ++i) {
              const StopSource& source = entry.sources[i];
              const Span xs = xs_of(source), out = meet(run, out_of(xs, source.r));
              if (out.empty()) continue;
              virtual_costs(u, source.src, position, source.r, source.offset, entry.c,
                            meet(xs, {out.lo - reach, out.hi - 1 - source.r}), true);
              const auto code = static_cast<std::uint32_t>(1 + (entry.kind * (R + 1) + source.variant) * g);
              sliding_partial_stop<true>(u, xs, source.r, reach, entry.c, out, idle_next, queue_position_.data(),
                                         queue_value_.data(), tags, idle_span.lo, code);
            }
          } else {
            Span xs;
            for (int i = 0; i < entry.count; ++i) xs = hull(xs, xs_of(entry.sources[i]));
            const Span needed = meet(xs, {run.lo - reach, run.hi - 1});
            for (int i = 0; i < entry.count; ++i) {
              const StopSource& source = entry.sources[i];
              const Span own = meet(xs_of(source), needed);
              if (i == 0) {
                fill(u, {needed.lo, std::min(own.lo - 1, needed.hi)}, kInfinity);
                fill(u, {std::max(own.hi + 1, needed.lo), needed.hi}, kInfinity);
              }
              virtual_costs(u, source.src, position, source.r, source.offset, entry.c, own, i == 0);
            }
            sliding_partial_stop<false>(u, xs, 0, reach, entry.c, run, idle_next, queue_position_.data(),
                                        queue_value_.data(), nullptr, 0, 0);
          }
        }
      }
    }
    set_span(nxt, kIdle, idle_span);
  }
}

void OfflineOptimumSolver::reconstruct(const Grid& grid, const Finish& finish, OfflineOptimum& result) {
  const int R = grid.overheads, H = grid.held;
  const std::int64_t g = grid.g;
  std::vector<int>& kinds = tick_kinds_;
  std::vector<std::int64_t>& held = tick_held_;
  kinds.assign(static_cast<std::size_t>(finish.tick) + 1, -1);
  held.assign(kinds.size(), 0);
  const std::int64_t finish_r = finish.variant == R ? grid.d : grid.remaining(finish.variant);
  kinds.back() = finish.kind;
  held.back() = finish_r + grid.w - finish.p;

  auto kind_of = [&](int state) { return state == kIdle ? -1 : (state - 1) / R; };
  auto switch_at = [&](int boundary, std::int64_t p) {
    const BoundaryIndex& index = boundary_index_[static_cast<std::size_t>(boundary)];
    assert(p >= index.switch_low);
    return static_cast<std::size_t>(index.switch_offset + (p - index.switch_low));
  };
  // The state a launch of `kind` at `boundary` started from.
  auto launched_from = [&](int boundary, std::int64_t p, int kind) -> int {
    const std::size_t at = switch_at(boundary, p);
    return kind_of(best_state_[at]) == kind ? other_state_[at] : best_state_[at];
  };
  std::int64_t p = finish.p;
  int state =
      finish.variant == R ? launched_from(finish.tick, p, finish.kind) : grid.state(finish.kind, finish.variant);
  for (int k = finish.tick; k > 0; --k) {  // state at boundary k; find tick k - 1 and the state at boundary k - 1
    const std::size_t previous = static_cast<std::size_t>(k) - 1;
    if (state == kIdle) {
      std::uint32_t code = 0;
      if (!grid.per_tick) {
        const BoundaryIndex& index = boundary_index_[static_cast<std::size_t>(k)];
        code = idle_from_[static_cast<std::size_t>(index.idle_offset + (p - index.idle_low))];
      }
      if (code == 0) {  // released at the boundary (or nothing held): from the cheapest switch source
        state = best_state_[switch_at(k - 1, p)];
        continue;
      }
      const std::int64_t t = (code - 1) % static_cast<std::uint32_t>(g);
      const std::int64_t source = (code - 1) / static_cast<std::uint32_t>(g);
      const int kind = static_cast<int>(source / (R + 1)), variant = static_cast<int>(source % (R + 1));
      const std::int64_t r = variant == R ? grid.d : grid.remaining(variant);
      kinds[previous] = kind;
      held[previous] = t;
      p -= t - r;
      state = variant == R ? launched_from(k - 1, p, kind) : grid.state(kind, variant);
      continue;
    }
    const int kind = kind_of(state), j = (state - 1) % R;
    kinds[previous] = kind;
    held[previous] = g;
    if (j == R - 1) {
      const HeldIndex& index = held_index_[static_cast<std::size_t>(k * H + kind)];
      if (held_from_[static_cast<std::size_t>(index.offset + (p - index.low))] == 1) {
        p -= g;  // continued with the changeover over
        continue;
      }
    }
    if (j == 0) {
      p -= grid.work_in_tick(grid.d);
      state = launched_from(k - 1, p, kind);
    } else {
      p -= grid.work_in_tick(grid.remaining(j - 1));
      state = state - 1;
    }
  }
  assert(p == 0 && state == kIdle);

  result.spot_cost = 0.0;
  result.on_demand_cost = 0.0;
  result.schedule.clear();
  result.schedule_zones.clear();
  result.schedule_held.clear();
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const int kind = kinds[k];
    result.schedule.push_back(kind < 0 ? '.' : kind == kOnDemand ? 'D' : 's');
    result.schedule_zones.push_back(kind < 0 ? -1 : kind == kOnDemand ? grid.on_demand_zone : kind - kFirstSpot);
    result.schedule_held.push_back(kind < 0 ? 0 : held[k] * grid.q);
    if (kind < 0) continue;
    const std::int64_t billed = grid.per_tick ? g : held[k];
    const double cost =
        unit_price_[k * static_cast<std::size_t>(H) + static_cast<std::size_t>(kind)] * static_cast<double>(billed);
    (kind == kOnDemand ? result.on_demand_cost : result.spot_cost) += cost;
  }
}

OfflineOptimum solve_offline_optimum(const OfflineOptimumRequest& request) {
  OfflineOptimumSolver solver;
  return solver.solve(request);
}

}  // namespace spotsim
