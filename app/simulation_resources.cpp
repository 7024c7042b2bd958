#include "app/simulation_resources.hpp"

#include <sys/statvfs.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "base/errors.hpp"

namespace spotsim {

std::uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (meminfo >> key >> kb >> unit) {
    if (key == "MemAvailable:") return kb * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : UINT64_MAX;
}

std::uint64_t free_disk_bytes(const std::string& directory) {
  struct statvfs fs {};
  if (statvfs(directory.c_str(), &fs) != 0) return UINT64_MAX;  // unknown: creating the file there will tell
  return static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1000.0 && unit < 5) {
    value /= 1000.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return text;
}

void check_runs_fit_in_memory(std::uint64_t replications, std::uint64_t available) {
  const std::uint64_t needed = replications * kInMemoryBytesPerRun;
  if (needed <= available) return;
  throw InputError("--replications " + std::to_string(replications) + ": keeping every run in memory needs about " +
                   format_bytes(needed) + ", more than the " + format_bytes(available) +
                   " available; ask for fewer replications, or run the command-line simulate, which streams the "
                   "runs to --output FILE.csv (or prints only the summary table) in bounded memory");
}

std::uint64_t spill_bytes_at_most(std::uint64_t replications, std::size_t metrics, const QuantileLimits& limits) {
  if (replications <= limits.memory_values) return 0;
  return replications * metrics * sizeof(double);
}

void check_spill_fits(std::uint64_t replications, std::size_t metrics, const QuantileLimits& limits,
                      std::uint64_t free_bytes) {
  const std::uint64_t needed = spill_bytes_at_most(replications, metrics, limits);
  const std::string directory = spill_directory(limits);
  if (needed == 0) return;
  if (needed <= free_bytes) {
    if (access(directory.c_str(), W_OK | X_OK) == 0) return;
    throw InputError("--replications " + std::to_string(replications) + ": the exact percentiles write values beyond " +
                     std::to_string(limits.memory_values) + " per metric to a temporary file, but " + directory +
                     " is not a writable directory; set TMPDIR to one with " + format_bytes(needed) + " free");
  }
  throw InputError("--replications " + std::to_string(replications) + ": the exact percentiles keep " +
                   std::to_string(limits.memory_values) + " values per metric in memory and write the rest to " +
                   directory + ", up to " + format_bytes(needed) + " for " + std::to_string(metrics) +
                   " metrics, but only " + format_bytes(free_bytes) +
                   " are free there; set TMPDIR to a directory with more free space, or ask for fewer replications");
}

void check_output_fits(const std::string& path, const std::string& format, std::uint64_t replications,
                       std::uint64_t row_bytes, std::uint64_t free_bytes) {
  if (format != "csv" && format != "json") return;
  const std::uint64_t needed = replications * row_bytes;
  if (needed <= free_bytes) return;
  throw InputError("--output " + path + ": " + std::to_string(replications) + " runs in " + format + " take at least " +
                   format_bytes(needed) + ", but only " + format_bytes(free_bytes) + " are free on its disk; " +
                   (format == "json" ? "write --format csv (about 4 times smaller), " : std::string()) +
                   "print only the summary (--format table), or ask for fewer replications");
}

}  // namespace spotsim
