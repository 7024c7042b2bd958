// libFuzzer target: what `spotsim report RESULT` reads (a simulate or campaign JSON output, with or without an
// embedded timeline) and the page rendered from it.
//
// Malformed input must end in spotsim::InputError; anything else (another exception escaping, a crash, an
// AddressSanitizer or UndefinedBehaviorSanitizer report) is a bug. The reader takes a path, so each input is written
// to a per-process scratch file. Built by tests/fuzz/run_fuzzers.sh.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

#include "app/report/report_html.hpp"
#include "app/report/report_input.hpp"
#include "app/report/timeline_reader.hpp"
#include "base/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/spotsim_report_fuzz_" + std::to_string(getpid()) + ".json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const spotsim::ReportInput input = spotsim::read_report_input(path);
    std::optional<spotsim::TimelineFile> timeline;
    if (!input.embedded_timeline.empty()) timeline = spotsim::read_timeline_text(input.embedded_timeline, path);
    (void)spotsim::render_report_html(input, timeline ? &*timeline : nullptr);
  } catch (const spotsim::InputError&) {
    // expected for malformed input
  }
  return 0;
}
