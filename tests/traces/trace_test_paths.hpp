#pragma once
// Where the tests find the shared real data, the repository's shipped traces and their own fixtures.
#include <string>

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
