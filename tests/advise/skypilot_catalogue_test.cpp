// SkyPilot's catalogue as advise offers (docs/advise.md#skypilot): the five files of the shared snapshot read into
// the counts and prices their rows say (checked by hand against the CSV lines named), the on-demand-only, GPU-only,
// duplicate and unpriced rules, the quirks of the format (CRLF, quoted GpuInfo with commas, 8.0 counts, column
// order) and errors that name the file, the line and the column.
#include "app/advise/skypilot_catalogue.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "advise_test_support.hpp"
#include "app/advise/skypilot_offers.hpp"
#include "base/errors.hpp"

namespace spotsim {
namespace {

#define SKIP_WITHOUT_SNAPSHOT()                                                  \
  if (!std::filesystem::is_directory(test::skypilot_snapshot_dir())) {           \
    GTEST_SKIP() << "no SkyPilot snapshot at " << test::skypilot_snapshot_dir(); \
  }

const GpuOffer& find_offer(const GpuOfferCatalogue& c, const std::string& label) {
  for (const GpuOffer& o : c.offers) {
    if (o.label() == label) return o;
  }
  throw std::runtime_error("no offer " + label);
}

// The message of the InputError `read` throws ("" if none).
template <class Read>
std::string error_of(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kAwsHeader =
    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";
const std::string kGpuInfo = "\"{'Gpus': [{'Name': 'T4', 'Count': 1}], 'TotalGpuMemoryInMiB': 16384}\"";

TEST(SkyPilotCatalogue, SnapshotOffersPerProvider) {
  SKIP_WITHOUT_SNAPSHOT();
  const GpuOfferCatalogue c = read_skypilot_catalogue(test::skypilot_snapshot_dir(), {});
  std::map<std::string, int> offers, on_demand_only, unranked;
  for (const GpuOffer& o : c.offers) {
    ++offers[o.cloud];
    on_demand_only[o.cloud] += !o.on_demand_only.empty();
    unranked[o.cloud] += !o.unranked.empty();
    EXPECT_TRUE(o.preemption.empty() == (!o.on_demand_only.empty() || !o.unranked.empty())) << o.label();
    EXPECT_EQ(o.date, "not stated");
  }
  // Rows: aws 351 (5 repeats), azure 187, gcp 598, lambda 306, runpod 2,000 (14 exact repeats of 2x_B200 and 80
  // data centre EU-SE-1 rows listed under both NO and SE).
  EXPECT_EQ(offers, (std::map<std::string, int>{
                        {"aws", 346}, {"azure", 187}, {"gcp", 598}, {"lambda", 306}, {"runpod", 1906}}));
  // AWS: 30 rows without a spot price, less the p5e.48xlarge rows that have neither price; 7 p5e rows without an
  // on-demand price. Azure: 4 rows without a price. GCP: the two H200 rows without a spot price.
  EXPECT_EQ(on_demand_only,
            (std::map<std::string, int>{{"aws", 22}, {"azure", 183}, {"gcp", 2}, {"lambda", 306}, {"runpod", 1906}}));
  EXPECT_EQ(unranked, (std::map<std::string, int>{{"aws", 7}, {"azure", 4}, {"gcp", 0}, {"lambda", 0}, {"runpod", 0}}));
  EXPECT_EQ(c.sources.size(), 6u);  // gcp-default-bathtub and the five AWS bands
  EXPECT_NE(c.description.find("99 rows: a repeat"), std::string::npos) << c.description;
}

TEST(SkyPilotCatalogue, SnapshotPricesMatchTheirRows) {
  SKIP_WITHOUT_SNAPSHOT();
  const GpuOfferCatalogue c = read_skypilot_catalogue(test::skypilot_snapshot_dir(), {"2026-11-27", ""});
  // aws_vms.csv line 302: p5.48xlarge,H100,8.0,...,123.19496,40.097600,ap-northeast-1,apne1-az1
  const GpuOffer& p5 = find_offer(c, "aws apne1-az1 p5.48xlarge");
  EXPECT_EQ(p5.gpu, "H100");
  EXPECT_EQ(p5.gpus_per_instance, 8);
  EXPECT_DOUBLE_EQ(p5.on_demand_per_hour, 123.19496);
  EXPECT_DOUBLE_EQ(p5.spot_per_hour, 40.0976);
  EXPECT_EQ(p5.region, "ap-northeast-1");
  EXPECT_EQ(p5.date, "2026-11-27");
  EXPECT_EQ(p5.source, "SkyPilot catalogue aws_vms.csv line 302");
  // No band shipped for p5 in ap-northeast-1: the >20% default, said in the notes; us-east-1 has its own band.
  EXPECT_EQ(p5.preemption, "aws-advisor-band-gt20");
  EXPECT_NE(p5.notes.find("no advisor band shipped"), std::string::npos);
  EXPECT_EQ(find_offer(c, "aws use1-az1 p4d.24xlarge").preemption, "aws-advisor-band-10-15");
  EXPECT_EQ(find_offer(c, "aws use1-az1 p4d.24xlarge").gpu, "A100-40GB");
  EXPECT_EQ(c.sources.at("aws-advisor-band-10-15").basis, "default");

  // lambda_vms.csv line 274: gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,23.92,europe-central-1,"{...}", (no spot)
  const GpuOffer& lambda = find_offer(c, "lambda europe-central-1 gpu_8x_h100_sxm5");
  EXPECT_DOUBLE_EQ(lambda.on_demand_per_hour, 23.92);
  EXPECT_EQ(lambda.on_demand_only, "no spot price");
  EXPECT_TRUE(lambda.preemption.empty());
  EXPECT_TRUE(lambda.zone.empty());

  // gcp_vms.csv line 12: ,,,A100,1,{...},us-central1,us-central1-a,2.93391,1.1472 (the GPU alone; no host row).
  const GpuOffer& a100 = find_offer(c, "gcp us-central1-a 1x A100 (GPUs only)");
  EXPECT_EQ(a100.gpu, "A100-40GB");
  EXPECT_DOUBLE_EQ(a100.on_demand_per_hour, 2.93391);
  EXPECT_DOUBLE_EQ(a100.spot_per_hour, 1.1472);
  EXPECT_EQ(a100.preemption, "gcp-default-bathtub");
  EXPECT_NE(a100.notes.find("GPUs only: the price excludes the host VM (no a2-highgpu-1g row"), std::string::npos)
      << a100.notes;

  // azure_vms.csv line 116: Standard_ND96isr_H100_v5,H100,12,...,98.32,98.32,eastus,V2: a spot price, no data.
  const GpuOffer& nd = find_offer(c, "azure eastus Standard_ND96isr_H100_v5");
  EXPECT_EQ(nd.gpus_per_instance, 12);  // as published
  EXPECT_DOUBLE_EQ(nd.on_demand_per_hour, 98.32);
  EXPECT_EQ(nd.on_demand_only, "no preemption data for azure");

  // runpod_vms.csv line 2: 1x_A100-80GB_SECURE,...,CA,1.19,1.64,CA-MTL-1 (Region before SpotPrice before Price).
  const GpuOffer& runpod = find_offer(c, "runpod CA-MTL-1 1x_A100-80GB_SECURE");
  EXPECT_DOUBLE_EQ(runpod.on_demand_per_hour, 1.64);
  EXPECT_DOUBLE_EQ(runpod.spot_per_hour, 1.19);
  EXPECT_EQ(runpod.region, "CA");
  EXPECT_EQ(runpod.on_demand_only, "no preemption data for runpod");

  // aws_vms.csv line 333: p5e.48xlarge with a spot price (14.925) and no on-demand price.
  EXPECT_EQ(find_offer(c, "aws apse3-az1 p5e.48xlarge").unranked, "no on-demand price (spot $14.93/h only)");
  // GCP H100 in asia-northeast1-b: spot above on-demand, as published, and said so.
  int above = 0;
  for (const GpuOffer& o : c.offers) above += o.notes.find("spot price above on-demand") != std::string::npos;
  EXPECT_GT(above, 0);
}

TEST(SkyPilotCatalogue, ReadsCrlfQuotedGpuInfoAndFloatCounts) {
  test::AdviseTempDir dir("skypilot_crlf");
  const std::string file = dir.write_text(
      "lambda_vms.csv",
      "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\r\n"
      "gpu_8x_v100,V100,8.0,92.0,448.0,4.4,europe-central-1,\"{'Gpus': [{'Name': 'V100', 'Count': 8.0}], "
      "'TotalGpuMemoryInMiB': 16384}\",\r\n"
      "cpu_only,,,4.0,16.0,0.5,europe-central-1,,\r\n");
  const GpuOfferCatalogue c = read_skypilot_catalogue(file, {});
  ASSERT_EQ(c.offers.size(), 1u);
  EXPECT_EQ(c.offers[0].label(), "lambda europe-central-1 gpu_8x_v100");
  EXPECT_EQ(c.offers[0].gpus_per_instance, 8);
  EXPECT_DOUBLE_EQ(c.offers[0].on_demand_per_hour, 4.4);
  EXPECT_EQ(c.offers[0].region, "europe-central-1");  // not "europe-central-1\r"
  EXPECT_EQ(c.offers[0].on_demand_only, "no spot price");
}

TEST(SkyPilotCatalogue, GcpGpuRowsTakeTheHostVmOfTheSameZone) {
  test::AdviseTempDir dir("skypilot_gcp");
  const std::string file = dir.write_text(
      "gcp/vms.csv",
      "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n"
      "a2-highgpu-1g,12,85,,,,us-central1,us-central1-a,0.73948,0.29\n"
      ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-a,2.93391,1.1472\n"
      ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-b,2.93391,1.1472\n"
      ",,,T4,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]},us-central1,us-central1-a,0.35,0.14\n");
  const GpuOfferCatalogue c = read_skypilot_catalogue(file, {});
  ASSERT_EQ(c.offers.size(), 3u);
  const GpuOffer& whole = find_offer(c, "gcp us-central1-a a2-highgpu-1g");
  EXPECT_DOUBLE_EQ(whole.on_demand_per_hour, 0.73948 + 2.93391);
  EXPECT_DOUBLE_EQ(whole.spot_per_hour, 0.29 + 1.1472);
  EXPECT_NE(whole.notes.find("host VM (line 2) + GPUs"), std::string::npos) << whole.notes;
  const GpuOffer& alone = find_offer(c, "gcp us-central1-b 1x A100 (GPUs only)");
  EXPECT_DOUBLE_EQ(alone.on_demand_per_hour, 2.93391);
  EXPECT_NE(alone.notes.find("no a2-highgpu-1g row in this file"), std::string::npos) << alone.notes;
  const GpuOffer& t4 = find_offer(c, "gcp us-central1-a 1x T4 (GPUs only)");
  EXPECT_NE(t4.notes.find("N1 VM of your choice"), std::string::npos) << t4.notes;
  EXPECT_EQ(gcp_host_machine_type("L4", 4), "g2-standard-48");
  EXPECT_EQ(gcp_host_machine_type("A100", 16), "a2-megagpu-16g");
  EXPECT_EQ(gcp_host_machine_type("V100", 8), "");
}

TEST(SkyPilotCatalogue, KeepsTheFirstOfRepeatedRows) {
  test::AdviseTempDir dir("skypilot_dup");
  const std::string file =
      dir.write_text("aws_vms.csv", kAwsHeader + "g4dn.xlarge,T4,1.0,4.0,16.0," + kGpuInfo +
                                        ",0.71,0.2264,ap-northeast-1,apne1-az4\n" + "g4dn.xlarge,T4,1.0,4.0,16.0," +
                                        kGpuInfo + ",0.99,0.5,ap-northeast-1,apne1-az4\n");
  const GpuOfferCatalogue c = read_skypilot_catalogue(file, {});
  ASSERT_EQ(c.offers.size(), 1u);
  EXPECT_DOUBLE_EQ(c.offers[0].on_demand_per_hour, 0.71);
  EXPECT_NE(c.description.find("1 row: a repeat of an earlier row"), std::string::npos) << c.description;
}

TEST(SkyPilotCatalogue, SharesOfOneGpuAreLeftOutAndCounted) {
  test::AdviseTempDir dir("skypilot_share");
  const std::string file =
      dir.write_text("azure_vms.csv",
                     "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
                     "Standard_NV4as_v4,Radeon MI25,0.125,4,14,MI25,0.2,0.05,eastus\n"
                     "Standard_NC4as_T4_v3,T4,1,4,28,T4,0.526,0.05,eastus\n");
  const GpuOfferCatalogue c = read_skypilot_catalogue(file, {});
  ASSERT_EQ(c.offers.size(), 1u);
  EXPECT_NE(c.description.find("a share of one GPU"), std::string::npos) << c.description;
}

TEST(SkyPilotCatalogue, NamesGpusAsTheSpecTable) {
  EXPECT_EQ(skypilot_gpu_name("A100"), "A100-40GB");
  EXPECT_EQ(skypilot_gpu_name("A100-80GB-SXM"), "A100-80GB");
  EXPECT_EQ(skypilot_gpu_name("H100-SXM"), "H100");
  EXPECT_EQ(skypilot_gpu_name("V100-32GB"), "V100");
  EXPECT_EQ(skypilot_gpu_name("A10G"), "A10G");  // no spec row: advise lists it as skipped
  EXPECT_EQ(skypilot_gpu_name("H100", "gpu_1x_h100_pcie"), "H100-PCIE");
  EXPECT_EQ(skypilot_gpu_name("H100", "gpu_8x_h100_sxm5"), "H100");
  EXPECT_EQ(skypilot_gpu_name("A100", "gpu_1x_a100"), "A100-40GB");
}

TEST(SkyPilotCatalogue, CloudComesFromTheFileName) {
  EXPECT_EQ(skypilot_cloud_of("/x/aws_vms.csv"), "aws");
  EXPECT_EQ(skypilot_cloud_of("/home/u/.sky/catalogs/v7/runpod/vms.csv"), "runpod");
  EXPECT_NE(error_of([] { skypilot_cloud_of("/x/prices.csv"); }).find("name it <cloud>_vms.csv"), std::string::npos);
  EXPECT_TRUE(is_skypilot_catalogue("/x/aws_vms.csv"));
  EXPECT_FALSE(is_skypilot_catalogue("gpu_offers"));
}

TEST(SkyPilotCatalogue, BadFilesNameFileLineAndColumn) {
  test::AdviseTempDir dir("skypilot_bad");
  const std::string row = "g4dn.xlarge,T4,1.0,4.0,16.0," + kGpuInfo;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ng4dn.xlarge,T4,1,0.7,us-east-1\n",
       "aws_vms.csv:1: missing column 'SpotPrice'"},
      {kAwsHeader + row + ",cheap,0.2,us-east-1,use1-az1\n", "aws_vms.csv:2: column 'Price': expected a number"},
      {kAwsHeader + row + ",-0.7,0.2,us-east-1,use1-az1\n", "aws_vms.csv:2: column 'Price': expected a number"},
      {kAwsHeader + row + ",0.7,nan,us-east-1,use1-az1\n", "aws_vms.csv:2: column 'SpotPrice'"},
      {kAwsHeader + "g4dn.xlarge,T4,0,4.0,16.0," + kGpuInfo + ",0.7,0.2,us-east-1,use1-az1\n",
       "aws_vms.csv:2: column 'AcceleratorCount'"},
      {kAwsHeader + "g4dn.xlarge,T4,1e9,4.0,16.0," + kGpuInfo + ",0.7,0.2,us-east-1,use1-az1\n",
       "aws_vms.csv:2: column 'AcceleratorCount'"},
      {kAwsHeader + "g4dn.xlarge,T4,2.5,4.0,16.0," + kGpuInfo + ",0.7,0.2,us-east-1,use1-az1\n", "whole above 1"},
      {kAwsHeader + row + ",0.7,0.2,us-east-1\n", "aws_vms.csv:2: expected 10 fields as in the header, got 9"},
      {kAwsHeader + row + ",0.7,0.2,us-east-1,use1-az\xe9\n", "aws_vms.csv:2: column 'AvailabilityZone'"},
      {kAwsHeader + row + ",0.7,0.2,,use1-az1\n", "aws_vms.csv:2: column 'Region'"},
      {"", "empty file"},
  };
  for (const auto& [text, message] : cases) {
    const std::string file = dir.write_text("aws_vms.csv", text);
    const std::string error = error_of([&] { read_skypilot_catalogue(file, {}); });
    EXPECT_NE(error.find(message), std::string::npos) << "want: " << message << "\ngot: " << error;
  }
}

TEST(SkyPilotCatalogue, DirectoriesNeedVmsFiles) {
  test::AdviseTempDir empty("skypilot_empty");
  EXPECT_NE(error_of([&] { read_skypilot_catalogue(empty.path(), {}); }).find("no SkyPilot vms.csv"),
            std::string::npos);
  test::AdviseTempDir versions("skypilot_versions");
  versions.write_text("v7/aws/vms.csv", kAwsHeader);
  versions.write_text("common_accelerators.csv", "AcceleratorName,Clouds\n");
  EXPECT_NE(error_of([&] { read_skypilot_catalogue(versions.path(), {}); }).find("point at one of them"),
            std::string::npos);
  test::AdviseTempDir both("skypilot_both");
  both.write_text("aws_vms.csv", kAwsHeader);
  both.write_text("aws/vms.csv", kAwsHeader);
  EXPECT_NE(error_of([&] { read_skypilot_catalogue(both.path(), {}); }).find("two files for cloud aws"),
            std::string::npos);
  test::AdviseTempDir header_only("skypilot_header");
  header_only.write_text("aws/vms.csv", kAwsHeader);
  EXPECT_NE(error_of([&] { read_skypilot_catalogue(header_only.path(), {}); }).find("no GPU offer"), std::string::npos);
}

}  // namespace
}  // namespace spotsim
