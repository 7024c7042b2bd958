#pragma once
// One replication of one training job on the spot/on-demand market: the discrete-event model.
//
// The job moves through phases (idle -> starting [-> migrating] -> restoring -> computing <-> checkpointing -> done);
// every phase change is an event, so time advances from event to event and never by a fixed tick. An instance
// started in another region than the saved state's first transfers the checkpoint (docs/migration.md).
//
// The cost ledger (RunResult::ledger_*) is its own unit, engine/cost_ledger.hpp, which the engine tells of each
// acquisition, release, checkpoint and loss.
//
// The job's own timeline has at most one pending event at a time (the end of the current start-up, restore,
// compute stretch or checkpoint write), so it lives in a single slot instead of the heap: rescheduling it is an
// overwrite, and the heap holds only the rare external events (preemptions, notices, policy reviews, spot
// becoming obtainable, giving up). Slot and heap share one (time, sequence) order. Heap events are 8-byte PODs
// (a kind and an epoch); one whose epoch is stale (its instance was released, or a newer decision superseded
// it) is dropped when popped: cheaper than deleting it from the heap.
//
// A JobSimulation is reused across replications on one thread (its queue and buffers are allocated once).
//
// An EventObserver (engine/event_observer.hpp) may be attached to hear the run's timeline; without one, each place
// that would notify costs a null test.
//
// It is a SteppedRun (engine/stepped_run.hpp) and a CampaignMember (engine/campaign_member.hpp): campaigns step many
// jobs on one clock with a SharedCapacity attached, so that spot obtainable means "within what the zone's count
// leaves after the other jobs", and with early-stopping milestones (progress points at which the campaign may stop
// the job). With no SharedCapacity and no milestones a job behaves exactly as in run().
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/campaign_member.hpp"
#include "engine/cost_ledger.hpp"
#include "engine/event_observer.hpp"
#include "engine/event_queue.hpp"
#include "engine/shared_capacity.hpp"
#include "model/observation.hpp"
#include "model/policy_interfaces.hpp"
#include "model/random_streams.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace spotsim {

class JobSimulation final : public CampaignMember {
 public:
  JobSimulation(const Scenario& scenario, SelectionPolicy& selection, CheckpointPolicy& checkpoint);

  // SteppedRun. run() is begin() at the window's start, then step() until finished, in one tight loop.
  Millis window_start(std::uint64_t seed, std::uint64_t replication) const override;
  RunResult run(std::uint64_t seed, std::uint64_t replication) override;
  void begin(std::uint64_t seed, std::uint64_t replication, Millis start) override;
  Millis next_event_time() override;
  void step() override;
  bool finished() const override { return finished_; }
  const RunResult& result() const override { return result_; }

  // CampaignMember.
  void attach_capacity(SharedCapacity* capacity, int index) override { capacity_ = capacity, job_index_ = index; }
  void set_milestones(std::vector<Millis> milestones) override { milestones_ = std::move(milestones); }
  // Going on at a milestone leaves the run exactly as without it.
  int reclaim_spot(Millis now, Millis at, int instances) override;
  void wake_for_spot(Millis at) override;
  void stop(Millis at) override;
  Purchase purchase() const override { return purchase_; }
  int zone() const override { return zone_; }
  Millis acquired_at() const override { return acquired_at_; }
  int spot_held_at(Millis t) const override {
    return purchase_ == Purchase::kSpot && preempt_at_ > t ? scenario_.job().nodes : 0;
  }
  bool waiting_for_spot() const override { return waiting_for_spot_; }
  int spot_room_needed() const override { return scenario_.job().nodes; }
  double spend_at(Millis t) const override;
  double spend_rate_per_ms(Millis t) const override;
  // Hears every later run's events; null (the default) for none. Never changes a result.
  void set_observer(EventObserver* observer) override { observer_ = observer; }

 private:
  enum class EventKind : std::uint8_t {
    kInstanceReady,
    kRestoreDone,
    kPreemptionNotice,
    kPreemption,
    kCheckpointDue,
    kCheckpointDone,
    kWorkDone,
    kReview,
    kSpotObtainable,
    kGiveUp,
    kTransferDone,  // after the kinds above, so that their fingerprint values are unchanged
    kMilestone,     // never mixed into the fingerprint
  };
  struct Event {
    EventKind kind;
    std::uint32_t epoch;
  };

