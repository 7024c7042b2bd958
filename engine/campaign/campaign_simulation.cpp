#include "engine/campaign/campaign_simulation.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <tuple>

#include "base/errors.hpp"
#include "engine/engine_factory.hpp"
#include "model/market/node_reclaim.hpp"
#include "model/market/zone_selection.hpp"
#include "model/random_streams.hpp"

namespace spotsim {

namespace {

// Progress points of a job's rungs: strictly increasing and below the work.
std::vector<Millis> rung_milestones(const EarlyStopping& stopping, Millis work) {
  std::vector<Millis> out;
  for (const double f : stopping.rungs) {
    Millis m = std::llround(f * static_cast<double>(work));
    if (!out.empty()) m = std::max(m, out.back() + 1);
    if (m <= 0 || m >= work) break;
    out.push_back(m);
  }
  return out;
}

}  // namespace

CampaignSimulation::ZoneSubset* CampaignSimulation::subset_of(const std::vector<int>& zones) {
  if (zones.empty()) return nullptr;
  for (const auto& subset : subsets_) {
    if (subset->capacity.zones() == zones) return subset.get();
  }
  if (!std::is_sorted(zones.begin(), zones.end())) throw InputError("campaign: a job's zones must be in trace order");
  ZoneSelection selection;  // select_zones keeps the trace's order: the job's zone i is zones[i]
  selection.by = ZoneSelection::By::kZones;
  for (const int z : zones) {
    if (z < 0 || z >= static_cast<int>(market_.zones.size())) {
      throw InputError("campaign: a job's zone " + std::to_string(z) + " is not one of trace '" + market_.name +
                       "''s " + std::to_string(market_.zones.size()));
    }
    selection.names.push_back(market_.zones[static_cast<std::size_t>(z)].name);
  }
  subsets_.push_back(std::unique_ptr<ZoneSubset>(
      new ZoneSubset{select_zones(market_, selection, "campaign job"), ZoneMappedCapacity(*this, zones)}));
  return subsets_.back().get();
}

int CampaignSimulation::global_zone(std::size_t job, int zone) const {
  const ZoneSubset* subset = job_zones_[job];
  return subset ? subset->capacity.global(zone) : zone;
}

bool CampaignSimulation::may_use(std::size_t job, int zone) const {
  const ZoneSubset* subset = job_zones_[job];
  return !subset || std::binary_search(subset->capacity.zones().begin(), subset->capacity.zones().end(), zone);
}

Millis CampaignSimulation::ZoneDrops::check_time(Millis notice) const {
  if (next >= drops.size()) return kNever;
  return at_drop ? drop_time() : drop_time() - notice;
}

CampaignSimulation::CampaignSimulation(const SpotMarket& market, const CampaignSpec& spec,
                                       const PolicyFactories& policies, TraceStart start)
    : SharedCapacity(static_cast<int>(market.zones.size())), market_(market), spec_(spec), trace_start_(start) {
  if ((!policies.selection && !policies.nodes) || !policies.checkpoint) {
    throw InputError("a campaign needs a selection (or multi-node) and a checkpoint policy");
  }
  const std::size_t n = spec.jobs.size();
  for (std::size_t j = 0; j < n; ++j) {
    JobSpec job = campaign_job_work(spec, spec.jobs[j], spec.jobs[j].job.nodes);
    job.deadline = campaign_job_deadline(spec, spec.jobs[j]);
    ZoneSubset* subset = subset_of(spec.jobs[j].zones);
    job_zones_.push_back(subset);
    scenarios_.push_back(std::make_unique<Scenario>(subset ? subset->market : market, job, TraceStart{false, 0}));
    if (spec.cant_be_late_mode) scenarios_.back()->use_cant_be_late_mode(spec.tick);
    checkpoints_.push_back(policies.checkpoint());
    const std::string which = "campaign: job " + std::to_string(j + 1) + " '" + spec.jobs[j].name + "': ";
    try {
      engines_.push_back(make_engine(*scenarios_.back(), policies, *checkpoints_.back()));
    } catch (const InputError& e) {
      throw InputError(which + e.what());
    }
    CampaignMember* member = engines_.back().engine->campaign_member();
    if (member == nullptr) throw InputError(which + "its engine cannot share a campaign's capacity");
    jobs_.push_back(member);
    member->attach_capacity(subset ? static_cast<SharedCapacity*>(&subset->capacity) : this, static_cast<int>(j));
    if (spec.early_stopping.enabled()) member->set_milestones(rung_milestones(spec.early_stopping, job.work));
  }
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0);
  const auto key = [&](int j) {
    const CampaignJob& job = spec.jobs[static_cast<std::size_t>(j)];
    const Scenario& scenario = *scenarios_[static_cast<std::size_t>(j)];
    switch (spec.scheduling) {
      case SchedulingRule::kFifo: return std::make_tuple(job.arrival, Millis{0}, j);
      case SchedulingRule::kPriority: return std::make_tuple(Millis{-job.priority}, job.arrival, j);
      case SchedulingRule::kEarliestDeadline: {
        const Millis deadline = scenario.job().deadline;
        return std::make_tuple(deadline == kNever ? kNever : job.arrival + deadline, job.arrival, j);
      }
      case SchedulingRule::kShortestFirst: return std::make_tuple(job.job.work, job.arrival, j);
    }
    return std::make_tuple(Millis{0}, Millis{0}, j);
  };
  std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) { return key(a) < key(b); });
  arrival_order_ = order_;  // simultaneous arrivals in scheduling order: the first decides first
  std::stable_sort(arrival_order_.begin(), arrival_order_.end(), [&](int a, int b) {
    return spec.jobs[static_cast<std::size_t>(a)].arrival < spec.jobs[static_cast<std::size_t>(b)].arrival;
  });

  for (const Zone& zone : market.zones) {
    notice_.push_back(zone.spot.notice);
    ZoneDrops drops;
    if (zone.spot.available) {
      const StepSeries& count = *zone.spot.available;
      const auto& times = count.times();
      const auto& values = count.values();
      drops.span = count.span();
      for (std::size_t i = 1; i < times.size(); ++i) {
        if (whole_count(values[i]) < whole_count(values[i - 1]))
          drops.drops.push_back({times[i], whole_count(values[i])});
      }
      // A repeating recording drops again where a period ends lower than the next begins... or higher.
      if (drops.span != kNever && times.size() > 1 && whole_count(values.front()) < whole_count(values.back())) {
        drops.drops.insert(drops.drops.begin(), Drop{times.front(), whole_count(values.front())});
      }
    }
    zone_drops_.push_back(std::move(drops));
  }
  started_.assign(n, false);
  scores_.assign(n, 0.0);
  rung_scores_.resize(spec.early_stopping.rungs.size());
}

