#include "base/progress_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace spotsim {

std::string group_thousands(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped.push_back(',');
    grouped.push_back(digits[i]);
  }
  return grouped;
}

std::string format_eta(double seconds) {
  char buffer[32];
  const auto s = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
  if (s < 60)
    std::snprintf(buffer, sizeof buffer, "%llds", s);
  else if (s < 3600)
    std::snprintf(buffer, sizeof buffer, "%lldm%02llds", s / 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%lldh%02lldm", s / 3600, (s % 3600) / 60);
  return buffer;
}

std::string format_progress(std::uint64_t done, std::uint64_t total, double rate, double eta_seconds,
                            const std::string& unit) {
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.1f%%",
                total == 0 ? 100.0 : 100.0 * static_cast<double>(done) / static_cast<double>(total));
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on long operator+ chains.
  std::string line = group_thousands(done);
  line += "/";
  line += group_thousands(total);
  line += ' ';
  line += unit;
  line += " (";
  line += percent;
  line += "), ";
  if (rate > 0.0 && rate < 9.95) {  // a slow rate rounded to 0 or 1 would say little
    char slow[16];
    std::snprintf(slow, sizeof slow, "%.1f", rate);
    line += slow;
  } else {
    line += group_thousands(static_cast<std::uint64_t>(std::llround(std::max(rate, 0.0))));
  }
  line += ' ';
  line += unit;
  line += "/s, ETA ";
  line += eta_seconds < 0 || !std::isfinite(eta_seconds) ? std::string("?") : format_eta(eta_seconds);
  return line;
}

std::optional<std::string> ProgressMeter::update(std::uint64_t done, std::uint64_t total, double now_s) {
  if (!started_) {
    started_ = true;
    done_at_start_ = done;
    start_s_ = last_print_s_ = now_s;
    return format_progress(done, total, 0.0, done == total ? 0.0 : -1.0, unit_);
  }
  const bool final = done >= total;
  if (finished_ || (!final && now_s - last_print_s_ < min_interval_)) return std::nullopt;
  finished_ = final;
  last_print_s_ = now_s;
  const double elapsed = now_s - start_s_;
  const double rate = elapsed > 0 ? static_cast<double>(done - done_at_start_) / elapsed : 0.0;
  const double eta = rate > 0 ? static_cast<double>(total - done) / rate : -1.0;
  return format_progress(done, total, rate, final ? 0.0 : eta, unit_);
}

}  // namespace spotsim
