// `spotsim steptime`: per-step statistics of a PyTorch profiler trace, predicted step time on other GPUs,
// checkpoint cost, and a job description for `spotsim simulate --job` (docs/step-time.md).
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/options/command_line.hpp"
#include "app/options/prediction_options.hpp"
#include "base/atomic_file.hpp"
#include "base/count_text.hpp"
#include "base/errors.hpp"
#include "base/json_text.hpp"
#include "base/text_escape.hpp"
#include "cli/command_options.hpp"
#include "cli/commands.hpp"
#include "cli/steptime_scaling.hpp"
#include "cli/terminal_progress.hpp"
#include "steptime/checkpoint_cost.hpp"
#include "steptime/efficiency_calibration.hpp"
#include "steptime/host_time.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "steptime/steptime_report.hpp"
#include "steptime/validation_report.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description steptime_options() {
  po::options_description general("General");
  general.add_options()("help,h", "show this help and exit")(
      "quiet,q", "no progress line while a trace is read (shown only when stderr is a terminal anyway)")(
      "trace", po::value<std::string>(), "PyTorch profiler (Kineto) Chrome trace, .json or .json.gz (positional)")(
      "validate", po::value<std::string>(),
      "instead of a trace: recompute the calibration and validation errors of docs/step-time.md from a directory "
      "laid out like shared/data/kernels")(
      "fit-op-models", po::value<std::string>(),
      "instead of a trace: fit the op-level efficiency models on the calibration half of the NeuSight tables in "
      "a directory laid out like shared/data/kernels and print steptime/op_efficiency_coefficients.cpp");
  po::options_description predict("Prediction");
  predict.add_options()(
      "target", po::value<std::string>(),
      "comma-separated GPUs to predict the step time on, e.g. A100-80GB,H100,L4 (spec table: T4, V100, "
      "V100-PCIE, A100-40GB, A100-40GB-PCIE, A100-80GB, A100-80GB-PCIE, L4, H100, H100-PCIE, H200)")(
      "measured-gpu", po::value<std::string>(),
      "the GPU the trace was recorded on, if its deviceProperties name is not recognised")(
      "breakdown-out", po::value<std::string>(),
      "write the per-step breakdown (compute, communication, host gap) and the predictions as JSON");
  po::options_description checkpoint("Checkpoint cost");
  checkpoint.add_options()("params", po::value<std::string>(), "model parameters, e.g. 25.6M, 1.3B, 7e9")(
      "training-setup", po::value<std::string>()->default_value("adam-mixed"),
      "adam-mixed (14 B/param checkpointed, 16 in memory), adam-fp32 (12/16), sgd-momentum-fp32 (8/12), sgd-fp32 "
      "(4/8)")("bytes-per-param", po::value<double>(), "checkpointed bytes per parameter (overrides --training-setup)")(
      "write-gbps", po::value<double>()->default_value(1.0), "storage write bandwidth per writer, GB/s")(
      "read-gbps", po::value<double>()->default_value(1.0), "storage read bandwidth per reader, GB/s")(
      "checkpoint-writers", po::value<std::string>()->default_value("1"),
      "ranks writing shards in parallel (sharded checkpoints), 1 to 100000");
  po::options_description job("Job file");
  job.add_options()(
      "job-out", po::value<std::string>(),
      "write a job description for `spotsim simulate --job` with the step time on the measured GPU and every "
      "--target (needs --steps)")("steps", po::value<double>(), "training steps of the job")(
      "job-name", po::value<std::string>(), "name recorded in the job file [default: the trace's file name]");
  po::options_description all;
  all.add(general).add(predict).add(prediction_option_schema()).add(checkpoint).add(job).add(data_parallel_options());
  return all;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  if (out.empty()) throw InputError("--target: expected a comma-separated list of GPUs, got '" + text + "'");
  return out;
}

std::optional<std::pair<CheckpointSetup, CheckpointCost>> checkpoint_from(const po::variables_map& vm) {
  if (!vm.count("params")) {
    if (vm.count("bytes-per-param")) throw InputError("--bytes-per-param needs --params");
    return std::nullopt;
  }
  CheckpointSetup setup;
  setup.parameters = parse_count(vm["params"].as<std::string>(), "--params");
  setup.bytes_per_parameter =
      vm.count("bytes-per-param")
          ? vm["bytes-per-param"].as<double>()
          : training_state_layout(vm["training-setup"].as<std::string>(), "--training-setup").checkpoint_bytes();
  setup.write_gbps = vm["write-gbps"].as<double>();
  setup.read_gbps = vm["read-gbps"].as<double>();
  setup.writers = int_count_option(vm, "checkpoint-writers", 1, 100000);
  return std::make_pair(
      setup,
      checkpoint_cost(
          setup, "checkpoint options (--params, --bytes-per-param, --write-gbps, --read-gbps, --checkpoint-writers)"));
}

std::string file_stem(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  for (const char* ext : {".gz", ".json", ".trace", ".pt"}) {
    const std::string e = ext;
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
      name.resize(name.size() - e.size());
  }
  return name;
}

