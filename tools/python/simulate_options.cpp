#include "tools/python/simulate_options.hpp"

#include <array>
#include <string>

#include "experiments/job_reader.hpp"
#include "sim/duration.hpp"
#include "sim/errors.hpp"
#include "sim/integer_text.hpp"
#include "traces/json_fields.hpp"
#include "tools/python/option_dict.hpp"

namespace py = pybind11;

namespace spotsim::python {

namespace {

constexpr std::array kKnownOptions = {"trace",        "policy",   "checkpoint",       "trace_start",   "job",
                                      "work",         "steps",    "step_time",        "nodes",         "restore",
                                      "startup",      "deadline", "checkpoint_write", "give_up_after", "seed",
                                      "replications", "threads",  "mode",             "tick",          "regret",
                                      "min_nodes",    "reconfigure", "network_gbps"};

}  // namespace

SimulationRequest simulation_request_from(const py::dict& options) {
  const OptionDict o(options, kKnownOptions);
  SimulationRequest request;
  request.trace = o.text("trace", "us-west1");
  request.policy = o.text("policy", "adaptive");
  request.checkpoint = o.text("checkpoint", "young-daly");
  request.job.work = 48 * kMillisPerHour;
  const std::string job_file = o.text("job", "");
  if (o.has("job")) apply_job_json(read_json_file(job_file), job_file, request.job, &request.gpu_step_times);
  if (o.has("work") || o.has("steps")) request.gpu_step_times.reset();  // the options set the work
  if (o.has("work") && (o.has("steps") || o.has("step_time"))) {
    throw InputError("--work: give either --work or --steps with --step-time, not both");
  }
  if (o.has("work")) request.job.work = o.duration("work");
  if (o.has("steps") != o.has("step_time")) throw InputError("--steps and --step-time must be given together");
  if (o.has("steps")) {
    const double steps = o.number("steps");
    if (!(steps >= 1.0 && steps <= 1e15)) throw InputError("--steps: expected a number of steps in [1, 1e15]");
    request.job.work = static_cast<Millis>(steps * static_cast<double>(o.duration("step_time")));
  }
  if (o.has("nodes")) request.job.nodes = static_cast<int>(o.count("nodes", 1, 1, 100000));
  // Multi-node jobs in the elastic engine (docs/elastic.md); their policy defaults to spot-nodes.
  if (o.has("min_nodes")) request.job.elastic.min_nodes = static_cast<int>(o.count("min_nodes", 1, 1, kMaxElasticNodes));
  if (o.has("reconfigure")) request.job.elastic.reconfigure = o.duration("reconfigure");
  if (o.has("network_gbps")) {
    const double gbps = o.number("network_gbps");
    if (!(gbps >= 1e-3 && gbps <= 1e6)) throw InputError("--network-gbps: expected a bandwidth in Gbit/s in [0.001, 1e6]");
    request.job.elastic.network_gbps = gbps;
  }
  if (request.job.elastic.active() && !o.has("policy")) request.policy = "spot-nodes";
  if (o.has("checkpoint_write")) request.job.checkpoint_write = o.duration("checkpoint_write");
  if (o.has("restore")) request.job.restore = o.duration("restore");
  if (o.has("startup")) request.job.startup = o.duration("startup");
  if (o.has("deadline")) request.job.deadline = o.duration("deadline");
  if (o.has("give_up_after")) request.job.give_up_after = o.duration("give_up_after");
  validate_job(request.job, o.has("job") ? job_file + " with command-line overrides" : "command line");

  request.seed = o.count("seed", 1, 0, kMaxSeed);
  request.replications = o.count("replications", 1000, 1, 1'000'000'000);
  request.threads = static_cast<int>(o.count("threads", 0, 0, 4096));
  const std::string start = o.text("trace_start", "random");
  if (start != "random") request.trace_start = TraceStart{false, parse_duration(start, "--trace-start")};
  request.cant_be_late_mode = is_cant_be_late_mode(o.text("mode", "event"));
  if (o.has("tick")) {
    if (!request.cant_be_late_mode) throw InputError("--tick: only with --mode cant-be-late");
    request.tick = o.duration("tick");
    if (request.tick <= 0) throw InputError("--tick: expected a positive duration");
  }
  if (o.has("regret")) {
    const py::object value = options["regret"];
    if (!py::isinstance<py::bool_>(value)) throw InputError("the argument for option '--regret' is invalid: expected True or False");
    request.regret = value.cast<bool>();
  }
  return request;
}

}  // namespace spotsim::python
