#pragma once
// The dynamic program of Kadupitiya, Jadhao & Sharma (HPDC'20, §5: model-based checkpointing) for the checkpoint
// schedule that minimises the expected makespan of a job on transient VMs with a given lifetime distribution.
//
// State: (remaining work j, age a of the current VM) on a grid of step h. Decision: compute m steps, then write a
// checkpoint (delta) unless the job finishes. With S the survival function of the job's nodes (S = S_1^nodes),
// P = S(a + w)/S(a) the chance the VM survives the w = m h + delta that follows, and L the expected time until a
// failure inside that window, L = (integral_a^{a+w} S - w S(a+w)) / (S(a) - S(a+w)):
//
//   E(j, a) = min_m  P (w + E(j - m, a + w)) + (1 - P) (L + F(j))
//   F(j)    = expected time from requesting a fresh VM with j remaining = restart r (start-up + restore, itself
//             interruptible) then E(j, r): F = [S(r) (r + E(j, r)) + (1 - S(r)) L_r] / S(r).
//
// F(j) appears on the right of its own row, so each row is solved as a fixed point in F(j) (a contraction: a
// failure always has probability < 1), by a few secant steps.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/time.hpp"

namespace spotsim {

class LifetimeDistribution;

struct CheckpointScheduleInput {
  const LifetimeDistribution* lifetime = nullptr;
  int nodes = 1;
  Millis work = 0;               // the whole job; rows are computed up to min(work, 2 x the longest lifetime)
  Millis checkpoint_write = 0;   // delta
  Millis restart = 0;            // start-up + restore after a preemption
  std::size_t age_points = 300;  // grid resolution over the longest lifetime
};

class CheckpointScheduleDp {
 public:
  explicit CheckpointScheduleDp(const CheckpointScheduleInput& input);

  // Compute time until the next checkpoint for a job with `remaining` work on a VM of age `age`.
  Millis next_interval(Millis remaining, Millis age) const;
  // Expected makespan of the whole job from a fresh VM request (F(work) above), in ms.
  double expected_makespan() const { return fresh_.empty() ? 0.0 : fresh_.back(); }
  Millis step() const { return step_; }

 private:
  double survival(double t_ms) const;           // S at an arbitrary time (linear between grid points)
  double survival_integral(double t_ms) const;  // integral_0^t S

  Millis step_ = 0;
  std::size_t ages_ = 0, rows_ = 0;
  std::vector<double> s_;            // S at grid ages 0..ages_
  std::vector<double> is_;           // integral of S from 0 to each grid age (trapezoid)
  std::vector<double> fresh_;        // F(j), j = 1..rows_ (index j - 1)
  std::vector<std::uint16_t> best_;  // argmin m for (j, k), row-major, j = 1..rows_, k = 0..ages_
};

}  // namespace spotsim
