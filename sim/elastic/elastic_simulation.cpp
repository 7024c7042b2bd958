#include "sim/elastic/elastic_simulation.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "sim/billing.hpp"
#include "sim/elastic/elastic_job.hpp"
#include "sim/errors.hpp"
#include "sim/market/node_reclaim.hpp"

namespace spotsim {

namespace {
const Zone& only_zone(const Scenario& scenario) {
  if (scenario.zone_count() != 1) {
    throw InputError("the elastic engine (min_nodes) runs a job in one zone; the trace has " +
                     std::to_string(scenario.zone_count()) + ": pick one with --zones");
  }
  if (!scenario.job().elastic.active()) throw InputError("the elastic engine needs min_nodes (1 to nodes)");
  return scenario.market().zones.front();
}
constexpr std::size_t index(auto phase) { return static_cast<std::size_t>(phase); }
}  // namespace

ElasticSimulation::ElasticSimulation(const Scenario& scenario, NodePolicy& policy, CheckpointPolicy& checkpoint)
    : scenario_(scenario),
      policy_(policy),
      checkpoint_(checkpoint),
      zone_(only_zone(scenario)),
      rate_(relative_throughput(scenario.job())),
      reconfigure_(reconfiguration_time(scenario.job())),
      nodes_(scenario.job().nodes),
      min_nodes_(scenario.job().elastic.min_nodes),
      varying_spot_price_(zone_.spot.price_per_hour.times().size() > 1),
      spot_price_per_ms_(zone_.spot.price_per_hour.values().front() / static_cast<double>(kMillisPerHour)),
      on_demand_price_per_ms_(zone_.on_demand_price_per_hour / static_cast<double>(kMillisPerHour)),
      queue_(64 + 4 * static_cast<std::size_t>(scenario.job().nodes)),
      slots_(static_cast<std::size_t>(scenario.job().nodes)) {
  scratch_.reserve(slots_.size());
  free_slots_.reserve(slots_.size());
  booting_.reserve(slots_.size());
  joining_.reserve(slots_.size());
  zone_views_.resize(1);
}

void ElasticSimulation::schedule(Millis time, EventKind kind, std::uint32_t epoch, int node) {
  queue_.push(time, Event{kind, epoch, node});
}

void ElasticSimulation::schedule_timeline(Millis time, EventKind kind) {
  timeline_ = TimelineSlot{true, kind, time, queue_.take_sequence()};
}

bool ElasticSimulation::event_current(const Event& e) const {
  switch (e.kind) {
    case EventKind::kNodeLifetimeOver: return slots_[static_cast<std::size_t>(e.node)].epoch == e.epoch;
    case EventKind::kPoolReclaim:
    case EventKind::kZoneReclaim: return e.epoch == pool_epoch_;
    case EventKind::kPoolRise: return e.epoch == rise_epoch_;
    case EventKind::kReview: return e.epoch == review_epoch_;
    default: return true;
  }
}

RunResult ElasticSimulation::run(std::uint64_t seed, std::uint64_t replication) {
  seed_ = seed;
  replication_ = replication;
  node_choice_prefix_ = stream_prefix(seed, replication, StreamPurpose::kNodeChoice);
  lifetime_stream_.reset();
  queue_.clear();
  for (Node& n : slots_) n = Node{Purchase::kNone, false, false, n.epoch + 1, 0};
  reset_free_slots();
  result_ = RunResult{};
  result_.replication = replication;
  result_.fingerprint = 0xcbf29ce484222325ULL;
  timeline_.active = false;
  progress_ = committed_ = checkpoint_progress_ = since_checkpoint_ = 0;
  interval_known_ = finished_ = false;
  target_spot_ = target_on_demand_ = 0;
  spot_held_ = spot_ready_ = on_demand_held_ = on_demand_ready_ = training_spot_ = training_on_demand_ = 0;
  phase_time_ = {};
  uncommitted_cost_ = booked_ = 0.0;
  policy_.reset();
  checkpoint_.reset();
  can_checkpoint_ = checkpoint_.can_checkpoint() && !checkpoint_.continuous();
  interval_varies_ = checkpoint_.varies_within_instance();  // (a fixed trait: no virtual call per stretch)
  on_demand_interval_ = kNever;

  const SpotMarket& market = scenario_.market();
  const TraceStart& start = scenario_.trace_start();
  job_start_ = start.offset;
  if (start.random && market.span != kNever) job_start_ = random_trace_start(market, seed, replication);
  result_.trace_start_hours = to_hours(job_start_);
  now_ = settled_at_ = phase_entered_ = job_start_;
  phase_ = JobPhase::kIdle;
  schedule(job_start_ + scenario_.job().effective_give_up(), EventKind::kGiveUp);
  on_demand_interval_ = probe_interval(Purchase::kOnDemand);
  spot_interval_ = probe_interval(Purchase::kSpot);
  pool_dirty_ = false;
  decide();
  if (pool_dirty_) schedule_pool_events();
  while (!finished_) {
    Event event;
    const bool work_done_now = timeline_.active && timeline_.kind == EventKind::kWorkDone &&
                               (queue_.empty() || timeline_.time <= queue_.top().time);
    const bool queued_first =
        !work_done_now && !queue_.empty() &&
        (!timeline_.active || EventQueue<Event>::earlier(queue_.top(), {timeline_.time, timeline_.sequence, Event{}}));
    if (queued_first) {
      const auto entry = queue_.pop();
      if (!event_current(entry.payload)) continue;
      event = entry.payload;
      now_ = entry.time;
    } else if (timeline_.active) {
      timeline_.active = false;
      event = Event{timeline_.kind, 0, -1};
      now_ = timeline_.time;
    } else {
      break;
    }
    ++result_.events;
    result_.fingerprint = mix_fingerprint(result_.fingerprint, now_ - job_start_, static_cast<std::uint8_t>(event.kind));
    settle();
    dispatch(event);
    if (pool_dirty_) schedule_pool_events();
  }
  return result_;
}

void ElasticSimulation::dispatch(const Event& e) {
  switch (e.kind) {
    case EventKind::kLaunchReady: on_launch_ready(); break;
    case EventKind::kNodeLifetimeOver: {
      const int slot = e.node;
      lose_nodes(std::span<const int>(&slot, 1), true);
      break;
    }
    case EventKind::kPoolReclaim: on_pool_reclaim(e.node); break;
    case EventKind::kZoneReclaim: on_zone_reclaim(); break;
    case EventKind::kPoolRise:
    case EventKind::kReview: decide(); break;
    case EventKind::kGiveUp: finish(false); break;
    case EventKind::kRestoreDone:
    case EventKind::kReconfigureDone: begin_compute(); break;
    case EventKind::kCheckpointDue: start_checkpoint(); break;
    case EventKind::kCheckpointDone: on_checkpoint_done(); break;
    case EventKind::kWorkDone:
      enter(JobPhase::kDone);
      progress_ = scenario_.job().work;
      finish(true);
      break;
  }
}

// Progress made by `spent` ms of training on the current set (exact on all nodes).
Millis ElasticSimulation::advance(Millis spent) const {
  const double r = rate_[static_cast<std::size_t>(training_spot_ + training_on_demand_)];
  return r == 1.0 ? spent : static_cast<Millis>(std::floor(static_cast<double>(spent) * r));
}

Millis ElasticSimulation::current_progress() const {
  return phase_ == JobPhase::kComputing ? progress_ + advance(now_ - phase_entered_) : progress_;
}

void ElasticSimulation::enter(JobPhase phase) {
  const Millis spent = now_ - phase_entered_;
  phase_time_[index(phase_)] += spent;
  if (phase_ == JobPhase::kComputing) {
    progress_ += advance(spent);
    since_checkpoint_ += spent;
  }
  const bool changed = phase != phase_;
  phase_ = phase;
  phase_entered_ = now_;
  if (changed && phase != JobPhase::kReconfiguring) notify(TimelineEventKind::kPhaseEntered);
}

// Books the cost of every held instance from the last settlement to now (nothing changes between events): booting
// instances to start-up, the training set to the job's phase, ready instances outside it to idle (or to start-up
// while the set is still forming).
void ElasticSimulation::settle() {
  const Millis from = settled_at_;
  settled_at_ = now_;
  if (now_ == from || (spot_held_ == 0 && on_demand_held_ == 0)) return;
  const double spot_unit = varying_spot_price_ ? zone_.spot.price_per_hour.integrate_hours(from, now_)
                                               : spot_price_per_ms_ * static_cast<double>(now_ - from);
  const double od_unit = on_demand_price_per_ms_ * static_cast<double>(now_ - from);
  const double training = training_spot_ * spot_unit + training_on_demand_ * od_unit;
  if (spot_held_ == training_spot_ && on_demand_held_ == training_on_demand_) {
    // The common case, every held instance training: the same sums without their zero terms (bit-identical).
    booked_ += training;
    book_training(training);
    return;
  }
  const double booting = (spot_held_ - spot_ready_) * spot_unit + (on_demand_held_ - on_demand_ready_) * od_unit;
  const double waiting = (spot_ready_ - training_spot_) * spot_unit + (on_demand_ready_ - training_on_demand_) * od_unit;
  booked_ += booting + training + waiting;
  result_.ledger_startup += booting;
  (phase_ == JobPhase::kStarting ? result_.ledger_startup : result_.ledger_idle) += waiting;
  book_training(training);
}

void ElasticSimulation::book_training(double training) {
  switch (phase_) {
    case JobPhase::kComputing: uncommitted_cost_ += training; break;
    case JobPhase::kCheckpointing: result_.ledger_checkpoint += training; break;
    case JobPhase::kRestoring: result_.ledger_restore += training; break;
    case JobPhase::kReconfiguring: result_.ledger_reconfigure += training; break;
    default: result_.ledger_idle += training; break;
  }
}

int ElasticSimulation::spot_obtainable() const {
  if (!zone_.spot.available) return INT_MAX;
  const double pool = zone_.spot.available->at(now_);
  return std::max(0, static_cast<int>(pool) - spot_held_);
}

NodeObservation ElasticSimulation::observe() const {
  NodeObservation obs;
  obs.now = now_;
  obs.elapsed = now_ - job_start_;
  obs.progress = current_progress();
  obs.committed = committed_;
  obs.nodes = nodes_;
  obs.min_nodes = min_nodes_;
  obs.spot_held = spot_held_;
  obs.spot_ready = spot_ready_;
  obs.on_demand_held = on_demand_held_;
  obs.on_demand_ready = on_demand_ready_;
  obs.training = training_spot_ + training_on_demand_;
  obs.running = obs.training > 0;
  obs.progressing = phase_ == JobPhase::kComputing;
  obs.spot_obtainable = spot_obtainable();
  obs.preemptions = result_.preemptions;
  obs.interruption = scenario_.job().startup + scenario_.job().restore;
  obs.reconfiguration = reconfigure_;
  obs.checkpoint_interval = on_demand_interval_;
  obs.spot_checkpoint_interval = spot_interval_;
  obs.spot_price_per_hour = varying_spot_price_ ? zone_.spot.price_per_hour.at(now_)
                                                : spot_price_per_ms_ * static_cast<double>(kMillisPerHour);
  obs.on_demand_price_per_hour = zone_.on_demand_price_per_hour;
  obs.rate = rate_;
  obs.job = &scenario_.job();
  return obs;
}

void ElasticSimulation::decide() {
  if (finished_) return;
  apply(policy_.decide(observe()));
}

void ElasticSimulation::apply(const NodeRequest& request) {
  ++review_epoch_;
  ++rise_epoch_;
  if (request.review_at != kNever) schedule(std::max(request.review_at, now_ + 1), EventKind::kReview, review_epoch_);
  target_on_demand_ = std::clamp(request.on_demand, 0, nodes_);
  target_spot_ = std::clamp(request.spot, 0, nodes_ - target_on_demand_);
  if (on_demand_held_ > target_on_demand_) release_surplus(Purchase::kOnDemand, on_demand_held_ - target_on_demand_);
  if (spot_held_ > target_spot_) release_surplus(Purchase::kSpot, spot_held_ - target_spot_);
  acquire_toward_targets();
}

// Adds instances toward the targets. While the job holds no training set it starts only when the targets can
// reach min_nodes now (otherwise it would pay for instances that cannot train); once training, every obtainable
// spot instance is added.
void ElasticSimulation::acquire_toward_targets() {
  const int add_on_demand = std::max(0, target_on_demand_ - on_demand_held_);
  const int want_spot = std::max(0, target_spot_ - spot_held_);
  const int add_spot = std::min(want_spot, spot_obtainable());
  const bool forming = training_spot_ + training_on_demand_ == 0;
  if (forming && spot_held_ + on_demand_held_ + add_on_demand + add_spot < min_nodes_) {
    // Wait until enough spot instances are obtainable to reach min_nodes.
    schedule_pool_rise(min_nodes_ - on_demand_held_ - add_on_demand);
    return;
  }
  if (add_on_demand > 0) acquire(Purchase::kOnDemand, add_on_demand);
  if (add_spot > 0) acquire(Purchase::kSpot, add_spot);
  if (add_spot < want_spot) schedule_pool_rise(spot_held_ + 1);
}

// Wake the policy when the pool can give the job `wanted` spot instances in all (counting those it holds).
void ElasticSimulation::schedule_pool_rise(int wanted) {
  if (!zone_.spot.available || wanted <= 0) return;
  const Millis at = zone_.spot.available->next_time_where(now_, [wanted](double v) { return v >= wanted; });
  if (at != kNever) schedule(at, EventKind::kPoolRise, rise_epoch_);
}

void ElasticSimulation::acquire(Purchase kind, int count) {
  if (spot_held_ + on_demand_held_ == 0) {
    progress_ = committed_;
    enter(JobPhase::kStarting);
    interval_known_ = false;  // a new training set: the checkpoint policy is asked again
  }
  const bool spot = kind == Purchase::kSpot;
  (spot ? result_.spot_starts : result_.on_demand_starts) += 1;
  if (spot && spot_held_ == 0) spot_since_ = now_;
  if (!spot && on_demand_held_ == 0) on_demand_since_ = now_;
  (spot ? spot_held_ : on_demand_held_) += count;
  // Lifetimes as the single-instance engine draws them for a launch of `count` nodes (same stream, same order).
  const SpotOffer& offer = zone_.spot;
  bool shared = false;
  double shared_lifetime = INFINITY;
  if (spot && offer.lifetime) {
    if (!lifetime_stream_) lifetime_stream_.emplace(seed_, replication_, StreamPurpose::kSpotLifetime, 0);
    shared = count > 1 && offer.node_correlation > 0.0 && lifetime_stream_->uniform01() < offer.node_correlation;
    if (shared) shared_lifetime = offer.lifetime->sample(lifetime_stream_->uniform_open01());
  }
  int placed = 0;
  for (; placed < count && !free_slots_.empty(); free_slots_.pop_back()) {
    const std::size_t s = static_cast<std::size_t>(free_slots_.back());
    Node& node = slots_[s];
    node.kind = kind;
    node.ready = node.training = false;
    node.acquired = now_;
    node.ready_at = now_ + scenario_.job().startup;
    ++placed;
    const int slot = static_cast<int>(s);
    booting_.push_back(slot);
    if (spot && offer.lifetime) {
      const double life = shared ? shared_lifetime : offer.lifetime->sample(lifetime_stream_->uniform_open01());
      if (std::isfinite(life)) {
        schedule(now_ + static_cast<Millis>(std::ceil(life * kMillisPerHour)), EventKind::kNodeLifetimeOver, node.epoch, slot);
      }
    }
  }
  assert(placed == count);
  schedule(now_ + scenario_.job().startup, EventKind::kLaunchReady);
  if (spot) pool_changed();
  notify(TimelineEventKind::kInstanceAcquired, kind);
}

// The job's spot count changed: pending pool events are stale, and the next ones are found once the event that
// changed it is fully handled (a loss and its replacement then cost one search, not two).
void ElasticSimulation::pool_changed() {
  ++pool_epoch_;
  pool_dirty_ = true;
}

// The next pool event that concerns the job's spot instances, for its current count.
void ElasticSimulation::schedule_pool_events() {
  pool_dirty_ = false;
  ++pool_epoch_;
  if (spot_held_ == 0) return;
  const SpotOffer& offer = zone_.spot;
  if (offer.available) {
    const Reclaim next = next_reclaim(*offer.available, now_, spot_held_, seed_, replication_);
    if (next.at != kNever) schedule(next.at, EventKind::kPoolReclaim, pool_epoch_, next.lost);
  }
  if (!offer.preemption_times.empty()) {
    const Millis period = offer.preemption_period;
    const Millis phase = period == kNever ? now_ : ((now_ % period) + period) % period;
    const auto& times = offer.preemption_times;
    const auto it = std::upper_bound(times.begin(), times.end(), phase);
    Millis at = kNever;
    if (it != times.end()) {
      at = now_ - phase + *it;
    } else if (period != kNever) {
      at = now_ - phase + period + times.front();
    }
    if (at != kNever) schedule(at, EventKind::kZoneReclaim, pool_epoch_);
  }
}

// Which of the job's spot instances the pool's drop took: as many as node_reclaim drew, each chosen uniformly
// among those the job still holds, from counter-based uniforms of the same key.
void ElasticSimulation::on_pool_reclaim(int lost) {
  collect_spot_slots();
  for (int j = 0; j < lost; ++j) {
    const std::uint64_t key = splitmix64(static_cast<std::uint64_t>(now_)) ^ static_cast<std::uint64_t>(j);
    const double u = static_cast<double>(stream_seed_from_prefix(node_choice_prefix_, key) >> 11) * 0x1.0p-53;
    const std::size_t pick = static_cast<std::size_t>(j) +
                             std::min(scratch_.size() - static_cast<std::size_t>(j) - 1,
                                      static_cast<std::size_t>(u * static_cast<double>(scratch_.size() - static_cast<std::size_t>(j))));
    std::swap(scratch_[static_cast<std::size_t>(j)], scratch_[pick]);
  }
  scratch_.resize(static_cast<std::size_t>(lost));
  lose_nodes(scratch_, true);
}

// The job's spot instances, in slot order, into scratch_.
void ElasticSimulation::collect_spot_slots() {
  scratch_.resize(slots_.size());  // (capacity reserved once: no allocation)
  std::size_t found = 0;
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    scratch_[found] = static_cast<int>(s);
    found += slots_[s].kind == Purchase::kSpot;
  }
  scratch_.resize(found);
}

