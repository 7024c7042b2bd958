// Reader speed on the largest shared Kineto trace (53.7 MB of JSON, gzip'd): streaming SAX parse from zlib,
// then per-step statistics. Skips when the shared data is not beside the repository.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "steptime/kineto_trace_reader.hpp"
#include "steptime/step_profile.hpp"

namespace spotsim {
namespace {

// $SPOTSIM_SHARED_DIR, else ../shared next to this source tree.
std::string largest_trace() {
  const char* env = std::getenv("SPOTSIM_SHARED_DIR");
  const std::filesystem::path shared =
      env != nullptr ? std::filesystem::path(env)
                     : std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "shared";
  return (shared / "data/kernels/kineto-traces/hta/v100_transformerlike_ddp2_fp32_rank1.json.gz").string();
}

void BM_ReadLargestKinetoTrace(benchmark::State& state) {
  const std::string path = largest_trace();
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("shared trace not found: " + path).c_str());
    return;
  }
  std::size_t activities = 0;
  for (auto _ : state) {
    const KinetoTrace trace = read_kineto_trace(path);
    const StepProfile profile = build_step_profile(trace);
    activities = trace.activities.size();
    benchmark::DoNotOptimize(profile.gpu_busy.mean);
  }
  state.counters["activities"] = static_cast<double>(activities);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 53733385);  // uncompressed JSON bytes
}
BENCHMARK(BM_ReadLargestKinetoTrace)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace spotsim
