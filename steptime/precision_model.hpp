#pragma once
// Predicting a training step in another arithmetic precision from a trace recorded in one
// (docs/step-time.md#precision). Three things change between FP32 and mixed precision:
//   * matrix kernels (GEMM, convolution) run on the tensor cores of the chosen precision, at the target's
//     datasheet peak x calibrated achieved fraction (gpu_spec_table.hpp);
//   * memory-bound kernels on activations (elementwise, batch norm) move 2-byte instead of 4-byte values, so
//     half the bytes; kernels autocast keeps in FP32 (optimizer and master weights, loss scaling, reductions,
//     layer/group norm) keep their traffic;
//   * the rest (host gaps, communication of FP32 gradients, copies) does not change.
#include <string>
#include <string_view>

#include "steptime/gpu_spec_table.hpp"
#include "steptime/kineto_trace.hpp"

namespace spotsim {

// `--precision`: how the target run trains. fp32 = FP32 CUDA cores, TF32 off; tf32 = every FP32 matrix kernel on
// TF32 tensor cores (both torch.backends flags on), activations FP32; amp-fp16 / amp-bf16 = torch.autocast with
// that 16-bit type (matrix kernels and most activations 16-bit, FP32 master weights and optimizer).
enum class TrainingPrecision { Fp32, Tf32, AmpFp16, AmpBf16 };

// Throws InputError naming `what` unless `text` is fp32, tf32, amp-fp16 or amp-bf16.
TrainingPrecision parse_training_precision(const std::string& text, const std::string& what);
std::string to_string(TrainingPrecision p);
// The precision matrix kernels run in.
Precision matrix_precision(TrainingPrecision p);
// Bytes per activation value: 4 for fp32/tf32, 2 under AMP.
double activation_bytes(TrainingPrecision p);
// Throws InputError naming `what` and the GPU when it has no hardware path for the precision (BF16 or TF32 on
// V100/T4): a silent fallback to FP32 would predict a run the user did not ask for.
void require_precision_supported(const GpuSpec& gpu, TrainingPrecision p, const std::string& what);

// How the traced run trained, as far as the trace shows it: AMP when most of the matrix-kernel time is FP16 or
// BF16, TF32 when most is TF32, else FP32. Only the activation width matters for the model.
TrainingPrecision recorded_precision(const KinetoTrace& trace, const std::vector<std::size_t>& activities);

// Whether a memory-bound kernel moves activation values, whose width follows the training precision. False for
// kernels autocast keeps in FP32 or that work on the FP32 master weights: optimizer (multi_tensor_apply, Adam,
// SGD), loss scaling (amp_*), reductions (softmax, loss, sum: autocast's float32 list) and layer/group norm (also
// on that list), and DDP's gradient-bucket kernels (GpuActivity::on_gradients: torch.cuda.amp keeps the
// gradients of the FP32 parameters in FP32). Batch norm is not on it: cuDNN normalises 16-bit inputs with FP32
// statistics.
bool moves_activations(const GpuActivity& a, std::string_view name);
// Whether a kernel's work is proportional to the batch: everything but optimizer/weight-update kernels,
// communication and DDP's gradient-bucket copies and averaging (GpuActivity::on_gradients): gradients are
// proportional to the parameters, not the samples.
bool scales_with_batch(const GpuActivity& a, std::string_view name);

}  // namespace spotsim
