// The step-time model's communication cost for campaign jobs that state their training
// (docs/campaign.md#communication): the efficiency is the hand-worked ring all-reduce of
// docs/step-time.md#data-parallel against the step, the job's work is divided by it on its layout (DIY zones and
// managed shapes each their own), the job stream's columns, and the refusals naming the job, the zone and the table.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "app/advise/managed_offer_catalogue.hpp"
#include "app/campaign/campaign_options.hpp"
#include "app/campaign/job_communication.hpp"
#include "app/campaign/job_stream_csv.hpp"
#include "base/errors.hpp"
#include "campaign_test_support.hpp"
#include "engine/campaign/campaign_runner.hpp"
#include "steptime/instance_links.hpp"

namespace spotsim {
namespace {

using testing::campaign_job;
using testing::factories;
using testing::kStartupHours;
using testing::MarketBuilder;

// 1-GPU instances on a 24 Gbit/s network (3 GB/s), 25 us per ring step: a2-highgpu-1g's figures.
InstanceLinks one_gpu_links(const std::string& type = "t-1g", double inter_gbps = 3.0) {
  InstanceLinks links;
  links.instance_type = type;
  links.gpus_per_instance = 1;
  links.inter_gbps = inter_gbps;
  links.latency_us = 25.0;
  return links;
}

// 8-GPU instances: NVLink 300 GB/s per GPU, 5.7 us per step inside; 12.5 GB/s between instances.
InstanceLinks eight_gpu_links() {
  InstanceLinks links;
  links.instance_type = "t-8g";
  links.gpus_per_instance = 8;
  links.intra_gbps = 300.0;
  links.intra_latency_us = 5.7;
  links.inter_gbps = 12.5;
  links.latency_us = 25.0;
  return links;
}

// 1.3B parameters with bf16 gradients, 400 ms a step on one GPU, DDP's overlap.
DataParallelTraining llm() {
  DataParallelTraining t;
  t.params = 1.3e9;
  t.gradient_bytes = 2.0;
  t.step_ms = 400.0;
  t.overlap = 1.0;
  return t;
}

// PyTorch DDP's default buckets, written out: a first bucket of 1 MiB, then 25 MiB each.
double ddp_buckets(double bytes) {
  const double mib = 1024.0 * 1024.0;
  return 1.0 + std::max(0.0, std::ceil((bytes - mib) / (25.0 * mib)));
}

// A ring of n ranks on `bytes` at `gbps` GB/s, `latency_us` per step, paid by each of `k` collectives (seconds).
double ring_s(double bytes, int n, double gbps, double latency_us, double k) {
  return 2.0 * (n - 1) / n * bytes / (gbps * 1e9) + k * 2.0 * (n - 1) * latency_us * 1e-6;
}

// step / compute by the formula: compute + max(0, all-reduce - overlap x 2/3 compute).
double expected_efficiency(const DataParallelTraining& t, double allreduce_s) {
  const double exposed = std::max(0.0, allreduce_s * 1e3 - t.overlap * (2.0 / 3.0) * t.step_ms);
  return t.step_ms / (t.step_ms + exposed);
}

TEST(CampaignCommunication, EfficiencyIsTheHandWorkedRingOverTheNetwork) {
  const DataParallelTraining t = llm();
  const double bytes = t.params * t.gradient_bytes;
  for (const int m : {2, 4, 8}) {
    const double expected = expected_efficiency(t, ring_s(bytes, m, 3.0, 25.0, ddp_buckets(bytes)));
    EXPECT_NEAR(data_parallel_efficiency(t, m, m, one_gpu_links()), expected, 1e-9) << m << " instances";
  }
  // Four instances: 1.5 x 2.6 GB / 3 GB/s = 1.3 s plus 101 collectives x 6 steps x 25 us, against 267 ms of backward.
  EXPECT_NEAR(data_parallel_efficiency(t, 4, 4, one_gpu_links()), 400.0 / (400.0 + 1300.0 + 15.15 - 266.667), 1e-4);
}

TEST(CampaignCommunication, OneGpuCommunicatesNothing) {
  DataParallelTraining t = llm();
  t.params = 1e12;
  EXPECT_DOUBLE_EQ(data_parallel_efficiency(t, 1, 1, one_gpu_links()), 1.0);
  EXPECT_DOUBLE_EQ(data_parallel_efficiency(t, 1, 1, eight_gpu_links()), 1.0) << "one GPU of an 8-GPU instance";
}

TEST(CampaignCommunication, AJobSmallerThanAnInstanceAllReducesOverItsOwnGpus) {
  const DataParallelTraining t = llm();
  const double bytes = t.params * t.gradient_bytes;
  const double two = expected_efficiency(t, ring_s(bytes, 2, 300.0, 5.7, ddp_buckets(bytes)));
  const double eight = expected_efficiency(t, ring_s(bytes, 8, 300.0, 5.7, ddp_buckets(bytes)));
  EXPECT_NEAR(data_parallel_efficiency(t, 2, 1, eight_gpu_links()), two, 1e-9);
  EXPECT_NEAR(data_parallel_efficiency(t, 8, 1, eight_gpu_links()), eight, 1e-9);
  EXPECT_DOUBLE_EQ(two, 1.0) << "NVLink: hidden behind backward";
}

TEST(CampaignCommunication, OverlapDecidesWhatBackwardHides) {
  DataParallelTraining t = llm();
  t.params = 25.6e6;  // ResNet-50, fp32 gradients: 102 MB
  t.gradient_bytes = 4.0;
  t.step_ms = 95.0;
  const double bytes = t.params * t.gradient_bytes;
  const double allreduce = ring_s(bytes, 4, 3.0, 25.0, ddp_buckets(bytes));
  EXPECT_DOUBLE_EQ(data_parallel_efficiency(t, 4, 4, one_gpu_links()), 1.0)
      << "52 ms of all-reduce behind 63 ms of backward";
  t.overlap = 0.0;
  EXPECT_NEAR(data_parallel_efficiency(t, 4, 4, one_gpu_links()), 95.0 / (95.0 + allreduce * 1e3), 1e-9);
}

TEST(CampaignCommunication, WorkIsDividedByTheModelledEfficiencyOnAnyLayout) {
  CampaignSpec spec;
  spec.cross_instance_efficiency = 0.9;
  CampaignJob job = campaign_job(10.0);
  EXPECT_EQ(campaign_job_work(spec, job, 1).work, job.job.work) << "flat rule: one instance pays nothing";
  EXPECT_EQ(campaign_job_work(spec, job, 2).work, millis_from_hours(10.0 / 0.9));
  job.scaling_efficiency = 0.5;
  EXPECT_EQ(campaign_job_work(spec, job, 1).work, millis_from_hours(20.0)) << "the model prices one instance too";
  EXPECT_EQ(campaign_job_work(spec, job, 2).work, millis_from_hours(20.0));
  EXPECT_DOUBLE_EQ(campaign_job_efficiency(spec, job, 2), 0.5);
  job.scaling_efficiency = 1.5;
  spec.jobs = {job};
  EXPECT_THROW(validate_campaign(spec, "test"), InputError);
}

// Two 1-GPU zones never preempted, the second with a faster network.
SpotMarket two_networks() {
  SpotMarket m = MarketBuilder("two-networks")
                     .zone("slow")
                     .on_demand(3.0)
                     .spot_price(1.0)
                     .hourly_counts({16.0})
                     .gpus(1, "A100-40GB")
                     .zone("fast")
                     .on_demand(3.0)
                     .spot_price(1.0)
                     .hourly_counts({16.0})
                     .gpus(1, "A100-40GB")
                     .tick(kMillisPerHour)
                     .build();
  m.zones[0].instance_type = "t-slow";
  m.zones[1].instance_type = "t-fast";
  return m;
}

InstanceLinkTable table_of(std::vector<InstanceLinks> entries) {
  InstanceLinkTable table;
  table.path = "links-under-test.json";
  for (InstanceLinks& links : entries)
    table.entries.push_back(InstanceLinkEntry{std::move(links), "", "", "", "", 0, false});
  return table;
}

TEST(CampaignCommunication, ACampaignJobFinishesAfterItsWorkOverTheEfficiency) {
  SpotMarket market = two_networks();
  market.zones.pop_back();
  const InstanceLinkTable table = table_of({one_gpu_links("t-slow")});
  CampaignSpec spec;
  spec.jobs = {campaign_job(6.0, 0.0, 4), campaign_job(6.0, 0.0, 4)};
  spec.jobs[0].name = "modelled";
  spec.jobs[0].training = llm();
  spec.jobs[1].name = "flat";
  spec.cross_instance_efficiency = 0.9;
  model_campaign_communication(spec.jobs, market, table);
  const double efficiency = data_parallel_efficiency(llm(), 4, 4, one_gpu_links());
  ASSERT_DOUBLE_EQ(spec.jobs[0].scaling_efficiency, efficiency);
  EXPECT_TRUE(std::isnan(spec.jobs[1].scaling_efficiency)) << "no params: the flat rule";
  const CampaignRun run =
      run_campaign(market, spec, factories("spot-only", "none"), ReplicationPlan{1, 0, 1, 1}, TraceStart{false, 0})[0];
  ASSERT_EQ(run.completed, 2);
  const double modelled_work = to_hours(millis_from_hours(6.0)) / efficiency;
  EXPECT_NEAR(run.jobs[0].finish_hours, kStartupHours + modelled_work, 1e-6);
  EXPECT_NEAR(run.jobs[1].finish_hours, kStartupHours + 6.0 / 0.9, 1e-6);
  EXPECT_NEAR(run.jobs[0].cost, 4 * 1.0 * (kStartupHours + modelled_work), 4.0 / 3600) << "billed by the second";
}

TEST(CampaignCommunication, TheSlowestOfAJobsZonesCounts) {
  const SpotMarket market = two_networks();
  const InstanceLinkTable table = table_of({one_gpu_links("t-slow", 3.0), one_gpu_links("t-fast", 50.0)});
  std::vector<CampaignJob> jobs = {campaign_job(6.0, 0.0, 4), campaign_job(6.0, 0.0, 4)};
  for (CampaignJob& job : jobs) job.training = llm();
  jobs[1].zones = {1};
  model_campaign_communication(jobs, market, table);
  EXPECT_DOUBLE_EQ(jobs[0].scaling_efficiency, data_parallel_efficiency(llm(), 4, 4, one_gpu_links("t-slow", 3.0)));
  EXPECT_DOUBLE_EQ(jobs[1].scaling_efficiency, data_parallel_efficiency(llm(), 4, 4, one_gpu_links("t-fast", 50.0)));
  EXPECT_LT(jobs[0].scaling_efficiency, jobs[1].scaling_efficiency);
}

TEST(CampaignCommunication, AnElasticJobGetsTheModelsStepTable) {
  SpotMarket market = two_networks();
  market.zones.pop_back();
  const InstanceLinkTable table = table_of({one_gpu_links("t-slow")});
  std::vector<CampaignJob> jobs = {campaign_job(6.0, 0.0, 4)};
  jobs[0].job.elastic.min_nodes = 2;
  jobs[0].training = llm();
  model_campaign_communication(jobs, market, table);
  const auto& steps = jobs[0].job.elastic.step_time_s_by_nodes;
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_DOUBLE_EQ(steps[0], 0.4) << "one instance of one GPU: the step";
  for (int k = 2; k <= 4; ++k) {
    EXPECT_NEAR(steps[static_cast<std::size_t>(k - 1)] * 1e3,
                400.0 / data_parallel_efficiency(llm(), k, k, one_gpu_links("t-slow")), 1e-9);
  }
  EXPECT_NEAR(jobs[0].scaling_efficiency, 0.4 / steps[3], 1e-12);
  validate_elastic(jobs[0].job, "test");
}

TEST(CampaignCommunication, RefusalsNameTheJobTheZoneAndTheTable) {
  const auto message = [](SpotMarket market, const InstanceLinkTable& table) {
    std::vector<CampaignJob> jobs = {campaign_job(6.0, 0.0, 2)};
    jobs[0].name = "llm-7b";
    jobs[0].training = llm();
    try {
      model_campaign_communication(jobs, market, table);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SpotMarket market = two_networks();
  market.zones.pop_back();
  const std::string missing = message(market, table_of({one_gpu_links("t-other")}));
  for (const char* word : {"llm-7b", "t-slow", "slow", "links-under-test.json", "--links", "params"}) {
    EXPECT_NE(missing.find(word), std::string::npos) << word << " in: " << missing;
  }
  InstanceLinks eight = eight_gpu_links();
  eight.instance_type = "t-slow";
  const std::string shape = message(market, table_of({eight}));
  EXPECT_NE(shape.find("8 GPU(s) per instance"), std::string::npos) << shape;
  market.zones[0].instance_type.clear();
  const std::string untyped = message(market, table_of({one_gpu_links("t-slow")}));
  EXPECT_NE(untyped.find("names no instance type"), std::string::npos) << untyped;
  // A job without params needs no table at all.
  std::vector<CampaignJob> plain = {campaign_job(6.0, 0.0, 2)};
  EXPECT_NO_THROW(model_campaign_communication(plain, market, InstanceLinkTable{}));
}

TEST(CampaignCommunication, TheJobStreamStatesTheTraining) {
  JobSpec defaults;
  const auto jobs = read_job_stream_text(
      "name,work,gpus,params,step_time,gradient_bytes,overlap\na,6h,8,1.3B,400ms,2,0.5\nb,6h,8,,,,\n", "jobs",
      defaults);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_DOUBLE_EQ(jobs[0].training.params, 1.3e9);
  EXPECT_DOUBLE_EQ(jobs[0].training.step_ms, 400.0);
  EXPECT_DOUBLE_EQ(jobs[0].training.gradient_bytes, 2.0);
  EXPECT_DOUBLE_EQ(jobs[0].training.overlap, 0.5);
  EXPECT_FALSE(jobs[1].training.stated());
  const auto bad = [&](const std::string& header, const std::string& row) {
    try {
      read_job_stream_text(header + "\n" + row + "\n", "jobs", defaults);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(bad("work,params", "6h,7B").find("step_time"), std::string::npos);
  EXPECT_NE(bad("work,step_time", "6h,300ms").find("params beside it"), std::string::npos);
  EXPECT_NE(bad("work,overlap", "6h,0.5").find("params beside it"), std::string::npos);
  EXPECT_NE(bad("work,params,step_time", "6h,7X,300ms").find("params: expected a parameter count"), std::string::npos);
  EXPECT_NE(bad("work,params,step_time", "6h,-7B,300ms").find("between 1 and 1e15"), std::string::npos);
  EXPECT_NE(bad("work,params,step_time", "6h,7B,0ms").find("positive duration"), std::string::npos);
  EXPECT_NE(bad("work,params,step_time,overlap", "6h,7B,1s,1.5").find("overlap"), std::string::npos);
  EXPECT_NE(bad("work,params,step_time,gradient_bytes", "6h,7B,1s,0").find("(0, 16]"), std::string::npos);
  EXPECT_NE(bad("work,params,step_time", "6h,7B,").find("jobs:2: step_time"), std::string::npos) << "names the line";
}

TEST(CampaignCommunication, ManagedRowsPriceTheShapeTheyRent) {
  const SpotMarket market = testing::shipped_trace("gcp-us-central1-c.json");
  const InstanceLinkTable table = read_instance_links(locate_instance_links("instance_links"));
  CampaignSpec spec;
  spec.jobs = {campaign_job(4.0)};
  spec.jobs[0].name = "llm";
  spec.jobs[0].job.nodes = 0;
  spec.jobs[0].job.gpus = 8;
  spec.jobs[0].training = llm();
  resolve_campaign_jobs(spec.jobs, market, 1, table);
  const double diy = data_parallel_efficiency(llm(), 8, 8, table.at("a2-highgpu-1g", "test").links);
  EXPECT_DOUBLE_EQ(spec.jobs[0].scaling_efficiency, diy);
  EXPECT_LT(diy, 0.5) << "1.3B over 24 Gbit/s TCP";
  const PolicyRegistry registry = builtin_policy_registry();
  const auto rows = managed_campaign_rows(market, spec, "managed_training", table, registry, "young-daly",
                                          ReplicationPlan{1, 0, 1, 1}, false);
  ASSERT_FALSE(rows.empty());
  for (const CampaignRow& row : rows) {
    SCOPED_TRACE(row.label);
    ASSERT_EQ(row.job_efficiency.size(), 1u);
    EXPECT_GT(row.job_efficiency[0], diy) << "one 8-GPU instance: NVLink, not the network";
  }
}

TEST(CampaignCommunication, AJobRentsTheShapeItsWorkCostsLeastOn) {
  // 1-GPU instances cheaper per GPU ($2.5/h against $24/h for eight): a job without params takes eight of them; the
  // 1.3B model, at a quarter of its speed over their network, costs less on the 8-GPU machine.
  SpotMarket market = MarketBuilder("two-shapes")
                          .zone("z-1g")
                          .on_demand(2.5)
                          .spot_price(1.0)
                          .hourly_counts({16.0})
                          .gpus(1, "A100-40GB")
                          .zone("z-8g")
                          .on_demand(24.0)
                          .spot_price(8.0)
                          .hourly_counts({2.0})
                          .gpus(8, "A100-40GB")
                          .tick(kMillisPerHour)
                          .build();
  market.zones[0].instance_type = "t-1g";
  market.zones[1].instance_type = "t-8g";
  const InstanceLinkTable table = table_of({one_gpu_links("t-1g"), eight_gpu_links()});
  std::vector<CampaignJob> jobs = {campaign_job(6.0), campaign_job(6.0)};
  for (CampaignJob& job : jobs) {
    job.job.nodes = 0;
    job.job.gpus = 8;
  }
  jobs[1].name = "llm";
  jobs[1].training = llm();
  resolve_campaign_jobs(jobs, market, 1, table);
  EXPECT_EQ(jobs[0].zones, std::vector<int>{0});
  EXPECT_EQ(jobs[0].job.nodes, 8);
  EXPECT_TRUE(std::isnan(jobs[0].scaling_efficiency));
  ASSERT_LT(data_parallel_efficiency(llm(), 8, 8, one_gpu_links("t-1g")), 20.0 / 24.0);
  EXPECT_EQ(jobs[1].zones, std::vector<int>{1});
  EXPECT_EQ(jobs[1].job.nodes, 1);
  EXPECT_DOUBLE_EQ(jobs[1].scaling_efficiency, data_parallel_efficiency(llm(), 8, 1, eight_gpu_links()));
}

TEST(CampaignCommunication, EveryShippedManagedOfferHasItsHardwaresLinks) {
  const InstanceLinkTable links = read_instance_links(locate_instance_links("instance_links"));
  const GpuOfferCatalogue gpu_offers = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  const ManagedOfferCatalogue managed =
      read_managed_offer_catalogue(locate_managed_offer_catalogue("managed_training"), gpu_offers);
  ASSERT_FALSE(managed.offers.empty());
  for (const ManagedOffer& offer : managed.offers) {
    const InstanceLinkEntry* entry = links.find(offer.diy_instance_type);
    ASSERT_NE(entry, nullptr) << offer.label();
    EXPECT_EQ(entry->links.gpus_per_instance, offer.gpus_per_instance) << offer.label();
  }
}

}  // namespace
}  // namespace spotsim
