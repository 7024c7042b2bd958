// `spotsim advise`: where should I train this? Ranks every GPU offer of the price catalogue under a set of
// selection policies by the simulated cost and time of the job (docs/advise.md).
#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/advise/advice_report.hpp"
#include "app/advise/advisor.hpp"
#include "app/advise/gpu_offer_catalogue_writer.hpp"
#include "app/advise/region_set_report.hpp"
#include "app/advise/region_sets.hpp"
#include "app/advise/skypilot_catalogue.hpp"
#include "app/job_reader.hpp"
#include "app/options/command_line.hpp"
#include "base/atomic_file.hpp"
#include "base/duration.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "base/text_escape.hpp"
#include "cli/command_options.hpp"
#include "cli/commands.hpp"
#include "cli/terminal_progress.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

po::options_description advise_options() {
  po::options_description job("Job (a job file, or the options below; options override the file)");
  job.add_options()(
      "job", po::value<std::string>(),
      "job JSON: from `spotsim steptime --job-out` (step_time_s_by_gpu), or steps + step_time_s + measured_gpu "
      "(docs/advise.md#job)")("steps", po::value<double>(), "training steps")(
      "step-time", po::value<std::string>(), "step time measured on --measured-gpu, e.g. 95.38ms (us, ms or s)")(
      "measured-gpu", po::value<std::string>(), "the GPU the step time was measured on (spec table name, e.g. V100)")(
      "matrix-fraction", po::value<double>(), "share of the measured step in matrix/conv kernels [default 0.63]")(
      "precision", po::value<std::string>(), "matrix precision: fp32 | tf32 | fp16 | bf16 [default fp32]")(
      "gpus", po::value<std::string>(), "GPUs the job trains on at once (data parallel), 1 to 4096 [default 1]")(
      "params", po::value<std::string>(),
      "model parameters, e.g. 25.6M or 7B (checkpoint = 14 B/param, mixed-precision Adam)")(
      "storage-gbps", po::value<double>(),
      "checkpoint write and read bandwidth, GB/s: sets write/restore from the checkpoint size")(
      "startup", po::value<std::string>(), "instance request -> ready [default 5m]")(
      "deadline", po::value<std::string>(), "deadline after the job's start, e.g. 24h [default none]");
  po::options_description offers("Offers and ranking");
  offers.add_options()("catalogue", po::value<std::string>()->default_value("gpu_offers"),
                       "price catalogue: a spotsim-gpu-offers file, the name of a shipped one in "
                       "traces/library/catalogue/ (skypilot-v7: SkyPilot's, converted), or a SkyPilot catalogue: "
                       "a directory of <cloud>/vms.csv (~/.sky/catalogs/v7) or <cloud>_vms.csv, or one such file "
                       "(docs/advise.md#skypilot)")(
      "catalogue-date", po::value<std::string>(),
      "with a SkyPilot catalogue: the date its prices are from, YYYY-MM-DD, recorded in every offer [default: not "
      "stated]")("catalogue-note", po::value<std::string>(),
                 "with a SkyPilot catalogue: text appended to the converted catalogue's description")(
      "write-catalogue", po::value<std::string>(),
      "with a SkyPilot catalogue: write it as a spotsim-gpu-offers file (atomically) and exit; no job needed")(
      "spot-prices", po::value<std::string>()->default_value("history"),
      "history: replay the recorded spot price path of each offer that has one (traces/library/catalogue/"
      "spot_price_history.json; docs/advise.md#price-history), the catalogue's price for the others | catalogue: the "
      "catalogue's one price for every offer | a price history file")(
      "managed-catalogue", po::value<std::string>(),
      "managed training offers shown beside the DIY rows (docs/managed.md): a file, the name of a shipped one, or none "
      "[default: managed_training with the shipped --catalogue, none with another]")(
      "engineering-cost", po::value<std::string>(),
      "monthly engineering cost of running DIY, e.g. 8000/month (a bare number is per month): adds the monthly spend "
      "above which each DIY row pays off against the best managed row")(
      "cloud", po::value<std::vector<std::string>>()->composing(),
      "only these clouds (gcp, aws; a SkyPilot catalogue's too: azure, lambda, runpod, ...; repeat or comma-separate)")(
      "gpu", po::value<std::vector<std::string>>()->composing(),
      "only these GPU types: spec-table names or aliases; a family means all its parts (A100: A100-40GB, "
      "A100-40GB-PCIE, A100-80GB, A100-80GB-PCIE)")("region", po::value<std::vector<std::string>>()->composing(),
                                                    "only these regions or zones")(
      "allow-idle-gpus", "include offers whose instances would leave some of their GPUs unused")(
      "policy", po::value<std::vector<std::string>>()->composing(),
      "selection policy NAME[:key=value,...]; repeat for several [default: on-demand, spot-only, adaptive]")(
      "checkpoint", po::value<std::string>()->default_value("young-daly"), "checkpoint policy NAME[:key=value,...]")(
      "cross-instance-efficiency", po::value<double>()->default_value(0.9, "0.9"),
      "data-parallel scaling efficiency when the job spans several instances, in (0, 1]")(
      "max-hours", po::value<double>(), "rank only rows whose p95 completion time is at most this many hours")(
      "budget", po::value<double>(), "rank only rows whose p95 cost is at most this many USD")(
      "min-deadline-probability", po::value<double>()->default_value(0.9, "0.9"),
      "with --deadline: rank only rows that meet it in at least this fraction of runs");
  po::options_description sets(
      "Region sets (--region-sets: which regions of a multi-region trace to allow; "
      "docs/advise.md#region-sets)");
  sets.add_options()(
      "region-sets",
      "rank region sets of --trace for the job instead of catalogue offers (--region limits the candidates)")(
      "trace", po::value<std::string>(),
      "multi-region trace (version 2): a file or a shipped name, e.g. gcp-h100-13-zones")(
      "work", po::value<std::string>(), "compute the job needs, e.g. 40h (instead of, or over, --job's)")(
      "checkpoint-size", po::value<std::string>(),
      "checkpoint size, e.g. 20GB, 18.6GiB (a bare number is GB): what a move to another region transfers [default 0]")(
      "checkpoint-size-gb", po::value<std::string>(), "the same, as older command lines give it");
  po::options_description mc("Monte Carlo and output");
  mc.add_options()("seed", po::value<std::string>()->default_value("1"),
                   "base seed, 0 to 2^64-1, the same for every offer (common random numbers)")(
      "replications,n", po::value<std::string>()->default_value("300"),
      "replications per offer and policy (per region set: default 100), 1 to 10^8")(
      "threads", po::value<std::string>()->default_value("0"),
      "worker threads (0 = all cores, at most 4096); never changes results")(
      "format,f", po::value<std::string>(), "table | json | csv [default: table, or from --output's extension]")(
      "output,o", po::value<std::string>(), "write the result to this file (atomically) instead of stdout")(
      "quiet,q", "no progress line (it is shown only when stderr is a terminal anyway)")("help,h",
                                                                                         "show this help and exit");
  add_plugin_option(mc);
  po::options_description all;
  all.add(job).add(offers).add(sets).add(mc);
  return all;
}

