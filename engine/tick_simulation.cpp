#include "engine/tick_simulation.hpp"

#include <algorithm>

#include "base/errors.hpp"

namespace spotsim {

namespace {
constexpr std::size_t kHistory = 32;

char held_symbol(Purchase p) { return p == Purchase::kSpot ? 's' : p == Purchase::kOnDemand ? 'D' : '.'; }
}  // namespace

TickSimulation::TickSimulation(const Scenario& scenario, SelectionPolicy& selection, Millis tick)
    : scenario_(scenario), selection_(selection), tick_(tick > 0 ? tick : scenario.market().tick) {
  const SpotMarket& market = scenario.market();
  if (tick_ <= 0) {
    throw InputError("trace '" + market.name +
                     "': the Can't Be Late mode needs the recording's tick (field 'tick_s' of the trace, or --tick)");
  }
  if (scenario.trace_start().random == false && scenario.trace_start().offset % tick_ != 0) {
    throw InputError("trace start: expected a multiple of the tick (" + std::to_string(to_seconds(tick_)) +
                     " s) in the Can't Be Late mode");
  }
  zone_views_.resize(market.zones.size());
  recent_preemptions_.reserve(kHistory);
}

Observation TickSimulation::observe(Millis boundary, Purchase held, int zone, Millis startup_left,
                                    Millis transfer_left) {
  scenario_.view_zones(boundary, data_zone_, zone_views_);
  for (ZoneView& v : zone_views_) v.lifetime = nullptr;  // preemptions here come from the recording alone
  Observation obs;
  obs.now = boundary;
  obs.elapsed = boundary - start_;
  obs.progress = obs.committed = done_;
  obs.phase = held == Purchase::kNone ? Phase::kIdle
              : startup_left > 0     ? Phase::kStarting
              : transfer_left > 0    ? Phase::kMigrating
                                     : Phase::kComputing;
  obs.purchase = held;
  obs.zone = held == Purchase::kNone ? -1 : zone;
  obs.data_zone = data_zone_;
  obs.instance_age = held == Purchase::kNone ? 0 : boundary - acquired_at_;
  obs.preemptions = result_.preemptions;
  obs.recent_preemptions = recent_preemptions_;
  obs.spot_time = spot_time_;
  obs.wait_time = wait_time_;
  obs.lossless = true;
  obs.can_checkpoint = true;
  obs.decision_tick = tick_;
  obs.job = &scenario_.job();
  obs.zones = zone_views_;
  return obs;
}

// One held tick's bill split by what its time went to; the common whole tick of compute takes one addition.
void TickSimulation::book_tick(double cost, Millis g, Millis startup, Millis transfer, Millis work) {
  if (work == g) {
    result_.ledger_compute += cost;
    return;
  }
  const double per_ms = cost / static_cast<double>(g);
  const double on_startup = per_ms * static_cast<double>(startup);
  const double on_transfer = per_ms * static_cast<double>(transfer);
  const double on_work = per_ms * static_cast<double>(work);
  result_.ledger_startup += on_startup;
  result_.ledger_transfer += on_transfer;
  result_.ledger_compute += on_work;
  result_.ledger_rounding += cost - on_startup - on_transfer - on_work;  // the rest of a finishing tick
}

RunResult TickSimulation::run(std::uint64_t seed, std::uint64_t replication) {
  const SpotMarket& market = scenario_.market();
  const JobSpec& job = scenario_.job();
  const Millis g = tick_;
  result_ = RunResult{};
  result_.replication = replication;
  result_.fingerprint = 0xcbf29ce484222325ULL;
  recent_preemptions_.clear();
  held_.clear();
  const TraceStart& start = scenario_.trace_start();
  start_ = start.random && market.span != kNever ? random_trace_start(market, seed, replication) : start.offset;
  if (start.random && market.tick != g && start_ % g != 0) start_ -= start_ % g;
  result_.trace_start_hours = to_hours(start_);
  done_ = spot_time_ = wait_time_ = 0;
  data_zone_ = -1;
  acquired_at_ = start_;
  selection_.reset();
  selection_.prepare_oracle(scenario_, start_);

  const double tick_hours = to_hours(g) * job.nodes;
  const Millis give_up = job.effective_give_up();
  Purchase held = Purchase::kNone;
  int zone = -1;
  // The changeover still due: start-up first, then the transfer of the saved state (0 within its region).
  Millis startup_left = 0, transfer_left = 0, startup = 0, transfer = 0, finish = -1;
  for (Millis k = 0;; ++k) {
    const Millis boundary = start_ + k * g;
    if (k > 0) {  // realise tick k - 1
      const Millis from = boundary - g;
      if (held == Purchase::kNone) {
        wait_time_ += g;
      } else {
        const Zone& m = market.zones[static_cast<std::size_t>(zone)];
        const Millis spent_on_startup = std::min(startup_left, g);
        const Millis spent_on_transfer = std::min(transfer_left, g - spent_on_startup);
        const Millis spent_on_overhead = spent_on_startup + spent_on_transfer;
        const Millis work = std::min(g - spent_on_overhead, job.work - done_);
        startup_left -= spent_on_startup;
        startup += spent_on_startup;
        if (spent_on_transfer > 0) {
          transfer_left -= spent_on_transfer;
          transfer += spent_on_transfer;
          if (transfer_left == 0) {  // the changeover is over: the state now lives here
            data_zone_ = zone;
            ++result_.migrations;
          }
        }
        if (work > 0) data_zone_ = zone;  // lossless: the state lives where the job computes
        done_ += work;
        if (done_ >= job.work) finish = from + spent_on_overhead + work;
        double cost;
        if (held == Purchase::kSpot) {
          cost = m.spot.price_per_hour.at(from) * tick_hours;
          result_.cost_spot += cost;
          result_.spot_hours += to_hours(g);
          spot_time_ += g;
        } else {
          cost = m.on_demand_price_per_hour * tick_hours;
          result_.cost_on_demand += cost;
          result_.on_demand_hours += to_hours(g);
        }
        book_tick(cost, g, spent_on_startup, spent_on_transfer, work);
      }
      if (record_) held_.push_back(held_symbol(held));
      ++result_.events;
      result_.fingerprint = mix_fingerprint(result_.fingerprint, from - start_, static_cast<std::uint8_t>(held));
    }
    if (finish >= 0 || boundary - start_ >= give_up) break;
    // A spot instance whose zone has no spot at this boundary was preempted (the previous tick still counted).
    Observation obs = observe(boundary, held, zone, startup_left, transfer_left);
    if (held == Purchase::kSpot && !obs.zones[static_cast<std::size_t>(zone)].spot_available) {
      ++result_.preemptions;
      if (recent_preemptions_.size() == kHistory) recent_preemptions_.erase(recent_preemptions_.begin());
      recent_preemptions_.push_back(boundary - start_);
      held = Purchase::kNone;
      obs = observe(boundary, held, zone, startup_left, transfer_left);
    }
    SelectionDecision decision = selection_.decide(obs);
    if (decision.zone < 0 || decision.zone >= static_cast<int>(market.zones.size())) decision.zone = 0;
    if (decision.purchase == Purchase::kSpot && !obs.zones[static_cast<std::size_t>(decision.zone)].spot_available) {
      decision.purchase = Purchase::kNone;  // as the event engine does: asking for absent spot means waiting
    }
    if (decision.purchase != Purchase::kNone && (decision.purchase != held || decision.zone != zone)) {
      startup_left = job.startup;  // a launch: the changeover starts afresh
      const MigrationCost& move = scenario_.migration(data_zone_, decision.zone);
      transfer_left = move.transfer;
      result_.cost_egress += move.egress_usd;
      acquired_at_ = boundary;
      ++(decision.purchase == Purchase::kSpot ? result_.spot_starts : result_.on_demand_starts);
    }
    held = decision.purchase;
    if (held != Purchase::kNone) zone = decision.zone;
  }
  result_.completed = finish >= 0;
  const Millis end = result_.completed ? finish : start_ + give_up;
  result_.completion_hours = to_hours(end - start_);
  result_.deadline_met = result_.completed && (job.deadline == kNever || end - start_ <= job.deadline);
  result_.cost_total = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  result_.startup_hours = to_hours(startup);
  result_.migration_hours = to_hours(transfer);
  result_.wait_hours = to_hours(wait_time_);
  result_.spot_node_hours = result_.spot_hours;  // the compatibility mode prices one instance per tick
  result_.on_demand_node_hours = result_.on_demand_hours;
  result_.work_done_hours = to_hours(std::min(done_, job.work));
  return result_;
}

}  // namespace spotsim
