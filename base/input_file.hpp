#pragma once
// Reading an input file whole (a trace, a job, a spec, a catalogue, a baseline, a CSV log) with a bound on its
// size, so that a huge or endless file (/dev/zero, a log of the wrong machine) is refused before it fills memory.
#include <cstddef>
#include <string>

namespace spotsim {

// The largest input file read: 256 MiB. The largest real inputs are a few MB (the GCP lifetime data set is
// 2.6 MB); a JSON document of 256 MiB already takes a few GB once parsed. docs/trace-format.md#limits.
inline constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;

// The whole content of `path`; InputError naming it if it cannot be opened or read, or exceeds `max_bytes`.
std::string read_input_file(const std::string& path, std::size_t max_bytes = kMaxInputBytes);

}  // namespace spotsim
