#include "base/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/errors.hpp"
#include "base/file_checks.hpp"

namespace spotsim {

namespace {
[[noreturn]] void too_large(const std::string& path, std::size_t max_bytes) {
  throw InputError(path + ": the file is larger than " + std::to_string(max_bytes >> 20) + " MiB (" +
                   std::to_string(max_bytes) + " bytes), the most spotsim reads from one input file");
}
}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes) {
  // A directory opens as a stream that reads as empty or throws: say what it is.
  if (const std::string problem = input_file_problem(path); !problem.empty()) throw InputError(path + ": " + problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file for reading: " + std::strerror(errno));
  // A regular file's size is known up front; a pipe or device is read up to the limit and no further.
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > max_bytes) too_large(path, max_bytes);
  }
  std::string content;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    if (content.size() + static_cast<std::size_t>(in.gcount()) > max_bytes) too_large(path, max_bytes);
    content.append(buffer, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw InputError(path + ": cannot read the file: " + std::strerror(errno));
  return content;
}

}  // namespace spotsim
