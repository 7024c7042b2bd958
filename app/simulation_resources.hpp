#pragma once
// What a simulation will need before it starts, and a clear refusal when that cannot fit: every run kept in memory
// (the Python module), the spill file of the exact percentiles (temporary disk), a streamed CSV/JSON output (disk
// where it goes). Estimated, never measured after the fact: a run that cannot finish should not run for hours
// first. Values and limits are documented in docs/outputs.md#memory-and-disk.
#include <cstdint>
#include <string>

#include "base/exact_quantiles.hpp"
#include "model/run_result.hpp"

namespace spotsim {

// Per run kept in memory: the RunResult, plus the Python module's columns of it (34 numbers: 28 metrics and 6 more).
inline constexpr std::uint64_t kInMemoryBytesPerRun = sizeof(RunResult) + 34 * 8;

std::uint64_t available_memory_bytes();                       // MemAvailable, else the physical memory
std::uint64_t free_disk_bytes(const std::string& directory);  // for an unprivileged user; UINT64_MAX when unknown
std::string format_bytes(std::uint64_t bytes);                // "1.2 GB"

// InputError unless `replications` runs fit in `available` bytes of memory.
void check_runs_fit_in_memory(std::uint64_t replications, std::uint64_t available);

// Disk the exact percentiles may spill: every metric's values beyond QuantileLimits::memory_values.
std::uint64_t spill_bytes_at_most(std::uint64_t replications, std::size_t metrics, const QuantileLimits& limits);
// InputError unless that fits in `free_bytes` of the spill directory.
void check_spill_fits(std::uint64_t replications, std::size_t metrics, const QuantileLimits& limits,
                      std::uint64_t free_bytes);

// InputError unless `replications` rows of `format` (csv, json), each at least `row_bytes` long, fit in
// `free_bytes` beside `path`.
void check_output_fits(const std::string& path, const std::string& format, std::uint64_t replications,
                       std::uint64_t row_bytes, std::uint64_t free_bytes);

}  // namespace spotsim
