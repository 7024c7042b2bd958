#include "app/report/report_html.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "app/report/campaign_charts.hpp"
#include "app/report/campaign_tables.hpp"
#include "app/report/capacity_chart.hpp"
#include "app/report/html_text.hpp"
#include "app/report/report_style.hpp"
#include "app/report/result_charts.hpp"
#include "app/report/timeline_chart.hpp"
#include "app/report/timeline_zoom.hpp"

namespace spotsim {

namespace {

// Timeline rows drawn per input of a comparison: a few runs each keep the inputs' charts on one screen.
constexpr std::size_t kComparedRunsDrawn = 5;

std::string with_interval(const Estimate& e, int decimals) {
  return display_with_interval(e.mean, e.ci_low, e.ci_high, decimals);
}

std::string manifest_value(const nlohmann::json& manifest, const char* key) {
  if (!manifest.is_object() || !manifest.contains(key)) return "\xE2\x80\x93";
  const nlohmann::json& v = manifest[key];
  return html_escape(v.is_string() ? v.get<std::string>() : v.dump());
}

std::vector<std::string> page_labels(const ReportInput& input) {
  std::set<std::string> traces, jobs;
  for (const auto& c : input.configurations) {
    traces.insert(c.trace);
    jobs.insert(c.job);
  }
  std::vector<std::string> labels;
  for (const auto& c : input.configurations) {
    labels.push_back(input.command == "comparison" ? c.origin + " \xC2\xB7 " + configuration_label(c, false, false)
                                                   : configuration_label(c, traces.size() > 1, jobs.size() > 1));
  }
  return labels;
}

std::string summary_table(const ReportInput& input, const std::vector<std::string>& labels,
                          const SeriesStyles& styles) {
  bool regret = false;
  for (const auto& c : input.configurations) regret = regret || c.regret.present();
  const bool campaign = input.command == "campaign";
  std::string html =
      std::string("<table class=\"summary\"><thead><tr><th>configuration</th><th>runs</th><th>cost (USD)</th>") +
      (campaign ? "<th>makespan (h)</th><th>jobs done</th><th>every deadline met</th>"
                : "<th>completion time (h)</th><th>completed</th><th>deadline met</th>") +
      "<th>preemptions</th><th>checkpoints</th>";
  if (regret) html += "<th>regret to optimum</th>";
  html += "<th>Pareto</th></tr></thead><tbody>\n";
  bool any_missed = false;
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    const ReportConfiguration& c = input.configurations[i];
    const bool missed = misses_deadline(c);
    any_missed = any_missed || missed;
    html += std::string(missed ? "<tr class=\"missed\">" : "<tr>") + "<td>" + legend_glyph(styles[i]) +
            html_escape(labels[i]) + "</td><td class=\"num\">" + std::to_string(c.replications) +
            "</td><td class=\"num\">" + with_interval(c.cost, 2) + "</td><td class=\"num\">" +
            with_interval(c.completion, 2) + "</td><td class=\"num\">" + with_interval(c.completed, 3) +
            "</td><td class=\"num\">" + (missed ? "<span class=\"miss\">\xE2\x9A\xA0 </span>" : "") +
            with_interval(c.deadline_met, 3) + "</td><td class=\"num\">" + with_interval(c.preemptions, 2) +
            "</td><td class=\"num\">" + with_interval(c.checkpoints, 1) + "</td>";
    if (regret) html += "<td class=\"num\">" + with_interval(c.regret, 3) + "</td>";
    html += std::string("<td class=\"num\">") + (c.pareto ? "\xE2\x9C\x93" : "") + "</td></tr>\n";
  }
  return html +
         "</tbody></table>\n<p class=\"note\">Means over the replications with their 95% Student-t "
         "interval in brackets; Pareto: no other configuration " +
         (input.command == "comparison" ? std::string("compared") : std::string("of the same trace and job")) +
         " has both a lower mean cost and a lower mean completion time." +
         (any_missed ? " \xE2\x9A\xA0 and a red edge: the deadline was missed in some runs." : "") + "</p>\n";
}

// One configuration's numbers in words: what a chart of one point would have shown.
std::string one_point(const ReportConfiguration& c, const std::string& label) {
  return "<p class=\"numbers\">" + html_escape(label) + ": mean cost " + with_interval(c.cost, 2) +
         " USD, mean completion time " + with_interval(c.completion, 2) + " h" +
         (misses_deadline(c) ? ", <span class=\"miss\">deadline met in " +
                                   display_number(100.0 * c.deadline_met.mean, 1) + "% of runs</span>"
                             : std::string()) +
         ".</p>\n";
}

std::string cost_time_section(const ReportInput& input, const std::vector<std::string>& labels,
                              const SeriesStyles& styles) {
  // A comparison is one group: its inputs were chosen to be compared, even across traces and jobs.
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    const ReportConfiguration& c = input.configurations[i];
    groups[input.command == "comparison" ? std::pair<std::string, std::string>() : std::pair(c.trace, c.job)].push_back(
        i);
  }
  std::string html = "<section id=\"cost-time\"><h2>Cost against completion time</h2>\n";
  std::string charts, singles;
  std::size_t drawn = 0, left_out = 0;
  for (const auto& [key, members] : groups) {
    if (members.size() == 1) {  // one point is a number, not a chart
      singles += one_point(input.configurations[members.front()], labels[members.front()]);
      continue;
    }
    if (drawn == kMaxCostTimeCharts) {
      ++left_out;
      continue;
    }
    ++drawn;
    const std::string title = input.command == "comparison"
                                  ? "the compared results"
                                  : "trace " + key.first + (groups.size() > 1 ? ", job " + key.second : "");
    charts += "<figure><figcaption>" + html_escape(title) + "</figcaption>\n" +
              cost_time_chart(input.configurations, members, labels, styles, title) + "</figure>\n";
  }
  if (drawn > 0) {
    html +=
        "<p class=\"note\">Each mark is a configuration's mean with its 95% intervals as error bars, named beside "
        "it; ringed marks joined by the dashed line are the Pareto frontier (lower left is better); a dashed red "
        "ring: the deadline was missed in some runs.</p>\n" +
        charts;
    if (left_out > 0)
      html +=
          "<p class=\"note\">" + std::to_string(left_out) + " more trace and job groups are in the table above.</p>\n";
  }
  if (!singles.empty()) {
    html += std::string("<p class=\"note\">") +
            (drawn > 0 ? "Alone on their trace and job (no chart of one point):"
                       : "One configuration: no chart of one point.") +
            "</p>\n" + singles;
  }
  return html + "</section>\n";
}

