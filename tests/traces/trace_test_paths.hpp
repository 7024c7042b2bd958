#pragma once
// Where the tests find the shared real data, the repository's shipped traces and their own fixtures.
#include <filesystem>
#include <string>

// Tests on the real shared data skip (rather than fail) on a machine without ../shared.
#define SPOTSIM_REQUIRE_SHARED_DATA()                                            \
  do {                                                                           \
    if (!std::filesystem::is_directory(SPOTSIM_SHARED_DIR "/data/preemption")) { \
      GTEST_SKIP() << "no shared data at " SPOTSIM_SHARED_DIR;                   \
    }                                                                            \
  } while (false)

namespace spotsim::testing {

inline std::string shared_path(const std::string& relative) {
  return std::string(SPOTSIM_SHARED_DIR) + "/data/preemption/" + relative;
}
inline std::string repo_path(const std::string& relative) { return std::string(SPOTSIM_REPO_DIR) + "/" + relative; }
inline std::string fixture_path(const std::string& name) { return std::string(SPOTSIM_TRACE_FIXTURES) + "/" + name; }

// The message of the InputError `body` throws, or "" if it throws none.
template <typename Body>
std::string error_of(Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace spotsim::testing
