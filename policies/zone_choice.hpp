#pragma once
// Zone choices shared by selection policies.
#include "model/observation.hpp"

namespace spotsim {

// Index of the zone with the lowest current spot price among those where spot can be obtained; -1 if none.
int cheapest_obtainable_spot_zone(const Observation& obs);
// Index of the zone with the lowest on-demand price (ties: the first).
int cheapest_on_demand_zone(const Observation& obs);
// The lowest current spot price of any zone, obtainable or not.
double cheapest_spot_price(const Observation& obs);

// --- Several regions (docs/policies.md#several-regions) ---

// The zone whose region holds the saved state once the job leaves its instance: Observation::data_zone, or the
// zone it runs in when the engine saves its unsaved work (or finishes a write) before moving it; -1: nothing saved.
int state_zone_on_leaving(const Observation& obs);
// Region of that state, or -1 when nothing is saved yet (every zone is then free).
int state_region(const Observation& obs);
// True when taking an instance in zone z moves nothing: nothing saved yet, or z is in the state's region.
bool in_state_region(const Observation& obs, int z);
// Cheapest on-demand zone reached without a transfer (the state's region; any zone before anything is saved).
// This is where a deadline-driven fallback goes: the safety net's finish time counts no transfer.
int cheapest_on_demand_zone_in_state_region(const Observation& obs);
// The on-demand zone a deadline-aware policy chooses by its own rules: the instance it holds when on on-demand,
// else the cheapest zone that is reached without a transfer or whose transfer still fits the deadline
// (transfer_fits). Once on on-demand the job may stay there to the end, so a zone whose transfer did not fit
// would add time the safety net no longer has (how a multi-region job used to miss deadlines that on-demand alone
// meets). When the net itself commits, imposed_decision() keeps to the state's region.
int on_demand_zone_choice(const Observation& obs);
// Whether a job off spot can still afford zone z's transfer: the safety net's spare time off spot (which already
// keeps one changeover for a failed attempt) minus z's transfer stays > 0. Always true without a deadline.
bool transfer_fits(const Observation& obs, int z);
// Spot price per hour of zone z with its move amortised over the remaining work: price + (price x transfer +
// egress) / remaining work (the instance is billed during the transfer).
double effective_spot_price(const Observation& obs, int z);
// Where a multi-region policy takes spot: among zones with spot whose transfer fits the deadline, the state's
// region first (nothing to move), then the lowest effective price (ties: the first); -1 if none.
int spot_zone_state_region_first(const Observation& obs);

}  // namespace spotsim
