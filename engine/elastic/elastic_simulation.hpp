#pragma once
// One replication of a multi-node job that may train on fewer instances than it asked for (docs/elastic.md).
//
// The job holds instances one by one, spot and on-demand, as a NodePolicy asks. Once `min_nodes` of them are up it
// forms a training set and trains at the throughput of its size (ElasticSpec::step_time_s_by_nodes). A loss that
// leaves at least min_nodes pauses training for a reconfiguration and keeps the progress (data parallelism: every
// survivor holds the model); instances that come up later join through another reconfiguration. A loss below
// min_nodes stops the job like today's restart: every instance is released and the job resumes from its last
// checkpoint. With min_nodes == nodes this is exactly the single-instance engine's multi-node job (tested).
//
// Zones (docs/elastic.md#zones): the job's instances are all in one zone at a time, the one the policy names. Moving
// releases them all (a stop) and launches the targets in the new zone; once a training set forms there, the saved
// state follows as in the single-instance engine (transfer after the start-up, egress paid when it starts), then the
// restore. A checkpoint written in a zone puts the saved state there.
//
// Where instances are lost: a pool count (the recording's obtainable instances, model/market/node_reclaim.hpp: each
// instance the pool loses is one of the job's with the chance the job's share gives, drawn with common random
// numbers), a lifetime model (each spot instance its own lifetime), or recorded zone-wide preemptions.
//
// Like JobSimulation, the job's own timeline (the end of a restore, reconfiguration, compute stretch or checkpoint
// write) lives in one slot; the heap holds instance events (ready, lifetime over), pool events, reviews and the
// give-up. Stale events are dropped by epoch. Everything is allocated once per engine, nothing per event.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/campaign_member.hpp"
#include "engine/event_observer.hpp"
#include "engine/event_queue.hpp"
#include "model/node_policy.hpp"
#include "model/observation.hpp"
#include "model/policy_interfaces.hpp"
#include "model/random_streams.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace spotsim {

class ElasticSimulation final : public CampaignMember {
 public:
  // Throws InputError when the scenario is not one the engine runs (no min_nodes).
  ElasticSimulation(const Scenario& scenario, NodePolicy& policy, CheckpointPolicy& checkpoint);

  // SteppedRun. run() is begin() at the window's start, then step() until finished, in one tight loop.
  Millis window_start(std::uint64_t seed, std::uint64_t replication) const override;
  RunResult run(std::uint64_t seed, std::uint64_t replication) override;
  void begin(std::uint64_t seed, std::uint64_t replication, Millis start) override;
  Millis next_event_time() override;
  void step() override;
  bool finished() const override { return finished_; }
  const RunResult& result() const override { return result_; }

  // CampaignMember: in each zone the campaign's other jobs' spot instances are not obtainable; a reclaim takes as
  // many of the job's spot instances as asked, chosen as a pool's drop chooses them; a release by another job wakes
  // it when it wants more spot. No early-stopping milestones (InputError).
  void attach_capacity(SharedCapacity* capacity, int index) override { capacity_ = capacity, job_index_ = index; }
  void set_milestones(std::vector<Millis> milestones) override;
  int reclaim_spot(Millis now, Millis at, int instances) override;
  void wake_for_spot(Millis at) override;
  void stop(Millis at) override;
  Purchase purchase() const override;
  int zone() const override { return spot_held_ + on_demand_held_ > 0 ? zone_index_ : -1; }
  Millis acquired_at() const override { return spot_held_ > 0 ? spot_since_ : on_demand_since_; }
  int spot_held_at(Millis t) const override;
  bool waiting_for_spot() const override { return !finished_ && target_spot_ > spot_held_; }
  int spot_room_needed() const override { return 1; }
  double spend_at(Millis t) const override;
  double spend_rate_per_ms(Millis t) const override;

  // Hears the run's timeline (engine/event_observer.hpp) with the spot, on-demand and training counts filled in;
  // without one, each place that would notify costs a null test.
  void set_observer(EventObserver* observer) override { observer_ = observer; }

 private:
  enum class JobPhase : std::uint8_t {
    kIdle,
    kStarting,
    kRestoring,
    kComputing,
    kCheckpointing,
    kReconfiguring,
    kTransferring,  // the saved state moves into the zone's region (after the start-up, before the restore)
    kDone
  };
  enum class EventKind : std::uint8_t {
    kLaunchReady,       // the start-up of the instances launched together is over
    kNodeLifetimeOver,  // a spot instance's drawn lifetime ran out (node = slot)
    kPoolReclaim,       // the pool count drops and takes some of the job's spot instances
    kZoneReclaim,       // a recorded preemption takes every spot instance
    kPoolRise,          // spot instances the job wants become obtainable
    kReview,
    kGiveUp,
    kRestoreDone,  // timeline events from here on
    kReconfigureDone,
    kCheckpointDue,
    kCheckpointDone,
    kWorkDone,
    kCampaignReclaim,  // a campaign takes `node` of the job's spot instances (after the kinds above: fingerprints)
    kTransferDone,     // (a timeline event)
  };
  struct Event {
    EventKind kind;
    std::uint32_t epoch;
    std::int32_t node;
  };
  struct Node {
    Purchase kind = Purchase::kNone;  // kNone = free slot
    bool ready = false;
    bool training = false;
    std::uint32_t epoch = 0;
    Millis acquired = 0;
    Millis ready_at = 0;
  };

