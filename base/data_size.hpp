#pragma once
// Sizes as users write them: "20GB", "18.6 GiB", "1.5TB", "500MB"; a bare number is in GB (10^9 bytes), as the
// options named *-gb have always read it. Decimal units are powers of 1000, binary ones (GiB, TiB, MiB) of 1024.
#include <string>

namespace spotsim {

// The largest size accepted: 1e9 GB (an exabyte), the bound JobSpec::checkpoint_size_gb has always had.
inline constexpr double kMaxDataSizeGb = 1e9;

// The size in GB; InputError("<what>: expected a size such as 20GB, 18.6GiB or 1.5TB (a bare number is in GB) ...")
// for an unknown unit, a negative, NaN or more than kMaxDataSizeGb.
double parse_data_size_gb(const std::string& text, const std::string& what);

}  // namespace spotsim
