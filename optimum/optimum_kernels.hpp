#pragma once
// The array kernels of the offline optimum's dynamic programme (optimum/offline_optimum.cpp): closed progress ranges
// (Span), the element-wise shifted adds and minima of one tick's transitions, and the sliding-window minimum of
// partial stops. Plain loops over contiguous arrays that the compiler vectorises; nothing here knows the model.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace spotsim::optimum_kernels {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A needlessly fine grid fails with a clear message instead of exhausting memory: no solver takes more ticks.
constexpr std::int64_t kMaxTicks = std::int64_t{1} << 22;

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// A closed range of progress values; empty when lo > hi.
struct Span {
  std::int64_t lo = 0;
  std::int64_t hi = -1;
  bool empty() const { return lo > hi; }
  std::int64_t size() const { return empty() ? 0 : hi - lo + 1; }
  bool holds(std::int64_t p) const { return p >= lo && p <= hi; }
};
inline Span meet(Span a, Span b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }
inline Span shifted(Span a, std::int64_t by) { return a.empty() ? a : Span{a.lo + by, a.hi + by}; }
inline Span hull(Span a, Span b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

// The element-wise kernels: plain loops over contiguous arrays, which the compiler vectorises (a < b ? a : b is
// exactly the SIMD minimum). Every transition of the DP is one of these, with one shift for the whole array.
inline void fill(double* dst, Span on, double value) {
  for (std::int64_t p = on.lo; p <= on.hi; ++p) dst[p] = value;
}
inline void copy(double* __restrict dst, const double* __restrict src, Span on) {
  for (std::int64_t p = on.lo; p <= on.hi; ++p) dst[p] = src[p];
}
inline void add_shifted(double* __restrict dst, const double* __restrict src, std::int64_t by, double add, Span on) {
  for (std::int64_t p = on.lo; p <= on.hi; ++p) dst[p] = src[p - by] + add;
}
inline void min_into(double* __restrict dst, const double* __restrict src, Span on) {
  for (std::int64_t p = on.lo; p <= on.hi; ++p) dst[p] = src[p] < dst[p] ? src[p] : dst[p];
}
inline void min_of(double* __restrict dst, const double* __restrict a, const double* __restrict b, Span on) {
  for (std::int64_t p = on.lo; p <= on.hi; ++p) dst[p] = b[p] < a[p] ? b[p] : a[p];
}
inline void min_add_shifted(double* __restrict dst, const double* __restrict src, std::int64_t by, double add,
                            Span on) {
  for (std::int64_t p = on.lo; p <= on.hi; ++p) {
    const double value = src[p - by] + add;
    dst[p] = value < dst[p] ? value : dst[p];
  }
}
// The same, recording `tag` (indexed from tags_low) where the source is strictly cheaper.
template <typename Tag>
inline void min_add_shifted_tracked(double* dst, const double* src, std::int64_t by, double add, Span on, Tag* tags,
                                    std::int64_t tags_low, Tag tag) {
  for (std::int64_t p = on.lo; p <= on.hi; ++p) {
    const double value = src[p - by] + add;
    if (value < dst[p]) {
      dst[p] = value;
      tags[p - tags_low] = tag;
    }
  }
}

// dst over `to` = src[p - by] + add where the source is kept (src over `from`), +inf elsewhere.
inline void assign_shifted(double* dst, Span to, const double* src, Span from, std::int64_t by, double add) {
  const Span both = meet(to, shifted(from, by));
  if (both.empty()) return fill(dst, to, kInfinity);
  fill(dst, {to.lo, both.lo - 1}, kInfinity);
  add_shifted(dst, src, by, add, both);
  fill(dst, {both.hi + 1, to.hi}, kInfinity);
}
// dst over `to` = min(a[p - a_by] + a_add, b[p - b_by] + b_add), each where its source is kept, +inf where
// neither is: the two ways into a state in one pass where they overlap.
inline void assign_min_shifted(double* dst, Span to, const double* a, Span a_from, std::int64_t a_by, double a_add,
                               const double* b, Span b_from, std::int64_t b_by, double b_add) {
  const Span a_to = meet(to, shifted(a_from, a_by)), b_to = meet(to, shifted(b_from, b_by));
  const Span both = meet(a_to, b_to);
  if (both.empty()) {
    assign_shifted(dst, to, a, a_to.empty() ? Span{} : a_from, a_by, a_add);
    if (!b_to.empty()) min_add_shifted(dst, b, b_by, b_add, b_to);
    return;
  }
  for (const Span side : {Span{to.lo, both.lo - 1}, Span{both.hi + 1, to.hi}}) {
    if (side.empty()) continue;
    assign_shifted(dst, side, a, a_from, a_by, a_add);
    const Span b_side = meet(side, b_to);
    if (!b_side.empty()) min_add_shifted(dst, b, b_by, b_add, b_side);
  }
  for (std::int64_t p = both.lo; p <= both.hi; ++p) {
    const double first = a[p - a_by] + a_add, second = b[p - b_by] + b_add;
    dst[p] = second < first ? second : first;
  }
}
// dst over `to` = src where kept, +inf elsewhere.
inline void assign(double* dst, Span to, const double* src, Span from) {
  const Span both = meet(to, from);
  if (both.empty()) return fill(dst, to, kInfinity);
  fill(dst, {to.lo, both.lo - 1}, kInfinity);
  copy(dst, src, both);
  fill(dst, {both.hi + 1, to.hi}, kInfinity);
}
// dst over `to` = min(a, src where kept); a is complete over `to`.
inline void min_of_partial(double* dst, const double* a, Span to, const double* src, Span from) {
  const Span both = meet(to, from);
  if (both.empty()) return copy(dst, a, to);
  copy(dst, a, {to.lo, both.lo - 1});
  min_of(dst, a, src, both);
  copy(dst, a, {both.hi + 1, to.hi});
}

// Partial stops (per-second billing), in "virtual progress" x = p - r: a state with r changeover left at progress p
// counts as x. Holding it for t in (r, g) steps and releasing it takes it to p' = x + t at cost t c = (p' - x) c,
// so with u[x] = value - x c the candidate is u[x] + p' c, for x in [p' - (g - 1), p' - 1 - r].
// u[x] = src[x + r] + offset - x c over xs (the source's span shifted by -r); `first`: assign, else keep the minimum.
// position[x] = x as a double (a table, so that the loop vectorises).
inline void virtual_costs(double* __restrict u, const double* __restrict src, const double* __restrict position,
                          std::int64_t r, double offset, double c, Span xs, bool first) {
  if (first) {
    for (std::int64_t x = xs.lo; x <= xs.hi; ++x) u[x] = src[x + r] + offset - position[x] * c;
  } else {
    for (std::int64_t x = xs.lo; x <= xs.hi; ++x) {
      const double value = src[x + r] + offset - position[x] * c;
      u[x] = value < u[x] ? value : u[x];
    }
  }
}

// idle[p] = min(idle[p], (min over x in [p - reach, p - 1 - lag] of u[x]) + p c) for p in `out`, u kept over xs:
// a sliding-window minimum in a monotone deque (positions and values increasing), each x entering and leaving it
// once, so linear in the span. The deque lives in queue_*[head, tail), with a -inf sentinel at head - 1.
template <bool kTrack>
inline void sliding_partial_stop(const double* u, Span xs, std::int64_t lag, std::int64_t reach, double c, Span out,
                                 double* idle, std::int64_t* queue_position, double* queue_value, std::uint32_t* tags,
                                 std::int64_t tags_low, std::uint32_t code) {
  std::int64_t head = 1, tail = 1;
  queue_value[0] = -kInfinity;
  std::int64_t next = std::max(xs.lo, out.lo - reach);  // nothing before it can serve `out`
  double p_value = static_cast<double>(out.lo);
  for (std::int64_t p = out.lo; p <= out.hi; ++p, p_value += 1.0) {
    for (const std::int64_t last = std::min(p - 1 - lag, xs.hi); next <= last; ++next) {
      const double value = u[next];
      while (queue_value[tail - 1] >= value) --tail;
      queue_position[tail] = next;
      queue_value[tail] = value;
      ++tail;
    }
    // The window's left end moves by one per p, so at most one position leaves it.
    if (head < tail && queue_position[head] < p - reach) queue_value[head++] = -kInfinity;
    if (head == tail) continue;
    const double value = queue_value[head] + p_value * c;
    if constexpr (kTrack) {
      if (value < idle[p]) {
        idle[p] = value;
        tags[p - tags_low] = code + static_cast<std::uint32_t>(p - queue_position[head]);
      }
    } else {
      idle[p] = value < idle[p] ? value : idle[p];
    }
  }
}

// Where partial stops of a kind priced c per step can lower idle at all. Every source of a partial stop is worth
// at least the release value v[p] at its progress p (a state with its changeover over is one of the states
// released; a launch costs at least the cheapest of them; a state still in its changeover at least what releasing
// it at its launch cost, see the header), so a partial stop from p to p' costs at least v[p] + (p' - p) c, which
// is >= v[p'] when v rises by at most c per step over (p, p']. So only p' of `out` within `reach` after a rise
// of more than c (plus a rounding margin, relative to v and divided by reach so that what it can hide stays below
// 1e-12 v), or with sources outside `released`, are kept: runs, increasing, merged when closer than `reach`.
constexpr double kRiseMargin = 1e-12;

// Whether v[a] - v[a - 1] > c + margin v[a - 1] for some a in [first, last]. Two lanes at a time with the
// compiler's vector extension (GCC and Clang; SSE2 on x86-64): the plain loop is not vectorised, as SSE2 has no
// reduction of comparison masks.
inline bool any_rise(const double* v, std::int64_t first, std::int64_t last, double c, double margin) {
  using Lanes = double __attribute__((vector_size(16)));
  const Lanes cs = {c, c}, margins = {margin, margin};
  auto rises = Lanes{} > Lanes{};  // all false, in the compiler's mask type
  std::int64_t a = first;
  for (; a + 1 <= last; a += 2) {
    Lanes now, before;
    std::memcpy(&now, v + a, sizeof now);
    std::memcpy(&before, v + a - 1, sizeof before);
    rises |= (now - before) > cs + margins * before;
  }
  bool any = (rises[0] | rises[1]) != 0;
  for (; a <= last; ++a) any = any || v[a] - v[a - 1] > c + margin * v[a - 1];
  return any;
}

inline void partial_stop_runs(const double* v, Span released, Span out, std::int64_t reach, double c,
                              std::vector<Span>& runs) {
  runs.clear();
  auto add = [&](std::int64_t lo, std::int64_t hi) {
    const Span run = meet({lo, hi}, out);
    if (run.empty()) return;
    if (!runs.empty() && run.lo <= runs.back().hi + reach) {
      runs.back().hi = std::max(runs.back().hi, run.hi);
    } else {
      runs.push_back(run);
    }
  };
  if (released.empty()) return add(out.lo, out.hi);
  add(out.lo, released.lo + reach - 1);
  const double margin = kRiseMargin / static_cast<double>(reach);
  const std::int64_t first = std::max(released.lo + 1, out.lo - reach + 1), last = std::min(released.hi, out.hi);
  // By blocks: a block with a rise keeps every position it reaches (a few more than needed, no scalar scan).
  // (inf - inf = NaN is no rise: the first infinite value after a finite one is a rise.)
  constexpr std::int64_t kBlock = 16;
  for (std::int64_t block = first; block <= last; block += kBlock) {
    const std::int64_t end = std::min(last, block + kBlock - 1);
    if (any_rise(v, block, end, c, margin)) add(block, end + reach - 1);
  }
  add(released.hi + 1, out.hi);
}

}  // namespace spotsim::optimum_kernels
