#include "app/sweep/streaming_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"

namespace spotsim {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBufferBytes = 1 << 20;

void write_all(int fd, std::string_view bytes, const std::string& what) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw InputError(what + ": write failed (" + std::strerror(errno) + "; disk full?)");
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

StreamingFile::StreamingFile(std::string path) : path_(std::move(path)) {
  fd_ = create_temp_file_beside(path_, temp_path_, O_WRONLY);
  buffer_.reserve(kBufferBytes);
}

StreamingFile::~StreamingFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temp_path_.c_str());
  }
  forget_temp_file(temp_path_);
}

void StreamingFile::write(std::string_view bytes) {
  if (buffer_.size() + bytes.size() > kBufferBytes) flush();
  if (bytes.size() >= kBufferBytes) {
    write_all(fd_, bytes, path_);
  } else {
    buffer_.append(bytes);
  }
}

void StreamingFile::flush() {
  write_all(fd_, buffer_, path_);
  buffer_.clear();
}

void StreamingFile::commit() {
  flush();
  // fsync before rename: otherwise a crash can leave the new name pointing at a file whose data never reached
  // the disk (an empty runs.csv under a manifest that says the outputs are complete).
  if (::fsync(fd_) != 0) throw InputError(path_ + ": fsync failed (" + std::strerror(errno) + ")");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    ::unlink(temp_path_.c_str());
    throw InputError(path_ + ": write failed (" + std::strerror(errno) + "; disk full?)");
  }
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp_path_.c_str());
    throw InputError(path_ + ": cannot replace the file: " + std::strerror(error));
  }
  forget_temp_file(temp_path_);
}

ScratchFile::ScratchFile(const std::string& dir, std::string what) : what_(std::move(what)) {
  std::string temp_path;
  fd_ = create_temp_file_beside((fs::path(dir) / "scratch").string(), temp_path, O_RDWR);
  ::unlink(temp_path.c_str());
  forget_temp_file(temp_path);
  buffer_.reserve(kBufferBytes);
}

ScratchFile::~ScratchFile() {
  if (fd_ >= 0) ::close(fd_);
}

void ScratchFile::write(std::string_view bytes) {
  if (buffer_.size() + bytes.size() > kBufferBytes) flush();
  buffer_.append(bytes);
}

void ScratchFile::flush() {
  write_all(fd_, buffer_, what_);
  size_ += buffer_.size();
  buffer_.clear();
}

void ScratchFile::copy_to(StreamingFile& out) {
  flush();
  std::string block(kBufferBytes, '\0');
  for (std::uint64_t offset = 0; offset < size_;) {
    const ssize_t n = ::pread(fd_, block.data(), block.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw InputError(what_ + ": cannot read back the scratch file (" + std::strerror(errno) + ")");
    out.write(std::string_view(block.data(), static_cast<std::size_t>(n)));
    offset += static_cast<std::uint64_t>(n);
  }
}

}  // namespace spotsim
