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
  tick_hours_ = to_hours(tick_);
  tick_node_hours_ = tick_hours_ * scenario.job().nodes;
  give_up_ = scenario.job().effective_give_up();
  const double nodes = scenario.job().nodes;
  if (selection.decision_holds_until_review()) {  // only a policy that can be skipped needs the change points
    for (const Zone& zone : market.zones) {
      if (zone.spot.available)
        zone_changes_.emplace_back(*zone.spot.available, [nodes](double v) { return v >= nodes; });
      if (!zone.spot.price_per_hour.is_constant()) {
        zone_changes_.emplace_back(zone.spot.price_per_hour, [](double v) { return v; });
      }
    }
  }
  recent_preemptions_.reserve(kHistory);
}

Millis TickSimulation::window_start(std::uint64_t seed, std::uint64_t replication) const {
  const SpotMarket& market = scenario_.market();
  const TraceStart& start = scenario_.trace_start();
  Millis at = start.random && market.span != kNever ? random_trace_start(market, seed, replication) : start.offset;
  if (start.random && market.tick != tick_ && at % tick_ != 0) at -= at % tick_;
  return at;
}

// (Campaigns) room for the job's instances in `zone` after what the other jobs hold; the job holds none there.
bool TickSimulation::spot_obtainable(int zone, Millis t) const {
  const auto& available = scenario_.market().zones[static_cast<std::size_t>(zone)].spot.available;
  if (!available) return true;
  return available->at(t) >= scenario_.job().nodes + capacity_->held(zone);
}

