#include "app/options/simulate_request_options.hpp"

#include "app/job_reader.hpp"
#include "app/options/command_line.hpp"
#include "app/timeline_writer.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/file_checks.hpp"
#include "base/json_fields.hpp"
#include "model/market/zone_selection.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

Millis duration_option(const po::variables_map& vm, const char* name) {
  return parse_duration(vm[name].as<std::string>(), std::string("--") + name);
}

}  // namespace

po::options_description simulate_request_options() {
  po::options_description run("Scenario");
  run.add_options()(
      "trace,t", po::value<std::string>()->default_value("us-west1"),
      "trace file (spotsim trace format v1 or v2), or the name of a shipped trace in traces/library/ (e.g. "
      "us-west1, gcp-h100-13-zones)");
  add_zone_selection_options(run);
  run.add_options()("policy,p", po::value<std::string>()->default_value("adaptive"),
                    "selection policy NAME[:key=value,...]; see --list-policies")(
      "checkpoint,c", po::value<std::string>()->default_value("young-daly"),
      "checkpoint policy NAME[:key=value,...]; see --list-policies")(
      "trace-start", po::value<std::string>()->default_value("random"),
      "where in a recorded trace each replication starts: 'random' (uniform over the trace's span, drawn per "
      "replication, on a tick of the recording when it has one) or a duration such as 12h")(
      "mode", po::value<std::string>()->default_value("event"),
      "event (decide at any moment, bill per second) | cant-be-late (decide per tick of the recording, bill whole "
      "ticks, lossless progress: reproduces the Can't Be Late authors' simulator; needs --checkpoint continuous)")(
      "tick", po::value<std::string>(), "the tick of --mode cant-be-late [default: the trace's tick_s]")(
      "regret",
      "also compute each window's exact offline optimum and report regret = cost / optimum - 1 "
      "(recorded traces with a tick, jobs with a deadline)");
  po::options_description job("Job (override --job; durations take a unit: 90s, 30m, 2h, 1.5d)");
  job.add_options()("job", po::value<std::string>(), "job description JSON (see docs/outputs.md#job-files)")(
      "work", po::value<std::string>(), "compute the job needs on its instance type [default 48h]")(
      "steps", po::value<double>(), "training steps (with --step-time, instead of --work)")(
      "step-time", po::value<std::string>(), "time per training step, e.g. 350ms")(
      "nodes", po::value<std::string>(),
      "instances the job needs at once (1 to 100000); any preemption interrupts all [default 1]")(
      "gpus", po::value<std::string>(),
      "GPUs the job needs at once (1 to 1000000), instead of --nodes: it takes "
      "ceil(gpus / gpus_per_instance) instances of the trace (one shape per trace)")(
      "min-nodes", po::value<std::string>(),
      "train on any k >= this many of --nodes (the elastic engine, docs/elastic.md; = --nodes: restart mode) with a "
      "multi-node --policy [default: the single-instance engine, all nodes needed]")(
      "reconfigure", po::value<std::string>(),
      "fixed pause when the training set changes (elastic engine) [default 30s]")(
      "network-gbps", po::value<double>(),
      "instance network (Gbit/s) over which a joining instance receives the model state of "
      "--checkpoint-size-gb (elastic engine) [default 10]")("checkpoint-write", po::value<std::string>(),
                                                            "time to write a checkpoint; training pauses [default 1m]")(
      "restore", po::value<std::string>(), "time to read the checkpoint after a restart [default 1m]")(
      "startup", po::value<std::string>(), "instance request -> ready [default 5m]")(
      "checkpoint-size", po::value<std::string>(),
      "checkpoint size, e.g. 20GB, 18.6GiB, 1.5TB (a bare number is GB): what a move to another region transfers and "
      "pays egress for (docs/migration.md) [default 0]")("checkpoint-size-gb", po::value<std::string>(),
                                                         "the same, as older command lines give it")(
      "deadline", po::value<std::string>(), "deadline after the job's start [default none]")(
      "give-up-after", po::value<std::string>(),
      "stop a run that has not finished by then and report it as not completed [default max(20 x work, work + 30d)]");
  po::options_description mc("Monte Carlo");
  mc.add_options()("seed", po::value<std::string>()->default_value("1"),
                   "base seed, 0 to 2^64-1; fixes every number of the output")(
      "replications,n", po::value<std::string>()->default_value("1000"), "independent replications, 1 to 10^9")(
      "threads", po::value<std::string>()->default_value("0"),
      "worker threads (0 = all cores, at most 4096); never changes results")(
      "timeline", po::value<std::string>(),
      "also write the event log of chosen replications to this file (JSON lines, "
      "docs/outputs.md#timeline; draw it with spotsim report --timeline)")(
      "timeline-replications", po::value<std::string>(),
      "which replications --timeline logs, e.g. 0,3,7 (at most 100) "
      "[default: the first 3]");
  po::options_description all;
  all.add(run).add(job).add(mc);
  return all;
}

