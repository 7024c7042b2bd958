#pragma once
// Closed forms for periodic checkpointing under exponential failures, shared by the checkpoint policies and by
// policies that estimate the cost of running on spot.
#include "base/time.hpp"

namespace spotsim {

// Young (1974): tau = sqrt(2 * delta * M), delta = checkpoint write time, M = mean time between failures.
double young_interval(double delta, double mtbf);

// Daly (2006), "A higher order estimate of the optimum checkpoint interval for restart dumps", FGCS 22(3),
// eq. 37: tau = sqrt(2 delta M) [1 + 1/3 sqrt(delta/(2M)) + 1/9 (delta/(2M))] - delta for delta < 2M, else M.
double daly_interval(double delta, double mtbf);

// Expected wall time to complete `work` in segments of `tau` (each followed by a checkpoint of `delta`) when
// failures arrive at rate lambda and each failure costs a restart of `restart` (during which failures may also
// occur): T = (work / tau) * e^(lambda R) (e^(lambda (tau + delta)) - 1) / lambda  (Daly 2006, eq. 13, with a
// whole number of segments). Units are whatever the arguments use.
double expected_segmented_time(double work, double tau, double delta, double restart, double lambda);

}  // namespace spotsim
