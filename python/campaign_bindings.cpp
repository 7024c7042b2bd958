// spotsim.campaign(): a campaign set up once from the CLI's options (app/campaign/campaign_options.hpp,
// shared with `spotsim campaign`), one row per selection policy or managed offer, each run with the GIL released;
// the rows handed to Python as columns (runs, jobs, hourly capacity) and summary rows, and as the CLI's JSON.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "app/campaign/campaign_json.hpp"
#include "app/campaign/campaign_options.hpp"
#include "app/campaign/job_stream_csv.hpp"
#include "app/advise/break_even.hpp"
#include "app/run_metrics.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/integer_text.hpp"
#include "python/option_dict.hpp"
#include "python/python_bindings.hpp"
#include "python/summary_dict.hpp"
#include "base/shipped_library.hpp"
#include "traces/trace_reader.hpp"
#include "base/json_text.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

// `spotsim campaign`'s options, '-' written '_'; job_rows is the CSV text of jobs given as rows (named "jobs").
constexpr std::array kCampaignOptions = {"trace",      "capacity",     "jobs",       "job_rows", "trials",
                                         "trial_work", "gpus",         "checkpoint", "schedule", "reclaim",
                                         "halving",    "budget",       "deadline",   "startup",  "checkpoint_write",
                                         "restore",    "replications", "seed",       "threads"};

