#pragma once
// The spot availability and preemption traces of Wu et al., "Can't Be Late: Optimizing Spot Instance Savings
// under Deadlines", NSDI'24 (github.com/skypilot-org/spot-traces):
//
//   {"metadata": {"gap_seconds": G, ...}, "data": [v0, v1, ...], "prices": [p0, p1, ...]}
//
// data[i] is the number of spot instances obtainable during tick i (of G seconds): 0/1 in the single-node
// files, 0..N in the multi-node ones. prices[i], where present, is the spot price per instance-hour in that tick.
// The published JSON files hold availability (1 = obtainable): they match the raw probe CSVs
// ("date,availability") tick for tick. Note that the authors' simulator works on an inverted copy
// (1 = preempted); files in that convention must be inverted before import (see docs/traces.md).
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_cant_be_late(const nlohmann::json& document, const std::string& file,
                                  const ImportOptions& options);

// GCP zone names end in "-<letter>" (us-central1-a), AWS ones in "<digit><letter>" (us-west-2a).
bool looks_like_gcp_zone(const std::string& zone);

}  // namespace spotsim
