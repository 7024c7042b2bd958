#pragma once
// Lifetimes hidden in a recorded trace, so that availability and preemption recordings can be fitted and
// summarised like per-VM lifetime records:
//
//  - availability: each maximal interval with at least `nodes` instances obtainable is one uptime; it ends in a
//    preemption when availability drops, and is right-censored when the recording ends first;
//  - recorded preemption times: the gaps between consecutive preemptions (the last one, to the end of the
//    recording, censored);
//  - an empirical lifetime model: its own records.
// An interval already open when the recording starts is counted from the start (its true age is unknown).
#include <vector>

#include "model/market/empirical_lifetime.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

std::vector<LifetimeRecord> uptime_records(const Zone& zone, Millis span, int nodes);

}  // namespace spotsim
