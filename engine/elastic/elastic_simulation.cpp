#include "engine/elastic/elastic_simulation.hpp"
// The job's phases, training set and checkpoints; its instances (launches, reclaims, releases, bills) are in
// elastic_instances.cpp.

#include <algorithm>
#include <cassert>
#include <climits>
#include <cmath>

#include "base/errors.hpp"
#include "model/elastic_job.hpp"
#include "model/market/node_reclaim.hpp"

namespace spotsim {

namespace {
const Scenario& checked(const Scenario& scenario) {
  if (!scenario.job().elastic.active()) throw InputError("the elastic engine needs min_nodes (1 to nodes)");
  return scenario;
}
constexpr std::size_t index(auto phase) { return static_cast<std::size_t>(phase); }
}  // namespace

ElasticSimulation::ElasticSimulation(const Scenario& scenario, NodePolicy& policy, CheckpointPolicy& checkpoint)
    : scenario_(checked(scenario)),
      policy_(policy),
      checkpoint_(checkpoint),
      rate_(relative_throughput(scenario.job())),
      reconfigure_(reconfiguration_time(scenario.job())),
      nodes_(scenario.job().nodes),
      min_nodes_(scenario.job().elastic.min_nodes),
      queue_(64 + 4 * static_cast<std::size_t>(scenario.job().nodes)),
      slots_(static_cast<std::size_t>(scenario.job().nodes)) {
  scratch_.reserve(slots_.size());
  free_slots_.reserve(slots_.size());
  booting_.reserve(slots_.size());
  joining_.reserve(slots_.size());
  const auto zones = static_cast<std::size_t>(scenario.zone_count());
  zone_views_.resize(zones);
  node_zone_views_.resize(zones);
  lifetime_streams_.resize(zones);
  on_demand_intervals_.resize(zones, kNever);
  spot_intervals_.resize(zones, kNever);
  use_zone(0);
}

// The job's instances will be launched in `zone` from now on (it holds none).
void ElasticSimulation::use_zone(int zone) {
  zone_index_ = zone;
  zone_ = &scenario_.market().zones[static_cast<std::size_t>(zone)];
  varying_spot_price_ = zone_->spot.price_per_hour.times().size() > 1;
  spot_price_per_ms_ = zone_->spot.price_per_hour.values().front() / static_cast<double>(kMillisPerHour);
  on_demand_price_per_ms_ = zone_->on_demand_price_per_hour / static_cast<double>(kMillisPerHour);
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

Millis ElasticSimulation::window_start(std::uint64_t seed, std::uint64_t replication) const {
  const TraceStart& start = scenario_.trace_start();
  if (start.random && scenario_.market().span != kNever)
    return random_trace_start(scenario_.market(), seed, replication);
  return start.offset;
}

void ElasticSimulation::begin(std::uint64_t seed, std::uint64_t replication, Millis start) {
  seed_ = seed;
  replication_ = replication;
  node_choice_prefix_ = stream_prefix(seed, replication, StreamPurpose::kNodeChoice);
  for (auto& stream : lifetime_streams_) stream.reset();
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

  use_zone(0);
  data_zone_ = -1;
  job_start_ = start;
  result_.trace_start_hours = to_hours(job_start_);
  now_ = settled_at_ = phase_entered_ = job_start_;
  phase_ = JobPhase::kIdle;
  schedule(job_start_ + scenario_.job().effective_give_up(), EventKind::kGiveUp);
  for (std::size_t z = 0; z < spot_intervals_.size(); ++z) {
    on_demand_intervals_[z] = probe_interval(Purchase::kOnDemand, static_cast<int>(z));
    spot_intervals_[z] = probe_interval(Purchase::kSpot, static_cast<int>(z));
  }
  reset_zone_views();
  pool_dirty_ = false;
  next_pool_reclaim_at_ = kNever;
  campaign_reclaims_pending_ = 0;
  decide();
  if (pool_dirty_) schedule_pool_events();
}

RunResult ElasticSimulation::run(std::uint64_t seed, std::uint64_t replication) {
  begin(seed, replication, window_start(seed, replication));
  while (!finished_ && advance()) {
  }
  return result_;
}

Millis ElasticSimulation::next_event_time() {
  if (finished_) return kNever;
  while (!queue_.empty() && !event_current(queue_.top().payload)) queue_.pop();  // stale: not the next event's time
  Millis next = timeline_.active ? timeline_.time : kNever;
  if (!queue_.empty()) next = std::min(next, queue_.top().time);
  return next;
}

void ElasticSimulation::step() {
  if (!finished_) advance();
}

// Pops the next live event and handles it; false when nothing is pending.
bool ElasticSimulation::advance() {
  for (;;) {
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
      return false;
    }
    ++result_.events;
    result_.fingerprint =
        mix_fingerprint(result_.fingerprint, now_ - job_start_, static_cast<std::uint8_t>(event.kind));
    settle();
    dispatch(event);
    if (pool_dirty_) schedule_pool_events();
    return true;
  }
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
    case EventKind::kCampaignReclaim: {
      campaign_reclaims_pending_ -= e.node;
      const int lost = std::min(e.node, spot_held_);  // (its own draws may have taken some meanwhile)
      if (lost > 0) on_pool_reclaim(lost);
      break;
    }
    case EventKind::kZoneReclaim: on_zone_reclaim(); break;
    case EventKind::kPoolRise:
    case EventKind::kReview: decide(); break;
    case EventKind::kGiveUp: finish(false); break;
    case EventKind::kRestoreDone:
    case EventKind::kReconfigureDone: begin_compute(); break;
    case EventKind::kCheckpointDue: start_checkpoint(); break;
    case EventKind::kCheckpointDone: on_checkpoint_done(); break;
    case EventKind::kTransferDone: on_transfer_done(); break;
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
  const double spot_unit = varying_spot_price_ ? zone_->spot.price_per_hour.integrate_hours(from, now_)
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
  const double waiting =
      (spot_ready_ - training_spot_) * spot_unit + (on_demand_ready_ - training_on_demand_) * od_unit;
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
    case JobPhase::kTransferring: result_.ledger_transfer += training; break;
    default: result_.ledger_idle += training; break;
  }
}

