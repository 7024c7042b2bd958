#pragma once
// The event engine's cost ledger (RunResult::ledger_*, docs/outputs.md): where each dollar of a run went -- compute
// kept, compute thrown away by preemptions, start-up, restore, checkpoint writes, transfers, idle, billing rounding.
//
// A held instance's time per phase is priced when it is released, at a constant price, from the phase times the
// engine keeps anyway: nothing is added per event. A spot price that varies is integrated per phase stretch
// instead, compute being held as "uncommitted" until a checkpoint saves it or a preemption throws it away.
#include <array>
#include <cstddef>

#include "base/time.hpp"
#include "model/market/step_series.hpp"
#include "model/observation.hpp"
#include "model/run_result.hpp"

namespace spotsim {

// The engine's wall time spent in each Phase so far.
using PhaseTimes = std::array<Millis, 8>;

class CostLedger {
 public:
  // A replication starts: nothing booked, nothing held.
  void reset();

  // An instance is acquired when the engine's phase times are `phase_time`: at `price_per_ms` USD for all its
  // nodes, or, when `varying_price` is not null, at that spot price series for `nodes` instances.
  void acquire(double price_per_ms, const StepSeries* varying_price, int nodes, const PhaseTimes& phase_time);
  bool price_varies() const { return varying_price_ != nullptr; }
  // What the held instance has cost from `acquired` to `t` at its price, and costs per ms at `t` (budgets).
  double held_cost(Millis acquired, Millis t) const;
  double rate_per_ms(Millis t) const;

  // A stretch of phase `left` from `from` to `to` ended on an instance whose price varies: its integral, booked to
  // the phase, or to compute (saved as it is made when `continuous`, else uncommitted until a checkpoint).
  void book_varying_stretch(Phase left, Millis from, Millis to, bool continuous, RunResult& result);
  // Compute made so far is saved (a checkpoint done, the work finished, a stopped trial's rung).
  void commit(RunResult& result);
  // Compute not saved by a checkpoint (`lost` of it) is thrown away: a preemption, a move without a checkpoint,
  // giving up. Before the instance is released.
  void discard(Millis lost, RunResult& result);
  // The held instance is released, `billed` USD for it: at a constant price its time in each phase since it was
  // acquired, compute split into what was thrown away and what counted; whatever the bill holds beyond that is
  // billing rounding.
  void release(double billed, const PhaseTimes& phase_time, RunResult& result);
  // The run's ledger per phase, at its end.
  void finish(RunResult& result) const;

 private:
  double price_per_ms_ = 0.0;
  const StepSeries* varying_price_ = nullptr;
  int nodes_ = 1;
  double instance_booked_ = 0.0;
  double uncommitted_cost_ = 0.0;
  PhaseTimes instance_phase_start_{};  // the phase times when the held instance was acquired
  Millis instance_lost_ = 0;           // its compute thrown away
  std::array<double, 8> phase_cost_{};
};

}  // namespace spotsim
