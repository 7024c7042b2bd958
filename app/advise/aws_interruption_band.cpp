#include "app/advise/aws_interruption_band.hpp"

#include <map>

#include "base/errors.hpp"

namespace spotsim {

double aws_band_midpoint(const std::string& band) {
  static const std::map<std::string, double> midpoints = {
      {"lt5", 0.025}, {"5-10", 0.075}, {"10-15", 0.125}, {"15-20", 0.175}, {"gt20", 0.25}};
  const auto it = midpoints.find(band);
  if (it == midpoints.end()) {
    throw InputError("AWS interruption band '" + band + "': expected lt5, 5-10, 10-15, 15-20 or gt20");
  }
  return it->second;
}

double aws_band_mean_lifetime_hours(const std::string& band) {
  return kRecordedP3MeanHours * aws_band_midpoint("gt20") / aws_band_midpoint(band);
}

}  // namespace spotsim
