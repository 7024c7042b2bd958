// libFuzzer target: the timeline reader of `spotsim report --timeline` (a user's JSON-lines file, single-instance or
// elastic) and the chart drawn from what it returns.
//
// Malformed input must end in spotsim::InputError; anything else (another exception escaping, a crash, an
// AddressSanitizer or UndefinedBehaviorSanitizer report) is a bug. Built by tests/fuzz/run_fuzzers.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "app/report/timeline_chart.hpp"
#include "app/report/timeline_reader.hpp"
#include "base/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const spotsim::TimelineFile file = spotsim::read_timeline_text(text, "fuzz.jsonl");
    (void)spotsim::timeline_chart(file);
    (void)spotsim::timeline_legend(file);
  } catch (const spotsim::InputError&) {
    // expected for malformed input
  }
  return 0;
}
