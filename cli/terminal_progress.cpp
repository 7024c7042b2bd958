#include "cli/terminal_progress.hpp"

#include <unistd.h>

#include <chrono>
#include <utility>

namespace spotsim {

namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

bool progress_wanted(bool quiet) { return !quiet && isatty(STDERR_FILENO) == 1; }

TerminalProgress::TerminalProgress(std::string label, std::string unit, bool enabled, std::ostream& out, double delay_s)
    : label_(std::move(label)),
      enabled_(enabled),
      out_(out),
      meter_(kProgressInterval, std::move(unit)),
      delay_(delay_s) {}

TerminalProgress::~TerminalProgress() {
  if (shown_ && !finished_) out_ << "\r\033[K" << std::flush;
}

void TerminalProgress::update(std::uint64_t done, std::uint64_t total) { update(done, total, steady_seconds()); }

void TerminalProgress::update(std::uint64_t done, std::uint64_t total, double now_s) {
  if (!enabled_ || finished_) return;
  if (!started_) start_s_ = now_s;
  started_ = true;
  const auto line = meter_.update(done, total, now_s);  // always: the meter's rate counts from the first call
  if (!line || (!shown_ && now_s - start_s_ < delay_)) return;
  out_ << '\r' << label_ << ": " << *line << "\033[K" << std::flush;  // \033[K: erase what a longer line left
  shown_ = true;
}

void TerminalProgress::finish() {
  if (shown_ && !finished_) out_ << '\n' << std::flush;
  finished_ = true;
}

ReplicationProgressWatcher::ReplicationProgressWatcher(TerminalProgress& line, const ReplicationProgress& progress)
    : line_(line), progress_(progress) {
  if (!line_.enabled()) return;  // no thread at all when nothing is shown
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      show();
      wake_.wait_for(lock, std::chrono::duration<double>(kProgressInterval), [this] { return stopping_; });
    }
  });
}

ReplicationProgressWatcher::~ReplicationProgressWatcher() { stop(); }

void ReplicationProgressWatcher::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void ReplicationProgressWatcher::finish() {
  stop();
  show();
  line_.finish();
}

void ReplicationProgressWatcher::show() {
  // A total of 0 is not known yet (advise sets it once it has filtered the offers).
  const std::uint64_t total = progress_.total.load(std::memory_order_relaxed);
  if (total > 0) line_.update(progress_.done.load(std::memory_order_relaxed), total);
}

}  // namespace spotsim
