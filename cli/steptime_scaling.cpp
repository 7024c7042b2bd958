#include "cli/steptime_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "base/errors.hpp"
#include "base/text_format.hpp"
#include "steptime/data_parallel_step.hpp"
#include "steptime/data_parallel_trace.hpp"
#include "steptime/instance_links.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

// The overlap assumed when the trace has no gradient communication (a 1-GPU trace): DDP starts each bucket's
// all-reduce during backward (Li et al., VLDB'20), so the whole backward pass can hide it.
constexpr double kDefaultOverlap = 1.0;
constexpr double kMaxBytesPerGradient = 16.0;

int parse_nodes(const std::string& text) {
  // "N" or "1..N": the job file's list always starts at one instance.
  std::string count = text;
  if (text.rfind("1..", 0) == 0) count = text.substr(3);
  std::size_t used = 0;
  long value = -1;
  try {
    value = std::stol(count, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != count.size() || value < 1 || value > kMaxScalingNodes) {
    throw InputError("--nodes: expected N or 1..N with N an integer in [1, " + std::to_string(kMaxScalingNodes) +
                     "], got '" + text + "'");
  }
  return static_cast<int>(value);
}

struct OfferPrices {
  double on_demand = std::numeric_limits<double>::infinity();
  double spot = std::numeric_limits<double>::infinity();
};

// The cheapest offer of an instance type in the shipped price catalogue (any region).
OfferPrices cheapest_offer(const GpuOfferCatalogue& catalogue, const std::string& instance_type) {
  OfferPrices p;
  for (const auto& o : catalogue.offers) {
    if (o.instance_type != instance_type) continue;
    p.on_demand = std::min(p.on_demand, o.on_demand_per_hour);
    p.spot = std::min(p.spot, o.spot_per_hour);
  }
  return p;
}

std::string price_text(double usd) { return std::isfinite(usd) ? format_usd(usd) : "-"; }

// One GPU of the instance, as the prediction table predicts it with the same options (precision, batch, layout,
// host scaling): the measured compute scaled by the kernel model's predicted / measured compute, and the host gap
// the prediction keeps (scaled by the batch under --host-scaling per-sample). On the trace's own GPU the options
// still apply: only with none of them is the scale 1.
struct OneGpu {
  double compute_scale = 1.0;
  double host_ms = 0.0;
};
OneGpu one_gpu_on(const GpuSpec& gpu, const KinetoTrace& trace, const StepProfile& profile, const GpuSpec& measured,
                  const PredictionOptions& options) {
  const StepPrediction p = predict_step(trace, profile, measured, gpu, options);
  OneGpu one;
  one.compute_scale = p.measured_compute_us() > 0 ? p.predicted_compute_us() / p.measured_compute_us() : 1.0;
  one.host_ms = p.host_gap_us / 1e3;
  return one;
}

}  // namespace

po::options_description data_parallel_options() {
  po::options_description dp("Data-parallel scaling (docs/step-time.md#data-parallel)");
  dp.add_options()(
      "instance", po::value<std::string>(),
      "instance type the job runs on (traces/library/catalogue/instance_links.json, e.g. a2-highgpu-8g, "
      "p4d.24xlarge): prints the step time on 1..--nodes instances and other layouts of the same GPU count "
      "(needs --params)")(
      "nodes", po::value<std::string>()->default_value("1"),
      "instances to tabulate: N or 1..N, N at most 1024; --job-out records step_time_s_by_nodes [t_1..t_N]")(
      "gradient-bytes", po::value<double>()->default_value(4.0),
      "bytes per gradient value all-reduced: 4 (fp32), 2 (fp16/bf16 gradients)")(
      "overlap", po::value<double>(),
      "share of the backward pass the all-reduce can hide behind, 0 to 1 [default: measured from the trace's "
      "NCCL kernels, else 1]")(
      "collectives", po::value<double>(),
      "all-reduces the gradients are sent in per step, each paying the link latency [default: counted in the "
      "trace's NCCL kernels, else PyTorch DDP's buckets: 1 + ceil((bytes - 1 MiB) / 25 MiB)]")(
      "allreduce", po::value<std::string>()->default_value("ring"),
      "all-reduce between instances: ring (hierarchical ring) or tree (double binary tree)")(
      "links", po::value<std::string>()->default_value("instance_links"),
      "instance link table: a path or the name of a table in traces/library/catalogue/")(
      "loader-rate", po::value<double>(),
      "input pipeline (docs/step-time.md#input-pipeline): samples per second one data-loader worker decodes and "
      "augments with a core to itself; the step is then at least the workers' time for the batch (needs --batch)")(
      "loader-workers", po::value<int>()->default_value(8),
      "data-loader workers per GPU (with --loader-rate; NVIDIA's ResNet-50 configs: 8 on a DGX-1, 16 on a DGX A100)")(
      "host-cores", po::value<double>(),
      "CPU cores of one instance the workers share (with --loader-rate): beyond them each worker gets a share of a "
      "core [default: never short of cores]");
  return dp;
}

