#include "traces/trace_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "traces/trace_migration.hpp"

namespace spotsim {

namespace {
// The largest time in a trace, ~317 years: anything larger is a unit mistake. Every time field is checked against
// it before it is converted to integer milliseconds, which would overflow far beyond (docs/trace-format.md#limits).
constexpr double kMaxSeconds = 1e10;

LifetimeDistribution parse_lifetime_fields(const JsonFields& f) {
  const std::string model = f.string("model");
  if (model == "exponential") {
    f.reject_unknown({"model", "mean_hours"});
    return ExponentialLifetime{f.number("mean_hours", 1e-6, 1e7)};
  }
  if (model == "weibull") {
    f.reject_unknown({"model", "shape", "scale_hours"});
    return WeibullLifetime{f.number("shape", 0.05, 50.0), f.number("scale_hours", 1e-6, 1e7)};
  }
  if (model == "bathtub") {
    f.reject_unknown({"model", "A", "tau1_hours", "tau2_hours", "b_hours", "cap_hours"});
    BathtubParameters p;
    p.A = f.number("A", 1e-9, 1.0);
    p.tau1_hours = f.number("tau1_hours", 1e-6, 1e6);
    p.tau2_hours = f.number("tau2_hours", 1e-6, 1e6);
    p.b_hours = f.number("b_hours", 1e-6, 1e6);
    p.cap_hours = f.optional_number("cap_hours", 1e-6, 1e6).value_or(24.0);
    try {
      return BathtubLifetime(p);
    } catch (const InputError& e) {
      f.fail("model", std::string("valid bathtub parameters (") + e.what() + ")");
    }
  }
  if (model == "empirical") {
    f.reject_unknown({"model", "lifetimes_hours", "preempted"});
    const auto hours = f.numbers("lifetimes_hours", 0.0, 1e7);
    std::vector<LifetimeRecord> records(hours.size());
    for (std::size_t i = 0; i < hours.size(); ++i) records[i].hours = hours[i];
    if (f.has("preempted")) {
      const auto& flags = f.array("preempted");
      if (flags.size() != hours.size()) f.fail("preempted", "one flag per entry of lifetimes_hours");
      for (std::size_t i = 0; i < flags.size(); ++i) {
        if (!flags[i].is_boolean()) f.fail_value("preempted[" + std::to_string(i) + "]", "true or false", flags[i]);
        records[i].preempted = flags[i].get<bool>();
      }
    }
    try {
      return EmpiricalLifetime(std::move(records));
    } catch (const InputError& e) {
      f.fail("lifetimes_hours", std::string("usable lifetimes (") + e.what() + ")");
    }
  }
  f.fail_value("model", "one of exponential, weibull, bathtub, empirical", f.raw("model"));
}

// A step series given either per tick {"step_s": G, <values_key>: [...]} or at change points
// {"times_s": [...], <values_key>: [...]}; times must start at 0, increase strictly and stay below the span.
StepSeries parse_series(const JsonFields& f, const std::string& values_key, double max_value, Millis span) {
  f.reject_unknown({"step_s", "times_s", values_key});
  const auto values = f.numbers(values_key, 0.0, max_value);
  if (values.empty()) f.fail(values_key, "at least one value");
  if (values_key == "counts") {
    // Instances are whole: a drop of the pool removes whole instances, one of which may be the job's
    // (model/market/node_reclaim.hpp).
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i] != std::floor(values[i])) {
        f.fail_value(values_key + "[" + std::to_string(i) + "]", "a whole number of instances", values[i]);
      }
    }
  }
  std::vector<Millis> times;
  if (f.has("step_s")) {
    if (f.has("times_s")) f.fail("times_s", "either step_s or times_s, not both");
    const double step_s = f.number("step_s", 0.001, kMaxSeconds);
    if (step_s * static_cast<double>(values.size() - 1) > kMaxSeconds) {
      f.fail("step_s", "step_s x (number of " + values_key + " - 1) of at most 1e10 s" +
                           " (the last step must start within span_s)");
    }
    const Millis step = millis_from_seconds(step_s);
    for (std::size_t i = 0; i < values.size(); ++i) times.push_back(static_cast<Millis>(i) * step);
  } else {
    const auto seconds = f.numbers("times_s", 0.0, kMaxSeconds);
    if (seconds.size() != values.size()) f.fail("times_s", "as many entries as " + values_key);
    for (double s : seconds) times.push_back(millis_from_seconds(s));
    if (times.front() != 0) f.fail("times_s", "the first time to be 0 (the start of the recording)");
    for (std::size_t i = 1; i < times.size(); ++i) {
      if (times[i] <= times[i - 1]) {
        f.fail("times_s[" + std::to_string(i) + "]", "times in strictly increasing order");
      }
    }
  }
  if (span == kNever)
    f.fail(f.has("step_s") ? "step_s" : "times_s", "a trace with 'span_s' set (the recording's length)");
  if (times.back() >= span) f.fail("times_s", "every time below the trace's span_s");
  return StepSeries(std::move(times), values, span);
}

