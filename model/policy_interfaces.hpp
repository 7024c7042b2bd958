#pragma once
// The two narrow interfaces through which policies plug into the engine. Implementations live in policies/ and
// are created by name through the registry; the engine only ever sees these.
//
// One policy object serves one replication at a time: reset() is called before each replication, so a policy may
// keep per-run state (e.g. when it last fell back to on-demand) without any allocation per run.
#include "model/observation.hpp"

namespace spotsim {

class Scenario;

class SelectionPolicy {
 public:
  virtual ~SelectionPolicy() = default;
  virtual void reset() {}
  // Only for oracle policies that are allowed to know the future by definition (`optimal-offline`, the yardstick of
  // regret): called after reset() with the scenario and the replication's start. Every other policy must decide
  // from its observations alone.
  virtual void prepare_oracle(const Scenario& /*scenario*/, Millis /*start*/) {}
  // Called at the job's start, after every preemption, when spot becomes obtainable while the job waits, and at
  // the review time the previous decision asked for.
  virtual SelectionDecision decide(const Observation& obs) = 0;
  // A promise that lets the Can't Be Late mode skip asking at tick boundaries where nothing the policy acts on has
  // changed: holding what it decided, its next decision repeats the last one until the review time it asked for
  // (SelectionDecision::review_at), unless some zone's spot availability or price changes or a changeover ends
  // (engine/tick_simulation.hpp). A policy whose answer moves with the clock, its progress or its own history in any
  // other way keeps false and is asked at every boundary, as the authors' simulator asks. Checked for each built-in
  // that declares it by tests/engine/tick_skipping_test.cpp (every run identical with and without skipping).
  virtual bool decision_holds_until_review() const { return false; }
};

class CheckpointPolicy {
 public:
  virtual ~CheckpointPolicy() = default;
  virtual void reset() {}
  // Compute time until the next periodic checkpoint, asked whenever training (re)starts and after each
  // checkpoint; kNever = no periodic checkpoint.
  virtual Millis next_interval(const Observation& obs) = 0;
  // False if next_interval() depends only on the instance (zone, purchase) and not on its age or progress:
  // the engine then asks once per instance.
  virtual bool varies_within_instance() const { return false; }
  // Write an emergency checkpoint during a preemption notice when the write fits before the preemption.
  virtual bool checkpoint_on_notice() const { return false; }
  // Whether a checkpoint can be written at all (false for "none": a switch of instance restarts from scratch).
  virtual bool can_checkpoint() const { return true; }
  // Progress is never lost and costs nothing to save (the "Can't Be Late" model, Wu et al. NSDI'24).
  virtual bool continuous() const { return false; }
};

}  // namespace spotsim
