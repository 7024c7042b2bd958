#include "sim/file_checks.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace spotsim {

namespace fs = std::filesystem;

std::string input_file_problem(const std::string& path) {
  if (path.empty()) return "expected a file name, got an empty one";
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (status.type() == fs::file_type::not_found) return "no such file";
  if (status.type() == fs::file_type::directory) return "is a directory, not a file";
  errno = 0;
  std::ifstream probe(path, std::ios::binary);
  if (!probe) return std::string("cannot be read (") + (errno != 0 ? std::strerror(errno) : "cannot open it") + ")";
  return "";
}

std::string output_file_problem(const std::string& path) {
  if (path.empty()) return "expected a file name, got an empty one";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return "is a directory; expected the name of a file to write";
  if (path.back() == '/') return "ends with '/'; expected the name of a file to write";
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return "";
  const fs::file_status status = fs::status(parent, ec);
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "'" + std::string + "'".
  std::string reason = status.type() == fs::file_type::not_found ? "its directory '" : "'";
  reason += parent.string();
  if (status.type() == fs::file_type::not_found) return reason + "' does not exist";
  if (status.type() != fs::file_type::directory) return reason + "' is not a directory";
  return "";
}

}  // namespace spotsim
