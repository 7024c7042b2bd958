#include "base/exact_quantiles.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include "base/errors.hpp"

namespace spotsim {

namespace {

constexpr std::uint64_t kSignBit = 1ULL << 63;
constexpr int kRadixBits = 16;
constexpr std::size_t kBuckets = std::size_t{1} << kRadixBits;

// Unsigned integers that sort as the doubles do (IEEE 754 total order without NaN): flip all bits of negatives,
// only the sign bit of positives.
std::uint64_t order_key(double value) {
  const auto bits = std::bit_cast<std::uint64_t>(value);
  return (bits & kSignBit) ? ~bits : (bits | kSignBit);
}

double from_order_key(std::uint64_t key) { return std::bit_cast<double>((key & kSignBit) ? (key & ~kSignBit) : ~key); }

std::string errno_text() { return std::strerror(errno); }

}  // namespace

std::string spill_directory(const QuantileLimits& limits) {
  if (!limits.spill_directory.empty()) return limits.spill_directory;
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir && *tmpdir ? tmpdir : "/tmp";
}

// Open addressing on the order key: the values of a count or a 0/1 metric fit in a few slots, and most additions
// hit the slot of the previous value.
struct ExactQuantiles::DistinctTable {
  explicit DistinctTable(std::size_t max_distinct) : limit(max_distinct), mask(std::bit_ceil(2 * max_distinct) - 1) {
    keys.resize(mask + 1);
    counts.resize(mask + 1, 0);
  }
  // false when the value would be one distinct value too many.
  bool add(std::uint64_t key) {
    std::size_t slot = static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> 40) & mask;
    while (counts[slot] != 0 && keys[slot] != key) slot = (slot + 1) & mask;
    if (counts[slot] == 0) {
      if (distinct == limit) return false;
      ++distinct;
      keys[slot] = key;
    }
    ++counts[slot];
    return true;
  }
  // (key, count) ascending by key.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> sorted() const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    out.reserve(distinct);
    for (std::size_t i = 0; i <= mask; ++i) {
      if (counts[i] != 0) out.emplace_back(keys[i], counts[i]);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  std::size_t limit;
  std::size_t mask;
  std::size_t distinct = 0;
  std::vector<std::uint64_t> keys;
  std::vector<std::uint64_t> counts;
};

// Order keys on disk, in an unlinked file (it disappears with the process, however it ends), plus the histogram
// of their top 16 bits kept while writing so that the selection saves one pass.
struct ExactQuantiles::SpillFile {
  explicit SpillFile(const std::string& where) : directory(where), top_histogram(kBuckets, 0) {
    fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {  // file systems without O_TMPFILE: a unique name, removed at once
      std::string name = directory + "/spotsim-spill-XXXXXX";
      fd = ::mkstemp(name.data());
      if (fd >= 0) ::unlink(name.c_str());
    }
    if (fd < 0) {
      throw InputError("cannot create a temporary file in " + directory + " for exact percentiles (" + errno_text() +
                       "); set TMPDIR to a writable directory with free space");
    }
  }
  ~SpillFile() { ::close(fd); }
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  void append(std::span<const double> values) {
    keys.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      keys[i] = order_key(values[i]);
      ++top_histogram[keys[i] >> (64 - kRadixBits)];
    }
    const char* data = reinterpret_cast<const char*>(keys.data());
    std::size_t left = keys.size() * sizeof(std::uint64_t);
    while (left > 0) {
      const ssize_t wrote = ::write(fd, data, left);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) {
        throw InputError("writing the temporary values of the exact percentiles to " + directory + " failed (" +
                         (wrote < 0 ? errno_text() : std::string("no progress")) +
                         "); set TMPDIR to a directory with more free space, or ask for fewer replications");
      }
      data += wrote;
      left -= static_cast<std::size_t>(wrote);
    }
    stored += values.size();
  }

  // Calls visit(key) for every key on disk, in blocks.
  template <typename Visit>
  void for_each_key(Visit&& visit) {
    constexpr std::size_t kBlock = 1u << 17;
    keys.resize(kBlock);
    std::uint64_t done = 0;
    while (done < stored) {
      const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, stored - done));
      std::size_t got = 0;
      while (got < want * sizeof(std::uint64_t)) {
        const ssize_t n = ::pread(fd, reinterpret_cast<char*>(keys.data()) + got, want * sizeof(std::uint64_t) - got,
                                  static_cast<off_t>(done * sizeof(std::uint64_t) + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
          throw InputError("reading back the temporary values in " + directory + " failed (" + errno_text() + ")");
        got += static_cast<std::size_t>(n);
      }
      for (std::size_t i = 0; i < want; ++i) visit(keys[i]);
      done += want;
    }
  }

  std::string directory;
  int fd = -1;
  std::uint64_t stored = 0;
  std::vector<std::uint64_t> top_histogram;
  std::vector<std::uint64_t> keys;  // the block being written or read
};

ExactQuantiles::ExactQuantiles(QuantileLimits limits)
    : limits_(std::move(limits)), distinct_(std::make_unique<DistinctTable>(limits_.distinct_values)) {}
ExactQuantiles::~ExactQuantiles() = default;
ExactQuantiles::ExactQuantiles(ExactQuantiles&&) noexcept = default;
ExactQuantiles& ExactQuantiles::operator=(ExactQuantiles&&) noexcept = default;

bool ExactQuantiles::spilled() const { return spill_ != nullptr; }

void ExactQuantiles::add(double value) {
  ++count_;
  if (distinct_) {
    if (distinct_->add(order_key(value))) return;
    leave_distinct_mode();
  }
  store(value);
}