std::string distributions_section(const ReportInput& input, const std::vector<std::string>& labels,
                                  const SeriesStyles& styles) {
  std::string html = "<section id=\"distributions\"><h2>Distributions</h2>\n";
  std::vector<std::vector<double>> costs, times;
  std::vector<std::string> shown;
  std::vector<SeriesStyle> shown_styles;
  for (std::size_t i = 0; i < input.configurations.size() && i < kMaxCdfSeries; ++i) {
    costs.push_back(input.configurations[i].run_costs);
    times.push_back(input.configurations[i].run_completions);
    shown.push_back(labels[i]);
    shown_styles.push_back(styles[i]);
  }
  bool any = false;
  for (const auto& v : costs) any = any || !v.empty();
  if (!any) {
    return html +
           "<p class=\"note\">The input has no per-run values (a sweep directory without runs.csv).</p></section>\n";
  }
  html +=
      "<p class=\"note\">The fraction of runs that cost at most x (left) and finish within x hours (right): "
      "a curve to the left is cheaper or faster; its spread is the risk. From the first " +
      std::to_string(kMaxRunsPerConfiguration) + " replications of each configuration at most" +
      (input.configurations.size() > kMaxCdfSeries ? ", the first " + std::to_string(kMaxCdfSeries) + " configurations"
                                                   : "") +
      ".</p>\n<div class=\"pair\"><figure><figcaption>cost per run</figcaption>\n" +
      cdf_chart(costs, shown, shown_styles, "cost per run (USD)", "CDF of cost") +
      "</figure><figure><figcaption>completion time per run</figcaption>\n" +
      cdf_chart(times, shown, shown_styles, "completion time (h)", "CDF of completion time") + "</figure></div>\n";
  return html + series_legend(shown, shown_styles) + "</section>\n";
}