int ElasticSimulation::spot_obtainable_in(int zone) const {
  const Zone& z = scenario_.market().zones[static_cast<std::size_t>(zone)];
  if (!z.spot.available) return INT_MAX;
  const double pool = z.spot.available->at(now_);
  // In a campaign the zone's count is shared: what every job holds (this one's own included) is taken.
  const int own = zone == zone_index_ ? spot_held_ : 0;
  return std::max(0, static_cast<int>(pool) - (capacity_ != nullptr ? capacity_->held(zone) : own));
}

NodeObservation ElasticSimulation::observe() {
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
  obs.checkpoint_interval = on_demand_intervals_[static_cast<std::size_t>(zone_index_)];
  obs.spot_checkpoint_interval = spot_intervals_[static_cast<std::size_t>(zone_index_)];
  obs.spot_price_per_hour = varying_spot_price_ ? zone_->spot.price_per_hour.at(now_)
                                                : spot_price_per_ms_ * static_cast<double>(kMillisPerHour);
  obs.on_demand_price_per_hour = zone_->on_demand_price_per_hour;
  obs.rate = rate_;
  obs.job = &scenario_.job();
  obs.zone = zone_index_;
  obs.data_zone = data_zone_;
  NodeZoneView& here = node_zone_views_[static_cast<std::size_t>(zone_index_)];
  here.spot_obtainable = obs.spot_obtainable;
  here.spot_price_per_hour = obs.spot_price_per_hour;
  if (node_zone_views_.size() > 1) view_other_zones();
  obs.zones = node_zone_views_;
  return obs;
}

// What does not change within a replication (prices on demand, the checkpoint policy's intervals; nothing saved
// yet: every move free); observe() updates the rest.
void ElasticSimulation::reset_zone_views() {
  const auto& zones = scenario_.market().zones;
  for (std::size_t z = 0; z < node_zone_views_.size(); ++z) {
    NodeZoneView& view = node_zone_views_[z];
    view = NodeZoneView{};
    view.on_demand_price_per_hour = zones[z].on_demand_price_per_hour;
    view.checkpoint_interval = on_demand_intervals_[z];
    view.spot_checkpoint_interval = spot_intervals_[z];
  }
}

// The other zones' spot now, and every zone's move from where the saved state lies.
void ElasticSimulation::view_other_zones() {
  const auto& zones = scenario_.market().zones;
  for (std::size_t z = 0; z < node_zone_views_.size(); ++z) {
    NodeZoneView& view = node_zone_views_[z];
    const int zone = static_cast<int>(z);
    if (zone != zone_index_) {
      view.spot_obtainable = spot_obtainable_in(zone);
      view.spot_price_per_hour = zones[z].spot.price_per_hour.at(now_);
    }
    const MigrationCost& move = scenario_.migration(data_zone_, zone);
    view.move_time = move.transfer;
    view.move_cost = move.egress_usd;
  }
}

