#pragma once
// Files too large to build in memory first (a sweep's runs.csv, summary.json, summary.md), written piece by piece.
//
// StreamingFile writes to a temporary file beside the target and renames it over the target only on commit(),
// after an fsync, so the target is either the old file or the complete new one. The temporary name carries a
// random suffix and is created with O_CREAT|O_EXCL|O_NOFOLLOW: it never follows a planted link or reuses a
// file someone else made. Destroyed without commit() (an exception), it removes its temporary file.
//
// ScratchFile is the same kind of file, unlinked as soon as it is created: somewhere to park the parts of an
// output that are produced before the part that precedes them (summary.json's tuning, which sorts before its
// configurations), then copy them in. Nothing is left behind, even when the process is killed.
#include <cstdint>
#include <string>
#include <string_view>

namespace spotsim {

class StreamingFile {
 public:
  explicit StreamingFile(std::string path);
  StreamingFile(const StreamingFile&) = delete;
  StreamingFile& operator=(const StreamingFile&) = delete;
  ~StreamingFile();

  void write(std::string_view bytes);
  // Flushes, fsyncs and renames the temporary file over the target; InputError naming the target on failure.
  void commit();
  const std::string& path() const { return path_; }

 private:
  friend class ScratchFile;
  void flush();
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  std::string buffer_;
};

class ScratchFile {
 public:
  // `dir` holds the (immediately unlinked) file; `what` names it in error messages.
  ScratchFile(const std::string& dir, std::string what);
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile();

  void write(std::string_view bytes);
  bool empty() const { return size_ == 0 && buffer_.empty(); }
  // Appends everything written so far to `out`.
  void copy_to(StreamingFile& out);

 private:
  void flush();
  std::string what_;
  int fd_ = -1;
  std::uint64_t size_ = 0;  // bytes on disk
  std::string buffer_;
};

}  // namespace spotsim