void ElasticSimulation::on_zone_reclaim() {
  collect_spot_slots();
  lose_nodes(scratch_, true);
}

void ElasticSimulation::bill(Purchase kind, Millis acquired, int count) {
  const Millis held = now_ - acquired;
  const Billing& billing = scenario_.market().billing;
  if (kind == Purchase::kSpot) {
    result_.cost_spot += count * instance_cost(zone_.spot.price_per_hour, acquired, held, billing);
    result_.spot_node_hours += count * to_hours(held);
  } else {
    result_.cost_on_demand += count * zone_.on_demand_price_per_hour * to_hours(billed_duration(held, billing));
    result_.on_demand_node_hours += count * to_hours(held);
  }
}

// Releases one instance (billing it); the caller fixes the training set.
void ElasticSimulation::release_node(int slot) {
  Node& node = slots_[static_cast<std::size_t>(slot)];
  const bool spot = node.kind == Purchase::kSpot;
  bill(node.kind, node.acquired, 1);
  (spot ? spot_held_ : on_demand_held_) -= 1;
  if (node.ready) (spot ? spot_ready_ : on_demand_ready_) -= 1;
  if (!node.training) {  // (the lists are short: a launch's instances, or those up since the set last formed)
    std::vector<int>& list = node.ready ? joining_ : booting_;
    const auto it = std::find(list.begin(), list.end(), slot);
    assert(it != list.end());
    *it = list.back();
    list.pop_back();
  }
  if (node.training) (spot ? training_spot_ : training_on_demand_) -= 1;
  if (spot && spot_held_ == 0) result_.spot_hours += to_hours(now_ - spot_since_);
  if (!spot && on_demand_held_ == 0) result_.on_demand_hours += to_hours(now_ - on_demand_since_);
  node = Node{Purchase::kNone, false, false, node.epoch + 1, 0};
  free_slots_.push_back(slot);
}