StepSeries parse_intervals(const JsonFields& f, const std::string& key, Millis span) {
  const auto& list = f.array(key);
  if (span == kNever) f.fail(key, "a trace with 'span_s' set (the recording's length)");
  std::vector<Millis> times{0};
  std::vector<double> values{0.0};
  Millis previous_end = -1;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string k = key + "[" + std::to_string(i) + "]";
    const auto& pair = list[i];
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number()) {
      f.fail_value(k, "a [start_s, end_s] pair of numbers", pair);
    }
    const double a = pair[0].get<double>(), b = pair[1].get<double>();
    if (!std::isfinite(a) || !std::isfinite(b) || a < 0 || b <= a) f.fail_value(k, "0 <= start_s < end_s", pair);
    // Checked before the conversion to milliseconds, which overflows for an end far beyond any span.
    if (b > kMaxSeconds) f.fail_value(k, "intervals within [0, span_s]", pair);
    const Millis start = millis_from_seconds(a), end = millis_from_seconds(b);
    if (start < previous_end) f.fail_value(k, "intervals sorted by start and not overlapping", pair);
    if (end > span) f.fail_value(k, "intervals within [0, span_s]", pair);
    if (start == 0)
      values[0] = 1.0;
    else if (start == previous_end)
      times.pop_back(), values.pop_back();  // adjacent: merge
    else
      times.push_back(start), values.push_back(1.0);
    if (end < span) times.push_back(end), values.push_back(0.0);
    previous_end = end;
  }
  return StepSeries(std::move(times), std::move(values), span);
}

SpotOffer parse_spot(const JsonFields& f, Millis span) {
  f.reject_unknown({"price_per_hour", "price_series", "availability", "availability_intervals_s", "preemptions_s",
                    "lifetime", "notice_s", "node_correlation"});
  SpotOffer spot;
  if (f.has("price_per_hour") == f.has("price_series")) {
    f.fail("price_per_hour", "exactly one of 'price_per_hour' (a number) or 'price_series'");
  }
  spot.price_per_hour = f.has("price_per_hour") ? StepSeries::constant(f.number("price_per_hour", 0.0, 1e6))
                                                : parse_series(f.object("price_series"), "values", 1e6, span);
  if (f.has("availability") && f.has("availability_intervals_s")) {
    f.fail("availability", "either 'availability' or 'availability_intervals_s', not both");
  }
  if (f.has("availability")) spot.available = parse_series(f.object("availability"), "counts", 1e9, span);
  if (f.has("availability_intervals_s")) spot.available = parse_intervals(f, "availability_intervals_s", span);
  if (f.has("preemptions_s")) {
    if (span == kNever) f.fail("preemptions_s", "a trace with 'span_s' set (the recording's length)");
    const auto seconds = f.numbers("preemptions_s", 0.0, kMaxSeconds);
    for (std::size_t i = 0; i < seconds.size(); ++i) {
      const Millis t = millis_from_seconds(seconds[i]);
      if (!spot.preemption_times.empty() && t <= spot.preemption_times.back()) {
        f.fail("preemptions_s[" + std::to_string(i) + "]", "times in strictly increasing order");
      }
      if (t >= span) f.fail("preemptions_s[" + std::to_string(i) + "]", "times below span_s");
      spot.preemption_times.push_back(t);
    }
    spot.preemption_period = span;
  }
  if (f.has("lifetime")) {
    const JsonFields lifetime = f.object("lifetime");
    spot.lifetime = parse_lifetime_fields(lifetime);
  }
  spot.notice = millis_from_seconds(f.optional_number("notice_s", 0.0, 3600.0).value_or(30.0));
  spot.node_correlation = f.optional_number("node_correlation", 0.0, 1.0).value_or(0.0);
  return spot;
}

}  // namespace

LifetimeDistribution parse_lifetime(const nlohmann::json& object, const std::string& file, const std::string& path) {
  return parse_lifetime_fields(JsonFields(object, file, path));
}

