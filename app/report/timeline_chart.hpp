#pragma once
// Timelines of individual runs as SVG: per run, a lane of the instances held (spot or on-demand, zone named when
// the trace has several) over a lane of the job's phases (computing, start-up and restore, migration, waiting),
// with preemptions, notices, completed checkpoints and migrations marked. Shows what a policy did. Elastic
// multi-node runs draw the held lane as stacked counts of spot and on-demand instances with the training set's size.
#include <cstddef>
#include <string>

#include "app/report/timeline_reader.hpp"

namespace spotsim {

// Runs drawn at most (a timeline file holds up to 100): more rows would not be read, only scrolled.
inline constexpr std::size_t kMaxTimelineRunsDrawn = 20;

std::string timeline_chart(const TimelineFile& timeline);

// The legend of its colours and marks (HTML); with the training line and a note on the lane's scale when a drawn
// run is a multi-node one.
std::string timeline_legend(const TimelineFile& timeline);

}  // namespace spotsim