std::string capacity_section(const ReportInput& input, const std::vector<std::string>& labels,
                             const SeriesStyles& styles) {
  std::vector<std::size_t> members;
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    if (!input.configurations[i].managed && !input.configurations[i].held_by_hour.empty()) members.push_back(i);
  }
  std::string html = "<section id=\"capacity\"><h2>Capacity over time</h2>\n";
  if (members.empty())
    return html + "<p class=\"note\">No policy of this campaign held spot instances.</p></section>\n";
  html +=
      "<p class=\"note\">Spot instances the campaign held in each hour after its start, mean over the runs (a run "
      "that has ended counts 0), against what the zones could give at once (dashed: the sum of their counts). "
      "Managed services use their own pools and are not drawn.</p>\n<figure>\n" +
      capacity_chart(input.configurations, members, labels, styles) + "</figure>\n<ul class=\"legend\">";
  for (const std::size_t i : members) html += "<li>" + legend_glyph(styles[i]) + html_escape(labels[i]) + "</li>";
  return html + "<li><span class=\"swatch\" style=\"background:#777\"></span>obtainable</li></ul>\n</section>\n";
}

std::string regret_section(const ReportInput& input, const std::vector<std::string>& labels) {
  double largest = 0.0;
  for (const auto& c : input.configurations) {
    if (c.regret.present()) largest = std::max(largest, c.regret.ci_high);
  }
  std::string rows;
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    const Estimate& r = input.configurations[i].regret;
    if (!r.present()) continue;
    const double width = largest > 0.0 ? std::clamp(100.0 * r.mean / largest, 0.0, 100.0) : 0.0;
    rows += "<tr><td>" + html_escape(labels[i]) + "</td><td class=\"num\">" + with_interval(r, 3) +
            "</td><td class=\"barcell\"><div class=\"bar\" style=\"width:" + svg_number(width) +
            "%\"></div></td></tr>\n";
  }
  if (rows.empty()) return "";
  return "<section id=\"regret\"><h2>Regret to the offline optimum</h2>\n<p class=\"note\">regret = cost / optimum "
         "\xE2\x88\x92 1 per run, where the optimum knows the window's future (0 is the best any policy could "
         "do).</p>\n"
         "<table class=\"regret\"><thead><tr><th>configuration</th><th>mean regret "
         "[95%]</th><th></th></tr></thead><tbody>\n" +
         rows + "</tbody></table></section>\n";
}

std::string timeline_source_note(const TimelineFile& timeline) {
  const nlohmann::json& h = timeline.header;
  return "From " + html_escape(timeline.source) + ": policy " + manifest_value(h, "policy") + ", checkpoint " +
         manifest_value(h, "checkpoint") + ", seed " + manifest_value(h, "seed") + ".";
}

std::string timeline_section(const ReportInput& input, const std::vector<std::string>& labels,
                             const SeriesStyles& styles, const std::vector<ReportTimeline>& timelines) {
  std::string html = "<section id=\"timelines\"><h2>Timelines of individual runs</h2>\n";
  if (timelines.empty()) {
    return html +
           "<p class=\"note\">No timeline given: run <code>simulate ... --timeline runs.jsonl</code> and "
           "<code>spotsim report RESULT --timeline runs.jsonl</code> to see what the policy did in chosen "
           "replications.</p></section>\n";
  }
  std::vector<const TimelineFile*> files;
  for (const ReportTimeline& t : timelines) files.push_back(t.file);
  if (input.command != "comparison") {
    const TimelineFile& timeline = *timelines.front().file;
    html += "<p class=\"note\">" + timeline_source_note(timeline) + " Hover a bar for its times." +
            (timeline.runs.size() > kMaxTimelineRunsDrawn
                 ? " The first " + std::to_string(kMaxTimelineRunsDrawn) + " of " +
                       std::to_string(timeline.runs.size()) + " replications are drawn."
                 : "") +
            "</p>\n" + timeline_zoom_help();
    return html + timeline_chart(timeline) + timeline_legend(files) + "</section>\n";
  }
  // A comparison: every input's runs on the same axis (the longest run or deadline of them all), one chart each.
  double span = 0.0;
  for (const ReportTimeline& t : timelines) span = std::max(span, timeline_span_hours(*t.file, kComparedRunsDrawn));
  html += "<p class=\"note\">Each result's first " + std::to_string(kComparedRunsDrawn) +
          " logged runs at most, all on one time axis. Hover a bar for its times.</p>\n" + timeline_zoom_help();
  for (const ReportTimeline& t : timelines) {
    TimelineChartOptions options;
    options.span_hours = span;
    options.id = "timeline-" + std::to_string(t.configuration);
    options.max_runs = kComparedRunsDrawn;
    html += "<figure class=\"compared\" data-input=\"" + std::to_string(t.configuration) + "\"><figcaption>" +
            legend_glyph(styles[t.configuration]) + html_escape(labels[t.configuration]) + " <span class=\"note\">" +
            timeline_source_note(*t.file) + "</span></figcaption>\n" + timeline_chart(*t.file, options) + "</figure>\n";
  }
  return html + timeline_legend(files) + "</section>\n";
}

