#include "steptime/compressed_text_source.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "base/errors.hpp"

namespace spotsim {

namespace {
constexpr unsigned kGzipChunkBytes = 1u << 18;  // 256 KiB: large enough that zlib call overhead is negligible
}

CompressedTextSource::CompressedTextSource(const std::string& path) : buffer_(kGzipChunkBytes), path_(path) {
  // zlib opens a directory and fails only on the first read, which would read as a corrupt gzip stream.
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw InputError(path + ": is a directory; expected a trace file");
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) throw InputError(path + ": cannot open file for reading");
  gzbuffer(file_, kGzipChunkBytes);
  setg(buffer_.data(), buffer_.data(), buffer_.data());
}

void CompressedTextSource::on_progress(Progress progress) {
  progress_ = std::move(progress);
  std::error_code ignored;
  const auto size = std::filesystem::file_size(path_, ignored);
  file_bytes_ = ignored ? 0 : static_cast<std::uint64_t>(size);
}

CompressedTextSource::~CompressedTextSource() {
  if (file_ != nullptr) gzclose(file_);
}

CompressedTextSource::int_type CompressedTextSource::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (!read_error_.empty()) return traits_type::eof();
  const int got = gzread(file_, buffer_.data(), kGzipChunkBytes);
  // gzdirect() is only meaningful after the first read has looked at the header.
  if (bytes_read_ == 0) compressed_ = gzdirect(file_) == 0;
  if (got < 0) {
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    read_error_ = message != nullptr && *message != '\0' ? message : "read error";
    return traits_type::eof();
  }
  if (got == 0) {
    // zlib reports a gzip stream cut short as end of input plus a Z_BUF_ERROR state, not as a failed read.
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    if (code != Z_OK && code != Z_STREAM_END) read_error_ = message != nullptr ? message : "read error";
    return traits_type::eof();
  }
  bytes_read_ += static_cast<std::size_t>(got);
  if (progress_) progress_(static_cast<std::uint64_t>(std::max<z_off_t>(gzoffset(file_), 0)), file_bytes_);
  setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
  return traits_type::to_int_type(*gptr());
}

}  // namespace spotsim
