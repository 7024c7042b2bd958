#include "app/sweep/run_rows.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

#include "app/report_writer.hpp"
#include "app/run_metrics.hpp"
#include "base/errors.hpp"
#include "base/text_escape.hpp"

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
  visit("cost_egress", r.cost_egress);
  visit("migrations", r.migrations);
  visit("migration_hours", r.migration_hours);
  visit("ledger_compute", r.ledger_compute);
  visit("ledger_lost_work", r.ledger_lost_work);
  visit("ledger_startup", r.ledger_startup);
  visit("ledger_restore", r.ledger_restore);
  visit("ledger_checkpoint", r.ledger_checkpoint);
  visit("ledger_transfer", r.ledger_transfer);
  visit("ledger_idle", r.ledger_idle);
  visit("ledger_rounding", r.ledger_rounding);
  visit("trace_start_hours", r.trace_start_hours);
  visit("optimum_cost", r.optimum_cost);
  visit("events", r.events);
  visit("fingerprint", r.fingerprint);
}

// Rows are written straight into the output with std::to_chars (shortest round-trip for doubles): no temporary
// strings, since formatting is most of a sweep's time per run once the simulation itself is fast.
class RowWriter {
 public:
  // Room for `bytes` more characters; finish() trims what was not used.
  RowWriter(std::string& out, std::size_t bytes) : out_(out), start_(out.size()) {
    out_.resize(start_ + bytes);
    p_ = out_.data() + start_;
    end_ = out_.data() + out_.size();
  }
  RowWriter(const RowWriter&) = delete;
  RowWriter& operator=(const RowWriter&) = delete;
  ~RowWriter() { out_.resize(static_cast<std::size_t>(p_ - out_.data())); }

  void put(char c) { *p_++ = c; }
  void put(const std::string& text) {
    std::memcpy(p_, text.data(), text.size());
    p_ += text.size();
  }
  void put(double v) {
    if (std::isnan(v)) {
      std::memcpy(p_, "nan", 3);
      p_ += 3;
      return;
    }
    p_ = std::to_chars(p_, end_, v).ptr;
  }
  void put(bool v) { *p_++ = v ? '1' : '0'; }
  void put(int v) { p_ = std::to_chars(p_, end_, v).ptr; }
  void put(std::uint64_t v) { p_ = std::to_chars(p_, end_, v).ptr; }

 private:
  std::string& out_;
  std::size_t start_;
  char* p_;
  char* end_;
};

// The longest text of one field: a double's shortest form takes at most 24 characters, a uint64 20.
constexpr std::size_t kFieldBytes = 26;