  bool advance();
  void dispatch(const Event& event);
  void decide();
  void apply(const NodeRequest& request);
  void acquire_toward_targets();
  void acquire(Purchase kind, int count);
  void release_surplus(Purchase kind, int count);
  void release_node(int slot);
  void bill(Purchase kind, Millis acquired, int count);
  void release_all();
  void on_launch_ready();
  void lose_nodes(std::span<const int> slots, bool preemption);
  void on_pool_reclaim(int lost);
  void reset_free_slots();
  void on_zone_reclaim();
  void collect_spot_slots();
  void form_training_set();
  void begin_reconfiguration();
  void move_to(int zone);
  void use_zone(int zone);
  void transfer_or_restore();
  void on_transfer_done();
  void restore_or_compute();
  void begin_compute();
  void start_checkpoint();
  void on_checkpoint_done();
  void stop_training();
  void finish(bool completed);
  void enter(JobPhase phase);
  void settle();
  void book_training(double training);
  Millis advance(Millis spent) const;
  Millis current_progress() const;
  int spot_obtainable() const { return spot_obtainable_in(zone_index_); }
  int spot_obtainable_in(int zone) const;
  void schedule_pool_events();
  void pool_changed();
  void schedule_pool_rise(int wanted);
  void schedule_rise_elsewhere();
  NodeObservation observe();
  void reset_zone_views();
  void view_other_zones();
  Millis checkpoint_interval();
  Millis checkpoint_interval_for(Purchase purchase, int zone);
  Millis probe_interval(Purchase purchase, int zone);
  void schedule(Millis time, EventKind kind, std::uint32_t epoch = 0, int node = -1);
  void schedule_timeline(Millis time, EventKind kind);
  bool event_current(const Event& event) const;
  void notify(TimelineEventKind kind, Purchase purchase = Purchase::kNone) {
    if (observer_ != nullptr) [[unlikely]]
      emit(kind, purchase);
  }
  void emit(TimelineEventKind kind, Purchase purchase);

  const Scenario& scenario_;
  NodePolicy& policy_;
  CheckpointPolicy& checkpoint_;
  const std::vector<double> rate_;
  const Millis reconfigure_;
  const int nodes_, min_nodes_;
  // The zone the job holds its instances in (or will launch them in), and its prices.
  const Zone* zone_ = nullptr;
  int zone_index_ = 0;
  bool varying_spot_price_ = false;
  double spot_price_per_ms_ = 0.0, on_demand_price_per_ms_ = 0.0;  // (constant prices)
  EventQueue<Event> queue_;
  EventObserver* observer_ = nullptr;
  SharedCapacity* capacity_ = nullptr;
  int job_index_ = 0;
  std::vector<Node> slots_;
  std::vector<int> scratch_;     // slots lost in one event
  std::vector<int> free_slots_;  // a stack of free slots
  std::vector<int> booting_;     // slots whose instance is starting up, in no order (all a launch's end looks at)
  std::vector<int> joining_;     // slots whose instance is up but not in the training set, in no order
  std::vector<ZoneView> zone_views_;
  std::vector<NodeZoneView> node_zone_views_;
  std::vector<std::optional<RandomStream>> lifetime_streams_;  // per zone, drawn from as launches there need

  // Per-replication state.
  std::uint64_t seed_ = 0, replication_ = 0;
  std::uint64_t node_choice_prefix_ = 0;  // stream_prefix(seed, replication, kNodeChoice)
  RunResult result_;
  Millis now_ = 0, job_start_ = 0;
  int data_zone_ = -1;  // where the saved state lies (-1: nothing saved)
  JobPhase phase_ = JobPhase::kIdle;
  Millis phase_entered_ = 0, settled_at_ = 0;
  Millis progress_ = 0, committed_ = 0, checkpoint_progress_ = 0;
  Millis since_checkpoint_ = 0;  // compute time since the training set last saved or (re)started
  Millis interval_ = kNever;
  // The checkpoint policy's intervals on on-demand and on spot in each zone, for policies.
  std::vector<Millis> on_demand_intervals_, spot_intervals_;
  bool interval_known_ = false, can_checkpoint_ = true, interval_varies_ = false, finished_ = false;
  int target_spot_ = 0, target_on_demand_ = 0;
  int spot_held_ = 0, spot_ready_ = 0, on_demand_held_ = 0, on_demand_ready_ = 0;
  int training_spot_ = 0, training_on_demand_ = 0;
  Millis spot_since_ = 0, on_demand_since_ = 0;  // when the job last went from holding none of the kind to some
  std::array<Millis, 8> phase_time_{};
  double uncommitted_cost_ = 0.0, booked_ = 0.0;
  std::uint32_t pool_epoch_ = 0, review_epoch_ = 0, rise_epoch_ = 0;
  bool pool_dirty_ = false;  // the spot count changed during this event: search the next pool events after it
  // (Campaigns) the pool's next reclaim of the job's instances, as scheduled, and the instances campaign reclaims
  // already scheduled will take.
  Millis next_pool_reclaim_at_ = kNever;
  int next_pool_reclaim_lost_ = 0;
  int campaign_reclaims_pending_ = 0;
  struct TimelineSlot {
    bool active = false;
    EventKind kind = EventKind::kWorkDone;
    Millis time = 0;
    std::uint64_t sequence = 0;
  } timeline_;
};

}  // namespace spotsim
