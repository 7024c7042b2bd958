#include "app/report/campaign_tables.hpp"

#include <cmath>

#include "app/report/html_text.hpp"

namespace spotsim {

namespace {

std::string usd_per_month(double value) { return display_usd(value) + "/month"; }

std::string interval(const Estimate& e, int decimals) {
  return display_with_interval(e.mean, e.ci_low, e.ci_high, decimals);
}

// The page's style and label of a DIY policy's row (the first configuration running it), else the bare name.
std::pair<SeriesStyle, std::string> style_of(const ReportInput& input, const std::vector<std::string>& labels,
                                             const SeriesStyles& styles, const std::string& policy) {
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    if (input.configurations[i].policy == policy && !input.configurations[i].managed) return {styles[i], labels[i]};
  }
  return {SeriesStyle{}, policy};
}

}  // namespace

std::string job_size_section(const ReportInput& input, const std::vector<std::string>& labels,
                             const SeriesStyles& styles) {
  std::string rows, unit;
  for (std::size_t i = 0; i < input.configurations.size(); ++i) {
    const ReportConfiguration& c = input.configurations[i];
    for (const JobSizeGroup& g : c.job_sizes) {
      unit = g.unit;
      const bool missed = g.deadline_met.present() && g.deadline_met.mean < 1.0;
      rows += std::string("<tr") + (missed ? " class=\"missed\"" : "") + "><td>" + legend_glyph(styles[i]) +
              html_escape(labels[i]) + "</td><td class=\"num\">" + std::to_string(g.size) + "</td><td class=\"num\">" +
              std::to_string(g.jobs) + "</td><td class=\"num\">" + interval(g.turnaround_hours, 2) +
              "</td><td class=\"num\">" + interval(g.slowdown, 3) + "</td><td class=\"num\">" +
              interval(g.cost_per_job, 2) + "</td><td class=\"num\">" + (missed ? "\xE2\x9A\xA0 " : "") +
              interval(g.deadline_met, 3) + "</td></tr>\n";
    }
  }
  if (rows.empty()) return "";
  return "<section id=\"job-sizes\"><h2>By job size</h2>\n<p class=\"note\">Each job's turnaround is its end minus "
         "its arrival, its slowdown the turnaround over its work; means over the jobs of a size and the "
         "replications, with 95% intervals over replications. \xE2\x9A\xA0: some deadlines missed.</p>\n"
         "<table class=\"job-sizes\"><thead><tr><th>policy</th><th>" +
         html_escape(unit == "instances" ? "instances" : "GPUs") +
         "</th><th>jobs</th><th>turnaround (h)</th><th>slowdown</th><th>cost per job (USD)</th><th>deadline "
         "met</th></tr></thead><tbody>\n" +
         rows + "</tbody></table></section>\n";
}

std::string savings_section(const ReportInput& input, const std::vector<std::string>& labels,
                            const SeriesStyles& styles) {
  if (!input.savings || input.savings->policies.empty()) return "";
  const CampaignSavings& s = *input.savings;
  const bool engineering = std::isfinite(s.engineering_per_month);
  std::string rows;
  for (const CampaignSavings::Policy& p : s.policies) {
    const auto [style, label] = style_of(input, labels, styles, p.policy);
    const bool pays = p.net_saving_per_month > 0.0;
    rows += std::string("<tr") + (pays ? "" : " class=\"missed\"") + "><td>" + legend_glyph(style) +
            html_escape(label) + "</td><td class=\"num\">" + display_number(100.0 * p.saving_fraction, 1) +
            "%</td><td class=\"num\">" + usd_per_month(p.net_saving_per_month) + "</td><td class=\"num\">" +
            (p.engineering_limit_per_month > 0.0 ? usd_per_month(p.engineering_limit_per_month) : "never pays") +
            "</td></tr>\n";
  }
  return "<section id=\"savings\"><h2>Against what you pay today</h2>\n<p class=\"note\">Today: " +
         usd_per_month(s.current_spend_per_month) + " on " + html_escape(s.baseline) +
         ". A policy whose campaign costs the share s less than that row's saves s \xC3\x97 " +
         usd_per_month(s.current_spend_per_month) +
         (engineering ? " less " + usd_per_month(s.engineering_per_month) + " of engineering" : "") +
         ", and pays while running it yourself costs less than s \xC3\x97 that spend (docs/campaign.md#savings).</p>\n"
         "<table class=\"savings\"><thead><tr><th>policy</th><th>saves (share of the baseline)</th><th>" +
         (engineering ? "net saving" : "saving") +
         "</th><th>pays while engineering costs less than</th></tr></thead><tbody>\n" + rows +
         "</tbody></table></section>\n";
}

}  // namespace spotsim
