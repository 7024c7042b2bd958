#pragma once
// Step time of a data-parallel job on n = instances x gpus_per_instance GPUs (docs/step-time.md#data-parallel).
// Weak scaling: each GPU keeps its batch, so its compute is that of one GPU, and the gradients are summed by
// one all-reduce per step. PyTorch DDP launches the all-reduce of a bucket as soon as its gradients are ready,
// during the backward pass (Li et al., "PyTorch Distributed: Experiences on Accelerating Data Parallel
// Training", VLDB 13(12), 2020, §3.2.3), so only the part of the all-reduce that outlasts the backward compute
// it can run beside is added:
//
//   step(n) = max(host + compute + max(0, T_allreduce(n) - overlap x backward), input(g))
//
// where input(g) is the time the CPU's data-loader workers of one GPU need for its batch when g GPUs share the
// instance (input_pipeline.hpp), when an input pipeline is given.
#include <optional>

#include "steptime/allreduce_model.hpp"
#include "steptime/input_pipeline.hpp"
#include "steptime/instance_links.hpp"

namespace spotsim {

struct DataParallelProfile {
  double compute_ms = 0;      // GPU busy time of one step without communication, on one GPU
  double host_ms = 0;         // step time the GPU waits on the host (step - busy); does not change with n
  double backward_ms = 0;     // GPU busy time of the backward pass (part of compute_ms)
  double gradient_bytes = 0;  // bytes all-reduced per step: parameters x bytes per gradient value
  double overlap = 1.0;       // share of backward the all-reduce can hide behind (measured)
  double collectives = 1.0;   // all-reduces the gradients are sent in per step (each pays the latency terms)
  std::optional<InputPipeline> input = std::nullopt;  // the node's data loaders; unset: the input never binds
  double batch_per_gpu = 0;                           // samples per GPU and step (needed with `input`)
};

struct DataParallelStep {
  double allreduce_ms = 0;  // the whole all-reduce (hierarchical when the GPUs span instances)
  double exposed_ms = 0;    // the part not hidden behind backward compute
  double gpu_ms = 0;        // host + compute + exposed
  double input_ms = 0;      // the data loaders' time for the batch (0 without an input pipeline)
  double step_ms = 0;       // max(gpu, input)
  bool input_bound() const { return input_ms > gpu_ms; }
};

DataParallelStep data_parallel_step(const DataParallelProfile& profile, int instances, const InstanceLinks& links,
                                    AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring);

// Step time (ms) when `instances` instances of `links` train together (instances x gpus_per_instance GPUs).
double data_parallel_step_ms(const DataParallelProfile& profile, int instances, const InstanceLinks& links);

}  // namespace spotsim
