#pragma once
// The Can't Be Late compatibility mode: one replication simulated the way the authors' simulator runs it
// (sky_spot, Wu et al. "Can't Be Late", NSDI'24), so that spotsim reproduces its numbers exactly
// (docs/validation.md#compatibility-mode; tested against 480 of its per-window runs).
//
// Time advances in ticks of the recording's clock g. At each tick boundary the work of the previous tick is
// realised (a held instance works g less the changeover still due; a spot instance lost at this boundary still
// did the whole previous tick), spot availability is read, and the selection policy is asked what to hold for
// the next tick (Observation::decision_tick = g, so it rounds its deadline tests as the authors do). Launching a
// new instance (anything other than what is still held) sets the changeover due to d = the job's start-up;
// overheads do not stack and going idle is free. Every tick an instance is held is billed in full at that tick's
// price. Progress is never lost (the paper's model): the job must use continuous checkpointing.
//
// Migration (docs/migration.md): launching in another region than the saved state's adds the transfer to the
// changeover (d + transfer; start-up first, then transfer), egress is charged at the launch, and the state moves
// to the new region when the changeover is over (a lost or replaced instance leaves it where it was). The cost
// ledger splits each held tick's bill by what its milliseconds went to (start-up, transfer, compute; the rest of
// the last tick, billed in full, is billing rounding).
//
// The same selection policies run here and in the event-driven engine (engine/job_simulation.hpp).
//
// Skipping: a policy that declares SelectionPolicy::decision_holds_until_review() is not asked at boundaries where
// its answer cannot differ from the last one: before its review time, while every zone's spot availability and price
// stay as they were, no changeover is under way and the saved state sits where the instance computes. Those
// boundaries still realise and bill their tick; the run is the same as if it had been asked (tested), in a fraction
// of the time. Campaigns ask at every boundary.
//
// Timeline (engine/event_observer.hpp): with an observer attached the run reports its events as the event engine
// does, at the moments they happen within the ticks: a launch (the phase entered, then instance_acquired), the end
// of the start-up and of a transfer, a preemption (seen at the boundary where spot is gone), a release and the
// finish. `cost_usd` is what the ticks realised so far have billed (each tick in full, the finishing one too).
//
// Stepping (engine/stepped_run.hpp): each tick boundary is one step. In a campaign (engine/campaign_member.hpp) a
// tick job's boundaries count from its arrival; spot is obtainable in a zone at a boundary when the zone's count
// leaves room for the job after what the other jobs hold; spot the campaign reclaims at `at` is gone from the first
// boundary at or after `at` (the tick under way still counted, as for a preemption); an early-stopping milestone is
// looked at on the boundary where the progress reaches it; a tick's bill is paid in full when it starts.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/campaign_member.hpp"
#include "engine/event_observer.hpp"
#include "model/market/change_points.hpp"
#include "model/observation.hpp"
#include "model/policy_interfaces.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace spotsim {

class TickSimulation final : public CampaignMember {
 public:
  // Throws InputError when the scenario's trace has no tick (SpotMarket::tick) and none is given.
  TickSimulation(const Scenario& scenario, SelectionPolicy& selection, Millis tick = 0);

  // SteppedRun: a step is a tick boundary.
  Millis window_start(std::uint64_t seed, std::uint64_t replication) const override;
  RunResult run(std::uint64_t seed, std::uint64_t replication) override;
  void begin(std::uint64_t seed, std::uint64_t replication, Millis start) override;
  Millis next_event_time() override { return finished_ ? kNever : start_ + next_boundary_ * tick_; }
  void step() override;
  bool finished() const override { return finished_; }
  const RunResult& result() const override { return result_; }
  void set_observer(EventObserver* observer) override { observer_ = observer; }

