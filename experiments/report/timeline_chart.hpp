#pragma once
// Timelines of individual runs as SVG: per run, a lane of the instances held (spot or on-demand, zone named when
// the trace has several) over a lane of the job's phases (computing, start-up and restore, migration, waiting),
// with preemptions, notices, completed checkpoints and migrations marked. Shows what a policy did.
#include <cstddef>
#include <string>

#include "experiments/report/timeline_reader.hpp"

namespace spotsim {

// Runs drawn at most (a timeline file holds up to 100): more rows would not be read, only scrolled.
inline constexpr std::size_t kMaxTimelineRunsDrawn = 20;

std::string timeline_chart(const TimelineFile& timeline);

// The legend of its colours and marks (HTML).
std::string timeline_legend();

}  // namespace spotsim
