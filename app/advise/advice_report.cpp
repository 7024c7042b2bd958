#include "app/advise/advice_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/advise/json_rows_csv.hpp"
#include "app/report_writer.hpp"
#include "base/json_text.hpp"
#include "base/text_escape.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

std::string place(const GpuOffer& offer) { return offer.zone.empty() ? offer.region : offer.zone; }

// A checkpoint interval in hours, "-" where the policy set none on that kind of instance.
std::string interval_text(double hours) { return std::isnan(hours) ? std::string("-") : format_fixed(hours, 2); }

// NaN (no interval set) as JSON null.
nlohmann::json number_or_null(double value) {
  return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
}

bool has_deadline(const AdviceReport& report) { return !report.manifest["job"]["deadline_hours"].is_null(); }

// "~" after a price that is an estimate (spot prices derived from on-demand; managed prices marked so).
std::string estimated_mark(const AdviceRow& r) { return r.offer.spot_price_estimated ? "~" : " "; }

// Shown with --engineering-cost only (docs/managed.md#break-even).
const char* const kBreakEvenHeader = "DIY pays off at $/month";

// One table column: header, alignment and how a row fills it.
struct Column {
  std::string header;
  bool right;
  std::string (*cell)(const AdviceRow&);
};

const std::vector<Column>& columns() {
  static const std::vector<Column> all = {
      {"rank", true,
       [](const AdviceRow& r) { return r.ranked.rank > 0 ? std::to_string(r.ranked.rank) : std::string("-"); }},
      {"P", false, [](const AdviceRow& r) { return std::string(r.ranked.pareto ? "*" : ""); }},
      {"cloud", false, [](const AdviceRow& r) { return r.offer.cloud; }},
      {"zone/region", false, [](const AdviceRow& r) { return place(r.offer); }},
      {"instance", false, [](const AdviceRow& r) { return r.offer.instance_type; }},
      {"GPU", false, [](const AdviceRow& r) { return r.offer.gpu; }},
      {"n", true, [](const AdviceRow& r) { return std::to_string(r.instances); }},
      {"policy", false, [](const AdviceRow& r) { return r.policy; }},
      {"step ms", true, [](const AdviceRow& r) { return format_fixed(r.step_time_s * 1e3, 2); }},
      {"work h", true, [](const AdviceRow& r) { return format_fixed(r.work_hours, 2); }},
      {"E[cost] $", true, [](const AdviceRow& r) { return format_fixed(r.metrics.mean_cost, 2); }},
      {"p95 cost $", true, [](const AdviceRow& r) { return format_fixed(r.metrics.p95_cost, 2); }},
      {"E[time] h", true, [](const AdviceRow& r) { return format_fixed(r.metrics.mean_hours, 2); }},
      {"p95 time h", true, [](const AdviceRow& r) { return format_fixed(r.metrics.p95_hours, 2); }},
      {"P(deadline)", true, [](const AdviceRow& r) { return format_fixed(r.metrics.deadline_probability, 3); }},
      {"preempt", true, [](const AdviceRow& r) { return format_fixed(r.metrics.mean_preemptions, 2); }},
      {"OD $/h", true,
       [](const AdviceRow& r) {
         if (r.managed_spot) return std::string("-");  // a managed row has the one price of its mode
         return format_fixed(r.offer.on_demand_per_hour, 3) + (r.managed_service.empty() ? "" : estimated_mark(r));
       }},
      {"spot $/h", true,
       [](const AdviceRow& r) {
         if (!r.managed_service.empty() && !r.managed_spot) return std::string("- ");
         if (!r.offer.on_demand_only.empty()) return std::string("- ");  // never rented on spot
         return format_fixed(r.offer.spot_per_hour, 3) + estimated_mark(r);
       }},
      {"ckpt h spot/OD", false,
       [](const AdviceRow& r) {
         return interval_text(r.metrics.checkpoint_interval_spot_hours) + "/" +
                interval_text(r.metrics.checkpoint_interval_on_demand_hours);
       }},
      {"spot price from", false, [](const AdviceRow& r) { return r.spot_price_source; }},
      {"preemptions from", false, [](const AdviceRow& r) { return r.preemption_basis + ": " + r.preemption_origin; }},
      {kBreakEvenHeader, true,
       [](const AdviceRow& r) {
         if (!r.versus_managed) return std::string("-");
         return r.versus_managed->monthly_spend ? format_fixed(*r.versus_managed->monthly_spend, 0)
                                                : std::string("never");
       }},
  };
  return all;
}

}  // namespace