  // CampaignMember.
  void attach_capacity(SharedCapacity* capacity, int index) override { capacity_ = capacity, job_index_ = index; }
  void set_milestones(std::vector<Millis> milestones) override { milestones_ = std::move(milestones); }
  int reclaim_spot(Millis now, Millis at, int instances) override;
  void wake_for_spot(Millis /*at*/) override {}  // it asks its policy at every boundary anyway
  void stop(Millis at) override;
  Purchase purchase() const override { return held_now_; }
  int zone() const override { return held_now_ == Purchase::kNone ? -1 : zone_; }
  Millis acquired_at() const override { return acquired_at_; }
  int spot_held_at(Millis t) const override {
    return held_now_ == Purchase::kSpot && reclaim_at_ > t ? scenario_.job().nodes : 0;
  }
  bool waiting_for_spot() const override { return false; }
  int spot_room_needed() const override { return scenario_.job().nodes; }
  double spend_at(Millis t) const override;
  double spend_rate_per_ms(Millis /*t*/) const override { return 0.0; }

  // The instance held in each tick of the last run, from the first to the one in which the job finished:
  // '.' none, 's' spot, 'D' on-demand (zone indices aside). Filled only when recording is on.
  void record_ticks(bool on) { record_ = on; }
  // Ask the policy at every boundary even when it promises its decision holds (for tests: the answers must agree).
  void ask_every_tick(bool on) { ask_every_tick_ = on; }
  const std::string& held_per_tick() const { return held_; }
  Millis tick() const { return tick_; }

 private:
  void boundary(Millis k);
  void realise_tick(Millis from);
  void realise_quiet_ticks();
  void decide(Millis boundary);
  Millis quiet_until(Millis at, const SelectionDecision& decision) const;
  bool spot_obtainable(int zone, Millis t) const;
  void hold(Purchase purchase, int zone, Millis at);
  void finish(Millis end, bool completed);
  Observation observe(Millis boundary);
  double pay_tick(Purchase held, double price);
  // The phase of the instance held now: starting, migrating (the transfer of the saved state) or computing.
  Phase held_phase() const;
  // Only with an observer: the event at `at` (trace frame), naming `purchase` in `zone` as held after it.
  void notify(Millis at, TimelineEventKind kind, Phase phase, Purchase purchase, int zone) {
    if (observer_ != nullptr) [[unlikely]]
      emit(at, kind, phase, purchase, zone);
  }
  void emit(Millis at, TimelineEventKind kind, Phase phase, Purchase purchase, int zone);
  void book_tick(double cost, Millis g, Millis startup, Millis transfer, Millis work);

  const Scenario& scenario_;
  SelectionPolicy& selection_;
  Millis tick_;
  double tick_hours_ = 0.0, tick_node_hours_ = 0.0;  // a tick, and a tick of every node, in hours
  Millis give_up_ = kNever;                          // the job's effective give-up time
  bool record_ = false;
  bool ask_every_tick_ = false;
  EventObserver* observer_ = nullptr;
  std::string held_;
  std::vector<ZoneView> zone_views_;
  std::vector<Millis> recent_preemptions_;
  // Per zone, when spot for the job's nodes comes or goes and when its price moves (for skipping).
  std::vector<ChangePoints> zone_changes_;
  SharedCapacity* capacity_ = nullptr;
  int job_index_ = 0;
  std::vector<Millis> milestones_;
  // Per-replication state.
  RunResult result_;
  Millis start_ = 0, done_ = 0, spot_time_ = 0, wait_time_ = 0, acquired_at_ = 0;
  int data_zone_ = -1;        // zone whose region holds the saved state; -1 = nothing computed yet
  Millis next_boundary_ = 0;  // index of the next boundary to process
  Purchase held_now_ = Purchase::kNone;
  int zone_ = -1;
  // The changeover still due: start-up first, then the transfer of the saved state (0 within its region).
  Millis startup_left_ = 0, transfer_left_ = 0, startup_ = 0, transfer_ = 0;
  Millis finish_ = -1;          // when the work was done (-1: not yet)
  Millis reclaim_at_ = kNever;  // the campaign reclaims the held spot from then on
  std::size_t next_milestone_ = 0;
  Millis quiet_until_ = 0;  // boundaries before this keep the last decision without asking (see decide())
  bool finished_ = true;
};

}  // namespace spotsim