std::string manifest_rows(const nlohmann::json& m) {
  std::string rows;
  for (const auto& [key, name] : {std::pair{"command", "command"},
                                  {"version", "version"},
                                  {"git_revision", "git revision"},
                                  {"seed", "seed"},
                                  {"replications", "replications"}}) {
    rows += std::string("<tr><th>") + name + "</th><td>" + manifest_value(m, key) + "</td></tr>";
  }
  return rows;
}

std::string manifest_json(const nlohmann::json& m) {
  return html_escape(m.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string manifest_section(const ReportInput& input) {
  std::string html = "<section id=\"manifest\"><h2>Manifest</h2>\n";
  if (input.command != "comparison") {
    return html + "<table class=\"manifest\"><tbody>" + manifest_rows(input.manifest) +
           "</tbody></table>\n<details open><summary>full configuration</summary><pre>" +
           manifest_json(input.manifest) + "</pre></details></section>\n";
  }
  for (const ComparedInput& in : input.compared) {
    html += "<h3>" + html_escape(in.source) + "</h3>\n<table class=\"manifest\"><tbody>" + manifest_rows(in.manifest) +
            "</tbody></table>\n<details><summary>full configuration</summary><pre>" + manifest_json(in.manifest) +
            "</pre></details>\n";
  }
  return html + "</section>\n";
}

}  // namespace

std::string render_report_html(const ReportInput& input, const std::vector<ReportTimeline>& timelines) {
  const std::vector<std::string> labels = page_labels(input);
  std::vector<std::string> policies;
  for (const auto& c : input.configurations) policies.push_back(c.policy);
  const SeriesStyles styles(policies);
  const bool comparison = input.command == "comparison";
  const std::string title = comparison
                                ? "spotsim report: " + std::to_string(input.configurations.size()) + " results compared"
                                : "spotsim report: " + input.source;
  const nlohmann::json& manifest =
      comparison && !input.compared.empty() ? input.compared.front().manifest : input.manifest;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
      html_escape(title) + "</title>\n<style>" + report_css() + "</style></head>\n<body>\n<header><h1>" +
      html_escape(title) + "</h1><p class=\"subtitle\">" +
      (comparison ? html_escape(input.source)
                  : input.command + " result, " + std::to_string(input.configurations.size()) + " configuration" +
                        (input.configurations.size() == 1 ? "" : "s")) +
      ", spotsim " + manifest_value(manifest, "version") +
      "</p></header>\n<main>\n<section id=\"summary\"><h2>Summary</h2>\n" + summary_table(input, labels, styles) +
      "</section>\n";
  html += cost_time_section(input, labels, styles);
  if (input.command == "campaign") {
    html += job_finish_section(input, labels, styles);
    html += job_size_section(input, labels, styles);
    html += savings_section(input, labels, styles);
    html += break_even_section(input, labels, styles);
    html += capacity_section(input, labels, styles);
  } else {
    html += distributions_section(input, labels, styles);
    html += timeline_section(input, labels, styles, timelines);
  }
  html += regret_section(input, labels);
  html += manifest_section(input);
  html += "</main>\n";
  if (!timelines.empty() && input.command != "campaign") html += timeline_zoom_script();
  return html + "</body></html>\n";
}

std::string render_report_html(const ReportInput& input, const TimelineFile* timeline) {
  std::vector<ReportTimeline> timelines;
  if (timeline != nullptr) timelines.push_back({0, timeline});
  return render_report_html(input, timelines);
}

}  // namespace spotsim
