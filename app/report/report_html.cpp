#include "app/report/report_html.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "app/report/capacity_chart.hpp"
#include "app/report/chart_frame.hpp"
#include "app/report/html_text.hpp"
#include "app/report/report_style.hpp"
#include "app/report/result_charts.hpp"
#include "app/report/timeline_chart.hpp"

namespace spotsim {

namespace {

std::string with_interval(const Estimate& e, int decimals) {
  if (!e.present()) return "\xE2\x80\x93";
  return display_number(e.mean, decimals) + " <span class=\"ci\">[" + display_number(e.ci_low, decimals) + ", " +
         display_number(e.ci_high, decimals) + "]</span>";
}

std::string manifest_value(const nlohmann::json& manifest, const char* key) {
  if (!manifest.contains(key)) return "\xE2\x80\x93";
  const nlohmann::json& v = manifest[key];
  return html_escape(v.is_string() ? v.get<std::string>() : v.dump());
}

std::string summary_table(const ReportInput& input, const std::vector<std::string>& labels) {
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
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    const ReportConfiguration& c = input.configurations[i];
    html += "<tr><td>" + html_escape(labels[i]) + "</td><td class=\"num\">" + std::to_string(c.replications) +
            "</td><td class=\"num\">" + with_interval(c.cost, 2) + "</td><td class=\"num\">" +
            with_interval(c.completion, 2) + "</td><td class=\"num\">" + with_interval(c.completed, 3) +
            "</td><td class=\"num\">" + with_interval(c.deadline_met, 3) + "</td><td class=\"num\">" +
            with_interval(c.preemptions, 2) + "</td><td class=\"num\">" + with_interval(c.checkpoints, 1) + "</td>";
    if (regret) html += "<td class=\"num\">" + with_interval(c.regret, 3) + "</td>";
    html += std::string("<td class=\"num\">") + (c.pareto ? "\xE2\x9C\x93" : "") + "</td></tr>\n";
  }
  return html +
         "</tbody></table>\n<p class=\"note\">Means over the replications with their 95% Student-t "
         "interval in brackets; Pareto: no other configuration of the same trace and job has both a lower "
         "mean cost and a lower mean completion time.</p>\n";
}

std::string cost_time_section(const ReportInput& input, const std::vector<std::string>& labels) {
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    groups[{input.configurations[i].trace, input.configurations[i].job}].push_back(i);
  }
  std::string html =
      "<section id=\"cost-time\"><h2>Cost against completion time</h2>\n<p class=\"note\">Each "
      "mark is a configuration's mean with its 95% intervals as error bars; squares joined by the "
      "dashed line are the Pareto frontier (lower left is better).</p>\n";
  std::size_t drawn = 0;
  for (const auto& [key, members] : groups) {
    if (drawn++ == kMaxCostTimeCharts) {
      html += "<p class=\"note\">" + std::to_string(groups.size() - kMaxCostTimeCharts) +
              " more trace and job groups are in the table above.</p>\n";
      break;
    }
    const std::string title = "trace " + key.first + (groups.size() > 1 ? ", job " + key.second : "");
    html += "<figure><figcaption>" + html_escape(title) + "</figcaption>\n" +
            cost_time_chart(input.configurations, members, labels, title) + "</figure>\n";
  }
  return html + series_legend(labels) + "</section>\n";
}

std::string distributions_section(const ReportInput& input, const std::vector<std::string>& labels) {
  std::string html = "<section id=\"distributions\"><h2>Distributions</h2>\n";
  std::vector<std::vector<double>> costs, times;
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < input.configurations.size() && i < kMaxCdfSeries; ++i) {
    costs.push_back(input.configurations[i].run_costs);
    times.push_back(input.configurations[i].run_completions);
    shown.push_back(labels[i]);
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
      cdf_chart(costs, shown, "cost per run (USD)", "CDF of cost") +
      "</figure><figure><figcaption>completion time per run</figcaption>\n" +
      cdf_chart(times, shown, "completion time (h)", "CDF of completion time") + "</figure></div>\n";
  return html + series_legend(shown) + "</section>\n";
}