// Lowest slot on top: a launch onto an empty job takes slots 0, 1, 2... (contiguous, so release_all bills it as one).
// Every slot is free: none is booting or joining either.
void ElasticSimulation::reset_free_slots() {
  booting_.clear();
  joining_.clear();
  free_slots_.clear();
  for (std::size_t s = slots_.size(); s-- > 0;) free_slots_.push_back(static_cast<int>(s));
}

// Every instance, billed by launch (instances launched together are billed as one group, as the single-instance
// engine bills its N nodes).
void ElasticSimulation::release_all() {
  for (std::size_t s = 0; s < slots_.size();) {
    const Node first = slots_[s];
    if (first.kind == Purchase::kNone) {
      ++s;
      continue;
    }
    std::size_t end = s + 1;
    while (end < slots_.size() && slots_[end].kind == first.kind && slots_[end].acquired == first.acquired) ++end;
    bill(first.kind, first.acquired, static_cast<int>(end - s));
    for (std::size_t i = s; i < end; ++i) slots_[i] = Node{Purchase::kNone, false, false, slots_[i].epoch + 1, 0};
    s = end;
  }
  if (spot_held_ > 0) result_.spot_hours += to_hours(now_ - spot_since_);
  if (on_demand_held_ > 0) result_.on_demand_hours += to_hours(now_ - on_demand_since_);
  const bool had_spot = spot_held_ > 0, had_on_demand = on_demand_held_ > 0;
  spot_held_ = spot_ready_ = on_demand_held_ = on_demand_ready_ = training_spot_ = training_on_demand_ = 0;
  reset_free_slots();
  ++pool_epoch_;
  if (had_spot) notify(TimelineEventKind::kInstanceReleased, Purchase::kSpot);
  if (had_on_demand) notify(TimelineEventKind::kInstanceReleased, Purchase::kOnDemand);
}

