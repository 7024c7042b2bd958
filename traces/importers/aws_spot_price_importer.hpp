#pragma once
// AWS spot price history as printed by `aws ec2 describe-spot-price-history --output json` (EC2 API
// DescribeSpotPriceHistory, docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeSpotPriceHistory.html):
//
//   {"SpotPriceHistory": [{"AvailabilityZone": "us-west-2a", "InstanceType": "p3.2xlarge",
//     "ProductDescription": "Linux/UNIX", "SpotPrice": "0.918000", "Timestamp": "2023-03-01T12:00:00+00:00"}, ...],
//    "NextToken": ""}
//
// Each (zone, instance type) becomes a zone of the market whose spot price changes at the recorded timestamps.
// The API lists the newest price first, so records are sorted by time here (not rejected). A price holds from its
// timestamp until the next; the recording starts at the earliest timestamp of the file (a zone's first price is
// taken to hold from then, as the API returns the price in force at the query's start time) and ends one hour
// after the latest, unless ImportOptions::span says otherwise. Spot is always obtainable: the history records
// prices, not capacity.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

ImportedTrace import_aws_spot_prices(const nlohmann::json& document, const std::string& file,
                                     const ImportOptions& options);

}  // namespace spotsim