std::string capacity_section(const ReportInput& input, const std::vector<std::string>& labels) {
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
      capacity_chart(input.configurations, members, labels) + "</figure>\n<ul class=\"legend\">";
  for (const std::size_t i : members) {
    html += "<li><span class=\"swatch\" style=\"background:" + std::string(kPalette[i % kPaletteSize]) + "\"></span>" +
            html_escape(labels[i]) + "</li>";
  }
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

std::string timeline_section(const TimelineFile* timeline) {
  std::string html = "<section id=\"timelines\"><h2>Timelines of individual runs</h2>\n";
  if (timeline == nullptr) {
    return html +
           "<p class=\"note\">No timeline given: run <code>simulate ... --timeline runs.jsonl</code> and "
           "<code>spotsim report RESULT --timeline runs.jsonl</code> to see what the policy did in chosen "
           "replications.</p></section>\n";
  }
  const nlohmann::json& h = timeline->header;
  html += "<p class=\"note\">From " + html_escape(timeline->source) + ": policy " + manifest_value(h, "policy") +
          ", checkpoint " + manifest_value(h, "checkpoint") + ", seed " + manifest_value(h, "seed") +
          ". Hover a bar for its times." +
          (timeline->runs.size() > kMaxTimelineRunsDrawn
               ? " The first " + std::to_string(kMaxTimelineRunsDrawn) + " of " +
                     std::to_string(timeline->runs.size()) + " replications are drawn."
               : "") +
          "</p>\n";
  return html + timeline_chart(*timeline) + timeline_legend(*timeline) + "</section>\n";
}

std::string manifest_section(const ReportInput& input) {
  const nlohmann::json& m = input.manifest;
  std::string html =
      "<section id=\"manifest\"><h2>Manifest</h2>\n<table class=\"manifest\"><tbody>"
      "<tr><th>command</th><td>" +
      manifest_value(m, "command") +
      "</td></tr>"
      "<tr><th>version</th><td>" +
      manifest_value(m, "version") +
      "</td></tr>"
      "<tr><th>git revision</th><td>" +
      manifest_value(m, "git_revision") +
      "</td></tr>"
      "<tr><th>seed</th><td>" +
      manifest_value(m, "seed") +
      "</td></tr>"
      "<tr><th>replications</th><td>" +
      manifest_value(m, "replications") +
      "</td></tr>"
      "</tbody></table>\n<details open><summary>full configuration</summary><pre>" +
      html_escape(m.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)) + "</pre></details></section>\n";
  return html;
}

}  // namespace

std::string render_report_html(const ReportInput& input, const TimelineFile* timeline) {
  std::set<std::string> traces, jobs;
  for (const auto& c : input.configurations) {
    traces.insert(c.trace);
    jobs.insert(c.job);
  }
  std::vector<std::string> labels;
  for (const auto& c : input.configurations)
    labels.push_back(configuration_label(c, traces.size() > 1, jobs.size() > 1));
  const std::string title = "spotsim report: " + input.source;
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
      html_escape(title) + "</title>\n<style>" + report_css() + "</style></head>\n<body>\n<header><h1>" +
      html_escape(title) + "</h1><p class=\"subtitle\">" + input.command + " result, " +
      std::to_string(input.configurations.size()) + " configuration" + (input.configurations.size() == 1 ? "" : "s") +
      ", spotsim " + manifest_value(input.manifest, "version") +
      "</p></header>\n<main>\n<section id=\"summary\"><h2>Summary</h2>\n" + summary_table(input, labels) +
      "</section>\n";
  html += cost_time_section(input, labels);
  if (input.command == "campaign") {
    html += capacity_section(input, labels);
  } else {
    html += distributions_section(input, labels);
    html += timeline_section(timeline);
  }
  html += regret_section(input, labels);
  html += manifest_section(input);
  return html + "</main>\n</body></html>\n";
}

}  // namespace spotsim
