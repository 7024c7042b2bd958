#pragma once
// Per-VM lifetime records like the GCP preemptible dataset of Kadupitiya, Jadhao & Sharma (HPDC'20,
// github.com/kadupitiya/goog-preemption-data), in two forms:
//
//   CSV with a header naming its columns (the flat lifetimes.csv extract): lifetime_s, or launch_time and
//   end_time (ISO-8601); preempted (0/1) or end_event (preempted | user_stop | stopped | terminated | deleted);
//   optional zone and machine_type.
//
//   The published data.json: {"<vm>": {"instance_data": {"ZONE", "MACHINE_TYPE", ...}, "time_in_sec": s,
//   "insert": {...}, "compute.instances.preempted": {...}?, "stop": {...}?, ...}, ...}: a VM with a
//   preemption operation was preempted; the others were stopped by their user.
//
// A VM its user stopped is right-censored (it survived at least that long), never a preemption. Each zone
// becomes a zone of the market with the Kaplan-Meier (empirical) lifetime model of its records.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_lifetime_csv(const std::string& text, const std::string& file, const ImportOptions& options);
ImportedTrace import_gcp_lifetime_json(const nlohmann::json& document, const std::string& file,
                                       const ImportOptions& options);

// The market of a set of lifetime records: one zone per distinct zone label (in order of first appearance),
// each with an EmpiricalLifetime of its records. Zones with no preemption at all are left out.
SpotMarket market_from_lifetimes(const std::vector<LabeledLifetime>& lifetimes, const ImportOptions& options,
                                 const std::string& file);

}  // namespace spotsim