int run(const po::variables_map& vm) {
  if (vm.count("fit-op-models")) {
    const std::string dir = vm["fit-op-models"].as<std::string>();
    std::cout << op_models_source(fit_op_efficiency_models(read_neusight_ops(dir + "/tables/neusight/op_latency")));
    return 0;
  }
  if (vm.count("validate")) {
    std::cout << validation_report(vm["validate"].as<std::string>());
    return 0;
  }
  if (!vm.count("trace")) throw InputError("expected a trace file (spotsim steptime TRACE [options]); see --help");
  const std::string path = vm["trace"].as<std::string>();
  if (vm.count("job-out") && !vm.count("steps")) throw InputError("--job-out needs --steps (the job's training steps)");
  if (vm.count("steps") && !(vm["steps"].as<double>() >= 1.0 && vm["steps"].as<double>() <= 1e15)) {
    throw InputError("--steps: expected a number of steps in [1, 1e15]");
  }
  const PredictionOptions options = prediction_options(vm);
  const auto checkpoint = checkpoint_from(vm);
  const auto data_parallel =
      data_parallel_request(vm, checkpoint ? std::optional<double>(checkpoint->first.parameters) : std::nullopt);
  std::vector<const GpuSpec*> targets;
  if (vm.count("target")) {
    for (const auto& name : split_list(vm["target"].as<std::string>()))
      targets.push_back(&one_gpu_or_throw(name, "--target"));
  }

  const auto start = std::chrono::steady_clock::now();
  const KinetoTrace trace = [&] {
    // Bytes of the file as on disk (compressed for .gz), in MiB for large files and KiB for the rest.
    std::error_code no_size;
    const int shift = std::filesystem::file_size(path, no_size) >= (64u << 20) && !no_size ? 20 : 10;
    TerminalProgress line("spotsim steptime: reading " + file_stem(path), shift == 20 ? "MiB" : "KiB",
                          progress_wanted(vm.count("quiet") > 0), std::cerr);
    KinetoTrace read = read_kineto_trace(path, {}, [&line, shift](std::uint64_t done, std::uint64_t total) {
      line.update(done >> shift, total >> shift);
    });
    line.finish();
    return read;
  }();
  const std::string skipped = trace.skipped.summary();
  // Fewer skipped events than read_kineto_trace refuses: the results stand, but the user should know.
  if (!skipped.empty()) std::cerr << "warning: " << path << ": " << skipped << "\n";
  const StepProfile profile = build_step_profile(trace);
  const double read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << format_step_profile(trace, profile, read_seconds);
  const HostTimeBreakdown breakdown = host_time_breakdown(trace, profile);
  std::cout << format_host_time(breakdown);
  std::cout.flush();

  std::vector<StepPrediction> breakdown_predictions;
  JobDescription job;
  job.name = vm.count("job-name") ? vm["job-name"].as<std::string>() : file_stem(path);
  std::optional<DataParallelScaling> scaling;
  if (!targets.empty() || vm.count("job-out") || data_parallel) {
    const GpuSpec& measured =
        measured_gpu_of(trace, vm.count("measured-gpu") ? vm["measured-gpu"].as<std::string>() : "");
    std::vector<StepPrediction> predictions;
    const std::vector<const GpuSpec*> gpus = gpus_to_predict(measured, targets, options);
    if (gpus.front() != &measured) {
      std::cerr << "note: " << measured.name << " has no " << to_string(matrix_precision(*options.precision))
                << " tensor cores: not predicted for --precision " << to_string(*options.precision) << "\n";
    }
    for (const GpuSpec* gpu : gpus) predictions.push_back(predict_step(trace, profile, measured, *gpu, options));
    if (!targets.empty()) std::cout << format_predictions(measured.name, predictions);
    breakdown_predictions = predictions;
    for (const auto& p : predictions) job.step_time_s_by_gpu[p.target] = p.predicted_step_us * 1e-6;
    if (data_parallel)
      scaling = report_data_parallel_scaling(*data_parallel, trace, profile, measured, options, std::cout);
    job.notes = "step times from " + path + " (measured on " + measured.name + ", steady state over " +
                std::to_string(profile.wall.n) + " steps) by spotsim steptime";
  }
  if (!skipped.empty()) job.notes += (job.notes.empty() ? "" : "; ") + ("trace " + skipped);
  if (checkpoint) {
    std::cout << format_checkpoint(checkpoint->first, checkpoint->second);
    job.checkpoint = checkpoint->second;
  }
  if (vm.count("breakdown-out")) {
    write_file_atomically(vm["breakdown-out"].as<std::string>(),
                          json_text(breakdown_document(path, breakdown, breakdown_predictions), 2) + "\n");
    std::cerr << "spotsim steptime: wrote " << vm["breakdown-out"].as<std::string>() << "\n";
  }
  if (vm.count("job-out")) {
    job.steps = vm["steps"].as<double>();
    nlohmann::json document = job_description_json(job);
    if (scaling) add_scaling_to_job(document, *scaling);
    write_file_atomically(vm["job-out"].as<std::string>(), json_text(document, 2) + "\n");
    std::cerr << "spotsim steptime: wrote " << vm["job-out"].as<std::string>() << "\n";
  }
  return 0;
}

}  // namespace

boost::program_options::options_description steptime_command_options() { return steptime_options(); }

int steptime_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "spotsim steptime";
  try {
    const auto options = steptime_options();
    po::positional_options_description positional;
    positional.add("trace", 1);
    const po::variables_map vm = parse_command_line(argc, argv, options, positional);
    if (vm.count("help")) {
      std::cout << "Usage: " << program << " TRACE [options]\n\n"
                << "Per-step statistics of a PyTorch profiler (Kineto) trace, the predicted step time on other GPUs,\n"
                << "checkpoint cost, and a job file for `spotsim simulate --job` (docs/step-time.md).\n\n"
                << "Example: " << program << " trace.json.gz --target A100-80GB,H100 --params 25.6M --steps 450000 "
                << "--job-out job.json\n"
                << options << "\n";
      return 0;
    }
    return run(vm);
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim
