#include "engine/job_simulation.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "model/billing.hpp"
#include "model/market/node_reclaim.hpp"

namespace spotsim {

namespace {
constexpr std::size_t kHistory = 32;
constexpr std::size_t kInstanceEpoch = 0, kReviewEpoch = 1;
}  // namespace

JobSimulation::JobSimulation(const Scenario& scenario, SelectionPolicy& selection, CheckpointPolicy& checkpoint)
    : scenario_(scenario),
      selection_(selection),
      checkpoint_(checkpoint),
      queue_(8) {  // grows on use; a campaign holds one per job
  const auto zones = static_cast<std::size_t>(scenario.zone_count());
  lifetime_streams_.resize(zones);
  lifetime_seeded_.assign(zones, false);
  zone_views_.resize(zones);
  recent_preemptions_.reserve(kHistory);
}

std::uint32_t JobSimulation::epoch_of(EventKind kind) const {
  switch (kind) {
    case EventKind::kInstanceReady:
    case EventKind::kRestoreDone:
    case EventKind::kCheckpointDue:
    case EventKind::kCheckpointDone:
    case EventKind::kWorkDone:
    case EventKind::kTransferDone: return 0;  // timeline events: replaced in their slot, never stale
    case EventKind::kPreemptionNotice:
    case EventKind::kPreemption: return epochs_[kInstanceEpoch];
    case EventKind::kReview:
    case EventKind::kSpotObtainable: return epochs_[kReviewEpoch];
    case EventKind::kGiveUp:
    case EventKind::kMilestone: return 0;
  }
  return 0;
}

void JobSimulation::schedule(Millis time, EventKind kind) { queue_.push(time, Event{kind, epoch_of(kind)}); }

void JobSimulation::schedule_timeline(Millis time, EventKind kind) {
  timeline_ = TimelineSlot{true, kind, time, queue_.take_sequence()};
}

Millis JobSimulation::window_start(std::uint64_t seed, std::uint64_t replication) const {
  const TraceStart& start = scenario_.trace_start();
  if (start.random && scenario_.market().span != kNever)
    return random_trace_start(scenario_.market(), seed, replication);
  return start.offset;
}

RunResult JobSimulation::run(std::uint64_t seed, std::uint64_t replication) {
  begin(seed, replication, window_start(seed, replication));
  while (!finished_ && advance()) {
  }
  return result_;
}

void JobSimulation::begin(std::uint64_t seed, std::uint64_t replication, Millis start) {
  seed_ = seed;
  replication_ = replication;
  lifetime_seeded_.assign(lifetime_seeded_.size(), false);
  queue_.clear();
  recent_preemptions_.clear();
  result_ = RunResult{};
  result_.replication = replication;
  result_.fingerprint = 0xcbf29ce484222325ULL;
  epochs_ = {};
  timeline_.active = false;
  compute_target_.active = false;
  progress_ = committed_ = checkpoint_progress_ = 0;
  emergency_checkpoint_ = switch_pending_ = finished_ = waiting_for_spot_ = false;
  next_milestone_ = 0;
  purchase_ = Purchase::kNone;
  zone_ = data_zone_ = -1;
  preempt_at_ = kNever;
  spot_time_ = 0;
  ledger_.reset();
  interval_known_ = false;
  selection_.reset();
  checkpoint_.reset();
  continuous_ = checkpoint_.continuous();
  can_checkpoint_ = checkpoint_.can_checkpoint() && !continuous_;
  interval_varies_ = checkpoint_.varies_within_instance();
  on_notice_ = checkpoint_.checkpoint_on_notice();
  phase_time_ = {};

  job_start_ = start;
  result_.trace_start_hours = to_hours(job_start_);
  now_ = job_start_;
  phase_ = Phase::kIdle;
  phase_entered_ = now_;
  on_demand_interval_ = probe_on_demand_interval();
  selection_.prepare_oracle(scenario_, job_start_);

  schedule(job_start_ + scenario_.job().effective_give_up(), EventKind::kGiveUp);
  decide();
}

// Pops the next live event and handles it; false when nothing is pending.
bool JobSimulation::advance() {
  for (;;) {
    EventKind kind;
    // The end of the work goes before anything else due at the same millisecond: a job whose last instant of work
    // coincides with a preemption or a policy's review (common on tick-aligned recordings) is done.
    const bool work_done_now = timeline_.active && timeline_.kind == EventKind::kWorkDone &&
                               (queue_.empty() || timeline_.time <= queue_.top().time);
    const bool queued_first =
        !work_done_now && !queue_.empty() &&
        (!timeline_.active || EventQueue<Event>::earlier(queue_.top(), {timeline_.time, timeline_.sequence, Event{}}));
    if (queued_first) {
      const auto entry = queue_.pop();
      kind = entry.payload.kind;
      if (kind != EventKind::kGiveUp && entry.payload.epoch != epoch_of(kind)) continue;
      now_ = entry.time;
    } else if (timeline_.active) {
      timeline_.active = false;
      kind = timeline_.kind;
      now_ = timeline_.time;
    } else {
      return false;
    }
    if (kind != EventKind::kMilestone) [[likely]] {
      ++result_.events;
      result_.fingerprint = mix_fingerprint(result_.fingerprint, now_ - job_start_, static_cast<std::uint8_t>(kind));
    }
    dispatch(kind);
    return true;
  }
}

Millis JobSimulation::next_event_time() {
  if (finished_) return kNever;
  while (!queue_.empty()) {  // drop stale events first: their time is not the next event's
    const auto& top = queue_.top();
    if (top.payload.kind == EventKind::kGiveUp || top.payload.epoch == epoch_of(top.payload.kind)) break;
    queue_.pop();
  }
  Millis next = timeline_.active ? timeline_.time : kNever;
  if (!queue_.empty()) next = std::min(next, queue_.top().time);
  return next;
}

void JobSimulation::step() {
  if (!finished_) advance();
}

// All its instances go with any of them (restart mode), whatever `instances` asks.
int JobSimulation::reclaim_spot(Millis now, Millis at, int /*instances*/) {
  if (finished_ || purchase_ != Purchase::kSpot || at >= preempt_at_) return 0;
  now_ = std::max(now_, now);
  preempt_at_ = at;
  const Millis notice = scenario_.market().zones[static_cast<std::size_t>(zone_)].spot.notice;
  if (notice > 0) schedule(std::max(now_, at - notice), EventKind::kPreemptionNotice);
  schedule(at, EventKind::kPreemption);
  return scenario_.job().nodes;
}

void JobSimulation::wake_for_spot(Millis at) {
  if (finished_ || !waiting_for_spot_) return;
  schedule(at, EventKind::kSpotObtainable);
}

void JobSimulation::stop(Millis at) {
  if (finished_) return;
  now_ = std::max(now_, at);
  finish(false);
}

double JobSimulation::spend_at(Millis t) const {
  double spent = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  if (purchase_ == Purchase::kNone) return spent;
  return spent + ledger_.held_cost(acquired_at_, t);
}

double JobSimulation::spend_rate_per_ms(Millis t) const {
  if (purchase_ == Purchase::kNone) return 0.0;
  return ledger_.rate_per_ms(t);
}

int JobSimulation::spot_held_by_others(int zone) const {
  const int own = purchase_ == Purchase::kSpot && zone_ == zone ? scenario_.job().nodes : 0;
  return capacity_->held(zone) - own;
}

void JobSimulation::dispatch(EventKind kind) {
  switch (kind) {
    case EventKind::kInstanceReady: on_instance_ready(); break;
    case EventKind::kTransferDone: on_transfer_done(); break;
    case EventKind::kRestoreDone: begin_compute(); break;
    case EventKind::kPreemptionNotice: on_preemption_notice(); break;
    case EventKind::kPreemption: on_preemption(); break;
    case EventKind::kCheckpointDue: start_checkpoint(); break;
    case EventKind::kCheckpointDone: on_checkpoint_done(); break;
    case EventKind::kWorkDone:
      enter(Phase::kDone);  // books the last compute stretch
      progress_ = scenario_.job().work;
      finish(true);
      break;
    case EventKind::kReview:
    case EventKind::kSpotObtainable: decide(); break;
    case EventKind::kGiveUp: finish(false); break;
    case EventKind::kMilestone: on_milestone(); break;
  }
}

// Books the time spent in the phase being left, then enters the new one. Progress advances only in kComputing.
void JobSimulation::enter(Phase phase) {
  const Millis spent = now_ - phase_entered_;
  const Phase left = phase_;
  const Millis from = phase_entered_;
  phase_time_[static_cast<std::size_t>(left)] += spent;
  if (left == Phase::kComputing) progress_ += spent;
  phase_ = phase;
  phase_entered_ = now_;
  // One test and a tail call for both rare cases (an observer, a varying price): the common path stays a leaf
  // function with no register saves.
  if (observer_ != nullptr || (ledger_.price_varies() && spent > 0)) [[unlikely]]
    entered_rare_cases(left, from, spent);
}

void JobSimulation::entered_rare_cases(Phase left, Millis from, Millis spent) {
  notify(TimelineEventKind::kPhaseEntered);
  // (At a constant price the ledger prices the instance once, at its release, from its time per phase.)
  if (ledger_.price_varies() && spent > 0) ledger_.book_varying_stretch(left, from, now_, continuous_, result_);
}

// The instance is up: move the saved state here first if it lies in another region (docs/migration.md), else
// restore it (if anything was committed) and compute.
void JobSimulation::on_instance_ready() {
  if (const MigrationCost* move = scenario_.costly_move(data_zone_, zone_)) {
    result_.cost_egress += move->egress_usd;  // paid in full when the transfer starts, whatever happens next
    enter(Phase::kMigrating);
    schedule_timeline(now_ + move->transfer, EventKind::kTransferDone);
    return;
  }
  restore_or_compute();
}

void JobSimulation::on_transfer_done() {
  data_zone_ = zone_;
  ++result_.migrations;
  notify(TimelineEventKind::kTransferDone);
  restore_or_compute();
}

void JobSimulation::restore_or_compute() {
  if (committed_ > 0 && !continuous_) {
    enter(Phase::kRestoring);
    schedule_timeline(now_ + scenario_.job().restore, EventKind::kRestoreDone);
  } else {
    begin_compute();
  }
}

Millis JobSimulation::current_progress() const {
  return phase_ == Phase::kComputing ? progress_ + (now_ - phase_entered_) : progress_;
}

bool JobSimulation::spot_obtainable(int zone, Millis t) const {
  const auto& available = scenario_.market().zones[static_cast<std::size_t>(zone)].spot.available;
  if (!available) return true;
  const int others = capacity_ == nullptr ? 0 : spot_held_by_others(zone);
  return available->at(t) >= scenario_.job().nodes + others;
}

// The periodic checkpoint interval the checkpoint policy uses on on-demand, so that deadline-aware selection
// policies can count those writes in the time to finish there. Asked once per replication on a hypothetical
// on-demand instance, then the policy is reset so the probe leaves no trace.
Millis JobSimulation::probe_on_demand_interval() {
  if (!can_checkpoint_) return kNever;
  on_demand_interval_ = kNever;
  Observation probe = observe();
  probe.purchase = Purchase::kOnDemand;
  probe.zone = 0;
  probe.phase = Phase::kComputing;
  const Millis interval = checkpoint_.next_interval(probe);
  checkpoint_.reset();
  return interval == kNever ? kNever : std::max<Millis>(interval, 1);
}

Observation JobSimulation::observe() {
  scenario_.view_zones(now_, data_zone_, zone_views_);
  Observation obs;
  obs.now = now_;
  obs.elapsed = now_ - job_start_;
  obs.progress = current_progress();
  obs.committed = continuous_ ? obs.progress : committed_;
  obs.phase = phase_;
  obs.purchase = purchase_;
  obs.zone = zone_;
  obs.data_zone = data_zone_;
  obs.instance_age = purchase_ == Purchase::kNone ? 0 : now_ - acquired_at_;
  obs.preemptions = result_.preemptions;
  obs.recent_preemptions = recent_preemptions_;
  obs.lossless = continuous_;
  obs.can_checkpoint = can_checkpoint_;
  obs.on_demand_checkpoint_interval = on_demand_interval_;
  obs.wait_time =
      phase_time_[static_cast<std::size_t>(Phase::kIdle)] + (phase_ == Phase::kIdle ? now_ - phase_entered_ : 0);
  obs.spot_time = spot_time_ + (purchase_ == Purchase::kSpot ? now_ - acquired_at_ : 0);
  obs.job = &scenario_.job();
  if (capacity_ != nullptr) {  // what the other jobs hold is not obtainable
    for (int z = 0; z < scenario_.zone_count(); ++z)
      zone_views_[static_cast<std::size_t>(z)].spot_available = spot_obtainable(z, now_);
  }
  obs.zones = zone_views_;
  return obs;
}

void JobSimulation::decide() {
  if (finished_) return;
  waiting_for_spot_ = false;
  apply(selection_.decide(observe()));
}

void JobSimulation::apply(const SelectionDecision& decision) {
  ++epochs_[kReviewEpoch];  // a new decision supersedes any earlier review request
  if (decision.review_at != kNever) schedule(std::max(decision.review_at, now_ + 1), EventKind::kReview);
  const bool same = decision.purchase == purchase_ && (purchase_ == Purchase::kNone || decision.zone == zone_);
  if (same) {
    if (purchase_ == Purchase::kNone || decision.wake_on_spot) wait_for_spot();
    switch_pending_ = false;
    return;
  }
  if (decision.zone < 0 || decision.zone >= scenario_.zone_count()) {
    assert(false && "selection policy returned a zone out of range");
    return;
  }
  if (purchase_ == Purchase::kNone) {
    acquire(decision.purchase, decision.zone);
  } else {
    switch_to(decision.purchase, decision.zone);
  }
  if (decision.wake_on_spot && decision.purchase == Purchase::kOnDemand) wait_for_spot();
}

// Wake the policy when spot next becomes obtainable in a zone where it is not obtainable now. In a campaign, "next"
// assumes the other jobs keep what they hold; the campaign wakes the job earlier when one of them releases spot.
void JobSimulation::wait_for_spot() {
  Millis next = kNever;
  const int nodes = scenario_.job().nodes;
  const auto& zones = scenario_.market().zones;
  for (std::size_t z = 0; z < zones.size(); ++z) {
    const auto& available = zones[z].spot.available;
    if (!available) continue;
    const int needed = nodes + (capacity_ == nullptr ? 0 : spot_held_by_others(static_cast<int>(z)));
    if (available->at(now_) >= needed) continue;
    next = std::min(next, available->next_time_at_least(now_, needed));
  }
  if (next != kNever) schedule(next, EventKind::kSpotObtainable);
  waiting_for_spot_ = true;
}

void JobSimulation::acquire(Purchase purchase, int zone) {
  if (purchase == Purchase::kNone) {
    wait_for_spot();
    return;
  }
  if (purchase == Purchase::kSpot && !spot_obtainable(zone, now_)) {
    wait_for_spot();  // the policy asked for spot that is not there: wait for it and ask again
    return;
  }
  progress_ = continuous_ ? progress_ : committed_;
  enter(Phase::kStarting);  // before the purchase is set: the wait that ends here is not billed
  purchase_ = purchase;
  zone_ = zone;
  acquired_at_ = now_;
  interval_known_ = false;
  ++epochs_[kInstanceEpoch];
  const Zone& market_zone = scenario_.market().zones[static_cast<std::size_t>(zone)];
  const bool spot = purchase == Purchase::kSpot;
  const bool varies = spot && market_zone.spot.price_per_hour.times().size() > 1;
  const double hourly =
      spot ? (varies ? 0.0 : market_zone.spot.price_per_hour.values().front()) : market_zone.on_demand_price_per_hour;
  ledger_.acquire(scenario_.job().nodes * hourly / static_cast<double>(kMillisPerHour),
                  varies ? &market_zone.spot.price_per_hour : nullptr, scenario_.job().nodes, phase_time_);
  schedule_timeline(now_ + scenario_.job().startup, EventKind::kInstanceReady);
  notify(TimelineEventKind::kInstanceAcquired);
  preempt_at_ = kNever;
  if (purchase == Purchase::kSpot) {
    ++result_.spot_starts;
    if (capacity_ != nullptr) capacity_->on_spot_acquired(job_index_, zone, scenario_.job().nodes, now_);
    preempt_at_ = draw_preemption_time(zone);
    if (preempt_at_ != kNever) {
      const Millis notice = scenario_.market().zones[static_cast<std::size_t>(zone)].spot.notice;
      if (notice > 0) schedule(std::max(now_, preempt_at_ - notice), EventKind::kPreemptionNotice);
      schedule(preempt_at_, EventKind::kPreemption);
    }
  } else {
    ++result_.on_demand_starts;
  }
}

// The earliest of: the first node's lifetime running out, the recorded pool of spot instances shrinking by one of
// the job's, and a recorded preemption.
Millis JobSimulation::draw_preemption_time(int zone) {
  const SpotOffer& spot = scenario_.market().zones[static_cast<std::size_t>(zone)].spot;
  const int nodes = scenario_.job().nodes;
  Millis at = kNever;
  if (spot.lifetime) {
    auto& stream = lifetime_streams_[static_cast<std::size_t>(zone)];
    if (!lifetime_seeded_[static_cast<std::size_t>(zone)]) {
      const RandomStream fresh(seed_, replication_, StreamPurpose::kSpotLifetime, static_cast<std::uint64_t>(zone));
      if (stream)
        *stream = fresh;
      else
        stream = std::make_unique<RandomStream>(fresh);
      lifetime_seeded_[static_cast<std::size_t>(zone)] = true;
    }
    // With probability node_correlation every node shares one lifetime (a zone-wide reclaim); the extra draw is
    // only taken when it matters, so single-node streams are unchanged.
    const bool shared = nodes > 1 && spot.node_correlation > 0.0 && stream->uniform01() < spot.node_correlation;
    double shortest = INFINITY;
    for (int n = 0; n < (shared ? 1 : nodes); ++n)
      shortest = std::min(shortest, spot.lifetime->sample(stream->uniform_open01()));
    if (std::isfinite(shortest)) at = now_ + static_cast<Millis>(std::ceil(shortest * kMillisPerHour));
  }
  if (spot.available) {
    // The job holds `nodes` of the pool's instances and loses one of its own whenever the pool shrinks by one of
    // them (drawn uniformly, model/market/node_reclaim.hpp), not only when the pool falls below `nodes`; restart mode:
    // losing any node stops the whole job.
    at = std::min(at, next_reclaim(*spot.available, now_, nodes, seed_, replication_).at);
  }
  if (!spot.preemption_times.empty()) {
    const Millis period = spot.preemption_period;
    const Millis phase = period == kNever ? now_ : ((now_ % period) + period) % period;
    const auto& times = spot.preemption_times;
    auto it = std::upper_bound(times.begin(), times.end(), phase);
    if (it != times.end()) {
      at = std::min(at, now_ - phase + *it);
    } else if (period != kNever) {
      at = std::min(at, now_ - phase + period + times.front());
    }
  }
  return at;
}

void JobSimulation::release() {
  const Zone& zone = scenario_.market().zones[static_cast<std::size_t>(zone_)];
  const Millis held = now_ - acquired_at_;
  const int nodes = scenario_.job().nodes;
  if (purchase_ == Purchase::kSpot) {
    const double cost = nodes * instance_cost(zone.spot.price_per_hour, acquired_at_, held, scenario_.market().billing);
    result_.cost_spot += cost;
    result_.spot_hours += to_hours(held);
    result_.spot_node_hours += nodes * to_hours(held);
    spot_time_ += held;
    ledger_.release(cost, phase_time_, result_);
  } else {
    const double cost =
        nodes * zone.on_demand_price_per_hour * to_hours(billed_duration(held, scenario_.market().billing));
    result_.cost_on_demand += cost;
    result_.on_demand_hours += to_hours(held);
    result_.on_demand_node_hours += nodes * to_hours(held);
    ledger_.release(cost, phase_time_, result_);
  }
  notify(TimelineEventKind::kInstanceReleased);  // billed, still naming the instance released
  const Purchase released = purchase_;
  const int released_zone = zone_;
  purchase_ = Purchase::kNone;
  zone_ = -1;
  preempt_at_ = kNever;
  ++epochs_[kInstanceEpoch];
  timeline_.active = false;
  if (capacity_ != nullptr && released == Purchase::kSpot)
    capacity_->on_spot_released(job_index_, released_zone, nodes, now_);
}

void JobSimulation::begin_compute() {
  enter(Phase::kComputing);
  if (continuous_) data_zone_ = zone_;
  const Millis remaining = scenario_.job().work - progress_;
  if (can_checkpoint_) {
    if (!interval_known_ || interval_varies_) {
      interval_ = checkpoint_.next_interval(observe());
      interval_known_ = true;
    }
    if (interval_ < remaining) {
      schedule_timeline(now_ + std::max<Millis>(interval_, 1), EventKind::kCheckpointDue);
      if (next_milestone_ < milestones_.size()) [[unlikely]]
        schedule_compute_stretch();
      return;
    }
  }
  schedule_timeline(now_ + remaining, EventKind::kWorkDone);
  if (next_milestone_ < milestones_.size()) [[unlikely]]
    schedule_compute_stretch();
}

// A milestone reached before the stretch's end (a checkpoint due or the work's end) takes the timeline slot; the
// stretch's end is kept aside with its sequence number, so that going on restores the very same event.
void JobSimulation::schedule_compute_stretch() {
  const Millis milestone_at = now_ + std::max<Millis>(0, milestones_[next_milestone_] - current_progress());
  if (milestone_at > timeline_.time) return;
  compute_target_ = timeline_;
  timeline_ = TimelineSlot{true, EventKind::kMilestone, milestone_at, queue_.take_sequence()};
}

void JobSimulation::on_milestone() {
  const int index = static_cast<int>(next_milestone_++);
  if (!capacity_->on_milestone(job_index_, index, now_)) {
    result_.stopped_early = true;
    finish(false);
    return;
  }
  timeline_ = compute_target_;
  compute_target_.active = false;
  if (next_milestone_ < milestones_.size()) schedule_compute_stretch();
}

void JobSimulation::start_checkpoint() {
  checkpoint_progress_ = current_progress();
  enter(Phase::kCheckpointing);
  schedule_timeline(now_ + scenario_.job().checkpoint_write, EventKind::kCheckpointDone);
}

void JobSimulation::on_checkpoint_done() {
  committed_ = checkpoint_progress_;
  data_zone_ = zone_;
  ledger_.commit(result_);  // (varying prices) no compute since the write began: all saved
  ++result_.checkpoints;
  notify(TimelineEventKind::kCheckpointDone);
  if (switch_pending_) {
    enter(Phase::kIdle);
    switch_pending_ = emergency_checkpoint_ = false;
    release();
    acquire(switch_target_.purchase, switch_target_.zone);
  } else if (emergency_checkpoint_) {
    emergency_checkpoint_ = false;
    enter(Phase::kDraining);  // nothing useful to do before the announced preemption
  } else {
    begin_compute();
  }
}

void JobSimulation::on_preemption_notice() {
  notify(TimelineEventKind::kPreemptionNotice);
  const Millis write = scenario_.job().checkpoint_write;
  if (phase_ != Phase::kComputing || !on_notice_ || !can_checkpoint_ || now_ + write > preempt_at_) {
    return;
  }
  if (current_progress() == committed_) return;  // nothing new to save
  emergency_checkpoint_ = true;
  start_checkpoint();
}

void JobSimulation::on_preemption() {
  const Millis progress = current_progress();
  Millis lost = 0;
  if (continuous_) {
    committed_ = progress;
  } else if (phase_ == Phase::kCheckpointing) {
    lost = checkpoint_progress_ - committed_;
  } else {
    lost = progress - committed_;
  }
  if (!continuous_) result_.lost_work_hours += to_hours(lost);
  notify(TimelineEventKind::kPreemption);  // before the phase changes: what was running when the instance went
  enter(Phase::kIdle);
  progress_ = committed_;
  discard_uncommitted(lost);
  emergency_checkpoint_ = switch_pending_ = false;
  ++result_.preemptions;
  result_.nodes_lost += scenario_.job().nodes;
  if (recent_preemptions_.size() == kHistory) recent_preemptions_.erase(recent_preemptions_.begin());
  recent_preemptions_.push_back(now_ - job_start_);
  release();
  decide();
}

// Moving the job to another instance: save progress first where a checkpoint is possible, then release and
// acquire (break before make, so two sets of instances are never billed at once).
void JobSimulation::switch_to(Purchase purchase, int zone) {
  switch_target_ = SelectionDecision{purchase, zone, kNever};
  switch (phase_) {
    case Phase::kComputing:
      if (continuous_) {
        enter(Phase::kIdle);
        committed_ = progress_;
      } else if (can_checkpoint_ && current_progress() > committed_) {
        switch_pending_ = true;
        start_checkpoint();
        return;
      } else {
        const Millis progress = current_progress();
        result_.lost_work_hours += to_hours(progress - committed_);
        enter(Phase::kIdle);
        progress_ = committed_;
        discard_uncommitted(progress - committed_);
      }
      break;
    case Phase::kCheckpointing:
      switch_pending_ = true;  // finish the write, then switch
      return;
    default: enter(Phase::kIdle); break;
  }
  release();
  acquire(purchase, zone);
}

// Compute not saved by a checkpoint (`lost` of it) is thrown away: a preemption, a move without a checkpoint,
// giving up. Called before the instance is released.
void JobSimulation::discard_uncommitted(Millis lost) { ledger_.discard(lost, result_); }

void JobSimulation::finish(bool completed) {
  if (phase_ != Phase::kDone) enter(Phase::kDone);  // books the last stretch, including progress
  if (completed || result_.stopped_early) {
    ledger_.commit(result_);  // the last stretch needs no checkpoint (a stopped trial: its rung)
  } else {
    discard_uncommitted(continuous_ ? 0 : progress_ - committed_);
  }
  if (purchase_ != Purchase::kNone) release();
  finished_ = true;
  result_.completed = completed;
  const Millis kept = completed ? scenario_.job().work : result_.stopped_early ? progress_ : committed_;
  result_.work_done_hours = to_hours(kept) * single_instance_speedup(scenario_.job());
  ledger_.finish(result_);
  result_.migration_hours = to_hours(phase_time_[static_cast<std::size_t>(Phase::kMigrating)]);
  result_.completion_hours = to_hours(now_ - job_start_);
  result_.deadline_met =
      completed && (scenario_.job().deadline == kNever || now_ - job_start_ <= scenario_.job().deadline);
  result_.cost_total = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  const auto hours_in = [this](Phase p) { return to_hours(phase_time_[static_cast<std::size_t>(p)]); };
  result_.wait_hours = hours_in(Phase::kIdle) + hours_in(Phase::kDraining);
  result_.startup_hours = hours_in(Phase::kStarting);
  result_.restore_hours = hours_in(Phase::kRestoring);
  result_.checkpoint_hours = hours_in(Phase::kCheckpointing);
  notify(TimelineEventKind::kFinished);
}

// Out of line and only with an observer attached: the hot path keeps just the null test of notify().
void JobSimulation::emit(TimelineEventKind kind) {
  TimelineEvent event;
  event.time = now_ - job_start_;
  event.kind = kind;
  event.purchase = purchase_;
  event.zone = zone_;
  event.phase = phase_;
  event.progress = current_progress();
  event.committed = continuous_ ? event.progress : committed_;
  event.cost_booked = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  event.nodes = purchase_ == Purchase::kNone ? 0 : scenario_.job().nodes;
  event.completed = result_.completed;
  observer_->on_event(event);
}

}  // namespace spotsim
