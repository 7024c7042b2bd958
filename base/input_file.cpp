#include "base/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/errors.hpp"

namespace spotsim {

namespace {

[[noreturn]] void too_large(const std::string& path, std::size_t max_bytes) {
  throw InputError(path + ": the file is larger than " + std::to_string(max_bytes >> 20) + " MiB (" +
                   std::to_string(max_bytes) + " bytes), the most spotsim reads from one input file");
}

// Closes the descriptor however the read ends.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

// One open, one fstat and as few reads as the size allows: a sweep reads hundreds of small trace files, and an
// ifstream (locale set-up) plus a separate probe per file cost more than parsing them. The messages are those of
// input_file_problem (file_checks.hpp), which the catalogue of bad inputs checks.
std::string read_input_file(const std::string& path, std::size_t max_bytes) {
  if (path.empty()) throw InputError(path + ": expected a file name, got an empty one");
  Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR) throw InputError(path + ": no such file");
    throw InputError(path + ": cannot be read (" + std::strerror(error) + ")");
  }
  struct stat status {};
  if (::fstat(file.fd, &status) != 0) throw InputError(path + ": cannot read the file: " + std::strerror(errno));
  if (S_ISDIR(status.st_mode)) throw InputError(path + ": is a directory, not a file");
  // A regular file's size is known up front; a pipe or device is read up to the limit and no further.
  std::string content;
  if (S_ISREG(status.st_mode)) {
    if (static_cast<std::uint64_t>(status.st_size) > max_bytes) too_large(path, max_bytes);
    content.reserve(static_cast<std::size_t>(status.st_size));
  }
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(file.fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(path + ": cannot read the file: " + std::strerror(errno));
    }
    if (got == 0) break;
    if (content.size() + static_cast<std::size_t>(got) > max_bytes) too_large(path, max_bytes);
    content.append(buffer, static_cast<std::size_t>(got));
  }
  return content;
}

}  // namespace spotsim
