#include "base/file_checks.hpp"

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

namespace {

// "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N: the descriptor they name, else -1. Such names are
// links to whatever the descriptor is open on (a pipe, a terminal, or a file the shell redirected to): writing to the
// descriptor is what the user means, and replacing the link would replace /dev/stdout itself.
int named_descriptor(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.rfind(prefix, 0) != 0 || path.size() == prefix.size() || path.size() > prefix.size() + 6) continue;
    int fd = 0;
    for (std::size_t i = prefix.size(); i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9') return -1;
      fd = fd * 10 + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

}  // namespace

OutputDestination output_destination(const std::string& path, std::string& reason) {
  reason.clear();
  OutputDestination d;
  if (path.empty()) {
    reason = "expected a file name, got an empty one";
    return d;
  }
  if (const int fd = named_descriptor(path); fd >= 0) {
    d.kind = OutputDestination::Kind::kDescriptor;
    d.descriptor = fd;
    return d;
  }
  std::error_code ec;
  const fs::file_status own = fs::symlink_status(path, ec);
  switch (own.type()) {
    case fs::file_type::not_found:
    case fs::file_type::regular: break;
    case fs::file_type::directory: reason = "is a directory; expected the name of a file to write"; return d;
    case fs::file_type::symlink: {
      const fs::file_status target = fs::status(path, ec);
      const fs::file_type t = target.type();
      if (t == fs::file_type::character || t == fs::file_type::fifo || t == fs::file_type::socket) {
        d.kind = OutputDestination::Kind::kWriteInto;  // e.g. a link to /dev/null: written into, link kept
        return d;
      }
      std::error_code read_ec;
      const fs::path to = fs::read_symlink(path, read_ec);
      reason = "is a symbolic link" + (read_ec ? std::string() : " to '" + to.string() + "'") +
               "; spotsim does not replace links: name the file itself";
      return d;
    }
    case fs::file_type::character:
    case fs::file_type::fifo:
    case fs::file_type::socket: d.kind = OutputDestination::Kind::kWriteInto; return d;
    case fs::file_type::block: reason = "is a block device; spotsim writes no output to a disk device"; return d;
    default: reason = "is not a regular file; expected the name of a file to write"; return d;
  }
  if (path.back() == '/') {
    reason = "ends with '/'; expected the name of a file to write";
    return d;
  }
  const fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) return d;
  const fs::file_status status = fs::status(parent, ec);
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "'" + std::string + "'".
  reason = status.type() == fs::file_type::not_found ? "its directory '" : "'";
  reason += parent.string();
  if (status.type() == fs::file_type::not_found) {
    reason += "' does not exist";
  } else if (status.type() != fs::file_type::directory) {
    reason += "' is not a directory";
  } else {
    reason.clear();
  }
  return d;
}

std::string output_file_problem(const std::string& path) {
  std::string reason;
  output_destination(path, reason);
  return reason;
}

bool same_output(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const int da = named_descriptor(a), db = named_descriptor(b);
  if (da >= 0 || db >= 0) return da == db;
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

}  // namespace spotsim
