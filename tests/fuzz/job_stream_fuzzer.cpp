// libFuzzer target: the job stream of `spotsim campaign --jobs FILE.csv` (docs/campaign.md): a user's CSV of jobs
// with arrivals, work, GPUs or nodes, priorities, deadlines, scores and checkpoint sizes.
//
// Malformed input must end in spotsim::InputError; anything else (another exception escaping, a crash, an
// AddressSanitizer or UndefinedBehaviorSanitizer report) is a bug. Built by tests/fuzz/run_fuzzers.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/campaign/job_stream_csv.hpp"
#include "base/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spotsim::JobSpec defaults;
  defaults.work = 10 * spotsim::kMillisPerHour;
  try {
    (void)spotsim::read_job_stream_text(std::string(reinterpret_cast<const char*>(data), size), "fuzz.csv", defaults);
  } catch (const spotsim::InputError&) {
    // expected for malformed input
  }
  return 0;
}