// "a,b" and repeated options alike.
std::vector<std::string> list_option(const po::variables_map& vm, const char* name) {
  std::vector<std::string> items;
  if (!vm.count(name)) return items;
  for (const std::string& value : vm[name].as<std::vector<std::string>>()) {
    std::stringstream parts(value);
    for (std::string item; std::getline(parts, item, ',');) {
      if (!item.empty()) items.push_back(item);
    }
  }
  return items;
}

// "25.6M", "1.3B", "7e9": the way model sizes are quoted (the same spellings as `spotsim steptime --params`).
double parameter_count(const std::string& text) {
  static const std::vector<std::pair<char, double>> suffixes = {{'K', 1e3}, {'k', 1e3}, {'M', 1e6},
                                                                {'B', 1e9}, {'G', 1e9}, {'T', 1e12}};
  std::string digits = text;
  double scale = 1.0;
  for (const auto& [suffix, factor] : suffixes) {
    if (!digits.empty() && digits.back() == suffix) {
      digits.pop_back();
      scale = factor;
      break;
    }
  }
  std::istringstream in(digits);
  double value = 0.0;
  if (digits.empty() || !(in >> value) || !in.eof() || !(value > 0.0) || !std::isfinite(value * scale)) {
    throw InputError("--params: expected a parameter count such as 25.6M, 1.3B or 7e9, got '" + text + "'");
  }
  return value * scale;
}