Observation TickSimulation::observe(Millis boundary) {
  scenario_.view_zones(boundary, data_zone_, zone_views_);
  for (ZoneView& v : zone_views_) v.lifetime = nullptr;  // preemptions here come from the recording alone
  if (capacity_ != nullptr) {
    // What the other jobs of a campaign hold is not obtainable. Spot the job holds stays its own until the recording
    // takes it or the campaign reclaims it (whose reclaims keep the holders within the count, even while others
    // whose instances go at this boundary have not yet been stepped).
    for (std::size_t z = 0; z < zone_views_.size(); ++z) {
      bool& available = zone_views_[z].spot_available;
      if (held_now_ == Purchase::kSpot && static_cast<int>(z) == zone_) {
        available = available && boundary < reclaim_at_;
      } else {
        available = available && spot_obtainable(static_cast<int>(z), boundary);
      }
    }
  }
  const Purchase held = held_now_;
  Observation obs;
  obs.now = boundary;
  obs.elapsed = boundary - start_;
  obs.progress = obs.committed = done_;
  obs.phase = held == Purchase::kNone ? Phase::kIdle
              : startup_left_ > 0     ? Phase::kStarting
              : transfer_left_ > 0    ? Phase::kMigrating
                                      : Phase::kComputing;
  obs.purchase = held;
  obs.zone = held == Purchase::kNone ? -1 : zone_;
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

// One held tick's bill at `price` per instance-hour, for every node: paid, and its hours counted.
double TickSimulation::pay_tick(Purchase held, double price) {
  const double cost = price * tick_node_hours_;
  if (held == Purchase::kSpot) {
    result_.cost_spot += cost;
    result_.spot_hours += tick_hours_;
    spot_time_ += tick_;
  } else {
    result_.cost_on_demand += cost;
    result_.on_demand_hours += tick_hours_;
  }
  return cost;
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

void TickSimulation::begin(std::uint64_t /*seed*/, std::uint64_t replication, Millis start) {
  result_ = RunResult{};
  result_.replication = replication;
  result_.fingerprint = 0xcbf29ce484222325ULL;
  recent_preemptions_.clear();
  held_.clear();
  start_ = start;
  result_.trace_start_hours = to_hours(start_);
  done_ = spot_time_ = wait_time_ = 0;
  data_zone_ = -1;
  acquired_at_ = start_;
  held_now_ = Purchase::kNone;
  zone_ = -1;
  startup_left_ = transfer_left_ = startup_ = transfer_ = 0;
  finish_ = -1;
  reclaim_at_ = kNever;
  next_milestone_ = 0;
  quiet_until_ = 0;
  finished_ = false;
  selection_.reset();
  selection_.prepare_oracle(scenario_, start_);
  next_boundary_ = 0;
  boundary(next_boundary_++);
}

void TickSimulation::step() {
  if (!finished_) boundary(next_boundary_++);
}

RunResult TickSimulation::run(std::uint64_t seed, std::uint64_t replication) {
  begin(seed, replication, window_start(seed, replication));
  while (!finished_) {
    realise_quiet_ticks();
    boundary(next_boundary_++);
  }
  return result_;
}

// The boundaries of a quiet stretch that would only realise their tick: no decision due (before quiet_until_),
// the job not finishing in the tick, not giving up. Such a tick is a whole tick of work (no changeover is due in a
// quiet stretch, and the state is where the instance computes) or of waiting, at the price in force when the
// stretch began (a price change ends the stretch). One loop does what boundary() and realise_tick() would, in the
// same order of additions, so the result is the same to the bit.
void TickSimulation::realise_quiet_ticks() {
  if (next_boundary_ == 0 || !milestones_.empty()) return;
  const Millis g = tick_;
  const Millis work = scenario_.job().work;
  const Purchase held = held_now_;
  auto quiet = [&](Millis k) {
    const Millis at = start_ + k * g;
    return at < quiet_until_ && at - start_ < give_up_ && (held == Purchase::kNone || done_ + g < work);
  };
  if (!quiet(next_boundary_)) return;
  double price = 0.0;
  if (held != Purchase::kNone) {
    const Zone& m = scenario_.market().zones[static_cast<std::size_t>(zone_)];
    price = held == Purchase::kSpot ? m.spot.price_per_hour.at(start_ + (next_boundary_ - 1) * g)
                                    : m.on_demand_price_per_hour;
  }
  const std::uint8_t kind = static_cast<std::uint8_t>(held);
  const char symbol = held_symbol(held);
  for (; quiet(next_boundary_); ++next_boundary_) {
    const Millis from = start_ + (next_boundary_ - 1) * g;
    if (held == Purchase::kNone) {
      wait_time_ += g;
    } else {
      done_ += g;
      book_tick(pay_tick(held, price), g, 0, 0, g);
    }
    if (record_) held_.push_back(symbol);
    ++result_.events;
    result_.fingerprint = mix_fingerprint(result_.fingerprint, from - start_, kind);
  }
}

// Boundary k: the work of tick k - 1 is realised, then the job finishes or gives up, or the policy decides what to
// hold for tick k.
void TickSimulation::boundary(Millis k) {
  const Millis at = start_ + k * tick_;
  if (k > 0) {
    realise_tick(at - tick_);
    if (finish_ < 0) {  // early-stopping rungs reached in that tick (campaigns)
      while (next_milestone_ < milestones_.size() && done_ >= milestones_[next_milestone_]) {
        if (!capacity_->on_milestone(job_index_, static_cast<int>(next_milestone_++), at)) {
          result_.stopped_early = true;
          finish(at, false);
          return;
        }
      }
    }
  }
  if (finish_ >= 0) {
    finish(finish_, true);
    return;
  }
  if (at - start_ >= give_up_) {
    finish(start_ + give_up_, false);
    return;
  }
  if (at < quiet_until_) return;  // the policy's answer would be the last one: keep holding it
  decide(at);
}

void TickSimulation::realise_tick(Millis from) {
  const JobSpec& job = scenario_.job();
  const Millis g = tick_;
  const Purchase held = held_now_;
  if (held == Purchase::kNone) {
    wait_time_ += g;
  } else {
    const Zone& m = scenario_.market().zones[static_cast<std::size_t>(zone_)];
    const Millis spent_on_startup = std::min(startup_left_, g);
    const Millis spent_on_transfer = std::min(transfer_left_, g - spent_on_startup);
    const Millis spent_on_overhead = spent_on_startup + spent_on_transfer;
    const Millis work = std::min(g - spent_on_overhead, job.work - done_);
    startup_left_ -= spent_on_startup;
    startup_ += spent_on_startup;
    if (spent_on_startup > 0 && startup_left_ == 0) {
      notify(from + spent_on_startup, TimelineEventKind::kPhaseEntered, held_phase(), held, zone_);
    }
    if (spent_on_transfer > 0) {
      transfer_left_ -= spent_on_transfer;
      transfer_ += spent_on_transfer;
      if (transfer_left_ == 0) {  // the changeover is over: the state now lives here
        data_zone_ = zone_;
        ++result_.migrations;
        notify(from + spent_on_overhead, TimelineEventKind::kTransferDone, Phase::kMigrating, held, zone_);
        notify(from + spent_on_overhead, TimelineEventKind::kPhaseEntered, Phase::kComputing, held, zone_);
      }
    }
    if (work > 0) data_zone_ = zone_;  // lossless: the state lives where the job computes
    done_ += work;
    if (done_ >= job.work) finish_ = from + spent_on_overhead + work;
    const double price = held == Purchase::kSpot ? m.spot.price_per_hour.at(from) : m.on_demand_price_per_hour;
    book_tick(pay_tick(held, price), g, spent_on_startup, spent_on_transfer, work);
  }
  if (record_) held_.push_back(held_symbol(held));
  ++result_.events;
  result_.fingerprint = mix_fingerprint(result_.fingerprint, from - start_, static_cast<std::uint8_t>(held));
}

void TickSimulation::decide(Millis at) {
  const JobSpec& job = scenario_.job();
  const SpotMarket& market = scenario_.market();
  // A spot instance whose zone has no spot at this boundary was preempted (the previous tick still counted).
  Observation obs = observe(at);
  if (held_now_ == Purchase::kSpot && !obs.zones[static_cast<std::size_t>(zone_)].spot_available) {
    ++result_.preemptions;
    if (recent_preemptions_.size() == kHistory) recent_preemptions_.erase(recent_preemptions_.begin());
    recent_preemptions_.push_back(at - start_);
    notify(at, TimelineEventKind::kPreemption, held_phase(), Purchase::kSpot, zone_);
    notify(at, TimelineEventKind::kPhaseEntered, Phase::kIdle, Purchase::kSpot, zone_);
    notify(at, TimelineEventKind::kInstanceReleased, Phase::kIdle, Purchase::kSpot, zone_);
    hold(Purchase::kNone, zone_, at);
    obs = observe(at);
  }
  SelectionDecision decision = selection_.decide(obs);
  if (decision.zone < 0 || decision.zone >= static_cast<int>(market.zones.size())) decision.zone = 0;
  if (decision.purchase == Purchase::kSpot && !obs.zones[static_cast<std::size_t>(decision.zone)].spot_available) {
    decision.purchase = Purchase::kNone;  // as the event engine does: asking for absent spot means waiting
  }
  const bool launch =
      decision.purchase != Purchase::kNone && (decision.purchase != held_now_ || decision.zone != zone_);
  if (held_now_ != Purchase::kNone && (launch || decision.purchase == Purchase::kNone)) {  // given back
    notify(at, TimelineEventKind::kPhaseEntered, Phase::kIdle, held_now_, zone_);
    notify(at, TimelineEventKind::kInstanceReleased, Phase::kIdle, held_now_, zone_);
  }
  if (launch) {
    startup_left_ = job.startup;  // the changeover starts afresh
    const MigrationCost& move = scenario_.migration(data_zone_, decision.zone);
    transfer_left_ = move.transfer;
    result_.cost_egress += move.egress_usd;
    acquired_at_ = at;
    ++(decision.purchase == Purchase::kSpot ? result_.spot_starts : result_.on_demand_starts);
  }
  hold(decision.purchase, decision.purchase != Purchase::kNone ? decision.zone : zone_, at);
  if (launch) {
    notify(at, TimelineEventKind::kPhaseEntered, held_phase(), Purchase::kNone, -1);
    notify(at, TimelineEventKind::kInstanceAcquired, held_phase(), held_now_, zone_);
  }
  quiet_until_ = quiet_until(at, decision);
}

Phase TickSimulation::held_phase() const {
  return startup_left_ > 0 ? Phase::kStarting : transfer_left_ > 0 ? Phase::kMigrating : Phase::kComputing;
}

void TickSimulation::emit(Millis at, TimelineEventKind kind, Phase phase, Purchase purchase, int zone) {
  TimelineEvent event;
  event.time = at - start_;
  event.kind = kind;
  event.purchase = purchase;
  event.zone = purchase == Purchase::kNone ? -1 : zone;
  event.phase = phase;
  event.progress = event.committed = done_;  // progress is never lost here
  event.cost_booked = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  event.nodes = purchase == Purchase::kNone ? 0 : scenario_.job().nodes;
  event.completed = result_.completed;
  observer_->on_event(event);
}

// The first time a boundary must ask again: the decision's review time, or the next change of any zone's spot
// availability (for the job's nodes) or price, whichever is first; `at` itself (ask at the next boundary) when the
// policy makes no promise, a changeover is under way, or the saved state is not yet where the instance computes
// (the observation changes as the first tick of work moves it).
Millis TickSimulation::quiet_until(Millis at, const SelectionDecision& decision) const {
  if (ask_every_tick_ || capacity_ != nullptr || !selection_.decision_holds_until_review()) return at;
  if (startup_left_ > 0 || transfer_left_ > 0) return at;
  if (held_now_ != Purchase::kNone && data_zone_ != zone_) return at;
  Millis until = decision.review_at;
  for (const ChangePoints& changes : zone_changes_) until = std::min(until, changes.next_after(at));
  return until;
}

// What the job holds from `at` on; a campaign hears spot taken and given back.
void TickSimulation::hold(Purchase purchase, int zone, Millis at) {
  const bool had_spot = held_now_ == Purchase::kSpot;
  const bool same_spot = had_spot && purchase == Purchase::kSpot && zone == zone_;
  if (capacity_ != nullptr && had_spot && !same_spot)
    capacity_->on_spot_released(job_index_, zone_, scenario_.job().nodes, at);
  if (!same_spot) reclaim_at_ = kNever;
  held_now_ = purchase;
  zone_ = zone;
  if (capacity_ != nullptr && purchase == Purchase::kSpot && !same_spot) {
    capacity_->on_spot_acquired(job_index_, zone_, scenario_.job().nodes, at);
  }
}

// All its instances go with any of them (restart mode), whatever `instances` asks.
int TickSimulation::reclaim_spot(Millis /*now*/, Millis at, int /*instances*/) {
  if (finished_ || held_now_ != Purchase::kSpot || at >= reclaim_at_) return 0;
  reclaim_at_ = at;
  return scenario_.job().nodes;
}

// The tick under way was paid when it started: it stays paid (as billing rounding: no work is credited for it).
void TickSimulation::stop(Millis at) {
  if (finished_) return;
  if (held_now_ != Purchase::kNone && next_boundary_ > 0) {
    const double cost = spend_at(at) - (result_.cost_spot + result_.cost_on_demand + result_.cost_egress);
    (held_now_ == Purchase::kSpot ? result_.cost_spot : result_.cost_on_demand) += cost;
    result_.ledger_rounding += cost;
  }
  finish(at, false);
}

double TickSimulation::spend_at(Millis /*t*/) const {
  const double spent = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  if (finished_ || held_now_ == Purchase::kNone) return spent;
  const Millis tick_start = start_ + (next_boundary_ - 1) * tick_;
  const Zone& m = scenario_.market().zones[static_cast<std::size_t>(zone_)];
  const double price = held_now_ == Purchase::kSpot ? m.spot.price_per_hour.at(tick_start) : m.on_demand_price_per_hour;
  return spent + price * to_hours(tick_) * scenario_.job().nodes;
}

// A campaign hears the instance given back at the job's end (within its last tick, which is paid in full): its
// capacity use then covers the campaign's makespan, and no other job could have stepped onto the room before this
// boundary anyway.
void TickSimulation::finish(Millis end, bool completed) {
  const Purchase held = held_now_;
  const int zone = zone_;
  hold(Purchase::kNone, zone_, end);
  finished_ = true;
  const JobSpec& job = scenario_.job();
  result_.completed = completed;
  result_.completion_hours = to_hours(end - start_);
  result_.deadline_met = result_.completed && (job.deadline == kNever || end - start_ <= job.deadline);
  result_.cost_total = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  result_.startup_hours = to_hours(startup_);
  result_.migration_hours = to_hours(transfer_);
  result_.wait_hours = to_hours(wait_time_);
  result_.spot_node_hours = result_.spot_hours;  // the compatibility mode prices one instance per tick
  result_.on_demand_node_hours = result_.on_demand_hours;
  result_.work_done_hours = to_hours(std::min(done_, job.work));
  if (observer_ != nullptr) [[unlikely]] {
    const Phase last = completed ? Phase::kDone : Phase::kIdle;
    if (held != Purchase::kNone) {
      emit(end, TimelineEventKind::kPhaseEntered, last, held, zone);
      emit(end, TimelineEventKind::kInstanceReleased, last, held, zone);
    }
    emit(end, TimelineEventKind::kFinished, last, Purchase::kNone, -1);
  }
}

}  // namespace spotsim