// A policy asked for fewer instances: booting or idle ones go first, newest first; training ones last, which is a
// loss the job reconfigures around (or stops at, below min_nodes).
void ElasticSimulation::release_surplus(Purchase kind, int count) {
  scratch_.clear();
  for (int pass = 0; pass < 2 && static_cast<int>(scratch_.size()) < count; ++pass) {
    for (std::size_t s = slots_.size(); s-- > 0 && static_cast<int>(scratch_.size()) < count;) {
      const Node& node = slots_[s];
      if (node.kind == kind && node.training == (pass == 1)) scratch_.push_back(static_cast<int>(s));
    }
  }
  lose_nodes(scratch_, false);
}

// Every instance whose start-up ends now is up (one event per launch; launches of the same millisecond are all
// taken by the first, so a training set never forms without instances that come up at the same time).
void ElasticSimulation::on_launch_ready() {
  // Only the booting instances can come up (usually the one or two launched as replacements, not all N slots).
  int spot_up = 0, on_demand_up = 0;
  std::size_t still_booting = 0;
  for (const int slot : booting_) {
    Node& node = slots_[static_cast<std::size_t>(slot)];
    if (node.ready_at == now_) {
      node.ready = true;
      joining_.push_back(slot);
      (node.kind == Purchase::kSpot ? spot_up : on_demand_up) += 1;
    } else {
      booting_[still_booting++] = slot;
    }
  }
  booting_.resize(still_booting);
  spot_ready_ += spot_up;
  on_demand_ready_ += on_demand_up;
  if (spot_up + on_demand_up == 0) return;
  switch (phase_) {
    case JobPhase::kStarting:
      if (spot_ready_ + on_demand_ready_ >= min_nodes_) {
        form_training_set();
        restore_or_compute();
      }
      break;
    case JobPhase::kComputing:
    case JobPhase::kReconfiguring: begin_reconfiguration(); break;
    default: break;  // joins when the restore or checkpoint write in progress ends
  }
}