// The first drop of each zone strictly after `start`.
void CampaignSimulation::reset_drops(Millis start) {
  for (ZoneDrops& zd : zone_drops_) {
    zd.at_drop = false;
    zd.next = 0;
    zd.period_start = 0;
    if (zd.drops.empty()) continue;
    if (zd.span != kNever) zd.period_start = start - (((start % zd.span) + zd.span) % zd.span);
    const Millis phase = start - zd.period_start;
    zd.next = static_cast<std::size_t>(std::upper_bound(zd.drops.begin(), zd.drops.end(), phase,
                                                        [](Millis t, const Drop& d) { return t < d.offset; }) -
                                       zd.drops.begin());
    if (zd.next == zd.drops.size() && zd.span != kNever) {
      zd.next = 0;
      zd.period_start += zd.span;
    }
  }
}

void CampaignSimulation::check_drop(int zone) {
  ZoneDrops& zd = zone_drops_[static_cast<std::size_t>(zone)];
  const Millis notice = notice_[static_cast<std::size_t>(zone)];
  const bool at_drop = zd.at_drop || notice <= 0;
  reclaim_excess(zone, zd.drop_time(), at_drop);
  if (!at_drop) {
    zd.at_drop = true;
    return;
  }
  zd.at_drop = false;
  if (++zd.next == zd.drops.size() && zd.span != kNever) {
    zd.next = 0;
    zd.period_start += zd.span;
  }
}

