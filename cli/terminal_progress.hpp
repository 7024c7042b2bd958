#pragma once
// The one progress line a long command shows on stderr (docs/outputs.md#progress): "simulate: 41,000/100,000
// replications (41.0%), 9,870 replications/s, ETA 6s", rewritten in place with '\r' at most five times a second,
// ended by the final line and a newline. Only on a terminal and without --quiet: a log file or a pipe gets nothing,
// so outputs and logs are byte-identical with and without a terminal.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "base/progress_line.hpp"
#include "engine/replication_runner.hpp"

namespace spotsim {

inline constexpr double kProgressInterval = 0.2;  // seconds between two lines: at most five a second
inline constexpr double kProgressDelay = 0.5;     // work done sooner shows no line at all

// Whether a command should show a progress line: not --quiet, and stderr is a terminal.
bool progress_wanted(bool quiet);

class TerminalProgress {
 public:
  // `label` prefixes the line ("simulate"); `unit` names what is counted ("replications"). Nothing is shown until
  // `delay_s` after the first update.
  TerminalProgress(std::string label, std::string unit, bool enabled, std::ostream& out,
                   double delay_s = kProgressDelay);
  ~TerminalProgress();  // an unfinished line (an error stopped the work) is erased, not left half-drawn
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  bool enabled() const { return enabled_; }
  // Not thread-safe: call from one thread at a time. `now_s` on the steady clock; tests pass their own.
  void update(std::uint64_t done, std::uint64_t total);
  void update(std::uint64_t done, std::uint64_t total, double now_s);
  // Ends the line with a newline if one was shown (after the final update).
  void finish();

 private:
  std::string label_;
  bool enabled_;
  std::ostream& out_;
  ProgressMeter meter_;
  double delay_;
  double start_s_ = 0.0;
  bool started_ = false;
  bool shown_ = false;
  bool finished_ = false;
};

// Shows a ReplicationProgress (bumped by the replication runner's workers) from a thread of its own while the
// caller's thread runs the replications; stops, with the final line, when destroyed or finished.
class ReplicationProgressWatcher {
 public:
  ReplicationProgressWatcher(TerminalProgress& line, const ReplicationProgress& progress);
  ~ReplicationProgressWatcher();
  ReplicationProgressWatcher(const ReplicationProgressWatcher&) = delete;
  ReplicationProgressWatcher& operator=(const ReplicationProgressWatcher&) = delete;

  void finish();  // the last line, once the work is done (the destructor alone erases it on an error path)

 private:
  void stop();
  void show();

  TerminalProgress& line_;
  const ReplicationProgress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace spotsim
