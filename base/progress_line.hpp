#pragma once
// The progress line of long work (a sweep's runs, simulate's replications, a trace's megabytes), in the manner of
// OMNeT++'s Cmdenv status line: done/total, the rate since the start of this invocation, and the estimated time
// left. The meter decides when a line is due (at
// most one per `min_interval_s`, plus the final one) and formats it; the caller decides where it goes (stderr,
// and only on a terminal: a log file must not fill with carriage returns).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace spotsim {

// "1,234/5,000 runs (24.7%), 3,456 runs/s, ETA 1m05s". `rate` in units per second (one decimal below 10: "2.5
// runs/s"); a negative ETA prints "ETA ?".
std::string format_progress(std::uint64_t done, std::uint64_t total, double rate, double eta_seconds,
                            const std::string& unit = "runs");
// "45s", "3m05s", "2h07m".
std::string format_eta(double seconds);
// 1234567 -> "1,234,567".
std::string group_thousands(std::uint64_t value);

class ProgressMeter {
 public:
  explicit ProgressMeter(double min_interval_s = 1.0, std::string unit = "runs")
      : min_interval_(min_interval_s), unit_(std::move(unit)) {}

  // `now_s` on any monotonic clock. The first call sets the origin of the rate (runs finished before it, e.g. by
  // an earlier invocation that is being resumed, do not count towards the rate). Returns the line to show, or
  // nothing when the previous one is less than min_interval_s old and the work is not finished.
  std::optional<std::string> update(std::uint64_t done, std::uint64_t total, double now_s);

 private:
  double min_interval_;
  std::string unit_;
  bool started_ = false;
  bool finished_ = false;
  std::uint64_t done_at_start_ = 0;
  double start_s_ = 0.0;
  double last_print_s_ = 0.0;
};

}  // namespace spotsim