bool parse_value(std::string_view text, double& v) {
  if (text == "nan") {
    v = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}
template <typename Integer>
bool parse_value(std::string_view text, Integer& v) {
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}
bool parse_value(std::string_view text, bool& v) {
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
  std::size_t fields = 1;
  for_each_field(names, [&out, &fields](const char* name, auto&) {
    (out += ',') += name;
    ++fields;
  });
  out += '\n';
  out.reserve(out.size() + runs.size() * fields * 12 + 8);
  std::uint64_t run = plan.chunk_begin(chunk);
  for (const RunResult& r : runs) {
    RowWriter row(out, fields * kFieldBytes + 1);
    row.put(run++);
    for_each_field(r, [&row](const char*, const auto& value) {
      row.put(',');
      row.put(value);
    });
    row.put('\n');
  }
  out += "# end\n";
  return out;
}

namespace {

// Splits off the text up to `separator` (or the end) from `rest`; false when `rest` is exhausted.
bool next_token(std::string_view& rest, char separator, std::string_view& token, bool& exhausted) {
  if (exhausted) return false;
  const std::size_t at = rest.find(separator);
  token = rest.substr(0, at);
  if (at == std::string_view::npos) {
    exhausted = true;
    rest = {};
  } else {
    rest.remove_prefix(at + 1);
  }
  return true;
}

// The rows of a chunk holding runs [first, end), after its header line: the column names, one line per run
// numbered first, first + 1, ..., then "# end". Calls row(r) for each run; `damaged(what)` makes the error.
template <typename Row, typename Damaged>
void parse_chunk_rows(std::string_view text, std::uint64_t first, std::uint64_t end, Row row, Damaged damaged) {
  std::string_view line;
  bool lines_done = false;
  next_token(text, '\n', line, lines_done);  // column names
  std::uint64_t count = 0;
  bool ended = false;
  while (next_token(text, '\n', line, lines_done)) {
    if (line.empty() && lines_done) break;  // nothing after the last newline: the file ends here
    if (line == "# end") {
      ended = true;
      break;
    }
    std::string_view cell, cells = line;
    bool cells_done = false;
    std::uint64_t run = 0;
    if (!next_token(cells, ',', cell, cells_done) || !parse_value(cell, run) || run != first + count) {
      throw damaged("row " + std::to_string(count + 1) + ": expected run " + std::to_string(first + count));
    }
    RunResult r;
    for_each_field(r, [&](const char* name, auto& value) {
      if (!next_token(cells, ',', cell, cells_done)) cell = {};
      if (!parse_value(cell, value)) {
        throw damaged("run " + std::to_string(run) + ": field '" + name + "': expected a number, got '" +
                      std::string(cell) + "'");
      }
    });
    if (!cells_done) throw damaged("run " + std::to_string(run) + ": more fields than the columns");
    row(r);
    ++count;
  }
  // A file cut short anywhere lacks its end marker (a cut inside the marker leaves "# en" as a bad row).
  if (!ended || count != end - first) {
    throw damaged("expected " + std::to_string(end - first) + " runs and an end marker, found " +
                  std::to_string(count));
  }
}

}  // namespace

std::vector<RunResult> parse_chunk_file(const SweepPlan& plan, std::uint64_t chunk, const std::string& text,
                                        const std::string& file) {
  auto damaged = [&file](const std::string& what) {
    return InputError(file + ": " + what + "; delete the file to recompute its runs");
  };
  const std::string header = chunk_header(plan, chunk);
  std::string_view rest = text;
  std::string_view line;
  bool done = false;
  if (!next_token(rest, '\n', line, done) || line != header) {
    throw damaged("expected the header '" + header + "' (a chunk of another spec or version?)");
  }
  std::vector<RunResult> runs;
  const std::uint64_t first = plan.chunk_begin(chunk), end = plan.chunk_end(chunk);
  runs.reserve(end - first);
  parse_chunk_rows(
      rest, first, end, [&runs](const RunResult& r) { runs.push_back(r); }, damaged);
  return runs;
}

std::optional<std::string> chunk_file_problem(std::uint64_t chunk, const std::string& text) {
  // The header says which runs the file holds: "# spotsim sweep chunk N of spec HASH: runs A to B".
  const std::string prefix = "# spotsim sweep chunk " + std::to_string(chunk) + " of spec ";
  const std::size_t line_end = text.find('\n');
  const std::string_view header = std::string_view(text).substr(0, line_end);
  const std::size_t runs_at = header.rfind(": runs ");
  const std::size_t to_at = header.rfind(" to ");
  std::uint64_t first = 0, end = 0;
  if (line_end == std::string::npos || header.substr(0, prefix.size()) != prefix || runs_at == std::string_view::npos ||
      to_at == std::string_view::npos || to_at < runs_at ||
      !parse_value(header.substr(runs_at + 7, to_at - runs_at - 7), first) ||
      !parse_value(header.substr(to_at + 4), end) || end < first) {
    return "expected the header '" + prefix + "HASH: runs A to B'";
  }
  try {
    parse_chunk_rows(
        std::string_view(text).substr(line_end + 1), first, end, [](const RunResult&) {},
        [](const std::string& what) { return InputError(what); });
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
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
  const std::size_t row_bytes = (metrics.size() + 8) * kFieldBytes;
  // The columns from configuration to seed are the same for every run of a configuration: built once per
  // configuration, not per run.
  std::string prefix;
  std::uint64_t prefix_until = 0;  // the first run past the configuration `prefix` belongs to
  std::uint64_t run = first;
  for (const RunResult& r : runs) {
    if (run >= prefix_until) {
      const Configuration& c = plan.configuration_of_run(run);
      prefix = ',' + std::to_string(c.index) + ',' + csv_field(plan.traces[c.trace].name) + ',' +
               csv_field(plan.policy_of(c)) + ',' + csv_field(plan.checkpoint_of(c)) + ',' +
               csv_field(plan.job_label_of(c)) + ',' + std::to_string(plan.seed_of(c)) + ',';
      prefix_until = (c.index + 1) * plan.spec.replications;
    }
    RowWriter row(out, row_bytes + prefix.size());
    row.put(run++);
    row.put(prefix);
    row.put(r.replication);
    for (const MetricDefinition& metric : metrics) {
      row.put(',');
      row.put(metric.value(r));
    }
    row.put(',');
    row.put(r.spot_starts);
    row.put(',');
    row.put(r.on_demand_starts);
    row.put(',');
    row.put(r.trace_start_hours);
    row.put(',');
    row.put(r.events);
    row.put(',');
    row.put(r.fingerprint);
    row.put('\n');
  }
}

}  // namespace spotsim