  void dispatch(EventKind kind);
  bool advance();
  void schedule_compute_stretch();
  void on_milestone();
  int spot_held_by_others(int zone) const;
  void decide();
  void apply(const SelectionDecision& decision);
  void acquire(Purchase purchase, int zone);
  void release();
  void on_instance_ready();
  void on_transfer_done();
  void restore_or_compute();
  void discard_uncommitted(Millis lost);
  void begin_compute();
  void start_checkpoint();
  void on_checkpoint_done();
  void on_preemption_notice();
  void on_preemption();
  void switch_to(Purchase purchase, int zone);
  void finish(bool completed);
  void enter(Phase phase);
  void entered_rare_cases(Phase left, Millis from, Millis spent);
  Millis current_progress() const;
  Millis draw_preemption_time(int zone);
  bool spot_obtainable(int zone, Millis t) const;
  void wait_for_spot();
  Observation observe();
  Millis probe_on_demand_interval();
  std::uint32_t epoch_of(EventKind kind) const;
  void schedule(Millis time, EventKind kind);
  void schedule_timeline(Millis time, EventKind kind);
  void notify(TimelineEventKind kind) {
    if (observer_ != nullptr) [[unlikely]]
      emit(kind);
  }
  void emit(TimelineEventKind kind);

  const Scenario& scenario_;
  SelectionPolicy& selection_;
  CheckpointPolicy& checkpoint_;
  EventObserver* observer_ = nullptr;
  SharedCapacity* capacity_ = nullptr;
  int job_index_ = 0;
  std::vector<Millis> milestones_;
  EventQueue<Event> queue_;
  // One per zone, allocated on first use and reseeded per run: a 2.5 KB engine in every zone of every job would make
  // a campaign's memory grow with jobs x zones (100,000 queued jobs on 13 zones took 3.9 GB).
  std::vector<std::unique_ptr<RandomStream>> lifetime_streams_;
  std::vector<bool> lifetime_seeded_;
  std::vector<ZoneView> zone_views_;
  std::vector<Millis> recent_preemptions_;  // the latest kHistory, oldest first

  // Per-replication state.
  std::uint64_t seed_ = 0, replication_ = 0;
  RunResult result_;
  Millis now_ = 0, job_start_ = 0;
  Phase phase_ = Phase::kIdle;
  Millis phase_entered_ = 0;
  Millis progress_ = 0;  // progress at phase_entered_ (advances only while computing)
  Millis committed_ = 0;
  Millis checkpoint_progress_ = 0;  // what the checkpoint being written will commit
  bool emergency_checkpoint_ = false;
  bool switch_pending_ = false;
  SelectionDecision switch_target_;
  Purchase purchase_ = Purchase::kNone;
  int zone_ = -1;
  int data_zone_ = -1;  // zone whose region holds the saved state; -1 = nothing saved yet
  Millis acquired_at_ = 0;
  Millis preempt_at_ = kNever;
  Millis spot_time_ = 0;
  Millis interval_ = kNever;            // cached periodic checkpoint interval for this instance
  Millis on_demand_interval_ = kNever;  // the checkpoint policy's interval on on-demand (probed per replication)
  bool interval_known_ = false;
  bool finished_ = false;
  bool waiting_for_spot_ = false;   // a wait for spot is pending (campaigns: may be woken by another job's release)
  std::size_t next_milestone_ = 0;  // index into milestones_
  // The checkpoint policy's fixed traits, read once per replication instead of by a virtual call per event.
  bool continuous_ = false, can_checkpoint_ = true, interval_varies_ = false, on_notice_ = false;
  PhaseTimes phase_time_{};                // wall time spent in each Phase, converted to hours at the end
  CostLedger ledger_;                      // where the run's dollars went (engine/cost_ledger.hpp)
  std::array<std::uint32_t, 2> epochs_{};  // instance, review
  struct TimelineSlot {
    bool active = false;
    EventKind kind = EventKind::kWorkDone;
    Millis time = 0;
    std::uint64_t sequence = 0;
  } timeline_;
  TimelineSlot compute_target_;  // the checkpoint due or the end of the work, while a milestone comes first
};

}  // namespace spotsim
