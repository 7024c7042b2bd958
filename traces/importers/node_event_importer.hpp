#pragma once
// Node event logs of spot autoscaling groups, as recorded by Bamboo (Thorpe et al., NSDI'23) and reused by
// Parcae (Duan et al., NSDI'24):
//
//   time_ms,add|remove,node_id        e.g. "600000,add,node3", "40800000,remove,node176"
//
// The number of nodes held over time becomes the zone's availability (a job needing n nodes is preempted when it
// drops below n); each node's add -> remove is also a lifetime record (a node still present at the end of the
// log is right-censored). Events must be in non-decreasing time order: a log out of order is rejected, not
// sorted, because it means the file was edited or merged wrongly. Adding a node twice or removing an absent
// one is an error too.
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_node_events(const std::string& text, const std::string& file, const ImportOptions& options);

}  // namespace spotsim
