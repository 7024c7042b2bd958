#pragma once
// Why a path cannot serve as an input or an output file, in one wording for every command, spec, job file and the
// Python API: "is a directory, not a file", "no such file", "cannot be read (Permission denied)". Checked before
// opening, so a directory never reaches a stream (reading one throws from inside the JSON parser) and a mistyped
// --output is caught before minutes of simulation.
#include <string>

namespace spotsim {

// "" when `path` can be opened for reading (a regular file, or a pipe such as /dev/stdin), else the reason.
std::string input_file_problem(const std::string& path);

// "" when a file could be written at `path` (its directory exists), else the reason. Whether the directory is
// writable is left to the write itself, which reports it.
std::string output_file_problem(const std::string& path);

}  // namespace spotsim