// A step time keeps its sub-millisecond digits ("95.38ms"), which a duration in whole milliseconds would drop.
double step_seconds(const std::string& text) {
  static const std::vector<std::pair<std::string, double>> units = {{"us", 1e-6}, {"ms", 1e-3}, {"s", 1.0}};
  for (const auto& [unit, factor] : units) {
    if (text.size() <= unit.size() || !text.ends_with(unit)) continue;
    std::istringstream in(text.substr(0, text.size() - unit.size()));
    double value = 0.0;
    if (in >> value && in.eof() && value > 0.0 && std::isfinite(value)) return value * factor;
    break;
  }
  throw InputError("--step-time: expected a step time such as 95.38ms, 0.2s or 800us, got '" + text + "'");
}

// The job file with the command line's job options written over it, read by the one job reader.
AdviseJob job_from(const po::variables_map& vm) {
  nlohmann::json document = nlohmann::json::object();
  std::string where = "command line";
  if (vm.count("job")) {
    where = vm["job"].as<std::string>();
    document = read_json_file(where);
    if (!document.is_object()) throw InputError(where + ": expected a JSON object (a job description)");
  }
  const bool overridden = vm.count("steps") || vm.count("step-time") || vm.count("measured-gpu") || vm.count("gpus") ||
                          vm.count("params") || vm.count("startup") || vm.count("deadline") ||
                          vm.count("matrix-fraction") || vm.count("precision");
  if (vm.count("job") && overridden) where += " with command-line options";
  if (vm.count("steps")) document["steps"] = vm["steps"].as<double>();
  if (vm.count("step-time")) {
    document.erase("step_time_s_by_gpu");
    document.erase("work_hours");
    document["step_time_s"] = step_seconds(vm["step-time"].as<std::string>());
  }
  if (vm.count("measured-gpu")) document["measured_gpu"] = vm["measured-gpu"].as<std::string>();
  if (vm.count("matrix-fraction")) document["matrix_fraction"] = vm["matrix-fraction"].as<double>();
  if (vm.count("precision")) document["precision"] = vm["precision"].as<std::string>();
  if (vm.count("gpus")) document["gpus"] = int_count_option(vm, "gpus", 1, 4096);
  if (vm.count("params")) {
    for (const char* field : {"checkpoint_size_gb", "checkpoint_write_s", "restore_s"}) document.erase(field);
    document["parameters"] = parameter_count(vm["params"].as<std::string>());
  }
  if (vm.count("startup"))
    document["startup_s"] = to_seconds(parse_duration(vm["startup"].as<std::string>(), "--startup"));
  if (vm.count("deadline"))
    document["deadline_hours"] = to_hours(parse_duration(vm["deadline"].as<std::string>(), "--deadline"));
  if (document.empty()) throw InputError("expected a job: --job FILE, or --steps with --step-time and --measured-gpu");
  AdviseJob job = read_advise_job(document, where);
  if (vm.count("storage-gbps")) apply_storage_bandwidth(job, vm["storage-gbps"].as<double>(), "--storage-gbps");
  return job;
}

std::optional<double> positive_option(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return std::nullopt;
  const double value = vm[name].as<double>();
  if (!(value > 0.0 && value < 1e12)) throw InputError(std::string("--") + name + ": expected a positive number");
  return value;
}

// --catalogue: a spotsim-gpu-offers file or shipped name, or a SkyPilot catalogue (a directory or a .csv file).
GpuOfferCatalogue catalogue_from(const po::variables_map& vm) {
  const std::string catalogue = vm["catalogue"].as<std::string>();
  if (!is_skypilot_catalogue(catalogue)) {
    for (const char* option : {"catalogue-date", "catalogue-note", "write-catalogue"}) {
      if (vm.count(option)) {
        throw InputError(std::string("--") + option +
                         ": only with a SkyPilot catalogue (--catalogue DIR or a .csv file), got '" + catalogue + "'");
      }
    }
    return read_gpu_offer_catalogue(locate_gpu_offer_catalogue(catalogue));
  }
  SkyPilotCatalogueOptions options;
  if (vm.count("catalogue-date")) {
    options.date = vm["catalogue-date"].as<std::string>();
    const std::regex iso_date("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    if (!std::regex_match(options.date, iso_date)) {
      throw InputError("--catalogue-date: expected a date YYYY-MM-DD, got '" + options.date + "'");
    }
  }
  if (vm.count("catalogue-note")) {
    options.note = vm["catalogue-note"].as<std::string>();
    require_utf8(options.note, "--catalogue-note");
  }
  return read_skypilot_catalogue(catalogue, options);
}

