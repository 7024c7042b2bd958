#pragma once
// Exact order statistics of a stream of doubles in bounded memory, for the p50/p95/p99 of simulations with more
// replications than memory holds. Values are kept as a table of distinct values while there are few (counts,
// 0/1 fractions, constants), then in memory up to a limit, then spilled to an unlinked temporary file; the ranks
// asked for are then found by radix selection over the file (16 bits of an order-preserving key per pass, only
// the buckets holding those ranks collected). Nothing is approximated: the answer is the value a full sort would
// put at that rank. docs/outputs.md#summaries describes it for users.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace spotsim {

struct QuantileLimits {
  std::size_t distinct_values = 4096;         // a table of (value, count) while at most this many distinct values
  std::size_t memory_values = 1u << 18;       // then a plain array, spilled to disk beyond this many values (2 MB)
  std::size_t spill_block_values = 1u << 16;  // values written to the spill file at once
  std::size_t select_values = 1u << 20;       // a bucket this small is collected and selected in memory (8 MB)
  std::string spill_directory;                // empty: $TMPDIR, else /tmp
};

// The directory spill files go to under these limits.
std::string spill_directory(const QuantileLimits& limits);

class ExactQuantiles {
 public:
  explicit ExactQuantiles(QuantileLimits limits = {});
  ~ExactQuantiles();
  ExactQuantiles(ExactQuantiles&&) noexcept;
  ExactQuantiles& operator=(ExactQuantiles&&) noexcept;

  void add(double value);  // never NaN (the caller leaves those out)
  std::uint64_t count() const { return count_; }
  bool spilled() const;

  // The values at these 0-based ranks of the ascending order (each < count()), in the order asked. Ties and the
  // sign of zero order as the order-preserving key does: -0.0 before +0.0.
  std::vector<double> order_statistics(std::span<const std::uint64_t> ranks);

 private:
  struct DistinctTable;
  struct SpillFile;
  void leave_distinct_mode();
  void store(double value);  // into memory, or the block bound for the spill file
  void spill_memory_values();
  std::vector<double> select_from_distinct(std::span<const std::uint64_t> ranks) const;
  std::vector<double> select_from_memory(std::span<const std::uint64_t> ranks);
  std::vector<double> select_from_spill(std::span<const std::uint64_t> ranks);

  QuantileLimits limits_;
  std::uint64_t count_ = 0;
  std::unique_ptr<DistinctTable> distinct_;  // non-null while in the distinct-value mode
  std::vector<double> memory_;               // the array mode, and the block waiting to be spilled
  std::unique_ptr<SpillFile> spill_;         // non-null once values went to disk
};

}  // namespace spotsim