// At the drop's notice (and again at the drop, for instances taken since): if the jobs that hold spot in the zone
// and are not already reclaimed by their own draws by then hold more than the count after the drop, take the
// excess by the reclaim rule, each job taken whole (a job loses all its instances with any of them).
void CampaignSimulation::reclaim_excess(int zone, Millis drop_at, bool at_drop) {
  const int after =
      zone_drops_[static_cast<std::size_t>(zone)].drops[zone_drops_[static_cast<std::size_t>(zone)].next].after;
  if (held(zone) <= after) return;
  struct Holder {
    int job;
    Millis acquired;
    std::uint64_t key;
  };
  std::vector<Holder> holders;  // rare: only when the pool binds
  int held_on = 0;
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    const CampaignMember& job = *jobs_[j];
    if (!started_[j] || job.finished() || job.purchase() != Purchase::kSpot || global_zone(j, job.zone()) != zone) {
      continue;
    }
    const int holds = job.spot_held_at(drop_at);
    if (holds == 0) continue;
    held_on += holds;
    const std::uint64_t entity =
        splitmix64(static_cast<std::uint64_t>(drop_at)) ^ (static_cast<std::uint64_t>(zone) << 48) ^ j;
    holders.push_back({static_cast<int>(j), job.acquired_at(),
                       stream_seed(seed_, replication_, StreamPurpose::kCampaignReclaim, entity)});
  }
  const int excess = held_on - after;
  if (excess <= 0) return;
  if (spec_.reclaim == ReclaimRule::kNewestFirst) {
    std::sort(holders.begin(), holders.end(), [](const Holder& a, const Holder& b) {
      return a.acquired != b.acquired ? a.acquired > b.acquired : a.job > b.job;
    });
  } else {
    std::sort(holders.begin(), holders.end(), [](const Holder& a, const Holder& b) { return a.key < b.key; });
  }
  int freed = 0;
  for (const Holder& h : holders) {
    if (freed >= excess) break;
    freed += jobs_[static_cast<std::size_t>(h.job)]->reclaim_spot(now_, at_drop ? now_ : drop_at, excess - freed);
    next_events_.touch(h.job);
    ++capacity_reclaims_;
  }
}

void CampaignSimulation::track_held(Millis at) {
  if (at <= held_since_) return;
  if (total_held_ > 0) {
    spot_held_ms_ += static_cast<double>(total_held_) * static_cast<double>(at - held_since_);
    // Spread over the hour bins the stretch covers.
    Millis from = held_since_;
    while (from < at) {
      const auto bin = static_cast<std::size_t>((from - start_) / kMillisPerHour);
      const Millis bin_end = start_ + static_cast<Millis>(bin + 1) * kMillisPerHour;
      const Millis to = std::min(at, bin_end);
      if (held_by_hour_.size() <= bin) held_by_hour_.resize(bin + 1, 0.0);
      held_by_hour_[bin] +=
          static_cast<double>(total_held_) * static_cast<double>(to - from) / static_cast<double>(kMillisPerHour);
      from = to;
    }
  }
  held_since_ = at;
}

void CampaignSimulation::on_spot_acquired(int /*job*/, int zone, int nodes, Millis at) {
  track_held(at);
  held_[static_cast<std::size_t>(zone)] += nodes;
  total_held_ += nodes;
  budget_dirty_ = true;
}

// Capacity freed: wake the jobs waiting for spot that now fit in the zone, in scheduling order (each asks its
// policy again at `at`; whoever comes first in that order takes the room first).
void CampaignSimulation::on_spot_released(int job, int zone, int nodes, Millis at) {
  track_held(at);
  held_[static_cast<std::size_t>(zone)] -= nodes;
  total_held_ -= nodes;
  budget_dirty_ = true;
  const auto& count = market_.zones[static_cast<std::size_t>(zone)].spot.available;
  const int room = count ? whole_count(count->at(at)) - held(zone) : INT_MAX;
  for (const int k : order_) {
    const auto kk = static_cast<std::size_t>(k);
    if (k == job || !started_[kk] || jobs_[kk]->finished() || !jobs_[kk]->waiting_for_spot()) continue;
    if (!may_use(kk, zone)) continue;  // room in a zone of another shape
    if (jobs_[kk]->spot_room_needed() <= room) {
      jobs_[kk]->wake_for_spot(at);
      next_events_.touch(k);
    }
  }
}

bool CampaignSimulation::on_milestone(int job, int index, Millis /*at*/) {
  auto& recorded = rung_scores_[static_cast<std::size_t>(index)];
  const double score = scores_[static_cast<std::size_t>(job)];
  recorded.push_back(score);
  if (spec_.early_stopping.keep_fraction >= 1.0) return true;
  const auto keep = static_cast<std::size_t>(
      std::ceil(static_cast<double>(recorded.size()) * spec_.early_stopping.keep_fraction - 1e-9));
  const auto better = static_cast<std::size_t>(
      std::count_if(recorded.begin(), recorded.end(), [score](double s) { return s > score; }));
  return better < std::max<std::size_t>(keep, 1);
}

