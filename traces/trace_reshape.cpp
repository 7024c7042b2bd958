#include "traces/trace_reshape.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/errors.hpp"
#include "base/text_format.hpp"

namespace spotsim {

namespace {

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

std::string zone_list(const SpotMarket& market) {
  std::vector<std::string> names;
  for (const Zone& z : market.zones) names.push_back(z.name);
  return join(names, ", ");
}

std::string gpus_text(int gpus) { return std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs"); }

// "3.06", "0.918", "12": a price as the user would write it.
std::string price_text(double usd) {
  std::string text = format_fixed(usd, 6);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

// The price for `zone`: its own, else the one for every zone, else none.
const ZonePrice* price_for(const std::vector<ZonePrice>& prices, const std::string& zone) {
  const ZonePrice* all = nullptr;
  for (const ZonePrice& p : prices) {
    if (p.zone == zone) return &p;
    if (p.zone.empty()) all = &p;
  }
  return all;
}

void check_zones_named(const SpotMarket& market, const std::vector<ZonePrice>& prices, const std::string& option) {
  for (const ZonePrice& p : prices) {
    if (!(p.usd_per_hour >= 0.0 && p.usd_per_hour <= 1e6)) {
      throw InputError(option + ": expected a price in [0, 1000000] USD per instance-hour, got " +
                       price_text(p.usd_per_hour));
    }
    if (p.zone.empty()) continue;
    const bool known =
        std::any_of(market.zones.begin(), market.zones.end(), [&](const Zone& z) { return z.name == p.zone; });
    if (!known) {
      throw InputError(option + " '" + p.zone + "=...': trace '" + market.name + "' has no zone '" + p.zone +
                       "' (its zones: " + zone_list(market) + ")");
    }
  }
}

StepSeries scaled(const StepSeries& series, double factor) {
  std::vector<double> values = series.values();
  for (double& v : values) v *= factor;
  return StepSeries(series.times(), values, series.span());
}

// A count of obtainable instances, not a 0/1 probe: some recorded value above 1.
bool records_counts(const Zone& zone) {
  if (!zone.spot.available) return false;
  const std::vector<double>& values = zone.spot.available->values();
  return std::any_of(values.begin(), values.end(), [](double v) { return v > 1.0; });
}

// floor(count x from / to): the GPUs of the recorded instances regrouped into instances of `to` GPUs.
StepSeries regrouped(const StepSeries& counts, int from, int to) {
  std::vector<double> values = counts.values();
  for (double& v : values) v = std::floor(v * from / to + 1e-9);
  return StepSeries(counts.times(), values, counts.span());
}

void check_request(const ReshapeRequest& r) {
  const bool shape = r.gpu || r.gpus_per_instance;
  if (!r.append_suffix.empty() && !shape && !r.instance_type) {
    throw InputError(
        "--append-as: adds reshaped copies of the zones; give the new shape (--instance-type, --gpu or "
        "--gpus-per-instance)");
  }
  if (!shape && !r.instance_type && !r.price_scale && r.on_demand.empty() && r.spot.empty() && r.renames.empty() &&
      !r.prices_per_gpu && r.availability == AvailabilityRule::kUnstated) {
    throw InputError(
        "nothing to change: give --price-scale, --on-demand-price, --spot-price, --instance-type, --gpu, "
        "--gpus-per-instance or --rename");
  }
  if (r.gpus_per_instance && (*r.gpus_per_instance < 1 || *r.gpus_per_instance > 1024)) {
    throw InputError("--gpus-per-instance: expected 1 to 1024, got " + std::to_string(*r.gpus_per_instance));
  }
  if (r.gpu && r.gpu->empty()) throw InputError("--gpu: expected a GPU name, got ''");
  if (r.instance_type && r.instance_type->empty()) throw InputError("--instance-type: expected a name, got ''");
  if (r.price_scale && !(*r.price_scale > 0.0 && *r.price_scale <= 1e6)) {
    throw InputError("--price-scale: expected a factor in (0, 1000000], got " + price_text(*r.price_scale));
  }
  if (r.price_scale && (r.prices_per_gpu || !r.on_demand.empty() || !r.spot.empty())) {
    throw InputError(
        "--price-scale: scales the prices the trace has; give it alone, not with --prices per-gpu, "
        "--on-demand-price or --spot-price");
  }
  if (r.prices_per_gpu && (!r.on_demand.empty() || !r.spot.empty())) {
    throw InputError("--prices per-gpu: derives both prices; give it or --on-demand-price and --spot-price, not both");
  }
  if (r.prices_per_gpu && !r.gpus_per_instance) {
    throw InputError("--prices per-gpu: scales the prices with --gpus-per-instance, which is not given");
  }
  if (r.availability != AvailabilityRule::kUnstated && !shape) {
    throw InputError(
        "--availability: says how spot carries over to a new instance shape; give --gpu or "
        "--gpus-per-instance");
  }
}

void rename(SpotMarket& market, const std::string& from, const std::string& to, std::vector<std::string>& changes) {
  if (from.empty() || to.empty() || from == to) {
    throw InputError("--rename '" + from + "=" + to + "': expected OLD=NEW, two different names");
  }
  const auto zone_named = [&](const std::string& name) {
    return std::find_if(market.zones.begin(), market.zones.end(), [&](const Zone& z) { return z.name == name; });
  };
  if (auto zone = zone_named(from); zone != market.zones.end()) {
    if (zone_named(to) != market.zones.end()) {
      throw InputError("--rename '" + from + "=" + to + "': trace '" + market.name + "' already has a zone '" + to +
                       "'");
    }
    zone->name = to;
    changes.push_back("zone " + from + " renamed " + to);
    return;
  }
  const std::vector<std::string> regions = market_regions(market);
  if (std::find(regions.begin(), regions.end(), from) == regions.end()) {
    throw InputError("--rename '" + from + "=" + to + "': trace '" + market.name + "' has no zone or region '" + from +
                     "' (zones: " + zone_list(market) + "; regions: " + join(regions, ", ") + ")");
  }
  if (std::find(regions.begin(), regions.end(), to) != regions.end()) {
    throw InputError("--rename '" + from + "=" + to + "': region '" + to +
                     "' exists already; merging two regions would lose the egress price between them");
  }
  for (Zone& zone : market.zones) {
    if (zone.region == from) zone.region = to;
  }
  for (EgressPrice& e : market.migration.egress) {
    if (e.from == from) e.from = to;
    if (e.to == from) e.to = to;
  }
  changes.push_back("region " + from + " renamed " + to);
}

}  // namespace

std::string reshape_trace(SpotMarket& market, const ReshapeRequest& r) {
  check_request(r);
  check_zones_named(market, r.on_demand, "--on-demand-price");
  check_zones_named(market, r.spot, "--spot-price");
  const std::vector<Zone> originals = r.append_suffix.empty() ? std::vector<Zone>{} : market.zones;
  std::set<std::string> old_gpus_seen;
  std::set<int> old_counts_seen;
  std::vector<std::string> on_demand_zones;
  std::vector<std::string> spot_zones;
  std::vector<std::string> series_replaced;
  for (Zone& zone : market.zones) {
    const int old_gpus = zone.gpus_per_instance;
    const int new_gpus = r.gpus_per_instance.value_or(old_gpus);
    const bool gpu_changes = r.gpu && *r.gpu != zone.gpu;
    const ZonePrice* on_demand = price_for(r.on_demand, zone.name);
    const ZonePrice* spot = price_for(r.spot, zone.name);
    if (gpu_changes || new_gpus != old_gpus) {
      const std::string what =
          "zone '" + zone.name +
          "': " + (gpu_changes ? "GPU " + (zone.gpu.empty() ? "(none)" : zone.gpu) + " -> " + *r.gpu : std::string()) +
          (gpu_changes && new_gpus != old_gpus ? ", " : "") +
          (new_gpus != old_gpus ? gpus_text(old_gpus) + " -> " + gpus_text(new_gpus) + " per instance" : std::string());
      if (r.availability == AvailabilityRule::kUnstated) {
        throw InputError(what + ": the trace records when its " + gpus_text(old_gpus) + " " +
                         (zone.gpu.empty() ? "" : zone.gpu + " ") +
                         "instances could be had and how long they lasted, not the new shape's. Say how that "
                         "carries over: --availability same (ASSUMPTION: obtainable and preempted as recorded) or "
                         "--availability pooled (the recorded count regrouped, floor(count x " +
                         std::to_string(old_gpus) + " / " + std::to_string(new_gpus) + "); same GPU, counts only)");
      }
      if (r.availability == AvailabilityRule::kPooled) {
        if (gpu_changes) {
          throw InputError("--availability pooled: " + what + ": a count of one GPU type's instances is not a " +
                           "count of another's; use --availability same (an assumption) or convert a recording " +
                           "of " + *r.gpu);
        }
        if (!records_counts(zone)) {
          throw InputError("--availability pooled: " + what + ": the zone records " +
                           (zone.spot.available ? std::string("a 0/1 probe (one instance obtainable or none), not a "
                                                              "count, so regrouping it says nothing")
                                                : std::string("no count (spot always obtainable, preempted by a "
                                                              "lifetime model)")) +
                           "; use --availability same (an assumption)");
        }
        zone.spot.available = regrouped(*zone.spot.available, old_gpus, new_gpus);
      }
      if (r.prices_per_gpu) {
        if (gpu_changes) {
          throw InputError("--prices per-gpu: " + what + ": scaling keeps " +
                           (zone.gpu.empty() ? std::string("the old GPU") : zone.gpu) +
                           "'s price per GPU; give --on-demand-price and --spot-price for " + *r.gpu);
        }
        const double factor = static_cast<double>(new_gpus) / old_gpus;
        zone.on_demand_price_per_hour *= factor;
        zone.spot.price_per_hour = scaled(zone.spot.price_per_hour, factor);
      } else if (!on_demand || !spot) {
        throw InputError(what + ": its prices are per instance-hour of the old shape; give --prices per-gpu " +
                         "(both scaled by " + std::to_string(new_gpus) + "/" + std::to_string(old_gpus) +
                         ") or --on-demand-price and --spot-price for the new one");
      }
      old_gpus_seen.insert(zone.gpu);
      old_counts_seen.insert(old_gpus);
      zone.gpus_per_instance = new_gpus;
      if (r.gpu) zone.gpu = *r.gpu;
    }
    if (r.instance_type) zone.instance_type = *r.instance_type;
    if (r.price_scale) {
      zone.on_demand_price_per_hour *= *r.price_scale;
      zone.spot.price_per_hour = scaled(zone.spot.price_per_hour, *r.price_scale);
    }
    if (on_demand) {
      zone.on_demand_price_per_hour = on_demand->usd_per_hour;
      on_demand_zones.push_back(zone.name + " " + price_text(on_demand->usd_per_hour));
    }
    if (spot) {
      if (zone.spot.price_per_hour.values().size() > 1) series_replaced.push_back(zone.name);
      zone.spot.price_per_hour = StepSeries::constant(spot->usd_per_hour);
      spot_zones.push_back(zone.name + " " + price_text(spot->usd_per_hour));
    }
  }

  std::vector<std::string> changes;
  if (r.gpu && !old_gpus_seen.empty()) {
    std::vector<std::string> old(old_gpus_seen.begin(), old_gpus_seen.end());
    changes.push_back("GPU " + join(old, "/") + " -> " + *r.gpu);
  }
  if (r.gpus_per_instance && !old_counts_seen.empty()) {
    std::vector<std::string> old;
    for (int n : old_counts_seen) old.push_back(std::to_string(n));
    changes.push_back("GPUs per instance " + join(old, "/") + " -> " + std::to_string(*r.gpus_per_instance));
  }
  if (r.instance_type) changes.push_back("instance type " + *r.instance_type);
  if (!old_counts_seen.empty()) {
    changes.push_back(r.availability == AvailabilityRule::kPooled
                          ? "spot counts regrouped, floor(count x old GPUs / new GPUs) (--availability pooled), "
                            "preemptions and lifetimes as recorded"
                          : "ASSUMPTION (--availability same): the new shape obtainable and preempted as the "
                            "recorded one was");
    if (r.prices_per_gpu) changes.push_back("prices scaled per GPU (new GPUs / old GPUs)");
  }
  if (r.price_scale) changes.push_back("every price x " + price_text(*r.price_scale));
  if (!on_demand_zones.empty()) changes.push_back("on-demand USD/h: " + join(on_demand_zones, ", "));
  if (!spot_zones.empty()) {
    changes.push_back("spot USD/h, constant: " + join(spot_zones, ", ") +
                      (series_replaced.empty()
                           ? ""
                           : " (replacing the recorded price series of " + join(series_replaced, ", ") + ")"));
  }
  if (!r.append_suffix.empty()) {
    std::vector<Zone> zones = originals;
    for (Zone& copy : market.zones) {
      copy.name += r.append_suffix;
      for (const Zone& z : zones) {
        if (z.name == copy.name) {
          throw InputError("--append-as '" + r.append_suffix + "': zone '" + copy.name + "' exists already");
        }
      }
      zones.push_back(std::move(copy));
    }
    market.zones = std::move(zones);
    changes.push_back("the reshaped zones added beside the originals, named zone + '" + r.append_suffix + "'" +
                      (r.availability == AvailabilityRule::kPooled
                           ? " (their counts come from the same recorded GPUs as the originals': a campaign using "
                             "both shapes may hold more GPUs than were there)"
                           : ""));
  }
  for (const auto& [from, to] : r.renames) rename(market, from, to, changes);
  const std::string note = "Reshaped with spotsim trace reshape: " + join(changes, "; ") + ".";
  market.provenance.notes += (market.provenance.notes.empty() ? "" : " ") + note;
  return note;
}

}  // namespace spotsim
