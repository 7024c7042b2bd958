// The managed training catalogue: the shipped one reads and links every row to gpu_offers.json; each field of a
// row is refused with a message naming the file and the field.
#include <gtest/gtest.h>

#include <functional>

#include "advise_test_support.hpp"
#include "app/advise/managed_offer_catalogue.hpp"
#include "base/errors.hpp"

namespace spotsim {
namespace {

nlohmann::json valid_offer() {
  return {{"service", "vertex-ai"},  {"mode", "spot"},
          {"region", "test-region"}, {"instance_type", "test-1g"},
          {"gpu", "A100"},           {"gpus_per_instance", 1},
          {"price_per_hour", 2.5},   {"billing_increment_s", 30},
          {"billing_minimum_s", 30}, {"startup_s", 300},
          {"startup_billed", true},  {"on_preemption", "restart-from-checkpoint"},
          {"preemption", "exp"},     {"diy_instance_type", "test-1g"},
          {"date", "2026-11-23"},    {"source", "test"}};
}

nlohmann::json catalogue_of(const nlohmann::json& offer) {
  return {{"format", "spotsim-managed-training"}, {"version", 1}, {"offers", nlohmann::json::array({offer})}};
}

TEST(ManagedCatalogue, ShippedCatalogueReadsAndLinksEveryOffer) {
  const GpuOfferCatalogue gpu = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  const ManagedOfferCatalogue c = read_managed_offer_catalogue(locate_managed_offer_catalogue("managed_training"), gpu);
  ASSERT_FALSE(c.offers.empty());
  int spot = 0;
  for (const ManagedOffer& o : c.offers) {
    EXPECT_TRUE(o.service == "vertex-ai" || o.service == "sagemaker") << o.label();
    EXPECT_FALSE(o.source.empty()) << o.label();
    EXPECT_FALSE(o.date.empty()) << o.label();
    if (o.mode == ManagedMode::kSpot) {
      ++spot;
      EXPECT_TRUE(gpu.sources.contains(o.preemption)) << o.label();
      // Preempted like DIY spot on the same hardware.
      for (const GpuOffer& diy : gpu.offers) {
        if (diy.cloud == o.cloud && diy.region == o.region && diy.instance_type == o.diy_instance_type) {
          EXPECT_EQ(diy.preemption, o.preemption) << o.label();
        }
      }
    }
    EXPECT_EQ(o.startup_billed, o.service == "vertex-ai") << o.label();  // SageMaker bills from TrainingStartTime
  }
  EXPECT_GT(spot, 0);
}

TEST(ManagedCatalogue, ReadsAValidOffer) {
  test::AdviseTempDir dir("managed_ok");
  const GpuOfferCatalogue gpu = read_gpu_offer_catalogue(dir.write("gpu.json", test::one_offer_catalogue(3, 1, 1, 10)));
  const ManagedOfferCatalogue c = read_managed_offer_catalogue(dir.write("m.json", catalogue_of(valid_offer())), gpu);
  ASSERT_EQ(c.offers.size(), 1u);
  const ManagedOffer& o = c.offers[0];
  EXPECT_EQ(o.cloud, "gcp");
  EXPECT_EQ(o.gpu, "A100-40GB");
  EXPECT_EQ(o.billing_increment, 30 * kMillisPerSecond);
  EXPECT_TRUE(o.restarts_from_checkpoint);
  EXPECT_FALSE(o.max_wait.has_value());
  EXPECT_EQ(o.label(), "vertex-ai spot test-region test-1g");
}

struct Refusal {
  std::string field;
  std::function<void(nlohmann::json&)> change;
};

TEST(ManagedCatalogue, RefusesEachFieldNamingFileAndField) {
  test::AdviseTempDir dir("managed_bad");
  const GpuOfferCatalogue gpu = read_gpu_offer_catalogue(dir.write("gpu.json", test::one_offer_catalogue(3, 1, 1, 10)));
  const std::vector<Refusal> refusals = {
      {"service", [](nlohmann::json& o) { o["service"] = "azure-ml"; }},
      {"mode", [](nlohmann::json& o) { o["mode"] = "preemptible"; }},
      {"region", [](nlohmann::json& o) { o.erase("region"); }},
      {"instance_type", [](nlohmann::json& o) { o["instance_type"] = 7; }},
      {"gpu", [](nlohmann::json& o) { o.erase("gpu"); }},
      {"gpus_per_instance", [](nlohmann::json& o) { o["gpus_per_instance"] = 0; }},
      {"price_per_hour", [](nlohmann::json& o) { o["price_per_hour"] = -1; }},
      {"price_estimated", [](nlohmann::json& o) { o["price_estimated"] = "yes"; }},
      {"billing_increment_s", [](nlohmann::json& o) { o["billing_increment_s"] = 0; }},
      {"billing_minimum_s", [](nlohmann::json& o) { o["billing_minimum_s"] = -5; }},
      {"startup_s", [](nlohmann::json& o) { o["startup_s"] = "5m"; }},
      {"startup_billed", [](nlohmann::json& o) { o.erase("startup_billed"); }},
      {"on_preemption", [](nlohmann::json& o) { o["on_preemption"] = "start-over"; }},
      {"max_wait_hours", [](nlohmann::json& o) { o["max_wait_hours"] = 0; }},
      {"preemption", [](nlohmann::json& o) { o["preemption"] = "no-such-source"; }},
      {"diy_instance_type", [](nlohmann::json& o) { o["diy_instance_type"] = "other-1g"; }},
      {"date", [](nlohmann::json& o) { o.erase("date"); }},
      {"source", [](nlohmann::json& o) { o.erase("source"); }},
      {"colour", [](nlohmann::json& o) { o["colour"] = "red"; }},
  };
  for (const Refusal& r : refusals) {
    nlohmann::json offer = valid_offer();
    r.change(offer);
    const std::string file = dir.write("m.json", catalogue_of(offer));
    try {
      read_managed_offer_catalogue(file, gpu);
      ADD_FAILURE() << r.field << ": accepted";
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(file), std::string::npos) << message;
      EXPECT_NE(message.find(r.field), std::string::npos) << message;
    }
  }
}

TEST(ManagedCatalogue, RefusesPreemptionFieldsOnOnDemandAndDuplicates) {
  test::AdviseTempDir dir("managed_od");
  const GpuOfferCatalogue gpu = read_gpu_offer_catalogue(dir.write("gpu.json", test::one_offer_catalogue(3, 1, 1, 10)));
  nlohmann::json on_demand = valid_offer();
  on_demand["mode"] = "on-demand";
  EXPECT_THROW(read_managed_offer_catalogue(dir.write("m.json", catalogue_of(on_demand)), gpu), InputError);
  on_demand.erase("on_preemption");
  EXPECT_THROW(read_managed_offer_catalogue(dir.write("m.json", catalogue_of(on_demand)), gpu),
               InputError);  // preemption
  on_demand.erase("preemption");
  EXPECT_NO_THROW(read_managed_offer_catalogue(dir.write("m.json", catalogue_of(on_demand)), gpu));
  nlohmann::json twice = catalogue_of(valid_offer());
  twice["offers"].push_back(valid_offer());
  EXPECT_THROW(read_managed_offer_catalogue(dir.write("m.json", twice), gpu), InputError);
  nlohmann::json wrong_format = catalogue_of(valid_offer());
  wrong_format["format"] = "spotsim-gpu-offers";
  EXPECT_THROW(read_managed_offer_catalogue(dir.write("m.json", wrong_format), gpu), InputError);
  EXPECT_THROW(locate_managed_offer_catalogue("no_such_managed_catalogue"), InputError);
}

}  // namespace
}  // namespace spotsim
