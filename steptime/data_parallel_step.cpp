#include "steptime/data_parallel_step.hpp"

#include <algorithm>
#include <cassert>

namespace spotsim {

DataParallelStep data_parallel_step(const DataParallelProfile& profile, int instances, const InstanceLinks& links,
                                    AllReduceAlgorithm algorithm) {
  assert(profile.overlap >= 0.0 && profile.overlap <= 1.0);
  DataParallelStep step;
  step.allreduce_ms =
      allreduce_time(profile.gradient_bytes, instances, links, algorithm, profile.collectives).total_s() * 1e3;
  step.exposed_ms = std::max(0.0, step.allreduce_ms - profile.overlap * profile.backward_ms);
  step.gpu_ms = profile.host_ms + profile.compute_ms + step.exposed_ms;
  if (profile.input) step.input_ms = input_ms_per_step(*profile.input, profile.batch_per_gpu, links.gpus_per_instance);
  step.step_ms = std::max(step.gpu_ms, step.input_ms);
  return step;
}

double data_parallel_step_ms(const DataParallelProfile& profile, int instances, const InstanceLinks& links) {
  return data_parallel_step(profile, instances, links).step_ms;
}

}  // namespace spotsim