// When the spend reaches the budget: at the held instances' current prices, or sooner the next time a held spot
// price changes (the budget is then looked at again), so the stop is exact to the millisecond's rounding.
void CampaignSimulation::update_budget_time() {
  budget_time_ = kNever;
  if (!std::isfinite(spec_.budget_usd) || budget_hit_) return;
  double spent = 0.0, rate = 0.0;
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    if (!started_[j]) continue;
    spent += jobs_[j]->spend_at(now_);
    rate += jobs_[j]->spend_rate_per_ms(now_);
  }
  if (spent >= spec_.budget_usd) {
    budget_time_ = now_;
  } else if (rate > 0.0) {
    // In double until it is known to fit: a budget far beyond the spend rate (1e13 USD) used to overflow the cast
    // into a 1 ms step, and the loop then crawled forward a millisecond at a time.
    const double wait = std::ceil((spec_.budget_usd - spent) / rate);
    if (wait < static_cast<double>(kNever - now_)) budget_time_ = now_ + std::max<Millis>(1, static_cast<Millis>(wait));
  }
  // The rate holds only until a held spot price changes: look again then.
  for (std::size_t j = 0; j < jobs_.size() && budget_time_ > now_; ++j) {
    const CampaignMember& job = *jobs_[j];
    if (!started_[j] || job.finished() || job.purchase() != Purchase::kSpot) continue;
    const StepSeries& price = market_.zones[static_cast<std::size_t>(global_zone(j, job.zone()))].spot.price_per_hour;
    if (price.times().size() < 2) continue;
    const double current = price.at(now_);
    budget_time_ = std::min(budget_time_, price.next_time_where(now_, [current](double v) { return v != current; }));
  }
}

void CampaignSimulation::stop_everything(Millis at) {
  budget_hit_ = true;
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    if (started_[j]) {  // a job not yet arrived never starts (finish_run: failed, nothing spent)
      jobs_[j]->stop(at);
      next_events_.touch(static_cast<int>(j));
    }
  }
  next_arrival_ = arrival_order_.size();
}

CampaignRun CampaignSimulation::run(std::uint64_t seed, std::uint64_t replication) {
  seed_ = seed;
  replication_ = replication;
  start_ = trace_start_.offset;
  if (trace_start_.random && market_.span != kNever) start_ = random_trace_start(market_, seed, replication);
  now_ = held_since_ = start_;
  std::fill(held_.begin(), held_.end(), 0);
  total_held_ = 0;
  spot_held_ms_ = 0.0;
  held_by_hour_.clear();
  capacity_reclaims_ = 0;
  budget_dirty_ = true;
  budget_hit_ = false;
  budget_time_ = kNever;
  next_arrival_ = 0;
  std::fill(started_.begin(), started_.end(), false);
  for (auto& r : rung_scores_) r.clear();
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    const double given = spec_.jobs[j].score;
    scores_[j] = std::isnan(given) ? first_uniform01(seed, replication, StreamPurpose::kTrialScore, j) : given;
  }
  reset_drops(start_);
  next_events_.reset(order_);

  std::uint64_t campaign_events = 0;
  for (;;) {
    Millis job_time = kNever;
    const int job = next_events_.earliest(
        job_time,
        [this](int k) {
          const auto kk = static_cast<std::size_t>(k);
          return started_[kk] && !jobs_[kk]->finished();
        },
        [this](int k) { return jobs_[static_cast<std::size_t>(k)]->next_event_time(); });
    const bool running = next_events_.any_running();
    const bool arrivals_left = next_arrival_ < arrival_order_.size();
    if (!running && !arrivals_left) break;
    const Millis arrival_time =
        arrivals_left ? start_ + spec_.jobs[static_cast<std::size_t>(arrival_order_[next_arrival_])].arrival : kNever;
    int zone = -1;
    Millis check_time = kNever;
    if (running) {  // with nothing running no instance is held: drops matter again from the next arrival
      for (std::size_t z = 0; z < zone_drops_.size(); ++z) {
        const Millis t = std::max(now_, zone_drops_[z].check_time(notice_[z]));
        if (zone_drops_[z].next < zone_drops_[z].drops.size() && t < check_time)
          check_time = t, zone = static_cast<int>(z);
      }
    } else {
      reset_drops(arrival_time);
    }
    if (budget_dirty_) {
      update_budget_time();
      budget_dirty_ = false;
    }
    const Millis t = std::min({job_time, arrival_time, check_time, budget_time_});
    if (t == kNever) break;  // (cannot happen: every job has a give-up event)
    ++campaign_events;
    if (check_time == t) {
      now_ = t;
      check_drop(zone);
    } else if (arrival_time == t) {
      now_ = t;
      const int j = arrival_order_[next_arrival_++];
      started_[static_cast<std::size_t>(j)] = true;
      jobs_[static_cast<std::size_t>(j)]->begin(campaign_job_seed(seed, static_cast<std::size_t>(j)), replication, t);
      next_events_.touch(j);
    } else if (budget_time_ == t) {
      now_ = t;
      budget_dirty_ = true;
      update_budget_time();
      if (budget_time_ == now_) stop_everything(now_);
    } else {
      --campaign_events;
      now_ = t;
      CampaignMember& stepped = *jobs_[static_cast<std::size_t>(job)];
      stepped.step();
      next_events_.touch(job);
      if (jobs_counter_ != nullptr && stepped.finished()) {
        jobs_counter_->fetch_add(1, std::memory_order_relaxed);
        ++jobs_counted_;
      }
    }
    // Any step may have bought or released an instance.
    budget_dirty_ = budget_dirty_ || std::isfinite(spec_.budget_usd);
  }

  CampaignRun out;
  out.replication = replication;
  out.events = campaign_events;
  finish_run(out);
  if (jobs_counter_ != nullptr && jobs_counted_ < jobs_.size()) {  // stopped by the budget, never arrived...
    jobs_counter_->fetch_add(jobs_.size() - jobs_counted_, std::memory_order_relaxed);
  }
  jobs_counted_ = 0;
  return out;
}

