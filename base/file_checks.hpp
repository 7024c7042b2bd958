#pragma once
// Why a path cannot serve as an input or an output file, in one wording for every command, spec, job file and the
// Python API: "is a directory, not a file", "no such file", "cannot be read (Permission denied)". Checked before
// opening, so a directory never reaches a stream (reading one throws from inside the JSON parser) and a mistyped
// --output is caught before minutes of simulation.
#include <string>

namespace spotsim {

// "" when `path` can be opened for reading (a regular file, or a pipe such as /dev/stdin), else the reason.
std::string input_file_problem(const std::string& path);

// Where an output the user names goes (docs/outputs.md#where-outputs-go). A regular file, or a new name, is replaced
// atomically (a temporary file renamed over it); "-" and /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N are
// written to that descriptor; a character device (/dev/null), a FIFO or a socket is written into, never replaced.
// Nothing else is touched: a symbolic link (even to a regular file: name the target itself), a block device or a
// directory is refused, so that an output never turns a link, a device or a FIFO into a regular file.
struct OutputDestination {
  enum class Kind { kReplace, kDescriptor, kWriteInto };
  Kind kind = Kind::kReplace;
  int descriptor = -1;  // kDescriptor only
};

// The destination of `path`, or the reason it cannot be written (empty `reason` when fine).
OutputDestination output_destination(const std::string& path, std::string& reason);

// "" when a file could be written at `path` (output_destination accepts it and, for a new or regular file, its
// directory exists), else the reason. Whether the directory is writable is left to the write itself.
std::string output_file_problem(const std::string& path);

// Whether two output names would be written to the same file or stream (same text, the same existing file, or
// both the same descriptor), e.g. --timeline and -o given one path.
bool same_output(const std::string& a, const std::string& b);

}  // namespace spotsim
