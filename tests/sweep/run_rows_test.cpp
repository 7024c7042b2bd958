// Chunk files read back bit-identically, damaged ones are refused with the file named; CSV quoting.
#include "app/sweep/run_rows.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "base/errors.hpp"
#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

SweepPlan plan_with_chunks_of(std::uint64_t chunk_runs) {
  auto doc = nlohmann::json::parse(testing::small_spec_text());
  doc["chunk_runs"] = chunk_runs;
  ExperimentSpec spec = parse_experiment_spec(doc, "spec.json");
  return plan_sweep(std::move(spec), {TraceInfo{"us-west1", "us-west1", 5, "0", {1.0, 1.0}, {}}});
}

std::vector<RunResult> awkward_runs(std::uint64_t count) {
  std::vector<RunResult> runs(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    RunResult& r = runs[i];
    r.replication = i;
    r.completed = i % 2 == 0;
    r.deadline_met = i % 3 == 0;
    r.completion_hours = 0.1 * static_cast<double>(i) + 1.0 / 3.0;
    r.cost_total = std::nextafter(100.0, 200.0) * static_cast<double>(i);
    r.cost_spot = 5e-324;  // the smallest subnormal
    r.cost_on_demand = 1.7976931348623157e308;
    r.preemptions = static_cast<int>(i);
    r.lost_work_hours = std::sqrt(2.0);
    r.fingerprint = 0xfedcba9876543210ULL ^ i;
    r.events = i * 1000;
  }
  return runs;
}

TEST(SweepChunkFile, RoundTripsEveryFieldBitForBit) {
  const SweepPlan plan = plan_with_chunks_of(7);
  const std::uint64_t chunk = 3;
  const auto runs = awkward_runs(plan.chunk_end(chunk) - plan.chunk_begin(chunk));
  const std::string text = chunk_file_text(plan, chunk, runs);
  const auto back = parse_chunk_file(plan, chunk, text, "c.csv");
  ASSERT_EQ(back.size(), runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(std::memcmp(&back[i].completion_hours, &runs[i].completion_hours, sizeof(double)), 0);
    EXPECT_EQ(back[i].cost_total, runs[i].cost_total);
    EXPECT_EQ(back[i].cost_spot, runs[i].cost_spot);
    EXPECT_EQ(back[i].cost_on_demand, runs[i].cost_on_demand);
    EXPECT_EQ(back[i].lost_work_hours, runs[i].lost_work_hours);
    EXPECT_EQ(back[i].fingerprint, runs[i].fingerprint);
    EXPECT_EQ(back[i].completed, runs[i].completed);
    EXPECT_EQ(back[i].deadline_met, runs[i].deadline_met);
    EXPECT_EQ(back[i].preemptions, runs[i].preemptions);
    EXPECT_EQ(back[i].events, runs[i].events);
  }
  EXPECT_EQ(chunk_file_text(plan, chunk, back), text);
}

TEST(SweepChunkFile, RefusesTruncatedForeignOrDamagedFiles) {
  const SweepPlan plan = plan_with_chunks_of(7);
  const auto runs = awkward_runs(7);
  const std::string text = chunk_file_text(plan, 2, runs);
  auto error_of = [&](const std::string& t, std::uint64_t chunk) {
    try {
      parse_chunk_file(plan, chunk, t, "dir/chunks/c.csv");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error_of(text, 3).find("dir/chunks/c.csv: expected the header"), std::string::npos);  // another chunk
  EXPECT_NE(error_of(text.substr(0, text.size() - 6), 2).find("end marker"), std::string::npos);  // truncated
  std::string damaged = text;
  damaged.replace(damaged.find(",0.3333"), 7, ",abc333");
  EXPECT_NE(error_of(damaged, 2).find("expected a number"), std::string::npos);
  const SweepPlan other = plan_with_chunks_of(8);  // a different spec: another hash
  EXPECT_THROW(parse_chunk_file(other, 2, text, "c.csv"), InputError);
}

TEST(SweepRunsCsv, QuotesFieldsWithCommas) {
  EXPECT_EQ(csv_field("spot-only"), "spot-only");
  EXPECT_EQ(csv_field("adaptive:window=4h,cooldown=1h"), "\"adaptive:window=4h,cooldown=1h\"");
  EXPECT_EQ(csv_field("say \"hi\", twice"), "\"say \"\"hi\"\", twice\"");
}

}  // namespace
}  // namespace spotsim
