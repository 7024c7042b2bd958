#pragma once
// The streaming counterpart of write_file_atomically (base/atomic_file.hpp), for outputs too large to hold in
// memory: text goes to a temporary file beside the target as it is produced, and only commit() (fsync, then
// rename) makes it the target. Destroyed without commit() (an error, an exception), it removes the temporary file,
// so the target is either the complete new output or left as it was.
#include <memory>
#include <ostream>
#include <string>

namespace spotsim {

class AtomicOutputStream {
 public:
  explicit AtomicOutputStream(std::string path);  // creates the temporary file at once: a bad path fails early
  ~AtomicOutputStream();
  AtomicOutputStream(const AtomicOutputStream&) = delete;
  AtomicOutputStream& operator=(const AtomicOutputStream&) = delete;

  std::ostream& stream();
  // Throws InputError naming the file if a write failed so far (disk full): lets a long run stop early.
  void check() const;
  void commit();

 private:
  class FileBuffer;
  std::string path_;
  std::string temp_path_;
  std::unique_ptr<FileBuffer> buffer_;
  std::unique_ptr<std::ostream> stream_;
  bool committed_ = false;
};

}  // namespace spotsim