void ElasticSimulation::form_training_set() {
  if (training_spot_ == spot_ready_ && training_on_demand_ == on_demand_ready_) return;  // (after a loss: no joiner)
  for (const int slot : joining_) slots_[static_cast<std::size_t>(slot)].training = true;
  joining_.clear();
  training_spot_ = spot_ready_;
  training_on_demand_ = on_demand_ready_;
  notify(TimelineEventKind::kNodesChanged);
}

// `slots` may be scratch_: it is read before anything that could refill scratch_ (the policy's decision, last).
void ElasticSimulation::lose_nodes(std::span<const int> slots, bool preemption) {
  if (slots.empty()) return;
  if (phase_ == JobPhase::kComputing) enter(JobPhase::kComputing);  // book the progress made at the old size
  int training_lost = 0, spot_lost = 0;
  for (int slot : slots) {
    training_lost += slots_[static_cast<std::size_t>(slot)].training;
    spot_lost += slots_[static_cast<std::size_t>(slot)].kind == Purchase::kSpot;
  }
  if (preemption) {
    ++result_.preemptions;
    result_.nodes_lost += static_cast<int>(slots.size());
    notify(TimelineEventKind::kPreemption);  // what was held when the instances went
  }
  const int training = training_spot_ + training_on_demand_ - training_lost;
  const int held = spot_held_ + on_demand_held_ - static_cast<int>(slots.size());
  const bool was_running = phase_ == JobPhase::kComputing || phase_ == JobPhase::kCheckpointing ||
                           phase_ == JobPhase::kRestoring || phase_ == JobPhase::kReconfiguring;
  if ((was_running && training < min_nodes_) || (phase_ == JobPhase::kStarting && held < min_nodes_)) {
    stop();  // releases every instance, the lost ones with the rest (billed per launch, as a restart bills)
  } else {
    const bool on_demand_lost = spot_lost < static_cast<int>(slots.size());
    for (int slot : slots) release_node(slot);
    if (spot_lost > 0) notify(TimelineEventKind::kInstanceReleased, Purchase::kSpot);
    if (on_demand_lost) notify(TimelineEventKind::kInstanceReleased, Purchase::kOnDemand);
    if (training_lost > 0) notify(TimelineEventKind::kNodesChanged);
    pool_changed();
    if (training_lost > 0 && (phase_ == JobPhase::kComputing || phase_ == JobPhase::kCheckpointing ||
                              phase_ == JobPhase::kReconfiguring)) {
      begin_reconfiguration();
    }
  }
  if (preemption) decide();  // (a release the policy asked for is already part of its decision)
}

