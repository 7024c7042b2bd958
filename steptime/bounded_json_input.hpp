#pragma once
// A std::streambuf between a byte source and nlohmann::json's SAX parser that bounds what the parser holds.
//
// nlohmann's lexer keeps every byte it reads since the start of the current string or number (its `token_string`,
// for error messages), including the whitespace, punctuation and literals (true/false/null) after it: a 1 MB gzip
// of 1 GiB of spaces made it hold 1 GiB (3 GB peak with vector growth). The SAX handler calls value_read() after
// each string, key and number; the bytes read since then are at least what the lexer holds beyond that token, and
// the token itself was shorter than the previous such stretch. Once a stretch exceeds `max_run_bytes` the read
// stops with an InputError, so the lexer holds at most about twice that. Checked when a chunk is refilled, so the
// cost does not depend on the input's size. It also enforces the total size limit.
#include <cstdint>
#include <streambuf>
#include <vector>

namespace spotsim {

class BoundedJsonInput : public std::streambuf {
 public:
  // `source` must outlive this object. Errors are InputError without the file name (the caller adds it).
  BoundedJsonInput(std::streambuf& source, std::uint64_t max_total_bytes, std::uint64_t max_run_bytes);

  // The parser has just completed a string, key or number.
  void value_read() { last_value_end_ = position(); }
  // Bytes handed to the parser so far.
  std::uint64_t position() const { return total_ - static_cast<std::uint64_t>(egptr() - gptr()); }

 protected:
  int_type underflow() override;

 private:
  std::streambuf& source_;
  std::uint64_t max_total_, max_run_;
  std::vector<char> buffer_;
  std::uint64_t total_ = 0;           // bytes taken from the source, including the current chunk
  std::uint64_t last_value_end_ = 0;  // position() at the last value_read()
};

}  // namespace spotsim
