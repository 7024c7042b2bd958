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
#include <cstdint>
#include <string>
#include <vector>

#include "model/observation.hpp"
#include "model/policy_interfaces.hpp"
#include "model/run_result.hpp"
#include "model/scenario.hpp"

namespace spotsim {

class TickSimulation {
 public:
  // Throws InputError when the scenario's trace has no tick (SpotMarket::tick) and none is given.
  TickSimulation(const Scenario& scenario, SelectionPolicy& selection, Millis tick = 0);

  RunResult run(std::uint64_t seed, std::uint64_t replication);

  // The instance held in each tick of the last run, from the first to the one in which the job finished:
  // '.' none, 's' spot, 'D' on-demand (zone indices aside). Filled only when recording is on.
  void record_ticks(bool on) { record_ = on; }
  const std::string& held_per_tick() const { return held_; }
  Millis tick() const { return tick_; }

 private:
  Observation observe(Millis boundary, Purchase held, int zone, Millis startup_left, Millis transfer_left);
  void book_tick(double cost, Millis g, Millis startup, Millis transfer, Millis work);

  const Scenario& scenario_;
  SelectionPolicy& selection_;
  Millis tick_;
  bool record_ = false;
  std::string held_;
  std::vector<ZoneView> zone_views_;
  std::vector<Millis> recent_preemptions_;
  // Per-replication state read by observe().
  RunResult result_;
  Millis start_ = 0, done_ = 0, spot_time_ = 0, wait_time_ = 0, acquired_at_ = 0;
  int data_zone_ = -1;  // zone whose region holds the saved state; -1 = nothing computed yet
};

}  // namespace spotsim
