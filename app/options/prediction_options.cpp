#include "app/options/prediction_options.hpp"

#include "base/errors.hpp"
#include "steptime/execution_recipe.hpp"
#include "steptime/host_time.hpp"
#include "steptime/precision_model.hpp"

namespace spotsim {

namespace po = boost::program_options;

namespace {

double batch_option(const po::variables_map& vm, const char* name) {
  const double batch = vm[name].as<double>();
  if (!(batch >= 1.0 && batch <= 1e7))
    throw InputError(std::string("--") + name + ": expected a per-GPU batch in [1, 1e7]");
  return batch;
}

}  // namespace

po::options_description prediction_option_schema() {
  po::options_description schema("How the targets run (docs/step-time.md#model, #precision)");
  schema.add_options()(
      "tf32", po::value<std::string>()->default_value("conv"),
      "which FP32 matrix kernels use TF32 tensor cores on GPUs that have them: conv (PyTorch default: cuDNN "
      "convolutions only), all (also matmuls, torch.backends.cuda.matmul.allow_tf32 = True), off")(
      "measured-link-gbps", po::value<double>(),
      "interconnect bandwidth of the traced run, GB/s (with --target-link-gbps)")(
      "target-link-gbps", po::value<double>(),
      "interconnect bandwidth on the targets, GB/s; communication kernels scale by measured/target (default: kept)")(
      "precision", po::value<std::string>(),
      "how the targets train: fp32 (CUDA cores, TF32 off), tf32, amp-fp16 or amp-bf16 (autocast); matrix kernels "
      "move to that precision's tensor cores and activations to its width [default: as recorded, with --tf32]")(
      "layout", po::value<std::string>()->default_value("as-recorded"),
      "memory layout of the target run: as-recorded or channels-last (torch.channels_last: cuDNN's NCHW<->NHWC "
      "transform kernels of the trace are dropped)")(
      "fuse-norm-activation", po::bool_switch(),
      "the target run fuses ReLU/add into the adjacent batch norm (cuDNN BN+add+activation): those kernels "
      "go, the batch norm reads one extra tensor")(
      "batch", po::value<double>(),
      "per-GPU batch of the traced run (with --target-batch; also where V100/T4 "
      "convolutions read their measured batch curve, docs/step-time.md#precision)")(
      "target-batch", po::value<double>(), "per-GPU batch to predict for (needs --batch; default: the trace's)")(
      "host-scaling", po::value<std::string>()->default_value("fixed"),
      "host gap on the targets: fixed (same time per step) or per-sample (scales with the batch)");
  return schema;
}

Tf32Policy tf32_policy(const std::string& text) {
  if (text == "conv") return Tf32Policy::ConvolutionsOnly;
  if (text == "all") return Tf32Policy::All;
  if (text == "off") return Tf32Policy::Off;
  throw InputError("--tf32: expected conv, all or off, got '" + text + "'");
}

PredictionOptions prediction_options(const po::variables_map& vm) {
  PredictionOptions options;
  options.tf32 = tf32_policy(vm["tf32"].as<std::string>());
  if (vm.count("measured-link-gbps") != vm.count("target-link-gbps")) {
    throw InputError("--measured-link-gbps and --target-link-gbps must be given together");
  }
  if (vm.count("measured-link-gbps")) {
    options.measured_link_gbps = vm["measured-link-gbps"].as<double>();
    options.target_link_gbps = vm["target-link-gbps"].as<double>();
    if (!(*options.measured_link_gbps > 0.0) || !(*options.target_link_gbps > 0.0)) {
      throw InputError("--measured-link-gbps/--target-link-gbps: expected bandwidths > 0 GB/s");
    }
  }
  if (vm.count("precision"))
    options.precision = parse_training_precision(vm["precision"].as<std::string>(), "--precision");
  options.host_scaling = parse_host_scaling(vm["host-scaling"].as<std::string>(), "--host-scaling");
  options.recipe.layout = parse_memory_layout(vm["layout"].as<std::string>(), "--layout");
  options.recipe.fuse_norm_activation = vm["fuse-norm-activation"].as<bool>();
  if (vm.count("target-batch") && !vm.count("batch"))
    throw InputError("--target-batch needs --batch (the trace's per-GPU batch)");
  if (vm.count("batch")) {
    const double batch = batch_option(vm, "batch");
    options.batch_scale = vm.count("target-batch") ? batch_option(vm, "target-batch") / batch : 1.0;
    options.trace_batch = batch;
  }
  return options;
}

}  // namespace spotsim
