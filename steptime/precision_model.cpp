#include "steptime/precision_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "base/errors.hpp"
#include "steptime/kernel_names.hpp"

namespace spotsim {

namespace {

using kernel_names::contains_any;
using kernel_names::lower;

// Kernels that update or check the FP32 master weights and gradients: PyTorch's foreach/fused optimizers run
// in multi_tensor_apply kernels (not "lamb": ATen names lambdas "lambda"), and GradScaler's unscale and scale update
// (torch.cuda.amp) stay FP32.
bool optimizer_kernel(const std::string& n) {
  return contains_any(
      n, {"multi_tensor_apply", "adam", "sgd", "fused_optim", "non_finite", "unscale", "amp_update_scale"});
}

}  // namespace

TrainingPrecision parse_training_precision(const std::string& text, const std::string& what) {
  if (text == "fp32") return TrainingPrecision::Fp32;
  if (text == "tf32") return TrainingPrecision::Tf32;
  if (text == "amp-fp16") return TrainingPrecision::AmpFp16;
  if (text == "amp-bf16") return TrainingPrecision::AmpBf16;
  throw InputError(what + ": expected fp32, tf32, amp-fp16 or amp-bf16, got '" + text + "'");
}

std::string to_string(TrainingPrecision p) {
  constexpr std::array<const char*, 4> names = {"fp32", "tf32", "amp-fp16", "amp-bf16"};
  return names[static_cast<std::size_t>(p)];
}

Precision matrix_precision(TrainingPrecision p) {
  switch (p) {
    case TrainingPrecision::Fp32: return Precision::FP32;
    case TrainingPrecision::Tf32: return Precision::TF32;
    case TrainingPrecision::AmpFp16: return Precision::FP16;
    case TrainingPrecision::AmpBf16: return Precision::BF16;
  }
  return Precision::FP32;
}

double activation_bytes(TrainingPrecision p) {
  return p == TrainingPrecision::AmpFp16 || p == TrainingPrecision::AmpBf16 ? 2.0 : 4.0;
}

void require_precision_supported(const GpuSpec& gpu, TrainingPrecision p, const std::string& what) {
  const Precision needed = matrix_precision(p);
  if (gpu.supports(needed)) return;
  throw InputError(what + ": " + gpu.name + " has no " + to_string(needed) + " tensor cores, so it cannot train in " +
                   to_string(p) +
                   " (TF32 and BF16 need Ampere or later: A100, L4, H100, H200); choose another "
                   "--precision or another GPU");
}

TrainingPrecision recorded_precision(const KinetoTrace& trace, const std::vector<std::size_t>& activities) {
  std::array<double, 4> time_by_precision{};
  for (std::size_t i : activities) {
    const GpuActivity& a = trace.activities[i];
    if (a.kind.kernel_class == KernelClass::Matrix)
      time_by_precision[static_cast<std::size_t>(a.kind.precision)] += a.duration_us;
  }
  const auto at = [&](Precision p) { return time_by_precision[static_cast<std::size_t>(p)]; };
  const double total = at(Precision::FP32) + at(Precision::TF32) + at(Precision::FP16) + at(Precision::BF16);
  if (total <= 0.0) return TrainingPrecision::Fp32;
  if (at(Precision::FP16) + at(Precision::BF16) > 0.5 * total) {
    return at(Precision::BF16) > at(Precision::FP16) ? TrainingPrecision::AmpBf16 : TrainingPrecision::AmpFp16;
  }
  return at(Precision::TF32) > 0.5 * total ? TrainingPrecision::Tf32 : TrainingPrecision::Fp32;
}

bool moves_activations(const GpuActivity& a, std::string_view name) {
  if (a.kind.kernel_class != KernelClass::MemoryBound || a.on_gradients) return false;
  const std::string n = lower(name);
  switch (a.kind.family) {
    case KernelFamily::Normalization:
      return !contains_any(n, {"layer_norm", "layernorm", "group_norm", "groupnorm", "rms_norm", "rmsnorm"});
    case KernelFamily::Elementwise: return !optimizer_kernel(n);
    default:  // reductions: softmax, loss, sums are on autocast's float32 list
      return false;
  }
}

bool scales_with_batch(const GpuActivity& a, std::string_view name) {
  if (a.kind.kernel_class == KernelClass::Communication || a.on_gradients) return false;
  return !optimizer_kernel(lower(name));
}

}  // namespace spotsim
