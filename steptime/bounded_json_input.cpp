#include "steptime/bounded_json_input.hpp"

#include <string>

#include "base/errors.hpp"

namespace spotsim {

namespace {
constexpr std::size_t kChunkBytes = 1u << 16;  // also the most a run can overshoot its limit before it is seen

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
  if (total_ - last_value_end_ > max_run_) {
    throw InputError("more than " + mebibytes(max_run_) + " of JSON text without a complete string, key or number " +
                     "(one that long, or whitespace, punctuation or literals) before byte " + std::to_string(total_) +
                     ": the reader's limit (a profiler trace has a string every few bytes, and its longest, in the "
                     "shared real traces, is 5 KB); expected a PyTorch profiler trace, is the file corrupt?");
  }
  const std::streamsize got = source_.sgetn(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  if (got <= 0) return traits_type::eof();
  if (total_ + static_cast<std::uint64_t>(got) > max_total_) {
    throw InputError("more than " + mebibytes(max_total_) +
                     " of decompressed JSON, the reader's limit (80 times the largest real trace in the shared data, "
                     "54 MB); profile fewer steps (torch.profiler.schedule active=) or split the trace");
  }
  total_ += static_cast<std::uint64_t>(got);
  setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
  return traits_type::to_int_type(*gptr());
}

}  // namespace spotsim