std::string advice_table(const AdviceReport& report) {
  const nlohmann::json& m = report.manifest;
  const nlohmann::json& job = m["job"];
  std::ostringstream out;
  out << "spotsim " << m["version"].get<std::string>() << "  advise  catalogue "
      << escape_control_characters(m["catalogue"].get<std::string>()) << "\n";
  out << "job: "
      << escape_control_characters(job["name"].get<std::string>().empty() ? job["file"].get<std::string>()
                                                                          : job["name"].get<std::string>())
      << ", " << format_rounded(job["steps"].get<double>()) << " steps on " << job["gpus"].get<int>()
      << " GPU(s), checkpoint write " << format_rounded(job["checkpoint_write_s"].get<double>()) << " s, restore "
      << format_rounded(job["restore_s"].get<double>()) << " s, start-up "
      << format_rounded(job["startup_s"].get<double>()) << " s, deadline "
      << (has_deadline(report) ? format_rounded(job["deadline_hours"].get<double>()) + " h" : std::string("none"))
      << "\n";
  std::string policies;
  for (const auto& p : m["policies"]) policies += (policies.empty() ? "" : ", ") + p.get<std::string>();
  out << "policies: " << policies << "; checkpoint " << m["checkpoint"].get<std::string>() << "; "
      << m["replications"].get<std::uint64_t>() << " replications per row, seed " << m["seed"].get<std::uint64_t>()
      << " (the same for every offer)\n";
  out << "rank = by expected cost among rows passing the filters (ties: expected time, p95 cost, p95 time, ...); "
         "P * = Pareto-optimal on (expected cost, expected time); ~ = estimated spot price\n";
  if (report.managed_shown) {
    out << "managed training rows (policy = service and mode; docs/managed.md): managed catalogue "
        << escape_control_characters(m.value("managed_catalogue", std::string("none")));
    if (report.engineering_cost_per_month) {
      out << "; DIY pays off at = monthly spend above which a DIY row, with "
          << format_usd(*report.engineering_cost_per_month) << "/month of engineering, beats "
          << (report.best_managed.empty() ? std::string("the best managed row (none ranked)") : report.best_managed);
    }
    out << "\n";
  }
  out << "\n";

  std::vector<const Column*> shown;
  for (const Column& c : columns()) {
    if (c.header == "P(deadline)" && !has_deadline(report)) continue;
    if (c.header == kBreakEvenHeader && !report.engineering_cost_per_month) continue;
    shown.push_back(&c);
  }
  std::vector<std::size_t> width;
  for (const Column* c : shown) {
    std::size_t w = c->header.size();
    for (const AdviceRow& row : report.rows) w = std::max(w, escape_control_characters(c->cell(row)).size());
    width.push_back(w);
  }
  const auto print_line = [&](const std::vector<std::string>& cells, const std::string& tail) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i)
      line += (i ? "  " : "") + pad(cells[i], width[i], shown[i]->right ? Align::kRight : Align::kLeft);
    line += tail;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  };
  std::vector<std::string> headers;
  for (const Column* c : shown) headers.push_back(c->header);
  print_line(headers, "");
  for (const AdviceRow& row : report.rows) {
    std::vector<std::string> cells;
    for (const Column* c : shown) cells.push_back(escape_control_characters(c->cell(row)));  // names from the catalogue
    print_line(cells, row.ranked.excluded_because.empty()
                          ? ""
                          : "  (excluded: " + escape_control_characters(row.ranked.excluded_because) + ")");
  }
  if (!report.skipped.empty()) {
    out << "\nskipped offers:\n";
    for (const SkippedOffer& s : report.skipped) {
      out << "  " << escape_control_characters(s.offer.label()) << ": " << escape_control_characters(s.reason) << "\n";
    }
  }
  out << "\n" << escape_control_characters(report.recommendation) << "\n";
  return out.str();
}

namespace {

// The managed columns, only in reports that show managed rows or a break-even.
void add_managed_json(const AdviceRow& r, nlohmann::json& j) {
  j["managed_service"] = r.managed_service.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.managed_service);
  j["diy_saving_vs_managed"] =
      r.versus_managed ? nlohmann::json(r.versus_managed->saving_fraction) : nlohmann::json(nullptr);
  j["break_even_monthly_spend"] = r.versus_managed && r.versus_managed->monthly_spend
                                      ? nlohmann::json(*r.versus_managed->monthly_spend)
                                      : nlohmann::json(nullptr);
}