const char* status_name(JobStatus status) {
  switch (status) {
    case JobStatus::kCompleted:
      return "completed";
    case JobStatus::kStoppedEarly:
      return "stopped";
    case JobStatus::kFailed:
      return "failed";
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
  explicit CampaignSession(const py::dict& options) {
    const OptionDict o(options, kCampaignOptions);
    market_ = read_trace_file(locate_trace(o.text("trace", "gcp-h100-capacity-13-zones")));
    capacity_ = o.text("capacity", "recorded");
    apply_capacity(market_, capacity_);
    JobSpec defaults;
    defaults.startup = parse_duration(o.text("startup", "5m"), "--startup");
    defaults.checkpoint_write = parse_duration(o.text("checkpoint_write", "1m"), "--checkpoint-write");
    defaults.restore = parse_duration(o.text("restore", "1m"), "--restore");
    defaults.gpus = static_cast<int>(o.count("gpus", 1, 1, kMaxJobGpus));
    defaults.nodes = 0;
    if ((o.has("jobs") || o.has("job_rows")) && (o.has("trials") || o.has("trial_work"))) {
      throw InputError("--jobs: give either the jobs or --trials with --trial-work, not both");
    }
    if (o.has("jobs")) {
      spec_.jobs = read_job_stream_csv(o.text("jobs", ""), defaults);
    } else if (o.has("job_rows")) {
      spec_.jobs = read_job_stream_text(o.text("job_rows", ""), "jobs", defaults);
    } else {
      const auto [lo, hi] = parse_trial_work(o.text("trial_work", "4h:12h"));
      spec_.jobs = sweep_trials(static_cast<int>(o.count("trials", 40, 1, 100000)), lo, hi, defaults);
    }
    resolve_campaign_jobs(spec_.jobs, market_, defaults.gpus);
    spec_.scheduling = parse_scheduling(o.text("schedule", "fifo"));
    spec_.reclaim = parse_reclaim(o.text("reclaim", "random"));
    spec_.early_stopping = parse_halving(o.text("halving", "none"));
    if (o.has("budget")) spec_.budget_usd = o.number("budget");
    if (o.has("deadline")) spec_.deadline = o.duration("deadline");
    validate_campaign(spec_, "campaign");
    checkpoint_ = o.text("checkpoint", "young-daly");
    plan_.seed = o.count("seed", 1, 0, kMaxSeed);
    plan_.count = o.count("replications", 200, 1, 10'000'000);
    plan_.threads = static_cast<int>(o.count("threads", 0, 0, 4096));
  }

  void run_policy(const std::string& policy) {
    py::gil_scoped_release release;
    rows_.push_back(run_policy_campaign(market_, spec_, registry_, policy, checkpoint_, plan_, /*keep_runs=*/true));
  }

  void run_managed(const std::string& catalogue) {
    py::gil_scoped_release release;
    for (CampaignRow& row : managed_campaign_rows(market_, spec_, catalogue, registry_, checkpoint_, plan_, true)) {
      rows_.push_back(std::move(row));
    }
  }

  // The CLI's --format json text; with `engineering_cost` (its --engineering-cost, "8000/month"), the break-even too.
  std::string to_json(const std::optional<std::string>& engineering_cost) const {
    nlohmann::json doc = campaign_header_json(market_, capacity_, spec_, checkpoint_, plan_);
    for (const CampaignRow& row : rows_) doc["policies"].push_back(campaign_row_json(row, spec_));
    if (engineering_cost) doc["break_even"] = campaign_break_even_json(rows_, parse_engineering_cost(*engineering_cost));
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
      names.append(spec_.jobs[r.job].name);
      statuses.append(status_name(r.outcome().status));
    }
    columns["name"] = names;
    columns["status"] = statuses;
    columns["finish_hours"] = column<double>(refs, [](const JobRef& r) { return r.outcome().finish_hours; });
    columns["job_deadline_met"] = column<bool>(refs, [](const JobRef& r) { return r.outcome().deadline_met; });
    for (const MetricDefinition& metric : run_metrics()) {
      columns[metric.name] = column<double>(refs, [&](const JobRef& r) { return metric.value(r.job_run()); });
    }
    columns["trace_start_hours"] =
        column<double>(refs, [](const JobRef& r) { return r.job_run().trace_start_hours; });
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
      for (std::size_t j = 0; j < spec_.jobs.size(); ++j) {
        rows.append(py::dict(py::arg("policy") = row.label, py::arg("job") = j, py::arg("name") = spec_.jobs[j].name,
                             py::arg("finish_hours_mean") = s.job_finish_hours[j].mean,
                             py::arg("finish_hours_ci_low") = s.job_finish_hours[j].ci_low,
                             py::arg("finish_hours_ci_high") = s.job_finish_hours[j].ci_high,
                             py::arg("completed_share") = s.job_completed_share[j],
                             py::arg("stopped_share") = s.job_stopped_share[j]));
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

  SpotMarket market_;
  std::string capacity_;
  CampaignSpec spec_;
  std::string checkpoint_;
  ReplicationPlan plan_;
  PolicyRegistry registry_ = policy_registry();
  std::vector<CampaignRow> rows_;
};

}  // namespace

void bind_campaign(py::module_& m) {
  py::class_<CampaignSession>(m, "CampaignSession",
                              "A campaign set up from spotsim campaign's options; rows added by run_*")
      .def(py::init<const py::dict&>(), py::arg("options"))
      .def("run_policy", &CampaignSession::run_policy, py::arg("policy"), "add the row of one selection policy")
      .def("run_managed", &CampaignSession::run_managed, py::arg("catalogue"),
           "add a row per managed offer of the catalogue on the trace's GPU")
      .def("to_json", &CampaignSession::to_json, py::arg("engineering_cost") = py::none(),
           "the CLI's --format json text (with the break-even of --engineering-cost when given)")
      .def("run_columns", &CampaignSession::run_columns)
      .def("job_columns", &CampaignSession::job_columns)
      .def("summary_rows", &CampaignSession::summary_rows)
      .def("job_summary_rows", &CampaignSession::job_summary_rows)
      .def("hourly_rows", &CampaignSession::hourly_rows);
  m.def("parse_engineering_cost", &parse_engineering_cost, py::arg("text"),
        "--engineering-cost: '8000/month' or '8000' (USD per month); InputError for anything else");
}

}  // namespace spotsim::python