SimulationRequest simulation_request_from(const po::variables_map& vm) {
  SimulationRequest request;
  request.trace = vm["trace"].as<std::string>();
  request.zones = zone_selection_option(vm);
  request.policy = vm["policy"].as<std::string>();
  request.checkpoint = vm["checkpoint"].as<std::string>();
  request.job.work = 48 * kMillisPerHour;
  if (vm.count("job")) {
    apply_job_json(read_json_file(vm["job"].as<std::string>()), vm["job"].as<std::string>(), request.job,
                   &request.gpu_step_times);
  }
  if (vm.count("work") || vm.count("steps")) request.gpu_step_times.reset();  // the command line sets the work
  if (vm.count("work") && (vm.count("steps") || vm.count("step-time"))) {
    throw InputError("--work: give either --work or --steps with --step-time, not both");
  }
  if (vm.count("work")) request.job.work = duration_option(vm, "work");
  if (vm.count("steps") != vm.count("step-time")) throw InputError("--steps and --step-time must be given together");
  if (vm.count("steps")) {
    const double steps = vm["steps"].as<double>();
    if (!(steps >= 1.0 && steps <= 1e15)) throw InputError("--steps: expected a number of steps in [1, 1e15]");
    // Step times are often fractional milliseconds: keep them exact until the product is rounded.
    const double step_ms = parse_duration_ms(vm["step-time"].as<std::string>(), "--step-time");
    request.job.work = checked_millis(steps * step_ms, "--steps x --step-time");
  }
  // The command line's size replaces the job file's; --nodes with --gpus must agree on the trace (Scenario checks).
  if (vm.count("gpus")) {
    request.job.gpus = int_count_option(vm, "gpus", 1, kMaxJobGpus);
    request.job.nodes = 0;
  } else if (vm.count("nodes")) {
    request.job.gpus = 0;
  }
  if (vm.count("nodes")) request.job.nodes = int_count_option(vm, "nodes", 1, static_cast<int>(kMaxNodes));
  if (vm.count("min-nodes")) request.job.elastic.min_nodes = int_count_option(vm, "min-nodes", 1, kMaxElasticNodes);
  if (vm.count("reconfigure")) request.job.elastic.reconfigure = duration_option(vm, "reconfigure");
  if (vm.count("network-gbps")) {
    const double gbps = vm["network-gbps"].as<double>();
    if (!(gbps >= 1e-3 && gbps <= 1e6))
      throw InputError("--network-gbps: expected a bandwidth in Gbit/s in [0.001, 1e6]");
    request.job.elastic.network_gbps = gbps;
  }
  if (request.job.elastic.active() && vm["policy"].defaulted()) request.policy = "spot-nodes";
  if (vm.count("checkpoint-write")) request.job.checkpoint_write = duration_option(vm, "checkpoint-write");
  if (vm.count("restore")) request.job.restore = duration_option(vm, "restore");
  if (vm.count("startup")) request.job.startup = duration_option(vm, "startup");
  if (const auto size = checkpoint_size_option(vm)) request.job.checkpoint_size_gb = *size;
  if (vm.count("deadline")) request.job.deadline = duration_option(vm, "deadline");
  if (vm.count("give-up-after")) request.job.give_up_after = duration_option(vm, "give-up-after");
  validate_job(request.job,
               vm.count("job") ? vm["job"].as<std::string>() + " with command-line overrides" : "command line");
  request.seed = seed_option(vm);
  request.replications = count_option(vm, "replications", 1, 1'000'000'000);
  request.threads = thread_count_option(vm);
  request.cant_be_late_mode = is_cant_be_late_mode(vm["mode"].as<std::string>());
  if (vm.count("tick")) {
    if (!request.cant_be_late_mode) throw InputError("--tick: only with --mode cant-be-late");
    request.tick = duration_option(vm, "tick");
    if (request.tick <= 0) throw InputError("--tick: expected a positive duration");
  }
  request.regret = vm.count("regret") > 0;
  const std::string start = vm["trace-start"].as<std::string>();
  if (start != "random") request.trace_start = TraceStart{false, parse_duration(start, "--trace-start")};
  return request;
}

std::optional<TimelinePlan> timeline_plan_from(const po::variables_map& vm, const SimulationRequest& request) {
  if (vm.count("timeline-replications") && !vm.count("timeline"))
    throw InputError("--timeline-replications: only with --timeline");
  if (!vm.count("timeline")) return std::nullopt;
  TimelinePlan plan;
  plan.path = vm["timeline"].as<std::string>();
  const std::string problem = output_file_problem(plan.path);
  if (!problem.empty()) throw InputError("--timeline: " + plan.path + ": " + problem);
  plan.replications =
      vm.count("timeline-replications")
          ? parse_timeline_replications(vm["timeline-replications"].as<std::string>(), request.replications)
          : default_timeline_replications(request.replications);
  return plan;
}

}  // namespace spotsim
