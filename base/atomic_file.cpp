#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "base/errors.hpp"
#include "base/file_checks.hpp"

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

// Temporary files alive in this process, removed by SIGINT/SIGTERM/SIGHUP before the process dies of the signal
// (Ctrl-C on a long `simulate -o` used to leave a hidden file of the size written so far). Fixed slots of plain
// characters, so the handler does nothing but unlink(2) (async-signal-safe). A file that finds no free slot is
// still removed on every normal path; only a signal could then leave it.
constexpr std::size_t kTempSlots = 64;
constexpr std::size_t kTempPathBytes = 4096;
struct TempSlot {
  std::atomic<int> state{0};  // 0 free, 1 being written, 2 holds a path
  std::array<char, kTempPathBytes> path{};
};
std::array<TempSlot, kTempSlots> temp_slots;

void remove_temp_files_and_die(int signal) {
  for (TempSlot& slot : temp_slots) {
    if (slot.state.load() == 2) ::unlink(slot.path.data());
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void install_signal_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction current {};
      if (::sigaction(signal, nullptr, &current) != 0) continue;
      if (current.sa_handler == SIG_IGN) continue;  // e.g. nohup: the user asked for the signal to be ignored
      if (current.sa_handler != SIG_DFL) continue;  // someone else (Python, a test) handles it
      struct sigaction action {};
      action.sa_handler = remove_temp_files_and_die;
      sigemptyset(&action.sa_mask);
      ::sigaction(signal, &action, nullptr);
    }
  });
}

}  // namespace

void register_temp_file(const std::string& path) {
  if (path.size() >= kTempPathBytes) return;
  install_signal_cleanup();
  for (TempSlot& slot : temp_slots) {
    int expected = 0;
    if (!slot.state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(slot.path.data(), path.c_str(), path.size() + 1);
    slot.state.store(2);
    return;
  }
}

void forget_temp_file(const std::string& path) {
  for (TempSlot& slot : temp_slots) {
    if (slot.state.load() == 2 && path == slot.path.data()) {
      slot.state.store(0);
      return;
    }
  }
}

namespace {

// "-", /dev/stdout, a device, a FIFO: the content goes into what is there, nothing is replaced.
void write_into(const std::string& path, const OutputDestination& d, const std::string& content) {
  const bool own = d.kind == OutputDestination::Kind::kWriteInto;
  const int fd = own ? ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC) : d.descriptor;
  if (fd < 0) throw InputError(path + ": cannot open for writing: " + std::strerror(errno));
  const bool ok = write_all(fd, content);
  const int saved = errno;
  if (own) ::close(fd);
  if (!ok) throw InputError(path + ": write failed: " + std::strerror(saved));
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  namespace fs = std::filesystem;
  std::string refused;
  const OutputDestination destination = output_destination(path, refused);
  if (!refused.empty()) throw InputError(path + ": " + refused);
  if (destination.kind != OutputDestination::Kind::kReplace) {
    write_into(path, destination, content);
    return;
  }
  const fs::path target(path);
  const fs::path directory = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::string temp;
  const int fd = create_temp_file_beside(path, temp, O_WRONLY);
  const auto fail = [&](const std::string& what) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    forget_temp_file(temp);
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
  forget_temp_file(temp);
  if (!sync_directory(directory)) {
    throw InputError(path + ": written, but cannot flush its directory " + directory.string() +
                     " to disk: " + std::strerror(errno));
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
  if (fd >= 0) register_temp_file(temp_path);
  if (fd < 0) {
    throw InputError(target +
                     ": cannot write (is the directory there and writable?): cannot create a temporary file in " +
                     directory.string() + ": " + std::strerror(errno));
  }
  return fd;
}

}  // namespace spotsim