void CampaignSimulation::finish_run(CampaignRun& out) {
  out.trace_start_hours = to_hours(start_);
  out.budget_exhausted = budget_hit_;
  out.capacity_reclaims = capacity_reclaims_;
  Millis end = start_;
  out.jobs.resize(jobs_.size());
  if (keep_job_runs_) out.job_runs.resize(jobs_.size());
  bool all_met = true;
  for (std::size_t j = 0; j < jobs_.size(); ++j) {
    const Millis arrival = spec_.jobs[j].arrival;
    CampaignJobOutcome& o = out.jobs[j];
    if (!started_[j]) {  // the budget ran out before it arrived
      if (keep_job_runs_) out.job_runs[j].replication = replication_;
      o.status = JobStatus::kFailed;
      o.finish_hours = to_hours(arrival);
      ++out.failed;
      all_met = false;
      continue;
    }
    const RunResult& r = jobs_[j]->result();
    if (keep_job_runs_) out.job_runs[j] = r;
    o.status = r.completed ? JobStatus::kCompleted : r.stopped_early ? JobStatus::kStoppedEarly : JobStatus::kFailed;
    o.finish_hours = to_hours(arrival) + r.completion_hours;
    o.cost = r.cost_total;
    const Millis deadline = scenarios_[j]->job().deadline;
    o.deadline_met = r.completed ? r.deadline_met
                                 : r.stopped_early && (deadline == kNever || r.completion_hours <= to_hours(deadline));
    all_met = all_met && o.deadline_met;
    end = std::max(end, start_ + arrival + static_cast<Millis>(std::llround(r.completion_hours * kMillisPerHour)));
    out.completed += o.status == JobStatus::kCompleted;
    out.stopped_early += o.status == JobStatus::kStoppedEarly;
    out.failed += o.status == JobStatus::kFailed;
    add_job_costs(out, r);
    out.spot_instance_hours += r.spot_node_hours;
    out.on_demand_instance_hours += r.on_demand_node_hours;
    out.events += r.events;
  }
  out.all_done = out.failed == 0;
  out.deadline_met = out.all_done && all_met;
  out.makespan_hours = to_hours(end - start_);
  track_held(end);
  out.held_by_hour = held_by_hour_;
  const auto hours = static_cast<std::size_t>((end - start_ + kMillisPerHour - 1) / kMillisPerHour);
  out.held_by_hour.resize(hours, 0.0);
  out.capacity_by_hour.assign(hours, 0.0);
  for (const Zone& zone : market_.zones) {
    if (!zone.spot.available) continue;
    out.capacity_instance_hours += zone.spot.available->integrate_hours(start_, end);
    for (std::size_t h = 0; h < hours; ++h) {
      const Millis from = start_ + static_cast<Millis>(h) * kMillisPerHour;
      const Millis to = std::min(end, from + kMillisPerHour);
      out.capacity_by_hour[h] += zone.spot.available->integrate_hours(from, to) / to_hours(to - from);
    }
  }
  for (std::size_t h = 0; h < hours; ++h) {
    const Millis from = start_ + static_cast<Millis>(h) * kMillisPerHour;
    const Millis to = std::min(end, from + kMillisPerHour);
    if (to > from) out.held_by_hour[h] /= to_hours(to - from);
  }
}

}  // namespace spotsim
