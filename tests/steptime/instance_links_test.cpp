// The instance link table (steptime/instance_links.hpp): the shipped table covers every instance type the
// price catalogue lists, with the same GPU and GPU count, and a broken table is an error naming the field.
#include "steptime/instance_links.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "base/errors.hpp"
#include "test_paths.hpp"

namespace spotsim {
namespace {

std::string shipped_links() { return locate_instance_links("instance_links"); }

TEST(InstanceLinks, EveryOfferedInstanceTypeHasMatchingLinks) {
  const InstanceLinkTable table = read_instance_links(shipped_links());
  const GpuOfferCatalogue offers = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  ASSERT_FALSE(offers.offers.empty());
  for (const GpuOffer& offer : offers.offers) {
    const InstanceLinkEntry* entry = table.find(offer.instance_type);
    ASSERT_NE(entry, nullptr) << offer.label() << " has no entry in " << table.path;
    EXPECT_EQ(entry->gpu, offer.gpu) << offer.instance_type;
    EXPECT_EQ(entry->links.gpus_per_instance, offer.gpus_per_instance) << offer.instance_type;
  }
}

TEST(InstanceLinks, ShippedFiguresAreSane) {
  const InstanceLinkTable table = read_instance_links(shipped_links());
  for (const auto& e : table.entries) {
    EXPECT_GT(e.links.inter_gbps, 0.0) << e.links.instance_type;
    EXPECT_DOUBLE_EQ(e.links.inter_gbps, e.network_gbit_per_s / 8.0);
    if (e.links.gpus_per_instance > 1) {
      // A link inside an instance is faster than its network per GPU.
      EXPECT_GT(e.links.intra_gbps, e.links.inter_gbps / e.links.gpus_per_instance) << e.links.instance_type;
    }
  }
  // Two figures anyone can check: p4d's NVSwitch (600 GB/s bidirectional per GPU) and 400 Gbit/s EFA.
  const auto& p4d = table.at("p4d.24xlarge", "test");
  EXPECT_EQ(p4d.links.intra_gbps, 300.0);
  EXPECT_EQ(p4d.links.inter_gbps, 50.0);
  EXPECT_THROW(table.at("x9.huge", "--instance"), InputError);
}

// Writes `document` and expects read_instance_links to fail with every word of `words` in the message.
void expect_error(const nlohmann::json& document, const std::vector<std::string>& words) {
  test::TempDir dir("links");
  const std::string path = dir.file("links.json");
  std::ofstream(path) << document.dump();
  try {
    read_instance_links(path);
    ADD_FAILURE() << "no error for " << document.dump().substr(0, 200);
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    for (const auto& w : words) EXPECT_NE(message.find(w), std::string::npos) << w << " not in: " << message;
  }
}

TEST(InstanceLinks, BrokenTablesAreErrorsNamingTheField) {
  nlohmann::json good;
  std::ifstream(shipped_links()) >> good;
  auto edit = [&](auto change) {
    nlohmann::json d = good;
    change(d);
    return d;
  };
  expect_error(edit([](auto& d) { d["format"] = "spotsim-gpu-offers"; }), {"format", "spotsim-instance-links"});
  expect_error(edit([](auto& d) { d["version"] = 2; }), {"version"});
  expect_error(edit([](auto& d) { d["instances"] = nlohmann::json::array(); }), {"instances", "at least one"});
  expect_error(edit([](auto& d) { d["instances"][0]["network"].erase("gbit_per_s"); }),
               {"instances[0].network.gbit_per_s"});
  expect_error(edit([](auto& d) { d["instances"][3]["intra"]["gb_per_s_per_gpu"] = -1; }),
               {"instances[3].intra.gb_per_s_per_gpu"});
  expect_error(edit([](auto& d) { d["instances"][0]["intra"]["gb_per_s_per_gpu"] = 300; }), {"one GPU"});
  expect_error(edit([](auto& d) { d["instances"][0]["gpus_per_instance"] = 0; }), {"gpus_per_instance"});
  expect_error(edit([](auto& d) { d["instances"][0]["network"]["latency_us"] = "fast"; }), {"latency_us"});
  expect_error(edit([](auto& d) { d["instances"][0]["network"]["basis"] = "guess"; }), {"basis", "estimated"});
  expect_error(edit([](auto& d) { d["instances"][0]["network"]["bandwidth"] = 1; }), {"bandwidth"});
  expect_error(edit([](auto& d) { d["instances"].push_back(d["instances"][0]); }), {"appears twice"});
  expect_error(edit([](auto& d) { d["instances"][1] = 7; }), {"instances[1]"});
}

TEST(InstanceLinks, LocatingATable) {
  EXPECT_THROW(locate_instance_links("no_such_table"), InputError);
  EXPECT_THROW(locate_instance_links("/nonexistent/links.json"), InputError);
  EXPECT_EQ(locate_instance_links(shipped_links()), shipped_links());
}

}  // namespace
}  // namespace spotsim
