#pragma once
// The safety net every deadline-aware selection policy applies before its own rules (docs/policies.md#safety-net):
// commit to on-demand at the last safe moment, computed from what the job holds (deadline_math.hpp).
#include <optional>

#include "policies/deadline_math.hpp"

namespace spotsim {

struct SafetyNet {
  enum Verdict {
    kFree,      // the deadline leaves room: the policy's own rules decide
    kCommit,    // move to on-demand and stay there
    kTakeSpot,  // keep the spot instance (lossless and computing: the Exploitation Rule), or take spot where
                // lossless progress and no changeover make it free
  };
  Verdict verdict = kFree;
  Millis review_at = kNever;  // with kFree: ask the policy again by then
};

// `spot_zone` is where spot can be obtained now (-1: nowhere); `margin` is extra slack a policy keeps.
SafetyNet safety_net(const Observation& obs, int spot_zone, Millis margin = 0);

// The decision a verdict other than kFree imposes: on-demand in `od_zone` for good (and `committed` set), or spot
// (kept where it runs, else in `spot_zone`); nullopt when the policy's own rules decide.
std::optional<SelectionDecision> imposed_decision(const SafetyNet& net, const Observation& obs, int od_zone,
                                                  int spot_zone, bool& committed);

}  // namespace spotsim
