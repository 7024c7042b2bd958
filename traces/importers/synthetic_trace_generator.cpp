#include "traces/importers/synthetic_trace_generator.hpp"

#include <algorithm>
#include <cmath>

#include "base/errors.hpp"
#include "model/random_streams.hpp"
#include "traces/importers/series_building.hpp"

namespace spotsim {

ImportedTrace generate_synthetic_trace(const GeneratorSettings& s, const ImportOptions& options) {
  if (s.instances < 1 || s.instances > 100000) throw InputError("--instances: expected 1 to 100000");
  if (s.span <= 0) throw InputError("--span: expected a positive duration");
  if (s.outage_mean < 0) throw InputError("--outage-mean: expected a duration >= 0");
  if (s.outage_mean == 0 && s.instances > 1) {
    throw InputError("--outage-mean 0 (capacity returns at once) records preemption times, which needs --instances 1");
  }
  std::vector<std::pair<Millis, int>> deltas;  // (time, +1 up / -1 down)
  std::vector<Millis> preemptions;
  std::vector<LifetimeRecord> lifetimes;
  for (int i = 0; i < s.instances; ++i) {
    RandomStream stream(s.seed, 0, StreamPurpose::kGenerator, static_cast<std::uint64_t>(i));
    Millis t = 0;
    while (t < s.span) {
      const double hours = s.lifetime.sample(stream.uniform_open01());
      const Millis up = std::isfinite(hours) ? std::max<Millis>(1, millis_from_hours(std::min(hours, 1e9))) : kNever;
      if (t + up >= s.span) {
        lifetimes.push_back({to_hours(s.span - t), false});
        break;
      }
      lifetimes.push_back({to_hours(up), true});
      t += up;
      if (s.outage_mean == 0) {
        preemptions.push_back(t);
        continue;
      }
      deltas.emplace_back(t, -1);
      const double outage = -static_cast<double>(s.outage_mean) * std::log(stream.uniform_open01());
      t += std::max<Millis>(1, static_cast<Millis>(std::llround(std::min(outage, 1e15))));
      if (t < s.span) deltas.emplace_back(t, +1);
    }
  }
  std::stable_sort(deltas.begin(), deltas.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<Millis, double>> changes;
  int up = s.instances;
  for (const auto& [t, d] : deltas) {
    up += d;
    changes.emplace_back(t, static_cast<double>(up));
  }
  ImportedTrace out;
  out.format = "synthetic";
  const std::string name = options.zone_name.empty() ? "synthetic" : options.zone_name;
  Zone zone = zone_from_options(name, options, kGcpNotice);
  if (s.outage_mean == 0) {
    zone.spot.preemption_times = std::move(preemptions);
    zone.spot.preemption_period = s.span;
  } else {
    zone.spot.available = series_from_changes(changes, static_cast<double>(s.instances), s.span);
  }
  for (const auto& r : lifetimes) out.lifetimes.push_back({r, name, options.instance_type});
  out.market.name = name;
  out.market.span = s.span;
  out.market.zones.push_back(std::move(zone));
  return out;
}

}  // namespace spotsim
