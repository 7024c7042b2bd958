#include "app/report/timeline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "app/report/axis_ticks.hpp"
#include "app/report/html_text.hpp"

namespace spotsim {

namespace {
constexpr int kTimelineWidth = 1100, kLabel = 150, kRight = 20, kTop = 28, kRow = 44, kAxis = 40;
constexpr const char* kSpot = "#0072B2";
constexpr const char* kOnDemand = "#E69F00";
constexpr const char* kPreempted = "#D55E00";
constexpr const char* kReconfiguring = "#F0E442";
constexpr int kHeldLane = 16;  // px: the held lane (single instance: a bar; elastic: the stacked counts)

// Phases worth a colour. A checkpoint write (a minute in a run of days) is drawn as computing, so the lane has no
// hairline gaps; completed writes show as tick marks instead.
const char* phase_colour(const std::string& phase) {
  if (phase == "computing" || phase == "checkpointing") return "#009E73";
  if (phase == "starting" || phase == "restoring") return "#56B4E9";
  if (phase == "migrating") return "#CC79A7";
  if (phase == "idle") return "#D9D9D9";
  if (phase == "draining") return "#999999";
  if (phase == "reconfiguring") return kReconfiguring;
  return nullptr;
}

std::string hours_range(double from, double to) {
  return display_number(from, 2) + "\xE2\x80\x93" + display_number(to, 2) + " h";
}

// Instances the full lane height stands for in elastic runs: the job's N, or the most any drawn run held if more
// (or if the header has no N), so the stacked area never leaves its lane.
int count_scale(const TimelineFile& timeline) {
  int scale = timeline.job_nodes;
  for (std::size_t r = 0; r < std::min(timeline.runs.size(), kMaxTimelineRunsDrawn); ++r) {
    for (const NodeCountStep& step : timeline.runs[r].node_counts) {
      scale = std::max({scale, step.spot + step.on_demand, step.training});
    }
  }
  return std::max(scale, 1);
}

bool draws_node_counts(const TimelineFile& timeline) {
  for (std::size_t r = 0; r < std::min(timeline.runs.size(), kMaxTimelineRunsDrawn); ++r) {
    if (timeline.runs[r].multi_node) return true;
  }
  return false;
}

// An elastic run's held lane: per step, spot instances stacked under on-demand ones, height proportional to the
// count; the training set's size as a dark step line on the same scale.
std::string node_count_lane(const TimelineRun& run, int top, int scale, const std::function<double(double)>& x) {
  std::string svg;
  const auto height = [&](int count) { return static_cast<double>(kHeldLane) * count / scale; };
  const double bottom = top + kHeldLane;
  std::string training = "<path class=\"training\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.2\" d=\"";
  bool drawn = false;
  for (std::size_t k = 0; k < run.node_counts.size(); ++k) {
    const NodeCountStep& step = run.node_counts[k];
    const double to = k + 1 < run.node_counts.size() ? run.node_counts[k + 1].at : run.end;
    if (to <= step.at) continue;
    const double x0 = x(step.at), x1 = x(to), w = std::max(0.5, x1 - x0);
    const std::string title = "<title>" + std::to_string(step.spot) + " spot + " + std::to_string(step.on_demand) +
                              " on-demand held, " + std::to_string(step.training) + " training, " +
                              hours_range(step.at, to) + "</title>";
    const double spot_h = height(step.spot), on_demand_h = height(step.on_demand);
    if (step.spot > 0) {
      svg += "<rect class=\"held-spot\" x=\"" + svg_number(x0) + "\" y=\"" + svg_number(bottom - spot_h) +
             "\" width=\"" + svg_number(w) + "\" height=\"" + svg_number(spot_h) + "\" fill=\"" + kSpot + "\">" +
             title + "</rect>";
    }
    if (step.on_demand > 0) {
      svg += "<rect class=\"held-on-demand\" x=\"" + svg_number(x0) + "\" y=\"" +
             svg_number(bottom - spot_h - on_demand_h) + "\" width=\"" + svg_number(w) + "\" height=\"" +
             svg_number(on_demand_h) + "\" fill=\"" + kOnDemand + "\">" + title + "</rect>";
    }
    const std::string y = svg_number(bottom - height(step.training));
    if (drawn) {
      training.append(" V").append(y);
    } else {
      training.append("M").append(svg_number(x0)).append(" ").append(y);
    }
    training.append(" H").append(svg_number(x1));
    drawn = true;
  }
  if (drawn) svg += training + "\"><title>training set (instances)</title></path>";
  return svg;
}

std::string zone_name(const TimelineFile& timeline, int zone) {
  if (zone >= 0 && static_cast<std::size_t>(zone) < timeline.zone_names.size())
    return timeline.zone_names[static_cast<std::size_t>(zone)];
  return "zone " + std::to_string(zone);
}
}  // namespace

double timeline_deadline_hours(const TimelineFile& timeline) {
  const nlohmann::json& h = timeline.header;
  if (!h.is_object() || !h.contains("job") || !h["job"].is_object()) return NAN;
  const nlohmann::json& job = h["job"];
  const double d =
      job.contains("deadline_hours") && job["deadline_hours"].is_number() ? job["deadline_hours"].get<double>() : NAN;
  return d > 0.0 && std::isfinite(d) ? d : NAN;
}

double timeline_span_hours(const TimelineFile& timeline, std::size_t max_runs) {
  double span = 0.0;
  for (std::size_t r = 0; r < std::min(timeline.runs.size(), max_runs); ++r)
    span = std::max(span, timeline.runs[r].end);
  const double deadline = timeline_deadline_hours(timeline);
  return std::isnan(deadline) ? span : std::max(span, deadline);
}

std::string timeline_chart(const TimelineFile& timeline, const TimelineChartOptions& options) {
  const std::size_t rows = std::min(timeline.runs.size(), options.max_runs);
  const double span = std::max(options.span_hours, timeline_span_hours(timeline, options.max_runs));
  const double deadline = timeline_deadline_hours(timeline);
  const AxisTicks ticks = nice_ticks(0.0, span > 0.0 ? span : 1.0, 8);
  const double plot = kTimelineWidth - kLabel - kRight;
  const auto x = [&](double hours) { return kLabel + (hours - ticks.low) / (ticks.high - ticks.low) * plot; };
  const int height = kTop + static_cast<int>(rows) * kRow + kAxis;
  const bool zones_named = timeline.zone_names.size() > 1;
  const int scale = count_scale(timeline);
  const int axis_y = kTop + static_cast<int>(rows) * kRow;
  const std::string clip = options.id + "-clip";
  std::string svg = "<svg class=\"chart timeline\" id=\"" + options.id + "\" viewBox=\"0 0 " +
                    std::to_string(kTimelineWidth) + " " + std::to_string(height) + "\" width=\"" +
                    std::to_string(kTimelineWidth) + "\" height=\"" + std::to_string(height) + "\" data-x-low=\"" +
                    svg_number(ticks.low) + "\" data-x-high=\"" + svg_number(ticks.high) + "\" data-plot-left=\"" +
                    std::to_string(kLabel) + "\" data-plot-right=\"" + std::to_string(kTimelineWidth - kRight) +
                    "\" data-view=\"" + svg_number(ticks.low) + " " + svg_number(ticks.high) +
                    "\" role=\"img\"><title>Timelines of individual runs</title>\n";
  // The lanes are clipped to the plot (and the marks' overhang above it), so a zoomed lane never runs over the
  // labels; the clip sits on an untransformed group, so it stays put while the lanes inside it stretch.
  svg += "<defs><clipPath id=\"" + clip + "\"><rect x=\"" + std::to_string(kLabel - 6) + "\" y=\"0\" width=\"" +
         svg_number(plot + 12) + "\" height=\"" + std::to_string(axis_y) + "\"/></clipPath></defs>\n";
  for (const double v : ticks.values) {
    const std::string px = svg_number(x(v));
    svg += "<line class=\"grid\" x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + std::to_string(kTop - 6) + "\" y2=\"" +
           std::to_string(axis_y) + "\"/><text class=\"tick\" x=\"" + px + "\" y=\"" + std::to_string(axis_y + 16) +
           "\" text-anchor=\"middle\" data-px=\"" + px + "\">" + tick_label(v, ticks.step) + "</text>\n";
  }
  svg += "<text class=\"axis-title\" x=\"" + svg_number(kLabel + plot / 2) + "\" y=\"" + std::to_string(height - 4) +
         "\" text-anchor=\"middle\">hours since the job's start</text>\n";
  const std::string lanes_open = "<g clip-path=\"url(#" + clip + ")\"><g class=\"lanes\">";
  for (std::size_t r = 0; r < rows; ++r) {
    const TimelineRun& run = timeline.runs[r];
    const int top = kTop + static_cast<int>(r) * kRow;
    const bool late = !std::isnan(deadline) && run.finished && (!run.completed || run.end > deadline);
    svg += "<g class=\"run" + std::string(late ? " missed" : "") + "\" data-replication=\"" +
           std::to_string(run.replication) + "\">";
    svg += "<text class=\"run-label\" x=\"8\" y=\"" + std::to_string(top + 13) + "\">replication " +
           std::to_string(run.replication) + "</text>";
    const std::string outcome = !run.finished   ? "log incomplete"
                                : run.completed ? display_number(run.end, 1) + " h, $" + display_number(run.cost, 2)
                                                : "gave up at " + display_number(run.end, 1) + " h";
    svg += "<text class=\"run-note\" x=\"8\" y=\"" + std::to_string(top + 28) + "\">" + html_escape(outcome) +
           (run.truncated ? " (truncated)" : "") + "</text>";
    if (late) {
      svg += "<text class=\"run-note deadline-label\" x=\"8\" y=\"" + std::to_string(top + 40) +
             "\">missed the deadline</text>";
    }
    svg += "\n" + lanes_open;
    if (run.multi_node) svg += node_count_lane(run, top, scale, x);
    for (const HeldSpan& held : run.held) {
      const double x0 = x(held.from), w = std::max(0.5, x(held.to) - x0);
      const std::string zone = zone_name(timeline, held.zone);
      svg += "<rect class=\"held\" x=\"" + svg_number(x0) + "\" y=\"" + std::to_string(top) + "\" width=\"" +
             svg_number(w) + "\" height=\"" + std::to_string(kHeldLane) + "\" fill=\"" +
             (held.spot ? kSpot : kOnDemand) + "\"><title>" + (held.spot ? "spot" : "on-demand") + " in " +
             html_escape(zone) + ", " + hours_range(held.from, held.to) + "</title></rect>";
      if (zones_named && w > 8.0 * static_cast<double>(zone.size())) {
        svg += "<text class=\"zone\" x=\"" + svg_number(x0 + 3) + "\" y=\"" + std::to_string(top + 12) +
               "\" data-x=\"" + svg_number(x0 + 3) + "\">" + html_escape(zone) + "</text>";
      }
    }
    for (const PhaseSpan& phase : run.phases) {
      const char* fill = phase_colour(phase.phase);
      if (fill == nullptr || phase.to <= phase.from) continue;
      svg += "<rect class=\"phase\" x=\"" + svg_number(x(phase.from)) + "\" y=\"" + std::to_string(top + 19) +
             "\" width=\"" + svg_number(std::max(0.5, x(phase.to) - x(phase.from))) + "\" height=\"10\" fill=\"" +
             fill + "\"><title>" + html_escape(phase.phase == "idle" ? "waiting (no instance)" : phase.phase) + ", " +
             hours_range(phase.from, phase.to) + "</title></rect>";
    }
    for (const TimelineMark& mark : run.marks) {
      const std::string px = svg_number(x(mark.at));
      const std::string title = "<title>" + mark.event + " at " + display_number(mark.at, 2) + " h</title>";
      if (mark.event == "preemption") {
        svg += "<path class=\"mark-preemption\" d=\"M" + svg_number(x(mark.at) - 5) + " " + std::to_string(top - 8) +
               " h10 l-5 8 z\" fill=\"" + kPreempted + "\" data-x=\"" + px + "\">" + title + "</path>";
      } else if (mark.event == "preemption_notice") {
        svg += "<path class=\"mark-notice\" d=\"M" + svg_number(x(mark.at) - 4) + " " + std::to_string(top - 7) +
               " h8 l-4 6 z\" fill=\"none\" stroke=\"" + kPreempted + "\" data-x=\"" + px + "\">" + title + "</path>";
      } else if (mark.event == "checkpoint_done") {
        svg += "<line class=\"mark-checkpoint\" x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + std::to_string(top + 30) +
               "\" y2=\"" + std::to_string(top + 36) + "\">" + title + "</line>";
      } else if (mark.event == "transfer_done") {
        svg += "<path class=\"mark-transfer\" d=\"M" + px + " " + std::to_string(top + 30) +
               " l4 4 l-4 4 l-4 -4 z\" data-x=\"" + px + "\">" + title + "</path>";
      }
    }
    svg += "</g></g></g>\n";
  }
  if (!std::isnan(deadline) && deadline < ticks.high) {
    const std::string px = svg_number(x(deadline));
    svg += lanes_open + "<rect class=\"past-deadline\" x=\"" + px + "\" y=\"" + std::to_string(kTop - 10) +
           "\" width=\"" + svg_number(x(ticks.high) - x(deadline)) + "\" height=\"" +
           std::to_string(axis_y - kTop + 10) + "\"/><line class=\"deadline\" x1=\"" + px + "\" x2=\"" + px +
           "\" y1=\"" + std::to_string(kTop - 10) + "\" y2=\"" + std::to_string(axis_y) + "\"><title>deadline, " +
           display_number(deadline, 2) + " h</title></line><text class=\"deadline-label\" x=\"" +
           svg_number(x(deadline) + 4) + "\" y=\"12\" data-x=\"" + svg_number(x(deadline) + 4) + "\">deadline " +
           display_number(deadline, 1) + " h</text></g></g>\n";
  }
  // The range a drag selects, shown by the zoom script (timeline_zoom.hpp) while the mouse moves.
  svg += "<rect class=\"zoom-band\" x=\"0\" y=\"" + std::to_string(kTop - 10) + "\" width=\"0\" height=\"" +
         std::to_string(axis_y - kTop + 10) + "\" visibility=\"hidden\"/>\n";
  return svg + "</svg>\n";
}

std::string timeline_legend(const TimelineFile& timeline) { return timeline_legend(std::vector{&timeline}); }

std::string timeline_legend(const std::vector<const TimelineFile*>& timelines) {
  const TimelineFile* counted = nullptr;  // the first with multi-node runs: its job's range goes in the note
  bool deadline = false;
  for (const TimelineFile* t : timelines) {
    if (counted == nullptr && draws_node_counts(*t)) counted = t;
    deadline = deadline || !std::isnan(timeline_deadline_hours(*t));
  }
  const bool counts = counted != nullptr;
  const auto swatch = [](const char* colour, const char* label) {
    return std::string("<li><span class=\"swatch\" style=\"background:") + colour + "\"></span>" + label + "</li>";
  };
  return "<ul class=\"legend\">" + swatch(kSpot, counts ? "spot instances held" : "spot instance held") +
         swatch(kOnDemand, counts ? "on-demand instances held" : "on-demand instance held") +
         (counts ? "<li><span class=\"glyph\" style=\"color:#000\">\xE2\x94\x80</span>training set (instances)</li>"
                 : "") +
         swatch("#009E73", "computing (and checkpoint writes)") + swatch("#56B4E9", "start-up / restore") +
         swatch("#CC79A7", "migrating state") + swatch("#D9D9D9", "waiting (no instance)") +
         swatch("#999999", "draining before a preemption") +
         swatch(kReconfiguring, "reconfiguring (training paused while the instances re-form)") +
         "<li><span class=\"glyph\" style=\"color:#D55E00\">\xE2\x96\xBC</span>preemption</li>"
         "<li><span class=\"glyph\" style=\"color:#D55E00\">\xE2\x96\xBD</span>preemption notice</li>"
         "<li><span class=\"glyph\">|</span>checkpoint saved</li>"
         "<li><span class=\"glyph\" style=\"color:#CC79A7\">\xE2\x97\x86</span>migration done</li>" +
         (deadline ? "<li><span class=\"glyph\" style=\"color:#D55E00\">\xE2\x94\x86</span>deadline (shaded: past "
                     "it)</li>"
                   : "") +
         "</ul>\n" +
         (counts ? "<p class=\"note\">Multi-node runs" +
                       (counted->job_nodes > 0 && counted->job_min_nodes > 0
                            ? " (the job trains on any " + std::to_string(counted->job_min_nodes) + " to " +
                                  std::to_string(counted->job_nodes) + " instances)"
                            : std::string()) +
                       ": the top lane's height is the instances held (spot below, "
                       "on-demand above; full height " +
                       std::to_string(count_scale(*counted)) +
                       " instances), the black line the training set's size on the same scale.</p>\n"
                 : std::string());
}

}  // namespace spotsim
