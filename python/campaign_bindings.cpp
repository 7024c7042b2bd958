// spotsim.campaign(): a campaign set up once from the CLI's options (app/campaign/campaign_request_options.hpp,
// the schema `spotsim campaign` reads), one row per selection policy or managed offer, each run with the GIL released;
// the rows handed to Python as columns (runs, jobs, hourly capacity) and summary rows, and as the CLI's JSON.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/advise/break_even.hpp"
#include "app/campaign/campaign_json.hpp"
#include "app/campaign/campaign_options.hpp"
#include "app/campaign/campaign_request_options.hpp"
#include "app/campaign/campaign_savings.hpp"
#include "app/campaign/job_size_groups.hpp"
#include "app/campaign/job_stream_csv.hpp"
#include "app/run_metrics.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/integer_text.hpp"
#include "base/json_text.hpp"
#include "base/shipped_library.hpp"
#include "python/keyword_options.hpp"
#include "python/python_bindings.hpp"
#include "python/summary_dict.hpp"
#include "traces/trace_reader.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

const char* status_name(JobStatus status) {
  switch (status) {
    case JobStatus::kCompleted: return "completed";
    case JobStatus::kStoppedEarly: return "stopped";
    case JobStatus::kFailed: return "failed";
  }
  return "failed";
}

struct RunColumn {
  const char* name;
  double (*value)(const CampaignRun&);
};

// The per-replication columns of CampaignRun (engine/campaign/campaign_result.hpp), in its order.
constexpr std::array<RunColumn, 21> kRunColumns = {{
    {"makespan_hours", [](const CampaignRun& r) { return r.makespan_hours; }},
    {"cost_total", [](const CampaignRun& r) { return r.cost_total; }},
    {"cost_spot", [](const CampaignRun& r) { return r.cost_spot; }},
    {"cost_on_demand", [](const CampaignRun& r) { return r.cost_on_demand; }},
    {"cost_egress", [](const CampaignRun& r) { return r.cost_egress; }},
    {"cost_idle", [](const CampaignRun& r) { return r.cost_idle; }},
    {"cost_lost_work", [](const CampaignRun& r) { return r.cost_lost_work; }},
    {"completed", [](const CampaignRun& r) { return double(r.completed); }},
    {"stopped_early", [](const CampaignRun& r) { return double(r.stopped_early); }},
    {"failed", [](const CampaignRun& r) { return double(r.failed); }},
    {"all_done", [](const CampaignRun& r) { return double(r.all_done); }},
    {"deadline_met", [](const CampaignRun& r) { return double(r.deadline_met); }},
    {"budget_exhausted", [](const CampaignRun& r) { return double(r.budget_exhausted); }},
    {"preemptions", [](const CampaignRun& r) { return double(r.preemptions); }},
    {"capacity_reclaims", [](const CampaignRun& r) { return double(r.capacity_reclaims); }},
    {"spot_instance_hours", [](const CampaignRun& r) { return r.spot_instance_hours; }},
    {"on_demand_instance_hours", [](const CampaignRun& r) { return r.on_demand_instance_hours; }},
    {"capacity_instance_hours", [](const CampaignRun& r) { return r.capacity_instance_hours; }},
    {"capacity_utilisation", [](const CampaignRun& r) { return r.capacity_utilisation(); }},
    {"trace_start_hours", [](const CampaignRun& r) { return r.trace_start_hours; }},
    {"events", [](const CampaignRun& r) { return double(r.events); }},
}};

// A column of one value per item, as a numpy array (a DataFrame of many runs then costs one copy).
template <typename Value, typename Item, typename Get>
py::array_t<Value> column(const std::vector<Item>& items, Get get) {
  py::array_t<Value> out(static_cast<py::ssize_t>(items.size()));
  auto view = out.template mutable_unchecked<1>();
  for (std::size_t i = 0; i < items.size(); ++i) view(static_cast<py::ssize_t>(i)) = static_cast<Value>(get(items[i]));
  return out;
}

struct RunRef {
  const CampaignRow* row;
  const CampaignRun* run;
};

struct JobRef {
  const CampaignRow* row;
  const CampaignRun* run;
  std::size_t job;
  const CampaignJobOutcome& outcome() const { return run->jobs[job]; }
  const RunResult& job_run() const { return run->job_runs.at(job); }
};

class CampaignSession {
 public:
  // `options`: `spotsim campaign`'s (app/campaign/campaign_request_options.hpp), read through its schema;
  // "job_rows", outside it, is the job stream's CSV text of jobs given as rows.
  explicit CampaignSession(py::dict options) {
    std::optional<std::string> job_rows;
    if (options.contains("job_rows")) {
      const py::object rows = options.attr("pop")("job_rows");
      if (!rows.is_none()) job_rows = py::str(rows);
    }
    request_ = campaign_request_from(parse_keyword_options(options, campaign_request_options()),
                                     job_rows ? &*job_rows : nullptr);
  }

  const std::vector<std::string>& policies() const { return request_.policies; }
  bool has_managed_rows() const { return request_.managed_catalogue != "none"; }

