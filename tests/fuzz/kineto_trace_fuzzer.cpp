// libFuzzer target: the PyTorch profiler (Kineto) trace reader of `spotsim steptime`, and everything done with
// what it returns (step statistics, the prediction on another GPU, op shapes from recorded inputs).
//
// Malformed input must end in spotsim::InputError; anything else (another exception escaping, a crash, an
// AddressSanitizer or UndefinedBehaviorSanitizer report) is a bug. The reader takes a path (it streams gzip'd or
// plain files through zlib), so each input is written to a per-process scratch file. Built by
// tests/fuzz/run_fuzzers.sh.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "base/errors.hpp"
#include "steptime/gpu_spec_table.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "steptime/step_profile.hpp"
#include "steptime/step_time_predictor.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/spotsim_kineto_fuzz_" + std::to_string(getpid()) + ".json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const spotsim::KinetoTrace trace = spotsim::read_kineto_trace(path);
    const spotsim::StepProfile profile = spotsim::build_step_profile(trace);
    const spotsim::GpuSpec& measured = spotsim::measured_gpu_of(trace, "V100");
    for (const char* target : {"A100-80GB", "H100", "T4"}) {
      (void)spotsim::predict_step(trace, profile, measured, spotsim::gpu_spec_or_throw(target, "fuzz"), {});
    }
  } catch (const spotsim::InputError&) {
    // expected for malformed input
  }
  return 0;
}
