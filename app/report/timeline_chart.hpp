#pragma once
// Timelines of individual runs as SVG: per run, a lane of the instances held (spot or on-demand, zone named when
// the trace has several) over a lane of the job's phases (computing, start-up and restore, migration, waiting),
// with preemptions, notices, completed checkpoints and migrations marked. Shows what a policy did. Elastic
// multi-node runs draw the held lane as stacked counts of spot and on-demand instances with the training set's size.
#include <cstddef>
#include <string>
#include <vector>

#include "app/report/timeline_reader.hpp"

namespace spotsim {

// Runs drawn at most (a timeline file holds up to 100): more rows would not be read, only scrolled.
inline constexpr std::size_t kMaxTimelineRunsDrawn = 20;

struct TimelineChartOptions {
  // The axis reaches at least this many hours: a comparison gives every input's chart the same, so that their
  // timelines share one time axis. 0: the chart's own (timeline_span_hours).
  double span_hours = 0.0;
  std::string id = "timeline";  // unique on the page: names the chart's clip path
  std::size_t max_runs = kMaxTimelineRunsDrawn;
};

// The job's deadline in hours from the header (job.deadline_hours), NaN when it has none.
double timeline_deadline_hours(const TimelineFile& timeline);

// The hours the chart needs: the last event of the first `max_runs` runs, and the deadline when there is one.
double timeline_span_hours(const TimelineFile& timeline, std::size_t max_runs = kMaxTimelineRunsDrawn);

// The chart: per run, its label (left, fixed) and its lanes inside <g class="lanes">, which the page's zoom script
// (timeline_zoom.hpp) stretches horizontally; the svg carries the axis range (data-x-low, data-x-high) and the plot's
// pixel columns (data-plot-left, data-plot-right) the script maps through. Marks that must keep their shape when
// stretched carry their x in data-x. A deadline is a dashed red line with the time past it shaded, and a run that
// ends after it (or gives up) says so in its label.
std::string timeline_chart(const TimelineFile& timeline, const TimelineChartOptions& options = {});

// The legend of its colours and marks (HTML); with the training line and a note on the lane's scale when a drawn
// run is a multi-node one.
std::string timeline_legend(const TimelineFile& timeline);
// One legend for several charts (a comparison): the note on lane heights from the first with multi-node runs.
std::string timeline_legend(const std::vector<const TimelineFile*>& timelines);

}  // namespace spotsim
