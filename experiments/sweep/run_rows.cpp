#include "experiments/sweep/run_rows.hpp"

#include <charconv>
#include <limits>
#include <sstream>

#include "experiments/report_writer.hpp"
#include "experiments/run_metrics.hpp"
#include "sim/errors.hpp"
#include "sim/text_escape.hpp"

namespace spotsim {

namespace {

// Every field of a RunResult, in one place, for both directions of the chunk format.
template <typename Result, typename Visit>
void for_each_field(Result& r, Visit visit) {
  visit("replication", r.replication);
  visit("completed", r.completed);
  visit("deadline_met", r.deadline_met);
  visit("completion_hours", r.completion_hours);
  visit("cost_total", r.cost_total);
  visit("cost_spot", r.cost_spot);
  visit("cost_on_demand", r.cost_on_demand);
  visit("preemptions", r.preemptions);
  visit("checkpoints", r.checkpoints);
  visit("spot_starts", r.spot_starts);
  visit("on_demand_starts", r.on_demand_starts);
  visit("lost_work_hours", r.lost_work_hours);
  visit("checkpoint_hours", r.checkpoint_hours);
  visit("restore_hours", r.restore_hours);
  visit("startup_hours", r.startup_hours);
  visit("wait_hours", r.wait_hours);
  visit("spot_hours", r.spot_hours);
  visit("on_demand_hours", r.on_demand_hours);
  visit("trace_start_hours", r.trace_start_hours);
  visit("optimum_cost", r.optimum_cost);
  visit("events", r.events);
  visit("fingerprint", r.fingerprint);
}

void append_value(std::string& out, double v) { out += format_number(v); }
void append_value(std::string& out, bool v) { out += v ? '1' : '0'; }
void append_value(std::string& out, int v) { out += std::to_string(v); }
void append_value(std::string& out, std::uint64_t v) { out += std::to_string(v); }

bool parse_value(const std::string& text, double& v) {
  if (text == "nan") {
    v = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}
template <typename Integer>
bool parse_value(const std::string& text, Integer& v) {
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}
bool parse_value(const std::string& text, bool& v) {
  if (text != "0" && text != "1") return false;
  v = text == "1";
  return true;
}

std::string chunk_header(const SweepPlan& plan, std::uint64_t chunk) {
  return "# spotsim sweep chunk " + std::to_string(chunk) + " of spec " + plan.spec_hash + ": runs " +
         std::to_string(plan.chunk_begin(chunk)) + " to " + std::to_string(plan.chunk_end(chunk));
}

}  // namespace

std::string chunk_file_text(const SweepPlan& plan, std::uint64_t chunk, const std::vector<RunResult>& runs) {
  std::string out = chunk_header(plan, chunk) + "\nrun";
  RunResult names;
  for_each_field(names, [&out](const char* name, auto&) { (out += ',') += name; });
  out += '\n';
  std::uint64_t run = plan.chunk_begin(chunk);
  for (const RunResult& r : runs) {
    out += std::to_string(run++);
    for_each_field(r, [&out](const char*, const auto& value) {
      out += ',';
      append_value(out, value);
    });
    out += '\n';
  }
  out += "# end\n";
  return out;
}

std::vector<RunResult> parse_chunk_file(const SweepPlan& plan, std::uint64_t chunk, const std::string& text,
                                        const std::string& file) {
  std::istringstream in(text);
  std::string line;
  auto damaged = [&file](const std::string& what) {
    return InputError(file + ": " + what + "; delete the file to recompute its runs");
  };
  if (!std::getline(in, line) || line != chunk_header(plan, chunk)) {
    throw damaged("expected the header '" + chunk_header(plan, chunk) + "' (a chunk of another spec or version?)");
  }
  std::getline(in, line);  // column names
  std::vector<RunResult> runs;
  const std::uint64_t first = plan.chunk_begin(chunk), end = plan.chunk_end(chunk);
  while (std::getline(in, line) && line != "# end") {
    std::istringstream cells(line);
    std::string cell;
    std::uint64_t run = 0;
    if (!std::getline(cells, cell, ',') || !parse_value(cell, run) || run != first + runs.size()) {
      throw damaged("row " + std::to_string(runs.size() + 1) + ": expected run " + std::to_string(first + runs.size()));
    }
    RunResult r;
    for_each_field(r, [&](const char* name, auto& value) {
      if (!std::getline(cells, cell, ',') || !parse_value(cell, value)) {
        throw damaged("run " + std::to_string(run) + ": field '" + name + "': expected a number, got '" + cell + "'");
      }
    });
    runs.push_back(r);
  }
  if (line != "# end" || runs.size() != end - first) {
    throw damaged("expected " + std::to_string(end - first) + " runs and an end marker, found " + std::to_string(runs.size()));
  }
  return runs;
}

std::string csv_field(const std::string& text) {
  if (!csv_needs_quoting(text)) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string runs_csv_header() {
  std::string header = "run,configuration,trace,policy,checkpoint,job,seed,replication";
  for (const MetricDefinition& metric : run_metrics()) (header += ',') += metric.name;
  return header + ",spot_starts,on_demand_starts,trace_start_hours,events,fingerprint\n";
}

void append_runs_csv(const SweepPlan& plan, std::uint64_t first, const std::vector<RunResult>& runs, std::string& out) {
  const auto metrics = run_metrics();
  std::uint64_t run = first;
  for (const RunResult& r : runs) {
    const Configuration& c = plan.configuration_of_run(run);
    out += std::to_string(run++);
    out += ',' + std::to_string(c.index) + ',' + csv_field(plan.traces[c.trace].name) + ',' +
           csv_field(plan.policy_of(c)) + ',' + csv_field(plan.checkpoint_of(c)) + ',' + csv_field(plan.job_label_of(c)) +
           ',' + std::to_string(plan.seed_of(c)) + ',' + std::to_string(r.replication);
    for (const MetricDefinition& metric : metrics) {
      out += ',';
      append_value(out, metric.value(r));
    }
    out += ',' + std::to_string(r.spot_starts) + ',' + std::to_string(r.on_demand_starts) + ',';
    append_value(out, r.trace_start_hours);
    out += ',' + std::to_string(r.events) + ',' + std::to_string(r.fingerprint) + '\n';
  }
}

}  // namespace spotsim