// Below min_nodes: training stops, unsaved progress is lost, every instance is released.
void ElasticSimulation::stop() {
  enter(JobPhase::kIdle);
  const Millis lost = progress_ - committed_;
  result_.lost_work_hours += to_hours(lost);
  progress_ = committed_;
  result_.ledger_lost_work += uncommitted_cost_;
  uncommitted_cost_ = 0.0;
  since_checkpoint_ = 0;
  release_all();
  timeline_.active = false;
}

void ElasticSimulation::begin_reconfiguration() {
  if (phase_ != JobPhase::kReconfiguring) ++result_.reconfigurations;
  enter(JobPhase::kReconfiguring);  // a checkpoint write in progress is abandoned: the survivors hold the state
  notify(TimelineEventKind::kReconfiguring);
  form_training_set();
  schedule_timeline(now_ + reconfigure_, EventKind::kReconfigureDone);
}

void ElasticSimulation::restore_or_compute() {
  if (committed_ > 0 && !checkpoint_.continuous()) {
    enter(JobPhase::kRestoring);
    schedule_timeline(now_ + scenario_.job().restore, EventKind::kRestoreDone);
  } else {
    begin_compute();
  }
}

// The interval the checkpoint policy uses on a training set of this kind, for the deadline arithmetic of policies:
// asked once per replication on a hypothetical training set, then the policy is reset so the probe leaves no trace
// (as the single-instance engine does).
Millis ElasticSimulation::probe_interval(Purchase purchase) {
  if (!can_checkpoint_) return kNever;
  const Millis interval = checkpoint_interval_for(purchase);
  interval_known_ = false;
  checkpoint_.reset();
  return interval == kNever ? kNever : std::max<Millis>(interval, 1);
}

