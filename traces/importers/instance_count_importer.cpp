#include "traces/importers/instance_count_importer.hpp"

#include <cmath>

#include "base/errors.hpp"
#include "base/text_lines.hpp"
#include "traces/importers/cant_be_late_importer.hpp"
#include "traces/importers/series_building.hpp"
#include "traces/importers/timestamps.hpp"

namespace spotsim {

ImportedTrace import_instance_counts(const std::string& text, const std::string& file, const ImportOptions& options) {
  TextLines lines(text, file);
  std::vector<std::string> fields;
  std::vector<Millis> times;
  std::vector<std::pair<Millis, double>> changes;
  bool calendar = false;
  while (lines.next(fields)) {
    const bool first = times.empty();
    if (first) {
      calendar = fields.size() == 3;
      if (!calendar && !options.time_unit) {
        throw InputError(file +
                         ": the times of a 'time,count' file carry no unit; give the unit (--time-unit ms, s, "
                         "min or h)");
      }
    }
    Millis t = 0;
    std::string count_text;
    if (calendar) {
      if (fields.size() != 3)
        lines.fail("line", "3 fields: YYYY-MM-DD, HH:MM:SS, count", std::to_string(fields.size()) + " fields");
      const auto stamp = parse_timestamp(fields[0] + "T" + fields[1]);
      if (!stamp) lines.fail("date and time", "a valid YYYY-MM-DD, HH:MM:SS", fields[0] + ", " + fields[1]);
      t = *stamp;
      count_text = fields[2];
    } else {
      if (fields.size() != 2) lines.fail("line", "2 fields: time,count", std::to_string(fields.size()) + " fields");
      const double unit = static_cast<double>(*options.time_unit);
      const double value = lines.number(fields[0], "time", 0.0, 1e13 / unit);
      t = static_cast<Millis>(std::llround(value * unit));
      count_text = fields[1];
    }
    if (!first && t < times.back())
      lines.fail("time", "times in non-decreasing order", calendar ? fields[1] : fields[0]);
    const double count = static_cast<double>(lines.integer(count_text, "count", 0, 1'000'000));
    times.push_back(t);
    changes.emplace_back(t, count);
  }
  if (times.empty()) throw InputError(file + ": empty instance-count recording; expected lines 'time,count'");
  const Millis start = times.front();
  for (auto& c : changes) c.first -= start;
  for (auto& t : times) t -= start;
  const Millis span = span_after_last_event(times, options.span);
  if (span <= times.back()) throw InputError(file + ": --span must be longer than the recording");

  ImportedTrace out;
  out.format = "instance-counts";
  const std::string name = options.zone_name.empty() ? zone_name_from_path(file) : options.zone_name;
  Zone zone = zone_from_options(name, options, looks_like_gcp_zone(name) || calendar ? kGcpNotice : kAwsNotice);
  zone.spot.available = series_from_changes(changes, changes.front().second, span);
  out.market.name = name;
  out.market.span = span;
  out.market.zones.push_back(std::move(zone));
  return out;
}

}  // namespace spotsim
