#include "base/shipped_library.hpp"

#include <filesystem>
#include <vector>

#include "base/errors.hpp"
#include "base/file_checks.hpp"

namespace spotsim {

namespace fs = std::filesystem;

namespace {
std::vector<fs::path> library_directories() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("SPOTSIM_TRACE_DIR")) dirs.emplace_back(env);
  dirs.emplace_back(SPOTSIM_SOURCE_TRACE_DIR);
  dirs.emplace_back(SPOTSIM_INSTALL_TRACE_DIR);
  return dirs;
}
}  // namespace

std::string shipped_trace_directory() {
  for (const auto& dir : library_directories()) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) return dir.string();
  }
  return SPOTSIM_INSTALL_TRACE_DIR;
}

std::string locate_trace(const std::string& name_or_path, const std::string& option) {
  std::error_code ec;
  if (fs::is_regular_file(name_or_path, ec)) return name_or_path;
  if (fs::is_directory(name_or_path, ec)) {
    throw InputError(option + " '" + name_or_path + "': " + input_file_problem(name_or_path) +
                     "; expected a trace file");
  }
  std::string searched;
  if (name_or_path.find('/') == std::string::npos) {
    for (const auto& dir : library_directories()) {
      for (const std::string& candidate : {name_or_path, name_or_path + ".json"}) {
        const fs::path p = dir / candidate;
        if (fs::is_regular_file(p, ec)) return p.string();
      }
      searched += (searched.empty() ? "" : ", ") + dir.string();
    }
  }
  throw InputError(
      option + " '" + name_or_path + "': no such file" +
      (searched.empty() ? std::string() : " (also looked for a shipped trace of that name in " + searched + ")"));
}

}  // namespace spotsim