AdviceRequest request_from(const po::variables_map& vm) {
  AdviceRequest request;
  request.job = job_from(vm);
  request.catalogue = catalogue_from(vm);
  request.price_histories = spot_price_histories_for(vm["spot-prices"].as<std::string>());
  // The shipped managed catalogue names the shipped GPU catalogue's preemption sources, so it comes by default only
  // with that one.
  const std::string managed = vm.count("managed-catalogue") ? vm["managed-catalogue"].as<std::string>()
                              : vm["catalogue"].defaulted() ? "managed_training"
                                                            : "none";
  if (managed != "none") {
    request.managed = read_managed_offer_catalogue(locate_managed_offer_catalogue(managed), request.catalogue);
  }
  if (vm.count("engineering-cost")) {
    request.engineering_cost_per_month = parse_engineering_cost(vm["engineering-cost"].as<std::string>());
  }
  // Repeated, not comma-separated: a policy's own parameters are comma-separated.
  if (vm.count("policy")) request.policies = vm["policy"].as<std::vector<std::string>>();
  request.checkpoint = vm["checkpoint"].as<std::string>();
  request.filter = {list_option(vm, "cloud"), list_option(vm, "gpu"), list_option(vm, "region"),
                    vm.count("allow-idle-gpus") > 0};
  request.cross_instance_efficiency = vm["cross-instance-efficiency"].as<double>();
  request.criteria.max_hours = positive_option(vm, "max-hours");
  request.criteria.budget = positive_option(vm, "budget");
  if (request.job.base.deadline != kNever) {
    const double p = vm["min-deadline-probability"].as<double>();
    if (!(p >= 0.0 && p <= 1.0)) throw InputError("--min-deadline-probability: expected a fraction in [0, 1]");
    request.criteria.min_deadline_probability = p;
  }
  request.seed = seed_option(vm);
  request.replications = count_option(vm, "replications", 1, 100'000'000);
  request.threads = thread_count_option(vm);
  return request;
}

// --region-sets: the job in simulate's terms (the trace decides the GPU), one policy, the trace's regions.
RegionSetRequest region_set_request_from(const po::variables_map& vm) {
  for (const char* option :
       {"steps", "step-time", "measured-gpu", "matrix-fraction", "precision", "gpus", "params", "storage-gbps", "cloud",
        "gpu", "allow-idle-gpus", "max-hours", "budget", "managed-catalogue", "engineering-cost", "catalogue-date",
        "catalogue-note", "write-catalogue"}) {
    if (vm.count(option))
      throw InputError(std::string("--") + option + ": not with --region-sets (a catalogue offer's option)");
  }
  if (!vm["catalogue"].defaulted()) throw InputError("--catalogue: not with --region-sets (the trace is the market)");
  if (!vm["spot-prices"].defaulted())
    throw InputError("--spot-prices: not with --region-sets (the trace's prices are used)");
  if (!vm.count("trace"))
    throw InputError("--region-sets: expected --trace, a multi-region trace such as gcp-h100-13-zones");
  RegionSetRequest request;
  SimulationRequest& s = request.simulation;
  s.trace = vm["trace"].as<std::string>();
  const std::vector<std::string> policies =
      vm.count("policy") ? vm["policy"].as<std::vector<std::string>>() : std::vector<std::string>{"cost-aware"};
  if (policies.size() != 1) throw InputError("--policy: --region-sets ranks the sets under one policy; give it once");
  s.policy = policies.front();
  s.checkpoint = vm["checkpoint"].as<std::string>();
  std::string where = "command line";
  if (vm.count("job")) {
    where = vm["job"].as<std::string>() + " with command-line options";
    apply_job_json(read_json_file(vm["job"].as<std::string>()), vm["job"].as<std::string>(), s.job, &s.gpu_step_times);
  } else if (!vm.count("work")) {
    throw InputError("--region-sets: expected a job: --job FILE or --work");
  }
  if (vm.count("work")) {
    s.gpu_step_times.reset();  // the command line sets the work
    s.job.work = parse_duration(vm["work"].as<std::string>(), "--work");
  }
  if (vm.count("startup")) s.job.startup = parse_duration(vm["startup"].as<std::string>(), "--startup");
  if (vm.count("deadline")) s.job.deadline = parse_duration(vm["deadline"].as<std::string>(), "--deadline");
  if (const auto size = checkpoint_size_option(vm)) s.job.checkpoint_size_gb = *size;
  validate_job(s.job, where);
  s.seed = seed_option(vm);
  s.replications = vm["replications"].defaulted() ? 100 : count_option(vm, "replications", 1, 100'000'000);
  s.threads = thread_count_option(vm);
  request.candidates = list_option(vm, "region");
  if (s.job.deadline != kNever) {
    const double p = vm["min-deadline-probability"].as<double>();
    if (!(p >= 0.0 && p <= 1.0)) throw InputError("--min-deadline-probability: expected a fraction in [0, 1]");
    request.criteria.min_deadline_probability = p;
  }
  return request;
}

