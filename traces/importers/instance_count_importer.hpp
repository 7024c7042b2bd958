#pragma once
// Recordings of how many spot instances were running over time:
//
//   gcloud form (Bamboo's GCP A100/V100 traces):  "2021-12-11, 11:15:50, 54"    (date, time of day, count)
//   plain form (Parcae's p3.csv, Bamboo's plots):  "21529,4"                     (time, count)
//
// The plain form does not say the unit of its times (Parcae's are milliseconds, Bamboo's plot files seconds or
// hours), so it needs ImportOptions::time_unit; without it the import fails rather than guess. Times must be
// non-decreasing (rejected otherwise, as for node logs); several rows at one time are a step: the last wins.
// The gcloud form's times carry no time zone; only differences matter, so they are read as UTC.
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_instance_counts(const std::string& text, const std::string& file, const ImportOptions& options);

}  // namespace spotsim
