#pragma once
// A std::streambuf between a byte source and nlohmann::json's SAX parser that bounds what the parser holds.
//
// nlohmann's lexer keeps every byte it reads since the start of the current string or number (its `token_string`,
// for error messages), including the whitespace, punctuation and literals (true/false/null) after it: a 1 MB gzip
// of 1 GiB of spaces made it hold 1 GiB (3 GB peak with vector growth). This filter counts those bytes with a
// small scanner of the JSON text (strings, escapes, numbers) and stops the read with an InputError once a run
// exceeds `max_run_bytes`, so the parser's buffers stay below that bound. It also enforces the total size limit.
#include <cstdint>
#include <streambuf>
#include <vector>

namespace spotsim {

class BoundedJsonInput : public std::streambuf {
 public:
  // `source` must outlive this object. Errors are InputError without the file name (the caller adds it).
  BoundedJsonInput(std::streambuf& source, std::uint64_t max_total_bytes, std::uint64_t max_run_bytes);

  std::uint64_t bytes_read() const { return total_; }

 protected:
  int_type underflow() override;

 private:
  void scan(const char* begin, const char* end);

  std::streambuf& source_;
  std::uint64_t max_total_, max_run_;
  std::vector<char> buffer_;
  std::uint64_t total_ = 0;
  std::uint64_t run_ = 0;  // bytes since the last string or number began: what the lexer is holding
  bool in_string_ = false, escaped_ = false, in_number_ = false;
};

}  // namespace spotsim