namespace {
// A trace that declares a tick must change only on it: the tick modes read one value per tick.
void require_changes_on_ticks(const SpotMarket& market, const JsonFields& top) {
  for (std::size_t i = 0; i < market.zones.size(); ++i) {
    const SpotOffer& spot = market.zones[i].spot;
    for (const StepSeries* series : {spot.available ? &*spot.available : nullptr, &spot.price_per_hour}) {
      if (series == nullptr) continue;
      for (const Millis t : series->times()) {
        if (t % market.tick == 0) continue;
        top.fail_value("tick_s",
                       "a tick on which every series of the trace changes (zones[" + std::to_string(i) +
                           "] changes at " + std::to_string(to_seconds(t)) + " s)",
                       top.raw("tick_s"));
      }
    }
  }
}
}  // namespace

SpotMarket parse_trace(const nlohmann::json& document, const std::string& file) {
  const JsonFields top(document, file, "");
  if (top.string("format") != "spotsim-trace") top.fail_value("format", "\"spotsim-trace\"", top.raw("format"));
  const auto version = top.integer("version", 0, 1000);
  if (version != 1 && version != 2) {
    top.fail_value("version", "1 or 2 (the trace format versions this build reads)", top.raw("version"));
  }
  // v1 knows no regions: its zones stay in region "" and moving between them costs nothing.
  const bool with_regions = version >= 2;
  std::vector<std::string> known_top = {"format",  "version", "name",   "description", "provenance",
                                        "billing", "span_s",  "tick_s", "zones"};
  if (with_regions) known_top.push_back("migration");
  top.reject_unknown(known_top);
  SpotMarket market;
  market.name = top.string("name");
  market.description = top.optional_string("description");
  if (top.has("provenance")) {
    const JsonFields p = top.object("provenance");
    p.reject_unknown({"source", "date", "license", "notes"});
    market.provenance = {p.optional_string("source"), p.optional_string("date"), p.optional_string("license"),
                         p.optional_string("notes")};
  }
  if (top.has("billing")) {
    const JsonFields b = top.object("billing");
    b.reject_unknown({"minimum_s", "increment_s"});
    market.billing.minimum = millis_from_seconds(b.optional_number("minimum_s", 0.0, 86400.0).value_or(60.0));
    market.billing.increment = millis_from_seconds(b.optional_number("increment_s", 0.001, 86400.0).value_or(1.0));
  }
  if (top.has("span_s")) market.span = millis_from_seconds(top.number("span_s", 0.001, kMaxSeconds));
  if (top.has("tick_s")) {
    market.tick = millis_from_seconds(top.number("tick_s", 0.001, kMaxSeconds));
    if (market.span == kNever || market.span % market.tick != 0) {
      top.fail_value("tick_s", "a tick that divides span_s (a recording sampled on a regular clock)",
                     top.raw("tick_s"));
    }
  }
  const auto& zones = top.array("zones");
  if (zones.empty()) top.fail("zones", "at least one zone");
  for (std::size_t i = 0; i < zones.size(); ++i) {
    const JsonFields z(zones[i], file, "zones[" + std::to_string(i) + "]");
    std::vector<std::string> known_zone = {
        "name", "instance_type", "gpu", "gpus_per_instance", "on_demand_price_per_hour", "spot"};
    if (with_regions) known_zone.insert(known_zone.end(), {"region", "continent"});
    z.reject_unknown(known_zone);
    Zone zone;
    zone.name = z.string("name");
    if (with_regions) {
      zone.region = z.string("region");
      if (zone.region.empty()) z.fail("region", "a region name such as \"us-central1\" (required in version 2)");
      zone.continent = z.string("continent");
      if (zone.continent.empty())
        z.fail("continent", "a continent name such as \"north-america\" (required in version 2)");
    }
    zone.instance_type = z.optional_string("instance_type");
    zone.gpu = z.optional_string("gpu");
    zone.gpus_per_instance = z.has("gpus_per_instance") ? static_cast<int>(z.integer("gpus_per_instance", 1, 1024)) : 1;
    zone.on_demand_price_per_hour = z.number("on_demand_price_per_hour", 0.0, 1e6);
    zone.spot = parse_spot(z.object("spot"), market.span);
    for (const Zone& other : market.zones) {
      if (other.name == zone.name) z.fail_value("name", "a name no other zone uses", z.raw("name"));
    }
    market.zones.push_back(std::move(zone));
  }
  if (market.tick > 0) require_changes_on_ticks(market, top);
  if (with_regions) {
    market.migration = parse_migration(top);
    check_trace_geography(market, top);
  }
  return market;
}

SpotMarket read_trace_file(const std::string& path) { return parse_trace(read_json_file(path), path); }

}  // namespace spotsim
