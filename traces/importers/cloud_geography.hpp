#pragma once
// Where a cloud zone is: its region and continent from the zone's name, and the egress price table of a cloud
// (traces/library/catalogue/egress/<cloud>.csv) cut down to the regions of one trace.
#include <string>
#include <vector>

#include "model/market/spot_market.hpp"

namespace spotsim {

// "us-central1-a" -> "us-central1" (GCP: the zone minus its last "-x").
std::string gcp_region_of_zone(const std::string& zone);
// "us-east-1a" -> "us-east-1" (AWS: the zone minus its last letter).
std::string aws_region_of_zone(const std::string& zone);
// "north-america", "south-america", "europe", "asia", "oceania", "middle-east" or "africa" from a GCP or AWS
// region name's prefix (us-, northamerica-, ca- / europe-, eu- / asia-, ap- / ...); InputError if unknown.
std::string continent_of_region(const std::string& region);

// The shipped table of `cloud` ("aws" or "gcp"): every price among `regions` (ordered pairs of distinct
// regions); InputError naming the table and the first missing pair.
std::vector<EgressPrice> shipped_egress_prices(const std::string& cloud, const std::vector<std::string>& regions);

// Places every zone of `market` in its region and continent from the zone's name (`cloud`: "aws" or "gcp") and
// prices moves between them with the shipped egress table: a v2 trace (spotsim trace convert --geography).
// InputError naming `what` for another cloud or a zone name whose region is unknown.
void place_zones_by_name(SpotMarket& market, const std::string& cloud, const std::string& what);

// A table file "from_region,to_region,price_usd_per_gb" (header line first), as read by the above.
std::vector<EgressPrice> read_egress_table(const std::string& path);

}  // namespace spotsim