void ExactQuantiles::store(double value) {
  if (!spill_ && memory_.size() == limits_.memory_values) spill_memory_values();
  const std::size_t cap = spill_ ? limits_.spill_block_values : limits_.memory_values;
  if (memory_.size() == memory_.capacity()) {  // grow as a vector would, but never past the cap
    memory_.reserve(std::min(std::max<std::size_t>(2 * memory_.capacity(), 1024), cap));
  }
  memory_.push_back(value);
  if (spill_ && memory_.size() == cap) {
    spill_->append(memory_);
    memory_.clear();
  }
}

// Too many distinct values for a table: expand it into the array (order does not matter for order statistics).
void ExactQuantiles::leave_distinct_mode() {
  const auto table = distinct_->sorted();
  distinct_.reset();
  for (const auto& [key, n] : table) {
    for (std::uint64_t i = 0; i < n; ++i) store(from_order_key(key));
  }
}

void ExactQuantiles::spill_memory_values() {
  spill_ = std::make_unique<SpillFile>(spill_directory(limits_));
  spill_->append(memory_);
  memory_.clear();
  memory_.shrink_to_fit();
  memory_.reserve(limits_.spill_block_values);
}

std::vector<double> ExactQuantiles::order_statistics(std::span<const std::uint64_t> ranks) {
  for (const std::uint64_t rank : ranks) {
    if (rank >= count_) throw std::out_of_range("ExactQuantiles: rank beyond the values added");
  }
  if (distinct_) return select_from_distinct(ranks);
  if (!spill_) return select_from_memory(ranks);
  if (!memory_.empty()) {
    spill_->append(memory_);
    memory_.clear();
  }
  return select_from_spill(ranks);
}

std::vector<double> ExactQuantiles::select_from_distinct(std::span<const std::uint64_t> ranks) const {
  const auto table = distinct_->sorted();
  std::vector<double> out;
  for (const std::uint64_t rank : ranks) {
    std::uint64_t below = 0;
    for (const auto& [key, n] : table) {
      if (rank < below + n) {
        out.push_back(from_order_key(key));
        break;
      }
      below += n;
    }
  }
  return out;
}

std::vector<double> ExactQuantiles::select_from_memory(std::span<const std::uint64_t> ranks) {
  std::vector<std::uint64_t> keys(memory_.size());
  std::transform(memory_.begin(), memory_.end(), keys.begin(), order_key);
  std::sort(keys.begin(), keys.end());
  std::vector<double> out;
  for (const std::uint64_t rank : ranks) out.push_back(from_order_key(keys[rank]));
  return out;
}

// Radix selection: each rank is narrowed to a bucket of keys sharing a known prefix (16, 32, 48 bits) by a
// histogram of the next 16 bits over the file, until its bucket is small enough to collect and select in memory or
// the prefix is the whole key (every value of the bucket is then the answer).
std::vector<double> ExactQuantiles::select_from_spill(std::span<const std::uint64_t> ranks) {
  struct Target {
    std::uint64_t prefix = 0;  // the top `bits` bits of the key
    int bits = 0;
    std::uint64_t rank = 0;  // among the keys with that prefix
    std::uint64_t in_bucket = 0;
    bool done = false;
    double value = 0.0;
  };
  // Descends one level: the bucket of `histogram` (over the next 16 bits) holding the target's rank.
  const auto descend = [](Target& t, const std::vector<std::uint64_t>& histogram) {
    std::uint64_t below = 0;
    std::size_t b = 0;
    while (t.rank >= below + histogram[b]) below += histogram[b++];
    t.prefix = (t.prefix << kRadixBits) | b;
    t.bits += kRadixBits;
    t.rank -= below;
    t.in_bucket = histogram[b];
  };
  std::vector<Target> targets(ranks.size());
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    targets[i].rank = ranks[i];
    descend(targets[i], spill_->top_histogram);
  }
  // One group per distinct bucket still to resolve: several ranks (p50's lo and hi) often share one.
  struct Group {
    bool collect = false;
    std::vector<std::uint64_t> histogram;
    std::vector<std::uint64_t> keys;
  };
  for (;;) {
    std::map<std::pair<int, std::uint64_t>, Group> groups;
    for (Target& t : targets) {
      if (t.done) continue;
      if (t.bits == 64) {  // the whole key is known
        t.value = from_order_key(t.prefix);
        t.done = true;
        continue;
      }
      Group& g = groups[{t.bits, t.prefix}];
      g.collect = t.in_bucket <= limits_.select_values;
    }
    if (groups.empty()) break;
    for (auto& [id, g] : groups) {
      if (g.collect)
        g.keys.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(limits_.select_values, spill_->stored)));
      else
        g.histogram.assign(kBuckets, 0);
    }
    // The common case is a single group; a flat array keeps the inner loop simple.
    struct Probe {
      int shift;
      std::uint64_t prefix;
      Group* group;
    };
    std::vector<Probe> probes;
    for (auto& [id, g] : groups) probes.push_back({64 - id.first, id.second, &g});
    spill_->for_each_key([&](std::uint64_t key) {
      for (const Probe& p : probes) {
        if ((key >> p.shift) != p.prefix) continue;
        if (p.group->collect)
          p.group->keys.push_back(key);
        else
          ++p.group->histogram[(key >> (p.shift - kRadixBits)) & (kBuckets - 1)];
      }
    });
    for (Target& t : targets) {
      if (t.done) continue;
      Group& g = groups.at({t.bits, t.prefix});
      if (g.collect) {
        std::nth_element(g.keys.begin(), g.keys.begin() + static_cast<std::ptrdiff_t>(t.rank), g.keys.end());
        t.value = from_order_key(g.keys[t.rank]);
        t.done = true;
      } else {
        descend(t, g.histogram);
      }
    }
  }
  std::vector<double> out;
  for (const Target& t : targets) out.push_back(t.value);
  return out;
}

}  // namespace spotsim
