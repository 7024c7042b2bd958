// libFuzzer target: one input format of `spotsim trace` (the format is fixed at compile time by
// SPOTSIM_FUZZ_FORMAT, so each importer and the trace JSON reader gets its own target and corpus).
//
// Malformed input must end in spotsim::InputError; anything else (another exception escaping, a crash, an
// AddressSanitizer or UndefinedBehaviorSanitizer report) is a bug. Built by tests/fuzz/run_fuzzers.sh.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/errors.hpp"
#include "traces/importers/trace_importer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string content(reinterpret_cast<const char*>(data), size);
  spotsim::ImportOptions options;
  options.time_unit = spotsim::kMillisPerSecond;  // so that "time,count" inputs get past the unit check
  try {
    const spotsim::ImportedTrace trace =
        spotsim::import_trace_content(content, "fuzz-input", SPOTSIM_FUZZ_FORMAT, options);
    // Whatever imports must also be usable: every zone's series can be evaluated.
    for (const auto& zone : trace.market.zones) {
      (void)zone.spot.price_per_hour.at(12345);
      if (zone.spot.available) (void)zone.spot.available->at(12345);
    }
  } catch (const spotsim::InputError&) {
    // expected for malformed input
  }
  return 0;
}
