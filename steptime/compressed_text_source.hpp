#pragma once
// A file read in chunks through zlib's gz* interface, which inflates gzip'd files and passes plain files through
// unchanged, so one reader handles `trace.json` and `trace.json.gz` without holding either in memory.
// Exposed as a std::streambuf so a streaming parser (nlohmann::json::sax_parse) can pull bytes from it.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <streambuf>
#include <string>
#include <vector>

namespace spotsim {

class CompressedTextSource : public std::streambuf {
 public:
  // Throws InputError naming `path` if the file cannot be opened.
  explicit CompressedTextSource(const std::string& path);
  ~CompressedTextSource() override;
  CompressedTextSource(const CompressedTextSource&) = delete;
  CompressedTextSource& operator=(const CompressedTextSource&) = delete;

  // Non-empty when reading stopped on a zlib error (e.g. "unexpected end of file" for a truncated gzip stream):
  // the parser then sees end of input, and the caller reports this message instead of a JSON syntax error.
  const std::string& read_error() const { return read_error_; }
  bool was_compressed() const { return compressed_; }
  std::size_t bytes_read() const { return bytes_read_; }
  // Called after each chunk with the bytes of the file (compressed, as on disk) consumed so far and the file's
  // size: what a progress line of a long read shows.
  using Progress = std::function<void(std::uint64_t file_bytes_read, std::uint64_t file_bytes)>;
  void on_progress(Progress progress);

 protected:
  int_type underflow() override;

 private:
  gzFile file_ = nullptr;
  std::vector<char> buffer_;
  std::string path_;
  std::string read_error_;
  bool compressed_ = false;
  std::size_t bytes_read_ = 0;
  Progress progress_;
  std::uint64_t file_bytes_ = 0;
};

}  // namespace spotsim
