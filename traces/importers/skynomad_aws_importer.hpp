#pragma once
// The AWS V100 folder of the SkyNomad artifact (Li et al., NSDI'27;
// ../shared/data/preemption/skynomad-multi-region/aws-v100-9-zones/): one `<zone>_v100_1.csv` per zone
// ("date,availability", 1 = available, one row per probe about 195 s apart, rows aligned across zones) and
// `v100_spot_prices.json` = {"<zone>_v100_1": [price per row, USD/h]}.
//
// Rows become ticks of 195 s (the probing period; the recorded gaps drift between 194 and 280 s, so the tick
// index, not the wall clock, is what aligns the zones, as in the authors' simulator). The on-demand price of
// p3.2xlarge is $3.06/h (the data's README) unless --on-demand-price says otherwise.
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_skynomad_aws(const std::string& dir, const ImportOptions& options);

}  // namespace spotsim