std::optional<DataParallelRequest> data_parallel_request(const po::variables_map& vm,
                                                         std::optional<double> parameters) {
  if (!vm.count("instance")) {
    for (const char* option : {"overlap", "collectives", "loader-rate", "host-cores"}) {
      if (vm.count(option)) throw InputError(std::string("--") + option + " needs --instance");
    }
    for (const char* option : {"nodes", "gradient-bytes", "allreduce", "links", "loader-workers"}) {
      if (!vm[option].defaulted()) throw InputError(std::string("--") + option + " needs --instance");
    }
    return std::nullopt;
  }
  DataParallelRequest r;
  r.instance_type = vm["instance"].as<std::string>();
  if (!parameters)
    throw InputError("--instance needs --params (the gradient all-reduced is parameters x --gradient-bytes)");
  r.parameters = *parameters;
  if (!(r.parameters >= 1.0 && r.parameters <= 1e15))
    throw InputError("--params: expected 1 to 1e15 parameters with --instance");
  r.max_nodes = parse_nodes(vm["nodes"].as<std::string>());
  r.bytes_per_gradient = vm["gradient-bytes"].as<double>();
  if (!(r.bytes_per_gradient > 0.0 && r.bytes_per_gradient <= kMaxBytesPerGradient)) {
    throw InputError("--gradient-bytes: expected bytes per gradient value in (0, 16], e.g. 4 for fp32, 2 for bf16");
  }
  if (vm.count("overlap")) {
    r.overlap = vm["overlap"].as<double>();
    if (!(*r.overlap >= 0.0 && *r.overlap <= 1.0)) throw InputError("--overlap: expected a share in [0, 1]");
  }
  if (vm.count("collectives")) {
    r.collectives = vm["collectives"].as<double>();
    if (!(*r.collectives >= 1.0 && *r.collectives <= 1e6 && *r.collectives == std::floor(*r.collectives))) {
      throw InputError("--collectives: expected a whole number of all-reduces per step, 1 to 1000000");
    }
  }
  if (vm.count("loader-rate")) {
    InputPipeline input;
    input.samples_per_s_per_worker = vm["loader-rate"].as<double>();
    if (!(input.samples_per_s_per_worker > 0.0 && input.samples_per_s_per_worker <= 1e9))
      throw InputError("--loader-rate: expected samples per second per worker, above 0 and at most 1e9");
    input.workers_per_gpu = vm["loader-workers"].as<int>();
    if (input.workers_per_gpu < 1 || input.workers_per_gpu > 1024)
      throw InputError("--loader-workers: expected 1 to 1024 workers per GPU");
    if (vm.count("host-cores")) {
      input.cores = vm["host-cores"].as<double>();
      if (!(*input.cores >= 1.0 && *input.cores <= 1e6))
        throw InputError("--host-cores: expected 1 to 1000000 cores per instance");
    }
    if (!vm.count("batch")) throw InputError("--loader-rate needs --batch (the per-GPU batch the loaders produce)");
    r.input = input;
  } else {
    if (!vm["loader-workers"].defaulted()) throw InputError("--loader-workers needs --loader-rate");
    if (vm.count("host-cores")) throw InputError("--host-cores needs --loader-rate");
  }
  r.algorithm = allreduce_algorithm(vm["allreduce"].as<std::string>());
  r.links_path = locate_instance_links(vm["links"].as<std::string>());
  return r;
}