void ElasticSimulation::decide() {
  if (finished_) return;
  apply(policy_.decide(observe()));
}

void ElasticSimulation::apply(const NodeRequest& request) {
  ++review_epoch_;
  ++rise_epoch_;
  if (request.review_at != kNever) schedule(std::max(request.review_at, now_ + 1), EventKind::kReview, review_epoch_);
  const int zones = static_cast<int>(node_zone_views_.size());
  assert(request.zone < zones);
  if (request.zone >= 0 && request.zone < zones && request.zone != zone_index_) move_to(request.zone);
  target_on_demand_ = std::clamp(request.on_demand, 0, nodes_);
  target_spot_ = std::clamp(request.spot, 0, nodes_ - target_on_demand_);
  if (on_demand_held_ > target_on_demand_) release_surplus(Purchase::kOnDemand, on_demand_held_ - target_on_demand_);
  if (spot_held_ > target_spot_) release_surplus(Purchase::kSpot, spot_held_ - target_spot_);
  acquire_toward_targets();
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
        transfer_or_restore();
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
                           phase_ == JobPhase::kRestoring || phase_ == JobPhase::kReconfiguring ||
                           phase_ == JobPhase::kTransferring;
  if ((was_running && training < min_nodes_) || (phase_ == JobPhase::kStarting && held < min_nodes_)) {
    stop_training();  // releases every instance, the lost ones with the rest (billed per launch, as a restart bills)
  } else {
    const bool on_demand_lost = spot_lost < static_cast<int>(slots.size());
    for (int slot : slots) release_node(slot);
    if (spot_lost > 0) notify(TimelineEventKind::kInstanceReleased, Purchase::kSpot);
    if (on_demand_lost) notify(TimelineEventKind::kInstanceReleased, Purchase::kOnDemand);
    if (training_lost > 0) notify(TimelineEventKind::kNodesChanged);
    pool_changed();
    if (training_lost > 0 &&
        (phase_ == JobPhase::kComputing || phase_ == JobPhase::kCheckpointing || phase_ == JobPhase::kReconfiguring)) {
      begin_reconfiguration();
    }
  }
  if (preemption) decide();  // (a release the policy asked for is already part of its decision)
}