  void run_policy(const std::string& policy) {
    py::gil_scoped_release release;
    rows_.push_back(run_policy_campaign(request_.market, request_.spec, registry_, policy, request_.checkpoint,
                                        request_.plan, /*keep_runs=*/true));
  }

  void run_managed() {
    py::gil_scoped_release release;
    for (CampaignRow& row :
         managed_campaign_rows(request_.market, request_.spec, request_.managed_catalogue, request_.links, registry_,
                               request_.checkpoint, request_.plan, true)) {
      rows_.push_back(std::move(row));
    }
  }

  // The CLI's --format json text (with --engineering-cost: the break-even too).
  std::string to_json() const {
    nlohmann::json doc = campaign_header_json(request_);
    for (const CampaignRow& row : rows_) {
      doc["policies"].push_back(campaign_row_json(row, request_.spec, request_.job_stream,
                                                  capacity_bounded(request_.market, request_.capacity)));
    }
    if (request_.engineering_cost) {
      doc["break_even"] = campaign_break_even_json(rows_, *request_.engineering_cost, request_.baseline);
    }
    if (request_.current_spend) {
      doc["savings"] = campaign_savings_json(rows_, comparison_row(rows_, request_.baseline, "--current-spend"),
                                             *request_.current_spend, request_.engineering_cost);
    }
    return json_text(doc, 2) + "\n";
  }

  py::dict run_columns() const {
    std::vector<RunRef> refs;
    for (const CampaignRow& row : rows_) {
      for (const CampaignRun& run : row.runs) refs.push_back({&row, &run});
    }
    py::dict columns;
    columns["policy"] = labels(refs);
    columns["replication"] = column<std::uint64_t>(refs, [](const RunRef& r) { return r.run->replication; });
    for (const RunColumn& c : kRunColumns) {
      columns[c.name] = column<double>(refs, [&](const RunRef& r) { return c.value(*r.run); });
    }
    return columns;
  }

  // One row per (policy, replication, job): the campaign's view of the job, then the job's own run as simulate
  // reports it (app/run_metrics.hpp, times relative to its arrival).
  py::dict job_columns() const {
    std::vector<JobRef> refs;
    for (const CampaignRow& row : rows_) {
      for (const CampaignRun& run : row.runs) {
        for (std::size_t j = 0; j < run.jobs.size(); ++j) refs.push_back({&row, &run, j});
      }
    }
    py::dict columns;
    columns["policy"] = labels(refs);
    columns["replication"] = column<std::uint64_t>(refs, [](const JobRef& r) { return r.run->replication; });
    columns["job"] = column<std::uint64_t>(refs, [](const JobRef& r) { return r.job; });
    py::list names, statuses;
    for (const JobRef& r : refs) {
      names.append(request_.spec.jobs[r.job].name);
      statuses.append(status_name(r.outcome().status));
    }
    columns["name"] = names;
    columns["status"] = statuses;
    columns["finish_hours"] = column<double>(refs, [](const JobRef& r) { return r.outcome().finish_hours; });
    // The job as its user sees it (docs/campaign.md#by-job-size): arrival -> end, and that over its work.
    const auto turnaround = [this](const JobRef& r) {
      return r.outcome().finish_hours - to_hours(request_.spec.jobs[r.job].arrival);
    };
    columns["turnaround_hours"] = column<double>(refs, turnaround);
    columns["slowdown"] = column<double>(
        refs, [&](const JobRef& r) { return turnaround(r) / to_hours(request_.spec.jobs[r.job].job.work); });
    columns["job_deadline_met"] = column<bool>(refs, [](const JobRef& r) { return r.outcome().deadline_met; });
    for (const MetricDefinition& metric : run_metrics()) {
      columns[metric.name] = column<double>(refs, [&](const JobRef& r) { return metric.value(r.job_run()); });
    }
    columns["trace_start_hours"] = column<double>(refs, [](const JobRef& r) { return r.job_run().trace_start_hours; });
    columns["events"] = column<std::uint64_t>(refs, [](const JobRef& r) { return r.job_run().events; });
    columns["fingerprint"] = column<std::uint64_t>(refs, [](const JobRef& r) { return r.job_run().fingerprint; });
    return columns;
  }

  // Per policy and metric: the Summary of the per-replication values (the shares all_done, deadline_met and
  // budget_exhausted as the mean of 0/1 with its interval).
  py::list summary_rows() const {
    py::list rows;
    for (const CampaignRow& row : rows_) {
      for (const RunColumn& c : kRunColumns) {
        std::vector<double> values;
        for (const CampaignRun& run : row.runs) values.push_back(c.value(run));
        py::dict out(py::arg("policy") = row.label, py::arg("metric") = c.name);
        for (const auto& [key, value] : summary_dict(summarize(values, 0.95))) out[key] = value;
        rows.append(out);
      }
    }
    return rows;
  }

