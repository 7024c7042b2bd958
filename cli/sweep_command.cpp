// `spotsim sweep SPEC --out DIR` runs an experiment spec (docs/experiments.md); `spotsim sweep merge DIR... --out
// DIR` combines the shards of one.
#include <boost/program_options.hpp>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "app/options/command_line.hpp"
#include "app/sweep/sweep_merge.hpp"
#include "app/sweep/sweep_outputs.hpp"
#include "app/sweep/sweep_runner.hpp"
#include "base/errors.hpp"
#include "base/text_escape.hpp"
#include "cli/commands.hpp"
#include "cli/python_exec.hpp"
#include "cli/terminal_progress.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

constexpr int kIncomplete = 3;  // the sweep stopped before its last chunk: run again with --resume

int merge_command(int argc, const char* const* argv, const std::string& program) {
  po::options_description options("Options");
  options.add_options()("help,h", "show this help and exit")(
      "out,o", po::value<std::string>(), "directory for the merged sweep (must not hold a sweep yet)")(
      "shards", po::value<std::vector<std::string>>(), "the shard directories (positional)");
  add_plugin_option(options);  // the shards' spec is checked again: its plugin policies must be known
  po::positional_options_description positional;
  positional.add("shards", -1);
  const po::variables_map vm = parse_command_line(argc, argv, options, positional);
  if (vm.count("help")) {
    std::cout << "Usage: " << program << " SHARD_DIR... --out DIR\n\n"
              << "Combine the directories of every shard of one sweep (spotsim sweep SPEC --shard I/N) into the\n"
              << "directory a single-machine run would have written: identical runs.csv, summary.json, summary.md,\n"
              << "manifest.json.\n\n"
              << options << "\n";
    return 0;
  }
  load_plugin_options(vm);
  if (!vm.count("shards")) throw InputError("expected the shard directories to merge");
  if (!vm.count("out")) throw InputError("--out: expected the directory for the merged sweep");
  const std::string out = vm["out"].as<std::string>();
  merge_sweep_shards(vm["shards"].as<std::vector<std::string>>(), out, std::cout);
  std::cerr << program << ": wrote " << out << "/runs.csv, summary.json, summary.md, manifest.json\n";
  return 0;
}

int run_command(int argc, const char* const* argv, const std::string& program) {
  po::options_description options("Options");
  options.add_options()("help,h", "show this help and exit")(
      "out,o", po::value<std::string>(),
      "output directory: chunks/, then runs.csv, summary.json, summary.md, manifest.json")(
      "threads", po::value<std::string>()->default_value("0"),
      "worker threads (0 = all cores, at most 4096); never changes a result")(
      "resume", "continue the sweep already in --out: finished chunks are kept, the rest is computed")(
      "shard", po::value<std::string>(),
      "I/N: compute only the I-th of N contiguous blocks of chunks (combine the "
      "shards' directories with `sweep merge`)")(
      "quiet,q", "no progress line (it is shown only when stderr is a terminal anyway)")(
      "stop-after-chunks", po::value<std::string>(),
      "stop as if interrupted after computing K chunks (to test "
      "--resume); exit code 3")("spec", po::value<std::string>(), "the experiment spec JSON (positional)");
  add_plugin_option(options);
  po::positional_options_description positional;
  positional.add("spec", 1);
  const po::variables_map vm = parse_command_line(argc, argv, options, positional);
  if (vm.count("help")) {
    std::cout << "Usage: " << program << " SPEC.json --out DIR [--threads N] [--resume] [--shard I/N]\n"
              << "       " << program << " merge SHARD_DIR... --out DIR\n\n"
              << "Run every configuration of an experiment spec (traces x policies x checkpoint policies x job\n"
              << "parameters) for its replications, with common random numbers across configurations. The results\n"
              << "are byte-identical for any --threads, across --resume and across shards merged. Exit codes: 0 done,\n"
              << "2 bad input, 3 stopped early (--stop-after-chunks). Spec format: docs/experiments.md.\n\n"
              << options << "\n";
    return 0;
  }
  if (!vm.count("spec")) throw InputError("expected an experiment spec: " + program + " SPEC.json --out DIR");
  if (!vm.count("out")) throw InputError("--out: expected the output directory");
  const int threads = thread_count_option(vm);
  const std::string spec_file = vm["spec"].as<std::string>();
  const std::string out = vm["out"].as<std::string>();

  // Every option is checked before the spec and its traces are read.
  SweepRunOptions run_options;
  run_options.threads = threads;
  run_options.resume = vm.count("resume") > 0;
  if (vm.count("shard")) run_options.shard = parse_shard(vm["shard"].as<std::string>());
  if (vm.count("stop-after-chunks")) {
    run_options.stop_after_chunks = count_option(vm, "stop-after-chunks", 1, std::numeric_limits<std::uint64_t>::max());
  }
  load_plugin_options(vm);  // before the spec's policy names are checked
  ExperimentSpec spec;
  try {
    spec = read_experiment_spec(spec_file);
  } catch (const PythonHostNeeded& why) {  // a Python class: the same command in Python, which can run it
    return rerun_command_in_python("sweep", argc, argv, directories_of({spec_file}), why);
  }
  LoadedTraces traces = load_traces(spec, spec_file);
  const SweepPlan plan = plan_sweep(spec, traces.info);
  TerminalProgress line(program, "runs", progress_wanted(vm.count("quiet") > 0), std::cerr);
  // Called by the workers under the sweep's lock, so one at a time.
  if (line.enabled())
    run_options.progress = [&line](std::uint64_t done, std::uint64_t total) { line.update(done, total); };

  const SweepRunOutcome outcome = [&] {
    try {
      return run_sweep(plan, traces.markets, out, run_options);
    } catch (const PythonPolicyFailed& e) {
      throw InputError(spec_file + ": " + e.what());
    }
  }();
  line.finish();
  std::cerr << program << ": " << plan.configurations.size() << " configurations x " << spec.replications
            << " replications; chunks: " << outcome.chunks_run << " computed, " << outcome.chunks_skipped
            << " already done, of " << outcome.chunks_in_shard << " in this shard\n";
  if (!outcome.complete) {
    std::cerr << program << ": stopped early; continue with: " << program << " " << spec_file << " --out " << out
              << " --resume\n";
    return kIncomplete;
  }
  if (run_options.shard.count > 1) {
    std::cerr << program << ": shard " << run_options.shard.index << "/" << run_options.shard.count << " complete in "
              << out << "; combine all shards with: spotsim sweep merge DIR... --out MERGED\n";
    return 0;
  }
  write_sweep_outputs(plan, out, std::cout);
  std::cerr << program << ": wrote " << out << "/runs.csv, summary.json, summary.md, manifest.json\n";
  return 0;
}

}  // namespace

int sweep_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "spotsim sweep";
  try {
    if (argc >= 2 && std::string(argv[1]) == "merge") {
      const std::string display = program + " merge";
      std::vector<const char*> args(argv + 1, argv + argc);
      args[0] = display.c_str();
      try {
        return merge_command(argc - 1, args.data(), display);
      } catch (const PythonHostNeeded& why) {  // the shards ran a Python class: merge in Python too
        return rerun_command_in_python("sweep", argc, argv, {}, why);
      }
    }
    return run_command(argc, argv, program);
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim
