#include "traces/importers/directory_files.hpp"

#include <algorithm>
#include <filesystem>

#include "base/errors.hpp"

namespace spotsim {

namespace fs = std::filesystem;

std::vector<std::string> files_with_suffix(const std::string& dir, const std::string& suffix, const std::string& what) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir + ": expected a folder holding " + what);
  std::vector<std::string> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > suffix.size() && name.ends_with(suffix) && it->is_regular_file(ec))
      paths.push_back(it->path().string());
  }
  if (ec) throw InputError(dir + ": cannot list the folder (" + ec.message() + ")");
  if (paths.empty()) throw InputError(dir + ": no file named *" + suffix + " (expected " + what + ")");
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string name_before_suffix(const std::string& path, const std::string& suffix) {
  const std::string name = fs::path(path).filename().string();
  return name.substr(0, name.size() - suffix.size());
}

}  // namespace spotsim
