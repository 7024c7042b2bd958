#include "app/advise/region_set_report.hpp"

#include <algorithm>
#include <sstream>

#include "app/advise/json_rows_csv.hpp"
#include "app/report_writer.hpp"
#include "base/json_text.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

bool has_deadline(const RegionSetReport& report) { return !report.manifest["job"]["deadline_hours"].is_null(); }

nlohmann::json row_json(const RegionSetRow& r) {
  return {{"rank", r.ranked.rank > 0 ? nlohmann::json(r.ranked.rank) : nlohmann::json(nullptr)},
          {"excluded_because", r.ranked.excluded_because},
          {"regions", region_set_name(r.regions)},
          {"region_count", r.regions.size()},
          {"origin", r.origin},
          {"mean_cost", r.cost.mean},
          {"cost_ci_low", r.cost.ci_low},
          {"cost_ci_high", r.cost.ci_high},
          {"p95_cost", r.cost.p95},
          {"mean_hours", r.hours.mean},
          {"p95_hours", r.hours.p95},
          {"deadline_met", r.deadline_met},
          {"completed_fraction", r.completed},
          {"mean_migrations", r.mean_migrations},
          {"mean_preemptions", r.mean_preemptions},
          {"mean_egress_usd", r.mean_egress_usd},
          {"egress_share", r.egress_share}};
}

// The CSV's columns: the JSON row's keys in the order written above.
const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> names = {"rank",
                                                 "excluded_because",
                                                 "regions",
                                                 "region_count",
                                                 "origin",
                                                 "mean_cost",
                                                 "cost_ci_low",
                                                 "cost_ci_high",
                                                 "p95_cost",
                                                 "mean_hours",
                                                 "p95_hours",
                                                 "deadline_met",
                                                 "completed_fraction",
                                                 "mean_migrations",
                                                 "mean_preemptions",
                                                 "mean_egress_usd",
                                                 "egress_share"};
  return names;
}

}  // namespace

std::string region_set_table(const RegionSetReport& report) {
  const nlohmann::json& m = report.manifest;
  const nlohmann::json& job = m["job"];
  std::ostringstream out;
  out << "spotsim " << m["version"].get<std::string>() << "  advise --region-sets  trace "
      << escape_control_characters(m["trace"].get<std::string>()) << "\n";
  out << "job: " << format_rounded(job["work_hours"].get<double>()) << " h of work, checkpoint "
      << format_rounded(job["checkpoint_size_gb"].get<double>()) << " GB, deadline "
      << (has_deadline(report) ? format_rounded(job["deadline_hours"].get<double>()) + " h" : std::string("none"))
      << "; policy " << m["policy"].get<std::string>() << ", checkpoint " << m["checkpoint"].get<std::string>() << "\n";
  out << m["replications"].get<std::uint64_t>() << " replications per set, seed " << m["seed"].get<std::uint64_t>()
      << " (the same for every set); " << report.sets_evaluated << " sets simulated, greedy path: ";
  for (std::size_t i = 0; i < report.greedy_path.size(); ++i) {
    out << (i ? " -> " : "") << report.greedy_path[i].size();
  }
  out << " region(s)\n";
  out << "rank = by expected cost among sets passing the criteria; cost CI = 95% CI of the mean\n\n";

  std::vector<std::string> headers = {"rank",        "regions",    "E[cost] $", "95% CI $", "E[time] h",
                                      "P(deadline)", "migrations", "egress %",  "from"};
  std::vector<bool> right = {true, false, true, true, true, true, true, true, false};
  std::vector<std::vector<std::string>> lines;
  const std::size_t candidate_count = m["candidate_regions"].size();
  for (const RegionSetRow& r : report.rows) {
    // The set of every candidate is long to spell out; JSON and CSV still list its regions.
    const std::string name = r.regions.size() == candidate_count && candidate_count > 2
                                 ? "all " + std::to_string(candidate_count) + " regions"
                                 : region_set_name(r.regions);
    // Appended piecewise: "[" + ... trips GCC 12's -Wrestrict false positive on operator+.
    std::string ci = "[";
    ci += format_fixed(r.cost.ci_low, 2);
    ci += ", ";
    ci += format_fixed(r.cost.ci_high, 2);
    ci += "]";
    lines.push_back({r.ranked.rank > 0 ? std::to_string(r.ranked.rank) : std::string("-"),
                     escape_control_characters(name), format_fixed(r.cost.mean, 2), ci, format_fixed(r.hours.mean, 2),
                     format_fixed(r.deadline_met, 3), format_fixed(r.mean_migrations, 2),
                     format_fixed(100.0 * r.egress_share, 1), r.origin});
  }
  if (!has_deadline(report)) {
    headers.erase(headers.begin() + 5);
    right.erase(right.begin() + 5);
    for (auto& cells : lines) cells.erase(cells.begin() + 5);
  }
  std::vector<std::size_t> width(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) {
    width[c] = headers[c].size();
    for (const auto& cells : lines) width[c] = std::max(width[c], cells[c].size());
  }
  const auto print_line = [&](const std::vector<std::string>& cells, const std::string& tail) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i)
      line += (i ? "  " : "") + pad(cells[i], width[i], right[i] ? Align::kRight : Align::kLeft);
    line += tail;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  };
  print_line(headers, "");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& why = report.rows[i].ranked.excluded_because;
    print_line(lines[i], why.empty() ? "" : "  (excluded: " + why + ")");
  }
  out << "\n" << escape_control_characters(report.recommendation) << "\n";
  return out.str();
}

std::string region_set_json(const RegionSetReport& report) {
  nlohmann::json j = {{"manifest", report.manifest}, {"recommendation", report.recommendation}};
  if (report.saving_vs_best_single) {
    const Summary& s = *report.saving_vs_best_single;
    j["saving_vs_best_single"] = {
        {"mean", s.mean}, {"sd", s.sd}, {"n", s.n}, {"ci_low", s.ci_low}, {"ci_high", s.ci_high}};
  } else {
    j["saving_vs_best_single"] = nullptr;
  }
  j["greedy_path"] = nlohmann::json::array();
  for (const auto& set : report.greedy_path) j["greedy_path"].push_back(set);
  j["rows"] = nlohmann::json::array();
  for (const RegionSetRow& row : report.rows) j["rows"].push_back(row_json(row));
  return json_text(j, 2) + "\n";
}

std::string region_set_csv(const RegionSetReport& report) {
  std::vector<nlohmann::json> rows;
  for (const RegionSetRow& row : report.rows) rows.push_back(row_json(row));
  return csv_of_json_rows(csv_columns(), rows);
}

}  // namespace spotsim
