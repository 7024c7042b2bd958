#include "experiments/atomic_file.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include "sim/errors.hpp"

namespace spotsim {

namespace {

constexpr std::string_view kTempMark = ".tmp.";
constexpr std::size_t kRandomLetters = 6;
constexpr char kLetters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

std::string random_letters() {
  unsigned char bytes[kRandomLetters];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(std::string("cannot draw a random temporary file name: ") + std::strerror(errno));
    got += static_cast<std::size_t>(n);
  }
  std::string out;
  for (const unsigned char b : bytes) out += kLetters[b % (sizeof kLetters - 1)];
  return out;
}

// The temporary file: created here or nothing (an existing file or symlink at the name means another try).
int create_temp_file(const std::filesystem::path& directory, const std::string& base, std::string& temp, int access) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp = (directory / ("." + base + std::string(kTempMark) + random_letters())).string();
    const int fd = ::open(temp.c_str(), access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

bool write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// The rename is durable only once the directory entry is on disk too. Some file systems cannot sync a directory
// (EINVAL): nothing more can be done there.
bool sync_directory(const std::filesystem::path& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0 || errno == EINVAL || errno == EROFS;
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return ok;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path directory = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string temp;
  const int fd = create_temp_file_beside(path, temp, O_WRONLY);
  const auto fail = [&](const std::string& what) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    throw InputError(path + ": " + what + " (temporary file " + temp + "): " + reason);
  };
  if (!write_all(fd, content)) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fail("write failed (disk full?)");
  }
  if (::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fail("cannot flush the file to disk");
  }
  if (::close(fd) != 0) fail("write failed");
  if (::rename(temp.c_str(), path.c_str()) != 0) fail("cannot replace the file");
  if (!sync_directory(directory)) {
    throw InputError(path + ": written, but cannot flush its directory " + directory.string() + " to disk: " +
                     std::strerror(errno));
  }
}

bool is_atomic_write_leftover(std::string_view name) {
  // ".NAME.tmp." then letters or digits: today's six random ones, or the process id older builds used.
  const auto mark = name.rfind(kTempMark);
  if (name.empty() || name.front() != '.' || mark == std::string_view::npos || mark < 2) return false;
  const std::string_view suffix = name.substr(mark + kTempMark.size());
  if (suffix.empty()) return false;
  for (const char c : suffix) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

int create_temp_file_beside(const std::string& target, std::string& temp_path, int access) {
  const std::filesystem::path path(target);
  const std::filesystem::path directory = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
  const std::string base = path.filename().string();
  if (base.empty() || base == "." || base == "..") throw InputError(target + ": cannot write: not a file name");
  const int fd = create_temp_file(directory, base, temp_path, access);
  if (fd < 0) {
    throw InputError(target + ": cannot write (is the directory there and writable?): cannot create a temporary file in " +
                     directory.string() + ": " + std::strerror(errno));
  }
  return fd;
}

}  // namespace spotsim