Millis ElasticSimulation::checkpoint_interval() {
  if (interval_known_ && !interval_varies_) return interval_;
  interval_ = checkpoint_interval_for(training_spot_ > 0 ? Purchase::kSpot : Purchase::kOnDemand);
  interval_known_ = true;
  return interval_;
}

Millis ElasticSimulation::checkpoint_interval_for(Purchase purchase) {
  scenario_.view_zones(now_, 0, zone_views_);
  Observation obs;
  obs.now = now_;
  obs.elapsed = now_ - job_start_;
  obs.progress = progress_;
  obs.committed = committed_;
  obs.phase = Phase::kComputing;
  obs.purchase = purchase;
  obs.zone = 0;
  obs.data_zone = 0;
  obs.preemptions = result_.preemptions;
  obs.can_checkpoint = can_checkpoint_;
  obs.job = &scenario_.job();
  obs.zones = zone_views_;
  return checkpoint_.next_interval(obs);
}

void ElasticSimulation::begin_compute() {
  if (spot_ready_ + on_demand_ready_ > training_spot_ + training_on_demand_) {
    begin_reconfiguration();  // instances that came up during the restore or write join first
    return;
  }
  enter(JobPhase::kComputing);
  const double r = rate_[static_cast<std::size_t>(training_spot_ + training_on_demand_)];
  const Millis remaining = scenario_.job().work - progress_;
  Millis due = kNever;
  if (can_checkpoint_) {
    due = checkpoint_interval() == kNever ? kNever : std::max<Millis>(interval_ - since_checkpoint_, 1);
    // At r <= 1 finishing takes at least `remaining`: a checkpoint due before that needs no division.
    if (due < remaining && r <= 1.0) {
      schedule_timeline(now_ + due, EventKind::kCheckpointDue);
      return;
    }
  }
  const Millis to_finish = r == 1.0 ? remaining : static_cast<Millis>(std::ceil(static_cast<double>(remaining) / r));
  schedule_timeline(now_ + std::min(due, to_finish), due < to_finish ? EventKind::kCheckpointDue : EventKind::kWorkDone);
}

