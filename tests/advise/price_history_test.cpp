// Recorded spot price paths in advise (app/advise/spot_price_history.hpp): which offers a history
// matches, what a replayed path costs (worked out by hand from each run's start in the recording), and the shipped
// file against the catalogue it extends.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "advise_test_support.hpp"
#include "app/advise/advisor.hpp"
#include "app/advise/offer_scenario.hpp"
#include "app/advise/spot_price_history.hpp"
#include "base/errors.hpp"
#include "engine/replication_runner.hpp"
#include "policies/policy_registry.hpp"

namespace spotsim {
namespace {

// A vector, not a braced json: nlohmann reads a one-element {h} as h itself.
nlohmann::json history_file(const std::vector<nlohmann::json>& histories) {
  return {{"format", "spotsim-spot-price-history"}, {"version", 1}, {"histories", nlohmann::json(histories)}};
}

nlohmann::json history(const std::string& region, const std::string& zone, const std::string& type,
                       std::vector<double> times, std::vector<double> prices, double span) {
  nlohmann::json h = {
      {"cloud", "gcp"},   {"region", region},   {"instance_type", type}, {"date", "2026-01-01 to 2026-01-02"},
      {"source", "test"}, {"span_hours", span}, {"times_hours", times},  {"prices", prices}};
  if (!zone.empty()) h["zone"] = zone;
  return h;
}

GpuOffer offer(const std::string& region, const std::string& zone, const std::string& type) {
  GpuOffer o;
  o.cloud = "gcp";
  o.region = region;
  o.zone = zone;
  o.instance_type = type;
  return o;
}

TEST(PriceHistory, MatchesCloudInstanceTypeAndZoneOrRegion) {
  test::AdviseTempDir dir("match");
  const SpotPriceHistories h = read_spot_price_histories(dir.write(
      "h.json",
      history_file({history("r1", "", "vm-1g", {0}, {1.0}, 10), history("r2", "r2-b", "vm-1g", {0}, {2.0}, 10)})));
  ASSERT_NE(h.find(offer("r1", "r1-a", "vm-1g")), nullptr);  // a region history: any zone of the region
  EXPECT_DOUBLE_EQ(h.find(offer("r1", "", "vm-1g"))->prices.at(0), 1.0);
  EXPECT_EQ(h.find(offer("r1", "r1-a", "vm-8g")), nullptr);  // another instance type
  EXPECT_NE(h.find(offer("r2", "r2-b", "vm-1g")), nullptr);
  EXPECT_EQ(h.find(offer("r2", "r2-c", "vm-1g")), nullptr);  // a zone history: that zone only
  GpuOffer aws = offer("r1", "", "vm-1g");
  aws.cloud = "aws";
  EXPECT_EQ(h.find(aws), nullptr);
}

TEST(PriceHistory, RejectsBadFilesNamingTheField) {
  test::AdviseTempDir dir("bad");
  const auto expect_error = [&](const nlohmann::json& h, const std::string& words) {
    try {
      read_spot_price_histories(dir.write("h.json", history_file({h})));
      ADD_FAILURE() << "accepted " << h.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  expect_error(history("r", "", "t", {1}, {1.0}, 10), "times_hours");           // not from 0
  expect_error(history("r", "", "t", {0, 0}, {1.0, 2.0}, 10), "times_hours");   // not increasing
  expect_error(history("r", "", "t", {0, 12}, {1.0, 2.0}, 10), "times_hours");  // beyond the span
  expect_error(history("r", "", "t", {0, 1}, {1.0}, 10), "prices");
  expect_error(history("r", "", "t", {0}, {-1.0}, 10), "prices");
}

// $1/h for the first 5 h of a 10 h recording, $3/h for the last 5 (repeating); no preemption (mean lifetime 10^7 h);
// 1 h of work after a 5 min start-up. A replication starting at s hours pays the integral of that price over
// [s, s + 65 min), billed per second: worked out here piece by piece from s.
TEST(PriceHistory, ReplayedPathCostsWhatTheRecordingChargedFromEachStart) {
  test::AdviseTempDir dir("replay");
  const GpuOfferCatalogue catalogue =
      read_gpu_offer_catalogue(dir.write("c.json", test::one_offer_catalogue(9.0, 1.25, 1, 1e7)));
  const SpotPriceHistories h = read_spot_price_histories(
      dir.write("h.json", history_file({history("test-region", "", "test-1g", {0, 5}, {1.0, 3.0}, 10)})));
  const GpuOffer& o = catalogue.offers.front();
  const SpotPriceHistory* replayed = h.find(o);
  ASSERT_NE(replayed, nullptr);
  const SpotMarket market = offer_market(o, catalogue.source_of(o), 1, replayed);
  EXPECT_EQ(market.span, 10 * kMillisPerHour);  // a lifetime model: starts drawn over the price recording
  JobSpec job;
  job.work = kMillisPerHour;
  job.startup = 5 * kMillisPerMinute;
  const Scenario scenario(market, job);
  const PolicyRegistry registry = builtin_policy_registry();
  const auto runs =
      run_replications(scenario, {registry.selection_factory("spot-only"), registry.checkpoint_factory("none")},
                       ReplicationPlan{7, 0, 50, 1});
  const auto price_at = [](double t) { return std::fmod(t, 10.0) < 5.0 ? 1.0 : 3.0; };
  int starts_in_dear_half = 0;
  for (const RunResult& r : runs) {
    const double s = r.trace_start_hours, e = s + 65.0 / 60.0;
    // The path changes price at most once within 65 min: at the next multiple of 5 h after s.
    const double change = std::floor(s / 5.0) * 5.0 + 5.0;
    const double expected =
        change >= e ? price_at(s) * (e - s) : price_at(s) * (change - s) + price_at(change) * (e - change);
    EXPECT_NEAR(r.cost_spot, expected, 1e-6) << "start " << s;
    starts_in_dear_half += price_at(s) == 3.0 ? 1 : 0;
  }
  EXPECT_GT(starts_in_dear_half, 0);
  EXPECT_LT(starts_in_dear_half, 50);
}

TEST(PriceHistory, AdviseSaysWhichPriceEachOfferUsed) {
  test::AdviseTempDir dir("label");
  AdviceRequest request;
  request.job =
      read_advise_job({{"steps", 3600}, {"step_time_s_by_gpu", {{"A100-40GB", 1.0}}}, {"gpus", 1}}, "job.json");
  request.catalogue = read_gpu_offer_catalogue(dir.write("c.json", test::one_offer_catalogue(9.0, 1.25, 1, 1e7)));
  request.policies = {"spot-only"};
  request.replications = 5;
  request.threads = 1;
  EXPECT_EQ(run_advice(request).rows.front().spot_price_source, "catalogue");
  request.price_histories = read_spot_price_histories(
      dir.write("h.json", history_file({history("test-region", "", "test-1g", {0}, {2.0}, 10)})));
  const AdviceRow row = run_advice(request).rows.front();
  EXPECT_EQ(row.spot_price_source, "history 2026-01-01 to 2026-01-02, $2.00..2.00/h");
  // A constant $2/h for 5 min of start-up and 1 h of work, whatever the start.
  EXPECT_NEAR(row.metrics.mean_cost, 2.0 * 65.0 / 60.0, 1e-9);
}

// The shipped histories end at the catalogue's date: the last recorded price of each GCP offer that has one is
// the catalogue's spot price (both from the same Cloud Billing Catalog snapshot).
TEST(PriceHistory, ShippedHistoriesEndAtTheCataloguePrice) {
  const GpuOfferCatalogue catalogue = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  const SpotPriceHistories shipped = spot_price_histories_for("history");
  int matched = 0;
  for (const GpuOffer& o : catalogue.offers) {
    const SpotPriceHistory* h = shipped.find(o);
    if (h == nullptr || o.cloud != "gcp") continue;
    ++matched;
    EXPECT_NEAR(h->prices.values().back(), o.spot_per_hour, 1e-6) << o.label();
  }
  EXPECT_GE(matched, 10);
  EXPECT_TRUE(spot_price_histories_for("catalogue").histories.empty());
  EXPECT_THROW(spot_price_histories_for("no-such-file.json"), InputError);
}

}  // namespace
}  // namespace spotsim
