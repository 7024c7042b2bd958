#include "steptime/input_pipeline.hpp"

#include <algorithm>
#include <cassert>

namespace spotsim {

double input_ms_per_step(const InputPipeline& input, double batch_per_gpu, int gpus_per_instance) {
  assert(input.samples_per_s_per_worker > 0.0 && input.workers_per_gpu >= 1 && batch_per_gpu > 0.0 &&
         gpus_per_instance >= 1);
  const double workers = input.workers_per_gpu;
  const double share = input.cores ? std::min(1.0, *input.cores / (workers * gpus_per_instance)) : 1.0;
  return 1e3 * batch_per_gpu / (workers * input.samples_per_s_per_worker * share);
}

}  // namespace spotsim
