#include "traces/importers/series_building.hpp"

#include <filesystem>

namespace spotsim {

StepSeries series_from_ticks(const std::vector<double>& values, Millis step) {
  std::vector<Millis> times;
  std::vector<double> kept;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!kept.empty() && kept.back() == values[i]) continue;
    times.push_back(static_cast<Millis>(i) * step);
    kept.push_back(values[i]);
  }
  return StepSeries(std::move(times), std::move(kept), static_cast<Millis>(values.size()) * step);
}

StepSeries series_from_changes(const std::vector<std::pair<Millis, double>>& changes, double initial, Millis span) {
  std::vector<Millis> times{0};
  std::vector<double> values{initial};
  for (const auto& [t, v] : changes) {
    if (t >= span) break;
    if (t == times.back()) {
      values.back() = v;  // simultaneous changes: the last one is the state after that instant
    } else {
      times.push_back(t);
      values.push_back(v);
    }
  }
  // Merge runs of equal values left by the collapsing above.
  std::vector<Millis> merged_times;
  std::vector<double> merged_values;
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (!merged_values.empty() && merged_values.back() == values[i]) continue;
    merged_times.push_back(times[i]);
    merged_values.push_back(values[i]);
  }
  return StepSeries(std::move(merged_times), std::move(merged_values), span);
}

Zone zone_from_options(const std::string& name, const ImportOptions& options, Millis default_notice) {
  Zone zone;
  zone.name = name;
  zone.instance_type = options.instance_type;
  zone.gpu = options.gpu;
  zone.gpus_per_instance = options.gpus_per_instance;
  zone.on_demand_price_per_hour = options.on_demand_price_per_hour;
  zone.spot.price_per_hour = StepSeries::constant(options.spot_price_per_hour.value_or(0.0));
  zone.spot.notice = options.notice.value_or(default_notice);
  return zone;
}

std::string zone_name_from_path(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  const auto underscore = stem.find('_');
  return underscore == std::string::npos || underscore == 0 ? stem : stem.substr(0, underscore);
}

}  // namespace spotsim

namespace spotsim {

Millis span_after_last_event(const std::vector<Millis>& times, std::optional<Millis> requested) {
  if (requested) return *requested;
  Millis gap = 0;
  for (std::size_t i = 1; i < times.size(); ++i) {
    const Millis d = times[i] - times[i - 1];
    if (d > 0 && (gap == 0 || d < gap)) gap = d;
  }
  return (times.empty() ? 0 : times.back()) + (gap > 0 ? gap : kMillisPerMinute);
}

}  // namespace spotsim