DataParallelScaling report_data_parallel_scaling(const DataParallelRequest& request, const KinetoTrace& trace,
                                                 const StepProfile& profile, const GpuSpec& measured,
                                                 const PredictionOptions& options, std::ostream& out) {
  const InstanceLinkTable table = read_instance_links(request.links_path);
  const InstanceLinkEntry& entry = table.at(request.instance_type, "--instance");
  const GpuSpec& gpu = gpu_spec_or_throw(entry.gpu, "--instance " + request.instance_type + " (its GPU)");
  const DataParallelMeasurement m = measure_data_parallel(trace, profile);
  const double gradient_bytes = request.parameters * request.bytes_per_gradient;
  const double overlap_default = request.overlap.value_or(kDefaultOverlap);
  const OneGpu one = one_gpu_on(gpu, trace, profile, measured, options);
  DataParallelProfile dp = data_parallel_profile(m, gradient_bytes, one.compute_scale, overlap_default);
  dp.host_ms = one.host_ms;
  if (request.overlap) dp.overlap = *request.overlap;
  if (request.collectives) dp.collectives = *request.collectives;
  if (request.input) {
    dp.input = request.input;
    dp.batch_per_gpu = options.trace_batch.value_or(1.0) * options.batch_scale;
  }
  const InstanceLinks single_gpu{request.instance_type, 1};
  const double one_gpu_ms = data_parallel_step(dp, 1, single_gpu).step_ms;

  out << "\ndata-parallel scaling (weak: batch per GPU fixed) on " << entry.links.instance_type << ": "
      << entry.links.gpus_per_instance << " x " << gpu.name << ", " << entry.intra_link << "; network "
      << format_fixed(entry.network_gbit_per_s, 0) << " Gbit/s " << entry.fabric
      << (entry.estimated ? " (some figures estimated)" : "") << "\n";
  out << "trace: compute " << format_fixed(m.compute_ms, 2) << " ms, backward " << format_fixed(m.backward_ms, 2)
      << " ms ("
      << (m.backward_measured ? "measured: kernels launched by the autograd thread" : "assumed 2/3 of compute")
      << "), host gap " << format_fixed(m.host_ms, 2) << " ms, communication " << format_fixed(m.communication_ms, 2)
      << " ms (" << format_fixed(m.overlapped_ms, 2) << " beside compute, " << format_fixed(m.exposed_ms, 2)
      << " exposed) per step\n";
  out << "on " << gpu.name << ": compute " << format_fixed(dp.compute_ms, 2) << " ms, backward "
      << format_fixed(dp.backward_ms, 2) << " ms; gradients " << format_fixed(gradient_bytes / 1e6, 1) << " MB ("
      << format_fixed(request.parameters / 1e6, 2) << " M x " << format_fixed(request.bytes_per_gradient, 0)
      << " B); overlap " << format_fixed(dp.overlap, 2) << " ("
      << (request.overlap ? "--overlap"
          : m.overlap     ? m.overlap_basis
                          : "assumed: no gradient communication in the trace")
      << "); " << format_fixed(dp.collectives, 0) << " all-reduces per step ("
      << (request.collectives    ? "--collectives"
          : m.collectives >= 1.0 ? "counted in the trace"
                                 : "PyTorch DDP's default buckets")
      << ")\n";
  if (dp.input) {
    out << "input: " << dp.input->workers_per_gpu << " loader workers per GPU at "
        << format_fixed(dp.input->samples_per_s_per_worker, 1) << " samples/s each"
        << (dp.input->cores ? ", sharing " + format_fixed(*dp.input->cores, 0) + " cores per instance" : "") << "; "
        << format_fixed(dp.batch_per_gpu, 0) << " samples per GPU and step\n";
  }
  out << "instances   GPUs  all-reduce ms  exposed ms    step ms  efficiency" << (dp.input ? "  input ms  bound" : "")
      << "\n";
  DataParallelScaling scaling;
  scaling.gpus_per_instance = entry.links.gpus_per_instance;
  for (int k = 1; k <= request.max_nodes; ++k) {
    const DataParallelStep s = data_parallel_step(dp, k, entry.links, request.algorithm);
    scaling.step_s_by_nodes.push_back(s.step_ms / 1e3);
    out << pad(std::to_string(k), 10) << pad(std::to_string(k * entry.links.gpus_per_instance), 7)
        << pad(format_fixed(s.allreduce_ms, 3), 15) << pad(format_fixed(s.exposed_ms, 3), 12)
        << pad(format_fixed(s.step_ms, 2), 11);
    const std::string efficiency = format_fixed(100.0 * one_gpu_ms / s.step_ms, 1) + "%";
    if (dp.input) {
      out << pad(efficiency, 12) << pad(format_fixed(s.input_ms, 2), 10) << (s.input_bound() ? "input" : "GPU") << "\n";
    } else {
      out << efficiency << "\n";
    }
  }
  out << "efficiency = step on one GPU (" << format_fixed(one_gpu_ms, 2)
      << " ms) / step; step = host gap + compute + "
         "max(0, all-reduce - overlap x backward)"
      << (dp.input ? ", or the loaders' input time when longer" : "") << "\n";

  // The same GPU count on every instance type of that GPU whose size divides it.
  const int total = request.max_nodes * entry.links.gpus_per_instance;
  const GpuOfferCatalogue offers = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  out << "\n"
      << total << " x " << gpu.name << " laid out on other instance types (prices: cheapest offer in "
      << "gpu_offers.json; '-' = none listed):\n";
  out << "layout                          step ms  efficiency  on-demand $/h     spot $/h\n";
  for (const auto& other : table.entries) {
    if (other.gpu != entry.gpu || total % other.links.gpus_per_instance != 0) continue;
    const int count = total / other.links.gpus_per_instance;
    const DataParallelStep s = data_parallel_step(dp, count, other.links, request.algorithm);
    const OfferPrices prices = cheapest_offer(offers, other.links.instance_type);
    const std::string layout = std::to_string(count) + " x " + other.links.instance_type;
    out << pad(layout, std::max<std::size_t>(30, layout.size() + 1)) << pad(format_fixed(s.step_ms, 2), 10)
        << pad(format_fixed(100.0 * one_gpu_ms / s.step_ms, 1) + "%", 12)
        << pad(price_text(count * prices.on_demand), 16) << price_text(count * prices.spot) << "\n";
  }
  return scaling;
}

void add_scaling_to_job(nlohmann::json& job, const DataParallelScaling& scaling) {
  job["gpus_per_instance"] = scaling.gpus_per_instance;
  job["step_time_s_by_nodes"] = scaling.step_s_by_nodes;
}

}  // namespace spotsim
