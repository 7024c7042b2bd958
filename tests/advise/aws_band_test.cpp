// The default AWS preemption model (app/advise/aws_interruption_band.hpp, docs/advise.md#aws-default):
// the band -> mean mapping, the catalogue's use of it, and its calibration constant recomputed from the shared
// p3.2xlarge recordings, so that neither can drift from the data silently.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "advise_test_support.hpp"
#include "app/advise/aws_interruption_band.hpp"
#include "app/advise/gpu_offer_catalogue.hpp"
#include "base/errors.hpp"

namespace spotsim {
namespace {

namespace fs = std::filesystem;

TEST(AdviseAwsBand, RateIsProportionalToTheBandMidpoint) {
  EXPECT_DOUBLE_EQ(aws_band_mean_lifetime_hours("gt20"), kRecordedP3MeanHours);
  const std::map<std::string, double> expected = {
      {"lt5", 33.443}, {"5-10", 11.148}, {"10-15", 6.689}, {"15-20", 4.778}, {"gt20", 3.344}};
  for (const auto& [band, hours] : expected) {
    EXPECT_NEAR(aws_band_mean_lifetime_hours(band), hours, 5e-4) << band;
    // Preemptions per hour / midpoint is the same for every band, i.e. mean x midpoint is.
    EXPECT_NEAR(aws_band_midpoint(band) * aws_band_mean_lifetime_hours(band), 0.25 * kRecordedP3MeanHours, 1e-12);
  }
  EXPECT_THROW(aws_band_mean_lifetime_hours(">20%"), InputError);
}

TEST(AdviseAwsBand, CatalogueSourcesCarryTheMapping) {
  const GpuOfferCatalogue c = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  for (const char* band : {"lt5", "5-10", "10-15", "15-20", "gt20"}) {
    const PreemptionSource& s = c.sources.at(std::string("aws-advisor-band-") + band);
    EXPECT_EQ(s.basis, "default") << band;
    EXPECT_EQ(s.spot.lifetime->name(), "exponential") << band;
    EXPECT_NEAR(s.spot.lifetime->mean(), aws_band_mean_lifetime_hours(band), 5e-4) << band;  // JSON: 3 decimals
    EXPECT_EQ(s.spot.notice, 120 * kMillisPerSecond) << band;
  }
}

// Pooled exponential maximum-likelihood estimate: spot-available time over the number of available -> unavailable
// drops, every tick of the eleven 1-node V100 (p3.2xlarge) availability recordings of Wu et al., NSDI'24. Runs
// still going at the end of a recording count as exposure without an event (right-censored), as the MLE wants.
TEST(AdviseAwsBand, CalibrationIsRecomputedFromTheSharedP3Recordings) {
  const fs::path root = test::shared_dir() + "/data/preemption/aws-gcp-spot-availability/availability/1-node";
  if (!fs::exists(root)) GTEST_SKIP() << "no ../shared data";
  double available_hours = 0.0;
  long drops = 0;
  int files = 0;
  for (const char* folder : {"aws-10-26-2022", "aws-02-15-2023"}) {
    for (const auto& entry : fs::directory_iterator(root / folder)) {
      if (!entry.path().filename().string().ends_with("_v100_1.json")) continue;
      const nlohmann::json doc = nlohmann::json::parse(std::ifstream(entry.path()));
      const double gap_hours = doc.at("metadata").at("gap_seconds").get<double>() / 3600.0;
      const auto& series = doc.at("data");
      for (std::size_t i = 0; i < series.size(); ++i) {
        const bool up = series[i].get<int>() > 0;
        if (up) available_hours += gap_hours;
        if (!up && i > 0 && series[i - 1].get<int>() > 0) ++drops;
      }
      ++files;
    }
  }
  EXPECT_EQ(files, 11);
  EXPECT_EQ(drops, 2184);
  EXPECT_NEAR(available_hours, 7303.9375, 1e-6);
  EXPECT_NEAR(available_hours / static_cast<double>(drops), kRecordedP3MeanHours, 1e-9);
}

// The advisor's band for every zone of those recordings is ">20%" (gt20): the calibration is for that band.
TEST(AdviseAwsBand, RecordedRegionsAreInTheTopBand) {
  const std::string csv = test::shared_dir() + "/data/preemption/aws-spot-advisor/gpu_spot_advisor_linux.csv";
  if (!fs::exists(csv)) GTEST_SKIP() << "no ../shared data";
  std::ifstream in(csv);
  int found = 0;
  for (std::string line; std::getline(in, line);) {
    for (const char* region : {"us-east-1,", "us-east-2,", "us-west-2,"}) {
      if (line.starts_with(std::string(region) + "p3.2xlarge,")) {
        EXPECT_TRUE(line.ends_with(">20%") || line.ends_with(">20%\r")) << line;
        ++found;
      }
    }
  }
  EXPECT_EQ(found, 3);
}

}  // namespace
}  // namespace spotsim