// Below min_nodes: training stops, unsaved progress is lost, every instance is released.
void ElasticSimulation::stop_training() {
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

// The policy named another zone: every instance held goes (a stop, as a loss below min_nodes), and the targets are
// launched there. Not a preemption.
void ElasticSimulation::move_to(int zone) {
  if (spot_held_ + on_demand_held_ > 0) stop_training();
  use_zone(zone);
  pool_changed();
}

// A training set formed: move the saved state here first if it lies in another region (docs/migration.md), else
// restore it (if anything was committed) and compute.
void ElasticSimulation::transfer_or_restore() {
  if (const MigrationCost* move = scenario_.costly_move(data_zone_, zone_index_)) {
    result_.cost_egress += move->egress_usd;  // paid in full when the transfer starts, whatever happens next
    enter(JobPhase::kTransferring);
    schedule_timeline(now_ + move->transfer, EventKind::kTransferDone);
    return;
  }
  restore_or_compute();
}

void ElasticSimulation::on_transfer_done() {
  data_zone_ = zone_index_;
  ++result_.migrations;
  notify(TimelineEventKind::kTransferDone);
  restore_or_compute();
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
Millis ElasticSimulation::probe_interval(Purchase purchase, int zone) {
  if (!can_checkpoint_) return kNever;
  const Millis interval = checkpoint_interval_for(purchase, zone);
  interval_known_ = false;
  checkpoint_.reset();
  return interval == kNever ? kNever : std::max<Millis>(interval, 1);
}

Millis ElasticSimulation::checkpoint_interval() {
  if (interval_known_ && !interval_varies_) return interval_;
  interval_ = checkpoint_interval_for(training_spot_ > 0 ? Purchase::kSpot : Purchase::kOnDemand, zone_index_);
  interval_known_ = true;
  return interval_;
}

Millis ElasticSimulation::checkpoint_interval_for(Purchase purchase, int zone) {
  // (Before anything is saved the state is taken to lie where the job is: the policy sees no move to pay for.)
  const int data_zone = data_zone_ < 0 ? zone : data_zone_;
  scenario_.view_zones(now_, data_zone, zone_views_);
  Observation obs;
  obs.now = now_;
  obs.elapsed = now_ - job_start_;
  obs.progress = progress_;
  obs.committed = committed_;
  obs.phase = Phase::kComputing;
  obs.purchase = purchase;
  obs.zone = zone;
  obs.data_zone = data_zone;
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
  schedule_timeline(now_ + std::min(due, to_finish),
                    due < to_finish ? EventKind::kCheckpointDue : EventKind::kWorkDone);
}

void ElasticSimulation::start_checkpoint() {
  enter(JobPhase::kCheckpointing);  // books the progress of the stretch that ends now
  checkpoint_progress_ = progress_;
  schedule_timeline(now_ + scenario_.job().checkpoint_write, EventKind::kCheckpointDone);
}

void ElasticSimulation::on_checkpoint_done() {
  committed_ = checkpoint_progress_;
  data_zone_ = zone_index_;
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
  result_.migration_hours = hours_in(JobPhase::kTransferring);
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
  event.zone = purchase == Purchase::kNone ? -1 : zone_index_;
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
    case JobPhase::kTransferring: event.phase = Phase::kMigrating; break;
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

void ElasticSimulation::set_milestones(std::vector<Millis> milestones) {
  if (!milestones.empty()) throw InputError("early stopping (--halving) is not built for elastic jobs (min_nodes)");
}

int ElasticSimulation::reclaim_spot(Millis /*now*/, Millis at, int instances) {
  if (finished_) return 0;
  const int take = std::min(instances, spot_held_ - campaign_reclaims_pending_);
  if (take <= 0) return 0;
  campaign_reclaims_pending_ += take;
  schedule(std::max(now_, at), EventKind::kCampaignReclaim, 0, take);
  return take;
}

void ElasticSimulation::wake_for_spot(Millis at) {
  if (!waiting_for_spot()) return;
  schedule(std::max(now_, at), EventKind::kPoolRise, rise_epoch_);
}

void ElasticSimulation::stop(Millis at) {
  if (finished_) return;
  now_ = std::max(now_, at);
  settle();
  finish(false);
}

Purchase ElasticSimulation::purchase() const {
  return spot_held_ > 0 ? Purchase::kSpot : on_demand_held_ > 0 ? Purchase::kOnDemand : Purchase::kNone;
}

// Its lifetimes' draws aside (each instance its own): the campaign's pending reclaims, the pool's next one as
// scheduled, then the pool's later draws up to `t` for the count that leaves (several drops can fall within a
// zone's notice, and each takes its own draw).
int ElasticSimulation::spot_held_at(Millis t) const {
  int held = spot_held_ - campaign_reclaims_pending_;
  if (held <= 0 || next_pool_reclaim_at_ > t) return std::max(0, held);
  held -= next_pool_reclaim_lost_;
  for (Millis from = next_pool_reclaim_at_; held > 0;) {
    const Reclaim next = next_reclaim(*zone_->spot.available, from, held, seed_, replication_);
    if (next.at > t) break;
    held -= next.lost;
    from = next.at;
  }
  return std::max(0, held);
}

// What the held instances have cost by `t` at their prices, before billing granularity (the budget's view).
double ElasticSimulation::spend_at(Millis t) const {
  double spent = result_.cost_spot + result_.cost_on_demand + result_.cost_egress;
  for (const Node& node : slots_) {
    if (node.kind == Purchase::kSpot) {
      spent += varying_spot_price_ ? zone_->spot.price_per_hour.integrate_hours(node.acquired, t)
                                   : spot_price_per_ms_ * static_cast<double>(t - node.acquired);
    } else if (node.kind == Purchase::kOnDemand) {
      spent += on_demand_price_per_ms_ * static_cast<double>(t - node.acquired);
    }
  }
  return spent;
}

double ElasticSimulation::spend_rate_per_ms(Millis t) const {
  const double spot =
      varying_spot_price_ ? zone_->spot.price_per_hour.at(t) / static_cast<double>(kMillisPerHour) : spot_price_per_ms_;
  return spot_held_ * spot + on_demand_held_ * on_demand_price_per_ms_;
}

}  // namespace spotsim
