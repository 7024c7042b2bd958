#include "engine/elastic/elastic_simulation.hpp"
// The elastic engine's instances: launching them toward the policy's targets, the pool's and the recorded
// preemptions' reclaims, releases and their bills. The job's phases, training set and checkpoints are in
// elastic_simulation.cpp.

#include <algorithm>
#include <cassert>
#include <cmath>
#include <vector>

#include "model/billing.hpp"
#include "model/market/node_reclaim.hpp"

namespace spotsim {

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
  if (node_zone_views_.size() > 1 && training_spot_ + training_on_demand_ == 0) schedule_rise_elsewhere();
  if (!zone_->spot.available || wanted <= 0) return;
  if (capacity_ != nullptr) {
    wanted += capacity_->held(zone_index_) - spot_held_;  // the other jobs' instances, as they are now
  }
  const Millis at = zone_->spot.available->next_time_at_least(now_, wanted);
  if (at != kNever) schedule(at, EventKind::kPoolRise, rise_epoch_);
}

// A job that waits for spot without a training set may move: wake the policy when another zone could give it
// the spot instances it lacks to form one there (the first such time of each zone; the first to come wins, the
// decision it prompts makes the others stale).
void ElasticSimulation::schedule_rise_elsewhere() {
  const int wanted = std::max(1, min_nodes_ - target_on_demand_);
  const auto& zones = scenario_.market().zones;
  for (std::size_t z = 0; z < zones.size(); ++z) {
    const int zone = static_cast<int>(z);
    if (zone == zone_index_ || !zones[z].spot.available) continue;
    const int others = capacity_ != nullptr ? capacity_->held(zone) : 0;
    const Millis at = zones[z].spot.available->next_time_at_least(now_, wanted + others);
    if (at != kNever && at > now_) schedule(at, EventKind::kPoolRise, rise_epoch_);
  }
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
  const SpotOffer& offer = zone_->spot;
  std::optional<RandomStream>& lifetime_stream = lifetime_streams_[static_cast<std::size_t>(zone_index_)];
  bool shared = false;
  double shared_lifetime = INFINITY;
  if (spot && offer.lifetime) {
    if (!lifetime_stream) {
      lifetime_stream.emplace(seed_, replication_, StreamPurpose::kSpotLifetime,
                              static_cast<std::uint64_t>(zone_index_));
    }
    shared = count > 1 && offer.node_correlation > 0.0 && lifetime_stream->uniform01() < offer.node_correlation;
    if (shared) shared_lifetime = offer.lifetime->sample(lifetime_stream->uniform_open01());
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
      const double life = shared ? shared_lifetime : offer.lifetime->sample(lifetime_stream->uniform_open01());
      if (std::isfinite(life)) {
        schedule(now_ + static_cast<Millis>(std::ceil(life * kMillisPerHour)), EventKind::kNodeLifetimeOver, node.epoch,
                 slot);
      }
    }
  }
  assert(placed == count);
  if (spot && capacity_ != nullptr) capacity_->on_spot_acquired(job_index_, zone_index_, count, now_);
  schedule(now_ + scenario_.job().startup, EventKind::kLaunchReady);
  if (spot) pool_changed();
  notify(TimelineEventKind::kInstanceAcquired, kind);
}

// The job's spot count changed: pending pool events are stale, and the next ones are found once the event that
// changed it is fully handled (a loss and its replacement then cost one search, not two).
void ElasticSimulation::pool_changed() {
  ++pool_epoch_;
  next_pool_reclaim_at_ = kNever;
  pool_dirty_ = true;
}

// The next pool event that concerns the job's spot instances, for its current count.
void ElasticSimulation::schedule_pool_events() {
  pool_dirty_ = false;
  ++pool_epoch_;
  next_pool_reclaim_at_ = kNever;
  if (spot_held_ == 0) return;
  const SpotOffer& offer = zone_->spot;
  if (offer.available) {
    const Reclaim next = next_reclaim(*offer.available, now_, spot_held_, seed_, replication_);
    if (next.at != kNever) schedule(next.at, EventKind::kPoolReclaim, pool_epoch_, next.lost);
    next_pool_reclaim_at_ = next.at;
    next_pool_reclaim_lost_ = next.lost;
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
    const std::size_t pick =
        static_cast<std::size_t>(j) +
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
    result_.cost_spot += count * instance_cost(zone_->spot.price_per_hour, acquired, held, billing);
    result_.spot_node_hours += count * to_hours(held);
  } else {
    result_.cost_on_demand += count * zone_->on_demand_price_per_hour * to_hours(billed_duration(held, billing));
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
  if (spot && capacity_ != nullptr) capacity_->on_spot_released(job_index_, zone_index_, 1, now_);
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
  const int spot_released = spot_held_;
  spot_held_ = spot_ready_ = on_demand_held_ = on_demand_ready_ = training_spot_ = training_on_demand_ = 0;
  reset_free_slots();
  ++pool_epoch_;
  next_pool_reclaim_at_ = kNever;
  if (spot_released > 0 && capacity_ != nullptr) {
    capacity_->on_spot_released(job_index_, zone_index_, spot_released, now_);
  }
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

}  // namespace spotsim
