#pragma once
// GCP preemption events as printed by
//   gcloud compute operations list --filter="operationType=compute.instances.preempted" --format=json
// (Compute Engine API, zoneOperations resource: cloud.google.com/compute/docs/reference/rest/v1/zoneOperations):
//
//   [{"operationType": "compute.instances.preempted", "insertTime": "2019-03-25T13:09:53.235-07:00",
//     "targetLink": ".../zones/us-central1-c/instances/vm-1", "zone": ".../zones/us-central1-c", ...}, ...]
//
// Every preemption becomes a recorded preemption time of its zone (the engine preempts a spot instance held at
// that moment). gcloud does not promise an order, so events are sorted here; several instances preempted in the
// same millisecond of one zone count once (one job is interrupted once). Operations of other types are skipped
// (an unfiltered list also holds inserts and stops). The recording starts at the first preemption and ends one
// mean interval between preemptions after the last (ImportOptions::span overrides), so that the cyclic replay
// does not glue the last event to the first.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_gcp_preemptions(const nlohmann::json& document, const std::string& file,
                                     const ImportOptions& options);

// The last path segment of a resource URL: ".../zones/us-central1-c" -> "us-central1-c".
std::string last_path_segment(const std::string& url);

}  // namespace spotsim
