#pragma once
// The raw capacity probes behind the SkyNomad GCP H100 traces (Li et al., NSDI'27; ../shared/data/preemption/
// skynomad-multi-region/gcp-h100-probe-counts.csv): one row per 10-minute probing round and zone,
// `scheduled_at,zone,requested,created,capacity_exhausted_detected,status`, where `created` is how many of the
// `requested` (16) spot a3-highgpu-1g instances launched. Each zone's spot availability becomes that COUNT, held
// for the round (600 s ticks from the first round): the number of instances the trace's user could obtain at once,
// censored at `requested` (16 means "at least 16").
//
// Rules (docs/traces.md, "SkyNomad GCP H100 capacity", says why):
//   - rounds are aligned by scheduled_at converted to UTC (an explicit offset is required) on the grid of the
//     earliest round; a row more than 60 s off that grid is refused;
//   - a round without a successful probe in a zone (no row, or a status other than "success") carries the zone's
//     previous count; the count, the longest run and every status met are written in the provenance notes; a zone
//     whose first round has no successful probe is refused (nothing to carry);
//   - two rows for one zone and round, created > requested, requested differing between rows, and
//     capacity_exhausted_detected > requested - created are refused with file:line: field.
// Instance, region, continent and prices come from the `gcp-h100-13-zones/<zone>_h100_16.json` file beside the CSV
// (skynomad_gcp_zone_file.hpp), so that the count trace prices every zone exactly as gcp-h100-13-zones does.
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

// `content` is the CSV's text; `file` names it in errors and locates the price folder beside it.
ImportedTrace import_skynomad_gcp_counts(const std::string& content, const std::string& file,
                                         const ImportOptions& options);

}  // namespace spotsim