  // Per policy and job: its finish time's mean and interval, and its completed and stopped shares (the JSON's).
  py::list job_summary_rows() const {
    py::list rows;
    for (const CampaignRow& row : rows_) {
      const CampaignSummary& s = row.summary;
      for (std::size_t j = 0; j < request_.spec.jobs.size(); ++j) {
        rows.append(py::dict(
            py::arg("policy") = row.label, py::arg("job") = j, py::arg("name") = request_.spec.jobs[j].name,
            py::arg("finish_hours_mean") = s.job_finish_hours[j].mean,
            py::arg("finish_hours_ci_low") = s.job_finish_hours[j].ci_low,
            py::arg("finish_hours_ci_high") = s.job_finish_hours[j].ci_high,
            py::arg("completed_share") = s.job_completed_share[j], py::arg("stopped_share") = s.job_stopped_share[j],
            py::arg("turnaround_hours_mean") = s.job_turnaround[j].turnaround_hours.mean,
            py::arg("turnaround_hours_ci_low") = s.job_turnaround[j].turnaround_hours.ci_low,
            py::arg("turnaround_hours_ci_high") = s.job_turnaround[j].turnaround_hours.ci_high,
            py::arg("slowdown_mean") = s.job_turnaround[j].slowdown, py::arg("cost_mean") = s.job_turnaround[j].cost,
            py::arg("deadline_met_share") = s.job_turnaround[j].deadline_met_share,
            py::arg("scaling_efficiency") = row.job_efficiency.at(j)));
      }
    }
    return rows;
  }

  // Per policy and job size (a job stream only; the JSON's by_job_size): the jobs' turnaround, slowdown, cost per
  // job and deadline share, each the mean over the replications of the group's mean, with its interval.
  py::list job_size_rows() const {
    py::list rows;
    if (!request_.job_stream) return rows;
    const JobSizeGroups groups = job_size_groups(request_.spec);
    for (const CampaignRow& row : rows_) {
      for (std::size_t g = 0; g < row.summary.job_groups.size(); ++g) {
        const JobGroupSummary& group = row.summary.job_groups[g];
        py::dict out(py::arg("policy") = row.label, py::arg("unit") = groups.unit, py::arg("size") = groups.sizes.at(g),
                     py::arg("jobs") = group.jobs);
        const std::pair<const char*, const Summary*> figures[] = {{"turnaround_hours", &group.turnaround_hours},
                                                                  {"slowdown", &group.slowdown},
                                                                  {"cost_per_job", &group.cost},
                                                                  {"deadline_met", &group.deadline_met}};
        for (const auto& [name, summary] : figures) {
          out[py::str(std::string(name) + "_mean")] = summary->mean;
          out[py::str(std::string(name) + "_ci_low")] = summary->ci_low;
          out[py::str(std::string(name) + "_ci_high")] = summary->ci_high;
        }
        rows.append(out);
      }
    }
    return rows;
  }

  // Per policy and hour after the start: mean spot instances held and obtainable (the JSON's held_by_hour, ...).
  py::list hourly_rows() const {
    py::list rows;
    for (const CampaignRow& row : rows_) {
      for (std::size_t h = 0; h < row.summary.held_by_hour.size(); ++h) {
        rows.append(py::dict(py::arg("policy") = row.label, py::arg("hour") = h,
                             py::arg("held_by_hour") = row.summary.held_by_hour[h],
                             py::arg("capacity_by_hour") = row.summary.capacity_by_hour[h]));
      }
    }
    return rows;
  }

 private:
  template <typename Ref>
  static py::list labels(const std::vector<Ref>& refs) {
    py::list out;
    for (const Ref& r : refs) out.append(r.row->label);
    return out;
  }

  CampaignRequest request_;
  PolicyRegistry registry_ = policy_registry();
  std::vector<CampaignRow> rows_;
};

}  // namespace

void bind_campaign(py::module_& m) {
  py::class_<CampaignSession>(m, "CampaignSession",
                              "A campaign set up from spotsim campaign's options; rows added by run_*")
      .def(py::init<py::dict>(), py::arg("options"))
      .def_property_readonly("policies", &CampaignSession::policies, "the --policy list, in order")
      .def_property_readonly("has_managed_rows", &CampaignSession::has_managed_rows,
                             "whether --managed-catalogue names offers (not none)")
      .def("run_policy", &CampaignSession::run_policy, py::arg("policy"), "add the row of one selection policy")
      .def("run_managed", &CampaignSession::run_managed,
           "add a row per offer of the managed catalogue on the trace's GPU")
      .def("to_json", &CampaignSession::to_json,
           "the CLI's --format json text (with the break-even of --engineering-cost when given)")
      .def("run_columns", &CampaignSession::run_columns)
      .def("job_columns", &CampaignSession::job_columns)
      .def("summary_rows", &CampaignSession::summary_rows)
      .def("job_summary_rows", &CampaignSession::job_summary_rows)
      .def("job_size_rows", &CampaignSession::job_size_rows)
      .def("hourly_rows", &CampaignSession::hourly_rows);
}

}  // namespace spotsim::python
