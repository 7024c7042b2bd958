#include "experiments/atomic_file.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <unistd.h>

#include "sim/errors.hpp"

namespace spotsim {

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::string temp_name = ".";  // built step by step: GCC 12 warns falsely (-Wrestrict) on a chained operator+
  temp_name += target.filename().string();
  temp_name += ".tmp.";
  temp_name += std::to_string(getpid());
  const fs::path temp = target.parent_path() / temp_name;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path + ": cannot write (is the directory there and writable?)");
    out << content;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw InputError(path + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw InputError(path + ": cannot replace the file: " + ec.message());
  }
}

}  // namespace spotsim
