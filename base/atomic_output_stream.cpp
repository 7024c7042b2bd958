#include "base/atomic_output_stream.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <streambuf>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/file_checks.hpp"

namespace spotsim {

// A stream buffer over a file descriptor that remembers the first failed write (errno) instead of retrying.
class AtomicOutputStream::FileBuffer : public std::streambuf {
 public:
  explicit FileBuffer(int fd) : fd_(fd), buffer_(1u << 20) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  ~FileBuffer() override {
    if (fd_ >= 0) ::close(fd_);
  }
  int error() const { return error_; }
  // Flushes, fsyncs and closes; false (with error()) on failure. A pipe, terminal or device cannot be synced
  // (EINVAL, EROFS): flushing is all there is to do there.
  bool close() {
    const bool ok = drain() && (::fsync(fd_) == 0 || errno == EINVAL || errno == EROFS);
    if (!ok && error_ == 0) error_ = errno;
    if (::close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
    return error_ == 0;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (error_ != 0) return false;
    const char* data = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0) {
      const ssize_t wrote = ::write(fd_, data, left);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) {
        error_ = wrote < 0 ? errno : ENOSPC;
        return false;
      }
      data += wrote;
      left -= static_cast<std::size_t>(wrote);
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

AtomicOutputStream::AtomicOutputStream(std::string path) : path_(std::move(path)) {
  std::string refused;
  const OutputDestination destination = output_destination(path_, refused);
  if (!refused.empty()) throw InputError(path_ + ": " + refused);
  int fd = -1;
  switch (destination.kind) {
    case OutputDestination::Kind::kReplace: fd = create_temp_file_beside(path_, temp_path_, O_WRONLY); break;
    case OutputDestination::Kind::kDescriptor: fd = ::fcntl(destination.descriptor, F_DUPFD_CLOEXEC, 3); break;
    case OutputDestination::Kind::kWriteInto: fd = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC); break;
  }
  if (fd < 0) throw InputError(path_ + ": cannot open for writing: " + std::strerror(errno));
  buffer_ = std::make_unique<FileBuffer>(fd);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
}

AtomicOutputStream::~AtomicOutputStream() {
  if (committed_) return;
  stream_.reset();
  buffer_.reset();
  if (temp_path_.empty()) return;  // written into a stream or device: nothing to take back
  ::unlink(temp_path_.c_str());
  forget_temp_file(temp_path_);
}

std::ostream& AtomicOutputStream::stream() { return *stream_; }

void AtomicOutputStream::check() const {
  if (buffer_->error() != 0 || !*stream_) {
    throw InputError(path_ + ": write failed (" + std::strerror(buffer_->error() ? buffer_->error() : EIO) + ")");
  }
}

void AtomicOutputStream::commit() {
  stream_->flush();
  check();
  if (!buffer_->close()) {
    throw InputError(path_ + ": write failed (" + std::strerror(buffer_->error()) + ")");
  }
  if (!temp_path_.empty()) {
    if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
      throw InputError(path_ + ": cannot replace the file: " + std::strerror(errno));
    }
    forget_temp_file(temp_path_);
  }
  committed_ = true;
}

}  // namespace spotsim
