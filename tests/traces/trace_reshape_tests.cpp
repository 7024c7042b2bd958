// `spotsim trace reshape` on a hand-built two-region market (traces/trace_reshape.hpp): prices scaled and set, the
// instance shape changed only with an availability rule and a price rule (each refusal names the zone and what to
// say), counts regrouped by the pooled rule, renames of zones and regions (egress included), the provenance note,
// and an output that reads back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/errors.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_reshape.hpp"
#include "traces/trace_writer.hpp"

namespace spotsim {
namespace {

// Zone a (region r1): a recorded count of 1-GPU H100 instances (0, 12, 17, 7) and a spot price series; zone b
// (region r2): a 0/1 probe and a constant price; zone c (r2): no recording, a lifetime model.
SpotMarket market() {
  SpotMarket m;
  m.name = "test";
  m.provenance.notes = "Recorded.";
  const Millis h = kMillisPerHour;
  const auto zone = [](std::string name, std::string region) {
    Zone z;
    z.name = std::move(name);
    z.region = std::move(region);
    z.continent = "us";
    z.instance_type = "a3-highgpu-1g";
    z.gpu = "H100";
    z.gpus_per_instance = 1;
    z.on_demand_price_per_hour = 11.0;
    z.spot.price_per_hour = StepSeries::constant(2.0);
    return z;
  };
  Zone a = zone("a", "r1");
  a.spot.available = StepSeries({0, h, 2 * h, 3 * h}, {0, 12, 17, 7}, 4 * h);
  a.spot.price_per_hour = StepSeries({0, 2 * h}, {2.0, 3.0}, 4 * h);
  Zone b = zone("b", "r2");
  b.spot.available = StepSeries({0, h}, {1, 0}, 4 * h);
  Zone c = zone("c", "r2");
  c.spot.lifetime = ExponentialLifetime{5.0};
  m.zones = {a, b, c};
  m.migration.egress = {{"r1", "r2", 0.02}, {"r2", "r1", 0.08}};
  m.span = 4 * h;
  return m;
}

std::string refusal(SpotMarket m, const ReshapeRequest& r) {
  try {
    reshape_trace(m, r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TraceReshape, ScalesEveryPriceAndRecordsIt) {
  SpotMarket m = market();
  ReshapeRequest r;
  r.price_scale = 1.2;
  const std::string note = reshape_trace(m, r);
  EXPECT_DOUBLE_EQ(m.zones[0].on_demand_price_per_hour, 13.2);
  EXPECT_DOUBLE_EQ(m.zones[0].spot.price_per_hour.values().at(0), 2.4);
  EXPECT_DOUBLE_EQ(m.zones[0].spot.price_per_hour.values().at(1), 3.6);
  EXPECT_EQ(m.zones[0].spot.price_per_hour.times(), market().zones[0].spot.price_per_hour.times());
  EXPECT_DOUBLE_EQ(m.zones[2].spot.price_per_hour.values()[0], 2.4);
  EXPECT_EQ(note, "Reshaped with spotsim trace reshape: every price x 1.2.");
  EXPECT_EQ(m.provenance.notes, "Recorded. " + note);
}

TEST(TraceReshape, SetsPricesPerZoneOrEverywhere) {
  SpotMarket m = market();
  ReshapeRequest r;
  r.on_demand = {{"", 10.0}, {"b", 9.5}};
  r.spot = {{"a", 4.0}};
  const std::string note = reshape_trace(m, r);
  EXPECT_EQ(m.zones[0].on_demand_price_per_hour, 10.0);
  EXPECT_EQ(m.zones[1].on_demand_price_per_hour, 9.5) << "a zone's own price wins over the one for every zone";
  EXPECT_EQ(m.zones[0].spot.price_per_hour.values(), (std::vector<double>{4.0}));
  EXPECT_EQ(m.zones[1].spot.price_per_hour.values(), (std::vector<double>{2.0})) << "untouched";
  EXPECT_NE(note.find("replacing the recorded price series of a"), std::string::npos) << note;
  r.spot = {{"z", 4.0}};
  EXPECT_NE(refusal(market(), r).find("has no zone 'z' (its zones: a, b, c)"), std::string::npos);
}

TEST(TraceReshape, ANewShapeNeedsAnAvailabilityRuleAndAPriceRule) {
  ReshapeRequest r;
  r.gpus_per_instance = 8;
  EXPECT_NE(refusal(market(), r).find("zone 'a': 1 GPU -> 8 GPUs per instance"), std::string::npos);
  EXPECT_NE(refusal(market(), r).find("--availability same"), std::string::npos);
  r.availability = AvailabilityRule::kSame;
  EXPECT_NE(refusal(market(), r).find("give --prices per-gpu"), std::string::npos) << refusal(market(), r);
  r.prices_per_gpu = true;
  SpotMarket m = market();
  const std::string note = reshape_trace(m, r);
  for (const Zone& z : m.zones) EXPECT_EQ(z.gpus_per_instance, 8);
  EXPECT_EQ(m.zones[0].on_demand_price_per_hour, 88.0);
  EXPECT_EQ(m.zones[0].spot.price_per_hour.values(), (std::vector<double>{16.0, 24.0}));
  EXPECT_EQ(m.zones[0].spot.available->values(), market().zones[0].spot.available->values()) << "same: unchanged";
  EXPECT_NE(note.find("ASSUMPTION (--availability same)"), std::string::npos) << note;
}

TEST(TraceReshape, PooledRegroupsCountsAndRefusesWhatIsNoCount) {
  ReshapeRequest r;
  r.gpus_per_instance = 8;
  r.availability = AvailabilityRule::kPooled;
  r.prices_per_gpu = true;
  EXPECT_NE(refusal(market(), r).find("zone 'b'"), std::string::npos) << "a 0/1 probe is not a count";
  EXPECT_NE(refusal(market(), r).find("a 0/1 probe"), std::string::npos);
  SpotMarket m = market();
  m.zones.resize(1);
  reshape_trace(m, r);
  EXPECT_EQ(m.zones[0].spot.available->values(), (std::vector<double>{0, 1, 2, 0})) << "floor(count x 1 / 8)";
  m = market();
  m.zones.erase(m.zones.begin(), m.zones.begin() + 2);  // c: a lifetime model, no count
  EXPECT_NE(refusal(m, r).find("no count"), std::string::npos);
  // Back from 8 to 2 GPUs: 1 and 2 eight-GPU instances hold 4 and 8 two-GPU ones.
  m = market();
  m.zones.resize(1);
  reshape_trace(m, r);
  r.gpus_per_instance = 2;
  reshape_trace(m, r);
  EXPECT_EQ(m.zones[0].spot.available->values(), (std::vector<double>{0, 4, 8, 0}));
  EXPECT_EQ(m.zones[0].on_demand_price_per_hour, 22.0);
}

TEST(TraceReshape, AnotherGpuIsAnAssumptionWithItsOwnPrices) {
  ReshapeRequest r;
  r.gpu = "A100-80GB";
  r.availability = AvailabilityRule::kPooled;
  EXPECT_NE(refusal(market(), r).find("a count of one GPU type's instances is not a count of another's"),
            std::string::npos);
  r.availability = AvailabilityRule::kSame;
  r.gpus_per_instance = 8;
  r.prices_per_gpu = true;
  EXPECT_NE(refusal(market(), r).find("give --on-demand-price and --spot-price for A100-80GB"), std::string::npos);
  r.prices_per_gpu = false;
  r.on_demand = {{"", 40.0}};
  r.spot = {{"", 15.0}};
  r.instance_type = "a2-ultragpu-8g";
  SpotMarket m = market();
  const std::string note = reshape_trace(m, r);
  EXPECT_EQ(m.zones[1].gpu, "A100-80GB");
  EXPECT_EQ(m.zones[1].instance_type, "a2-ultragpu-8g");
  EXPECT_EQ(m.zones[1].on_demand_price_per_hour, 40.0);
  EXPECT_NE(note.find("GPU H100 -> A100-80GB"), std::string::npos) << note;
}

TEST(TraceReshape, RenamesZonesAndRegionsWithTheirEgress) {
  ReshapeRequest r;
  r.renames = {{"a", "us-east4-a"}, {"r2", "us-central1"}};
  SpotMarket m = market();
  const std::string note = reshape_trace(m, r);
  EXPECT_EQ(m.zones[0].name, "us-east4-a");
  EXPECT_EQ(m.zones[1].region, "us-central1");
  EXPECT_EQ(m.zones[2].region, "us-central1");
  EXPECT_EQ(m.migration.egress_usd_per_gb("r1", "us-central1"), 0.02);
  EXPECT_EQ(m.migration.egress_usd_per_gb("us-central1", "r1"), 0.08);
  EXPECT_NE(note.find("zone a renamed us-east4-a; region r2 renamed us-central1"), std::string::npos) << note;
  r.renames = {{"a", "b"}};
  EXPECT_NE(refusal(market(), r).find("already has a zone 'b'"), std::string::npos);
  r.renames = {{"r1", "r2"}};
  EXPECT_NE(refusal(market(), r).find("merging two regions"), std::string::npos);
  r.renames = {{"x", "y"}};
  EXPECT_NE(refusal(market(), r).find("has no zone or region 'x'"), std::string::npos);
}

TEST(TraceReshape, RefusesRequestsThatSayNothingOrContradict) {
  EXPECT_NE(refusal(market(), {}).find("nothing to change"), std::string::npos);
  ReshapeRequest r;
  r.price_scale = 2.0;
  r.spot = {{"", 1.0}};
  EXPECT_NE(refusal(market(), r).find("--price-scale"), std::string::npos);
  r = {};
  r.prices_per_gpu = true;
  EXPECT_NE(refusal(market(), r).find("--gpus-per-instance, which is not given"), std::string::npos);
  r = {};
  r.instance_type = "x";
  r.availability = AvailabilityRule::kSame;
  EXPECT_NE(refusal(market(), r).find("--availability"), std::string::npos);
  r = {};
  r.gpus_per_instance = 0;
  EXPECT_NE(refusal(market(), r).find("1 to 1024"), std::string::npos);
  r = {};
  r.on_demand = {{"", -1.0}};
  EXPECT_NE(refusal(market(), r).find("expected a price"), std::string::npos);
}

TEST(TraceReshape, AppendAsKeepsTheOriginalsBesideTheReshapedZones) {
  ReshapeRequest r;
  r.gpus_per_instance = 8;
  r.instance_type = "a3-highgpu-8g";
  r.availability = AvailabilityRule::kSame;
  r.prices_per_gpu = true;
  r.append_suffix = "-8g";
  SpotMarket m = market();
  const std::string note = reshape_trace(m, r);
  ASSERT_EQ(m.zones.size(), 6u);
  EXPECT_EQ(m.zones[0].name, "a");
  EXPECT_EQ(m.zones[0].gpus_per_instance, 1);
  EXPECT_EQ(m.zones[3].name, "a-8g");
  EXPECT_EQ(m.zones[3].gpus_per_instance, 8);
  EXPECT_EQ(m.zones[3].region, "r1");
  EXPECT_EQ(m.zones[3].on_demand_price_per_hour, 88.0);
  EXPECT_NE(note.find("added beside the originals, named zone + '-8g'"), std::string::npos) << note;
  EXPECT_NO_THROW(parse_trace(trace_to_json(m), "two shapes"));
  ReshapeRequest again = r;
  again.gpus_per_instance = 4;  // a's copy would be named a-8g again
  EXPECT_NE(refusal(m, again).find("zone 'a-8g' exists already"), std::string::npos) << refusal(m, again);
  ReshapeRequest no_shape;
  no_shape.price_scale = 2.0;
  no_shape.append_suffix = "-x";
  EXPECT_NE(refusal(market(), no_shape).find("give the new shape"), std::string::npos);
}

TEST(TraceReshape, TheResultReadsBackAsATrace) {
  ReshapeRequest r;
  r.gpus_per_instance = 8;
  r.availability = AvailabilityRule::kSame;
  r.prices_per_gpu = true;
  r.renames = {{"r1", "us-east4"}};
  SpotMarket m = market();
  reshape_trace(m, r);
  const SpotMarket back = parse_trace(trace_to_json(m), "reshaped");
  ASSERT_EQ(back.zones.size(), 3u);
  EXPECT_EQ(back.zones[0].gpus_per_instance, 8);
  EXPECT_EQ(back.zones[0].region, "us-east4");
  EXPECT_EQ(back.zones[0].spot.price_per_hour.values(), (std::vector<double>{16.0, 24.0}));
  EXPECT_NE(back.provenance.notes.find("Reshaped with spotsim trace reshape"), std::string::npos);
}

}  // namespace
}  // namespace spotsim
