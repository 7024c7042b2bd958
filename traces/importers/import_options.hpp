#pragma once
// What an importer needs to know that the recorded file itself does not say: the instance type and prices the
// recording applies to, and how to read times whose unit the file leaves implicit.
#include <optional>
#include <string>

#include "base/time.hpp"

namespace spotsim {

struct ImportOptions {
  std::string zone_name;      // names the zone of a single-zone source; empty = derive it from the file name
  std::string only_zone;      // multi-zone sources: keep only this zone; empty = keep all
  std::string instance_type;  // overrides what the source says (most sources say nothing)
  std::string gpu;
  int gpus_per_instance = 1;
  double on_demand_price_per_hour = 0.0;
  std::optional<double> spot_price_per_hour;  // for sources that record no spot price
  std::optional<Millis> notice;               // preemption warning; default: 120 s on AWS, 30 s on GCP
  std::optional<Millis> time_unit;            // milliseconds per unit of a bare "time,count" file
  std::optional<Millis> span;                 // length of an event-based recording; default: see each importer
};

}  // namespace spotsim