void ElasticSimulation::start_checkpoint() {
  enter(JobPhase::kCheckpointing);  // books the progress of the stretch that ends now
  checkpoint_progress_ = progress_;
  schedule_timeline(now_ + scenario_.job().checkpoint_write, EventKind::kCheckpointDone);
}

void ElasticSimulation::on_checkpoint_done() {
  committed_ = checkpoint_progress_;
  since_checkpoint_ = 0;
  result_.ledger_compute += uncommitted_cost_;
  uncommitted_cost_ = 0.0;
  ++result_.checkpoints;
  notify(TimelineEventKind::kCheckpointDone);
  begin_compute();
}

void ElasticSimulation::finish(bool completed) {
  if (phase_ != JobPhase::kDone) enter(JobPhase::kDone);
  if (completed) {
    result_.ledger_compute += uncommitted_cost_;
  } else {
    result_.ledger_lost_work += uncommitted_cost_;  // (lost_work_hours counts preemptions and switches only)
    progress_ = committed_;
  }
  uncommitted_cost_ = 0.0;
  release_all();
  finished_ = true;
  const JobSpec& job = scenario_.job();
  result_.completed = completed;
  result_.cost_total = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  result_.ledger_rounding = result_.cost_spot + result_.cost_on_demand - booked_;
  result_.completion_hours = to_hours(now_ - job_start_);
  result_.deadline_met = completed && (job.deadline == kNever || now_ - job_start_ <= job.deadline);
  const auto hours_in = [this](JobPhase p) { return to_hours(phase_time_[index(p)]); };
  result_.wait_hours = hours_in(JobPhase::kIdle);
  result_.startup_hours = hours_in(JobPhase::kStarting);
  result_.restore_hours = hours_in(JobPhase::kRestoring);
  result_.checkpoint_hours = hours_in(JobPhase::kCheckpointing);
  result_.reconfigure_hours = hours_in(JobPhase::kReconfiguring);
  // Work kept, in hours one instance would need (k / t_k scaling from one instance to all of them).
  result_.work_done_hours = to_hours(completed ? job.work : committed_) * single_instance_speedup(job);
  notify(TimelineEventKind::kFinished);
}

// Out of line and only with an observer attached. `purchase` names the kind an acquisition or release concerns;
// otherwise the event names spot when any is held (the counts say the mix).
void ElasticSimulation::emit(TimelineEventKind kind, Purchase purchase) {
  TimelineEvent event;
  event.time = now_ - job_start_;
  event.kind = kind;
  const int held = spot_held_ + on_demand_held_;
  if (purchase == Purchase::kNone && held > 0) purchase = spot_held_ > 0 ? Purchase::kSpot : Purchase::kOnDemand;
  event.purchase = purchase;
  event.zone = purchase == Purchase::kNone ? -1 : 0;
  switch (phase_) {
    case JobPhase::kIdle: event.phase = Phase::kIdle; break;
    case JobPhase::kStarting: event.phase = Phase::kStarting; break;
    case JobPhase::kRestoring: event.phase = Phase::kRestoring; break;
    case JobPhase::kComputing: event.phase = Phase::kComputing; break;
    case JobPhase::kCheckpointing: event.phase = Phase::kCheckpointing; break;
    case JobPhase::kReconfiguring:  // (Phase has no such value: policies of the single-instance engine never see it)
      event.phase = Phase::kComputing;
      event.reconfiguring = true;
      break;
    case JobPhase::kDone: event.phase = Phase::kDone; break;
  }
  event.progress = current_progress();
  event.committed = committed_;
  event.cost_booked = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  event.nodes = held;
  event.spot_nodes = spot_held_;
  event.on_demand_nodes = on_demand_held_;
  event.training_nodes = training_spot_ + training_on_demand_;
  event.completed = result_.completed;
  observer_->on_event(event);
}

}  // namespace spotsim