int run_region_sets(const po::variables_map& vm, const std::string& format, const std::string& program) {
  const RegionSetReport report = rank_region_sets(region_set_request_from(vm));
  const std::string text = format == "json"  ? region_set_json(report)
                           : format == "csv" ? region_set_csv(report)
                                             : region_set_table(report);
  emit_output(vm, text, program);
  if (vm.count("output")) std::cerr << report.recommendation << "\n";
  return 0;
}

}  // namespace

boost::program_options::options_description advise_command_options() { return advise_options(); }

int advise_command(int argc, const char* const* argv) {
  const std::string program = argc > 0 ? argv[0] : "spotsim advise";
  try {
    const auto options = advise_options();
    const po::variables_map vm = parse_command_line(argc, argv, options);
    if (vm.count("help")) {
      std::cout
          << "Usage: " << program << " --job job.json [options]\n\n"
          << "Where should I train this? For every GPU offer of the price catalogue and each selection policy,\n"
          << "predict the job's step time on that GPU, simulate it (Monte Carlo) and rank the offers by expected\n"
          << "cost, marking the Pareto-optimal ones on cost and time.\n\n"
          << "Example: " << program << " --job job.json --deadline 24h --cloud gcp\n"
          << "         " << program
          << " --job job.json --catalogue ~/.sky/catalogs/v7 --cloud lambda,runpod   (SkyPilot's prices)\n"
          << "         " << program
          << " --region-sets --trace gcp-h100-13-zones --work 40h --deadline 48h "
             "--checkpoint-size 50GB\n"
          << options << "\n";
      return 0;
    }
    load_plugin_options(vm);
    const std::string format = output_format_option(vm);
    if (vm.count("region-sets")) return run_region_sets(vm, format, program);
    for (const char* option : {"trace", "work", "checkpoint-size", "checkpoint-size-gb"}) {
      if (vm.count(option)) throw InputError(std::string("--") + option + ": only with --region-sets");
    }
    if (vm.count("write-catalogue")) {
      // The conversion alone (docs/advise.md#skypilot): how traces/library/catalogue/skypilot-v7.json is made.
      const std::string file = vm["write-catalogue"].as<std::string>();
      const GpuOfferCatalogue catalogue = catalogue_from(vm);
      write_file_atomically(file, gpu_offer_catalogue_text(catalogue, locate_gpu_offer_catalogue("gpu_offers")));
      std::cerr << program << ": wrote " << escape_control_characters(file) << " (" << catalogue.offers.size()
                << " offers)\n";
      return 0;
    }
    AdviceRequest request = request_from(vm);
    ReplicationProgress progress;  // run_advice sets the total: offers x policies x replications
    TerminalProgress line(program, "replications", progress_wanted(vm.count("quiet") > 0), std::cerr);
    if (line.enabled()) request.progress = &progress;
    const AdviceReport report = [&] {
      ReplicationProgressWatcher watcher(line, progress);
      AdviceReport r = run_advice(request);
      watcher.finish();
      return r;
    }();
    const std::string text = format == "json"  ? advice_json(report)
                             : format == "csv" ? advice_csv(report)
                                               : advice_table(report);
    emit_output(vm, text, program);
    if (vm.count("output")) std::cerr << report.recommendation << "\n";
    return 0;
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << escape_control_characters(e.what()) << "\n";
    return 2;
  }
}

}  // namespace spotsim
