#pragma once
// Shared steps of the importers: run-length compressing recorded values into a StepSeries and filling in a Zone
// from ImportOptions.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/market/spot_market.hpp"
#include "traces/importers/import_options.hpp"

namespace spotsim {

// One value per tick of `step`: value[i] holds on [i*step, (i+1)*step). Consecutive equal values are merged, so
// a two-week availability trace at 10-minute ticks becomes a few hundred change points. span = size * step.
StepSeries series_from_ticks(const std::vector<double>& values, Millis step);

// Change points (time since the start of the recording, new value), sorted by time. Several changes at the same
// time collapse to the last one; a change at or after `span` is dropped. The value before the first change is
// `initial`.
StepSeries series_from_changes(const std::vector<std::pair<Millis, double>>& changes, double initial, Millis span);

// A zone with the instance type, prices and notice from `options` (spot price: the recorded one is set later by
// the importer where the source has one).
Zone zone_from_options(const std::string& name, const ImportOptions& options, Millis default_notice);

// The zone a file is about, from its name: "us-west-2a_v100_1.json" -> "us-west-2a", "p3-trace.csv" -> "p3-trace".
std::string zone_name_from_path(const std::string& path);

inline constexpr Millis kAwsNotice = 120 * kMillisPerSecond;  // AWS: two-minute interruption notice
inline constexpr Millis kGcpNotice = 30 * kMillisPerSecond;   // GCP: 30 s preemption notice

}  // namespace spotsim

namespace spotsim {

// Event logs stop at their last event, so the state it sets would last no time at all. The recording is taken to
// run one more event interval (the smallest positive gap between consecutive times; 1 minute if there is none)
// unless `requested` (the --span option) says otherwise. `times` are sorted, relative to the start.
Millis span_after_last_event(const std::vector<Millis>& times, std::optional<Millis> requested);

}  // namespace spotsim