nlohmann::json row_json(const AdviceRow& r) {
  return {{"rank", r.ranked.rank > 0 ? nlohmann::json(r.ranked.rank) : nlohmann::json(nullptr)},
          {"pareto", r.ranked.pareto},
          {"excluded_because", r.ranked.excluded_because},
          {"cloud", r.offer.cloud},
          {"region", r.offer.region},
          {"zone", r.offer.zone},
          {"instance_type", r.offer.instance_type},
          {"gpu", r.offer.gpu},
          {"gpus_per_instance", r.offer.gpus_per_instance},
          {"instances", r.instances},
          {"idle_gpus", r.idle_gpus},
          {"policy", r.policy},
          {"on_demand_per_hour", r.offer.on_demand_per_hour},
          {"spot_per_hour", r.offer.spot_per_hour},
          {"spot_price_estimated", r.offer.spot_price_estimated},
          {"spot_price_source", r.spot_price_source},
          {"preemption", r.offer.preemption},
          {"preemption_basis", r.preemption_basis},
          {"step_time_s", r.step_time_s},
          {"step_time_origin", r.step_time_origin},
          {"work_hours", r.work_hours},
          {"mean_cost", r.metrics.mean_cost},
          {"p95_cost", r.metrics.p95_cost},
          {"mean_hours", r.metrics.mean_hours},
          {"p95_hours", r.metrics.p95_hours},
          {"deadline_probability", r.metrics.deadline_probability},
          {"completed_fraction", r.metrics.completed_fraction},
          {"mean_preemptions", r.metrics.mean_preemptions},
          {"checkpoint_interval_spot_hours", number_or_null(r.metrics.checkpoint_interval_spot_hours)},
          {"checkpoint_interval_on_demand_hours", number_or_null(r.metrics.checkpoint_interval_on_demand_hours)},
          {"on_demand_only", r.offer.on_demand_only},
          {"notes", r.offer.notes}};
}

// Column order of the CSV: the JSON row's keys in the order written above.
const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> names = {"rank",
                                                 "pareto",
                                                 "excluded_because",
                                                 "cloud",
                                                 "region",
                                                 "zone",
                                                 "instance_type",
                                                 "gpu",
                                                 "gpus_per_instance",
                                                 "instances",
                                                 "idle_gpus",
                                                 "policy",
                                                 "on_demand_per_hour",
                                                 "spot_per_hour",
                                                 "spot_price_estimated",
                                                 "spot_price_source",
                                                 "preemption",
                                                 "preemption_basis",
                                                 "step_time_s",
                                                 "step_time_origin",
                                                 "work_hours",
                                                 "mean_cost",
                                                 "p95_cost",
                                                 "mean_hours",
                                                 "p95_hours",
                                                 "deadline_probability",
                                                 "completed_fraction",
                                                 "mean_preemptions",
                                                 "checkpoint_interval_spot_hours",
                                                 "checkpoint_interval_on_demand_hours",
                                                 "on_demand_only",
                                                 "notes"};
  return names;
}

const std::vector<std::string> kManagedCsvColumns = {"managed_service", "diy_saving_vs_managed",
                                                     "break_even_monthly_spend"};

}  // namespace

std::string advice_json(const AdviceReport& report) {
  nlohmann::json j = {{"manifest", report.manifest}, {"recommendation", report.recommendation}};
  j["rows"] = nlohmann::json::array();
  for (const AdviceRow& row : report.rows) {
    j["rows"].push_back(row_json(row));
    if (report.managed_shown) add_managed_json(row, j["rows"].back());
  }
  if (report.managed_shown) {
    j["best_managed"] = report.best_managed.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.best_managed);
    j["engineering_cost_per_month"] = report.engineering_cost_per_month
                                          ? nlohmann::json(*report.engineering_cost_per_month)
                                          : nlohmann::json(nullptr);
  }
  j["skipped"] = nlohmann::json::array();
  for (const SkippedOffer& s : report.skipped)
    j["skipped"].push_back({{"offer", s.offer.label()}, {"reason", s.reason}});
  return json_text(j, 2) + "\n";
}

std::string advice_csv(const AdviceReport& report) {
  std::vector<nlohmann::json> rows;
  std::vector<std::string> columns = csv_columns();
  if (report.managed_shown) columns.insert(columns.end(), kManagedCsvColumns.begin(), kManagedCsvColumns.end());
  for (const AdviceRow& row : report.rows) {
    rows.push_back(row_json(row));
    if (report.managed_shown) add_managed_json(row, rows.back());
  }
  return csv_of_json_rows(columns, rows);
}

}  // namespace spotsim
