#pragma once
// A path for a test's scratch file. ctest runs every test in its own process, several at once, so two tests (or two
// instances of a parameterised test) that wrote the same name in the temporary folder raced: one read the other's
// half-written file. The process id keeps each test's files its own.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace spotsim::testing {

inline std::string scratch_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("spotsim-" + std::to_string(::getpid()) + "-" + name)).string();
}

}  // namespace spotsim::testing
