#include "sim/steptime/bounded_json_input.hpp"

#include <string>

#include "sim/errors.hpp"

namespace spotsim {

namespace {
constexpr std::size_t kChunkBytes = 1u << 16;

bool number_char(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

std::string mebibytes(std::uint64_t bytes) {
  if (bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}
}  // namespace

BoundedJsonInput::BoundedJsonInput(std::streambuf& source, std::uint64_t max_total_bytes, std::uint64_t max_run_bytes)
    : source_(source), max_total_(max_total_bytes), max_run_(max_run_bytes), buffer_(kChunkBytes) {
  setg(buffer_.data(), buffer_.data(), buffer_.data());
}

BoundedJsonInput::int_type BoundedJsonInput::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  const std::streamsize got = source_.sgetn(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  if (got <= 0) return traits_type::eof();
  if (total_ + static_cast<std::uint64_t>(got) > max_total_) {
    throw InputError("more than " + mebibytes(max_total_) +
                     " of decompressed JSON, the reader's limit (80 times the largest real trace in the shared data, "
                     "54 MB); profile fewer steps (torch.profiler.schedule active=) or split the trace");
  }
  scan(buffer_.data(), buffer_.data() + got);
  total_ += static_cast<std::uint64_t>(got);
  setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
  return traits_type::to_int_type(*gptr());
}

void BoundedJsonInput::scan(const char* begin, const char* end) {
  for (const char* p = begin; p != end; ++p) {
    const char c = *p;
    if (in_string_) {
      if (escaped_) escaped_ = false;
      else if (c == '\\') escaped_ = true;
      else if (c == '"') in_string_ = false;
    } else if (c == '"') {
      in_string_ = true;
      in_number_ = false;
      run_ = 0;
    } else if (number_char(c)) {
      if (!in_number_) run_ = 0;  // the lexer starts a new token at the first character of a number
      in_number_ = true;
    } else {
      in_number_ = false;
    }
    if (++run_ > max_run_) {
      const std::uint64_t at = total_ + static_cast<std::uint64_t>(p - begin);
      throw InputError(std::string(in_string_ ? "a string" : in_number_ ? "a number" : "a run of whitespace, punctuation or literals") +
                       " longer than " + mebibytes(max_run_) + " ending at byte " + std::to_string(at) +
                       " of the JSON text, the reader's limit (the longest string in the shared real traces is 5 KB); "
                       "expected a PyTorch profiler trace, is the file corrupt?");
    }
  }
}

}  // namespace spotsim
