#include "engine/cost_ledger.hpp"

namespace spotsim {

void CostLedger::reset() {
  instance_booked_ = uncommitted_cost_ = 0.0;
  varying_price_ = nullptr;
  phase_cost_ = {};
}

void CostLedger::acquire(double price_per_ms, const StepSeries* varying_price, int nodes,
                         const PhaseTimes& phase_time) {
  varying_price_ = varying_price;
  price_per_ms_ = price_per_ms;
  nodes_ = nodes;
  instance_booked_ = 0.0;
  instance_phase_start_ = phase_time;
  instance_lost_ = 0;
}

double CostLedger::held_cost(Millis acquired, Millis t) const {
  if (varying_price_ != nullptr) return nodes_ * varying_price_->integrate_hours(acquired, t);
  return price_per_ms_ * static_cast<double>(t - acquired);
}

double CostLedger::rate_per_ms(Millis t) const {
  if (varying_price_ != nullptr) return nodes_ * varying_price_->at(t) / static_cast<double>(kMillisPerHour);
  return price_per_ms_;
}

void CostLedger::book_varying_stretch(Phase left, Millis from, Millis to, bool continuous, RunResult& result) {
  const double cost = nodes_ * varying_price_->integrate_hours(from, to);
  instance_booked_ += cost;
  if (left != Phase::kComputing) {
    phase_cost_[static_cast<std::size_t>(left)] += cost;
  } else if (continuous) {
    result.ledger_compute += cost;  // saved as it is made
  } else {
    uncommitted_cost_ += cost;
  }
}

void CostLedger::commit(RunResult& result) {
  result.ledger_compute += uncommitted_cost_;
  uncommitted_cost_ = 0.0;
}

void CostLedger::discard(Millis lost, RunResult& result) {
  instance_lost_ += lost;
  result.ledger_lost_work += uncommitted_cost_;
  uncommitted_cost_ = 0.0;
}

void CostLedger::release(double billed, const PhaseTimes& phase_time, RunResult& result) {
  if (varying_price_ != nullptr) {
    result.ledger_rounding += billed - instance_booked_;
    varying_price_ = nullptr;
    return;
  }
  double booked = 0.0;
  for (std::size_t p = 0; p < phase_time.size(); ++p) {
    const double cost = price_per_ms_ * static_cast<double>(phase_time[p] - instance_phase_start_[p]);
    if (p == static_cast<std::size_t>(Phase::kComputing)) {
      const double lost = price_per_ms_ * static_cast<double>(instance_lost_);
      result.ledger_lost_work += lost;
      result.ledger_compute += cost - lost;
    } else {
      phase_cost_[p] += cost;
    }
    booked += cost;
  }
  result.ledger_rounding += billed - booked;
}

void CostLedger::finish(RunResult& result) const {
  const auto cost_in = [this](Phase p) { return phase_cost_[static_cast<std::size_t>(p)]; };
  result.ledger_startup = cost_in(Phase::kStarting);
  result.ledger_restore = cost_in(Phase::kRestoring);
  result.ledger_checkpoint = cost_in(Phase::kCheckpointing);
  result.ledger_transfer = cost_in(Phase::kMigrating);
  result.ledger_idle = cost_in(Phase::kIdle) + cost_in(Phase::kDraining) + cost_in(Phase::kDone);
}

}  // namespace spotsim
