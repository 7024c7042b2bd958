#include "policies/adaptive_prior.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "base/errors.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {

std::string text_parameter(const PolicyParams& params, const std::string& key) {
  // PolicyParams has getters for numbers, durations and flags only. Asking for the key through one of them marks
  // it as used (so reject_unused() accepts it) whether or not its text parses as a number; the text itself is
  // then read from the spec, which PolicyParams::parse has already validated as "name:k=v,k=v".
  try {
    (void)params.number(key, 0.0, 0.0, 0.0);
  } catch (const InputError&) {
  }
  const std::string& spec = params.spec();
  const auto colon = spec.find(':');
  if (colon == std::string::npos) return "";
  std::size_t pos = colon + 1;
  while (pos <= spec.size()) {
    const auto comma = spec.find(',', pos);
    const std::string item = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    const auto eq = item.find('=');
    if (eq != std::string::npos && item.compare(0, eq, key) == 0 && eq == key.size()) return item.substr(eq + 1);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return "";
}

CalibrationCache& CalibrationCache::process_wide() {
  static CalibrationCache cache;
  return cache;
}

std::shared_ptr<const SpotMarket> CalibrationCache::get(const std::string& path, const std::string& where) {
  // What identifies the file's content without reading it; a file that cannot be stat'ed is read (and the reader
  // names what is wrong with it).
  std::error_code error;
  const auto modified = std::filesystem::last_write_time(path, error);
  const long long stamp = error ? 0 : static_cast<long long>(modified.time_since_epoch().count());
  const auto size = std::filesystem::file_size(path, error);
  const long long bytes = error ? -1 : static_cast<long long>(size);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = traces_.find(path);
  if (it != traces_.end() && bytes >= 0 && it->second.modified == stamp && it->second.bytes == bytes) {
    return it->second.market;
  }
  std::shared_ptr<const SpotMarket> market;
  try {
    market = std::make_shared<const SpotMarket>(read_trace_file(path));
  } catch (const std::exception& e) {
    throw InputError(where + ": cannot use calibration trace '" + path + "': " + e.what());
  }
  if (market->zones.empty()) throw InputError(where + ": calibration trace '" + path + "' has no zones");
  traces_[path] = Entry{market, stamp, bytes};
  return market;
}

SpotPrior long_run_prior(const Zone& zone, int nodes, Millis weight) {
  SpotPrior prior;
  prior.weight = weight;
  const auto& available = zone.spot.available;
  prior.availability = available ? available->fraction_where([nodes](double v) { return v >= nodes; }) : 1.0;
  const Millis mtbf = spot_mean_time_between_preemptions(zone, nodes);
  if (mtbf != kNever) {
    prior.mean_up = mtbf;
  } else {  // never drops: as long as the recording (or a year without one)
    prior.mean_up = available && available->span() != kNever ? available->span() : 365 * kMillisPerDay;
  }
  return prior;
}

void AdaptivePriorSettings::priors_for(std::vector<SpotPrior>& out, std::size_t zones, int nodes) const {
  out.assign(zones, fallback);
  if (calibration) {
    if (calibration->zones.size() != zones) {
      throw InputError(where + ": calibration trace '" + calibration_path + "' has " +
                       std::to_string(calibration->zones.size()) + " zone(s), the job's market " +
                       std::to_string(zones) + "; zones are matched by position");
    }
    for (std::size_t z = 0; z < zones; ++z) out[z] = long_run_prior(calibration->zones[z], nodes, fallback.weight);
  }
  for (SpotPrior& p : out) {
    if (availability) p.availability = *availability;
    if (mtbf) p.mean_up = *mtbf;
  }
}

}  // namespace spotsim
