#pragma once
// A job that can run inside a campaign (engine/campaign/campaign_simulation.hpp): a SteppedRun that also shares the
// campaign's spot capacity (engine/shared_capacity.hpp) and obeys its rules. The event engine and the Can't Be Late
// tick engine are members; with no SharedCapacity attached and no milestones a member runs exactly as on its own.
#include <vector>

#include "engine/shared_capacity.hpp"
#include "engine/stepped_run.hpp"
#include "model/observation.hpp"

namespace spotsim {

class CampaignMember : public SteppedRun {
 public:
  // Joins a campaign as job `index` (null: a job on its own). Set before begin().
  virtual void attach_capacity(SharedCapacity* capacity, int index) = 0;
  // Progress points (ms of compute, increasing, below the work) at which SharedCapacity::on_milestone decides
  // whether the job goes on. They add no event to RunResult::events or the fingerprint.
  virtual void set_milestones(std::vector<Millis> milestones) = 0;

  // The campaign's side of the job, all at time `at` >= the job's last event: reclaim up to `instances` of the held
  // spot instances at `at` (with the zone's notice before, where the engine has notices), returning how many it gives
  // up (a restart-mode job all of its own, an elastic job as many as asked and held); spot may be obtainable again
  // (a waiting job asks its policy again); stop the job (a budget cap), as not completed.
  virtual int reclaim_spot(Millis now, Millis at, int instances) = 0;
  virtual void wake_for_spot(Millis at) = 0;
  virtual void stop(Millis at) = 0;

  // What the job holds now: its purchase (spot when it holds any) and zone, when it acquired it, the spot instances
  // it holds that it will still hold at `t` as far as it knows (its own preemptions and reclaims due by then
  // excluded), whether it waits for spot to become obtainable, and how many instances must be free in a zone for it
  // to take any there.
  virtual Purchase purchase() const = 0;
  virtual int zone() const = 0;
  virtual Millis acquired_at() const = 0;
  virtual int spot_held_at(Millis t) const = 0;
  virtual bool waiting_for_spot() const = 0;
  virtual int spot_room_needed() const = 0;
  // Its spend so far at `t`, and per ms from `t` on at the held instance's current price (0 when the engine bills in
  // whole ticks paid at their start: spend_at already counts the tick under way).
  virtual double spend_at(Millis t) const = 0;
  virtual double spend_rate_per_ms(Millis t) const = 0;

  CampaignMember* campaign_member() override { return this; }
};

}  // namespace spotsim
