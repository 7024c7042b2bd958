#include "traces/fit/distinct_lifetimes.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "base/errors.hpp"

namespace spotsim {

DistinctLifetimes distinct_lifetimes(const std::vector<LifetimeRecord>& records) {
  if (records.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw InputError("lifetime fit: expected at most 4294967295 records, got " + std::to_string(records.size()));
  }
  std::vector<std::uint32_t> order(records.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return records[a].hours < records[b].hours; });
  DistinctLifetimes out;
  out.of_record.resize(records.size());
  for (std::uint32_t i : order) {
    const LifetimeRecord& r = records[i];
    if (out.hours.empty() || out.hours.back() != r.hours) {
      out.hours.push_back(r.hours);
      out.has_event.push_back(0);
      out.has_censored.push_back(0);
    }
    const std::size_t at = out.hours.size() - 1;
    out.of_record[i] = static_cast<std::uint32_t>(at);
    (r.preempted ? out.has_event : out.has_censored)[at] = 1;
  }
  return out;
}

}  // namespace spotsim
