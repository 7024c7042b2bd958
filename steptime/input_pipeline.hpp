#pragma once
// The input pipeline of a node (docs/step-time.md#input-pipeline): PyTorch DataLoader worker processes read,
// decode and augment samples on the CPU while the GPU trains, so a step can be no shorter than the time the
// workers of its GPU need to produce its batch:
//
//   input(g) = batch / (workers x rate x share),   share = min(1, cores / (workers x g))
//
// per GPU, with g GPUs on the instance each feeding from its own `workers`, each worker producing `rate` samples/s
// with a core to itself, and the instance's `cores` shared when more workers run than it has (NVIDIA's
// DeepLearningExamples ResNet-50 configs run 8 workers per GPU on a DGX-1, 16 on a DGX A100). A trace of one GPU
// with synthetic or on-GPU data shows none of this: the input time is a ceiling the GPU step is compared against.
#include <optional>

namespace spotsim {

struct InputPipeline {
  double samples_per_s_per_worker = 0;  // one worker with a core to itself (decode + augment)
  int workers_per_gpu = 8;
  std::optional<double> cores;  // cores the instance's workers share; unset: never short of cores
};

// Milliseconds the workers of one GPU need for a batch of `batch_per_gpu` samples when `gpus_per_instance` GPUs
// share the instance. Programmer errors (assert): a rate, batch, worker or GPU count below its minimum.
double input_ms_per_step(const InputPipeline& input, double batch_per_gpu, int gpus_per_instance);

}  // namespace spotsim
