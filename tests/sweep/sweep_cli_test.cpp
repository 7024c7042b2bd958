// `spotsim sweep` end to end, in process: the result files are byte-identical for 1 and 2 threads, for shards
// merged, and for an interrupted sweep resumed; misuse gets one clear error and exit code 2.
#include <gtest/gtest.h>

#include <algorithm>

#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

using namespace spotsim::testing;

const std::vector<std::string> kResultFiles = {"runs.csv", "summary.json", "summary.md", "manifest.json", "sweep.json"};

fs::path spec_file() { return write_file(fresh_dir("spec") / "small.json", small_spec_text()); }

void expect_same_results(const fs::path& a, const fs::path& b) {
  for (const std::string& name : kResultFiles) {
    ASSERT_TRUE(fs::exists(a / name)) << a / name;
    ASSERT_TRUE(fs::exists(b / name)) << b / name;
    EXPECT_TRUE(file_text(a / name) == file_text(b / name)) << name << " differs between " << a << " and " << b;
  }
}

// The reference: one thread, no interruption.
const fs::path& reference() {
  static const fs::path dir = [] {
    const fs::path out = fresh_dir("reference");
    const Outcome o = sweep({spec_file().string(), "--out", out.string(), "--threads", "1"});
    EXPECT_EQ(o.code, 0) << o.err;
    return out;
  }();
  return dir;
}

TEST(SweepCli, WritesTidyOutputsAndPrintsTheSummary) {
  const fs::path out = fresh_dir("outputs");
  const Outcome o = sweep({spec_file().string(), "--out", out.string(), "--threads", "2"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("| # | trace | job | policy |"), std::string::npos);
  EXPECT_NE(o.out.find("## Checkpoint interval"), std::string::npos);
  const std::string csv = file_text(out / "runs.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 24 * 40);
  EXPECT_EQ(csv.rfind("run,configuration,trace,policy,checkpoint,job,seed,replication,cost_total", 0), 0u);
  EXPECT_NE(csv.find(",adaptive:margin=2h,fixed:interval=1h,deadline_hours=16,"), std::string::npos);
  const auto manifest = nlohmann::json::parse(file_text(out / "manifest.json"));
  EXPECT_EQ(manifest["spec"]["seed"], 11);
  EXPECT_EQ(manifest["runs"], 960);
  EXPECT_FALSE(manifest["git_revision"].get<std::string>().empty());
  EXPECT_EQ(manifest["traces"][0]["name"], "us-west1");
  EXPECT_TRUE(manifest["traces"][0]["seed"].is_number_unsigned());
  const auto summary = nlohmann::json::parse(file_text(out / "summary.json"));
  EXPECT_EQ(summary["configurations"].size(), 24u);
  EXPECT_EQ(summary["checkpoint_tuning"].size(), 6u);
}

TEST(SweepCli, OutputsAreByteIdenticalForOneAndTwoThreads) {
  const fs::path two = fresh_dir("two-threads");
  const Outcome o = sweep({spec_file().string(), "--out", two.string(), "--threads", "2"});
  ASSERT_EQ(o.code, 0) << o.err;
  expect_same_results(reference(), two);
}

TEST(SweepCli, ShardsMergedEqualASingleRun) {
  const fs::path spec = spec_file();
  std::vector<std::string> shard_dirs;
  for (int i = 1; i <= 3; ++i) {
    const fs::path dir = fresh_dir("shard" + std::to_string(i));
    const Outcome o =
        sweep({spec.string(), "--out", dir.string(), "--shard", std::to_string(i) + "/3", "--threads", "2"});
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_FALSE(fs::exists(dir / "runs.csv")) << "a shard alone has no results";
    shard_dirs.push_back(dir.string());
  }
  const fs::path merged = fresh_dir("merged");
  // Shards given in any order.
  const Outcome o = sweep({"merge", shard_dirs[2], shard_dirs[0], shard_dirs[1], "--out", merged.string()});
  ASSERT_EQ(o.code, 0) << o.err;
  expect_same_results(reference(), merged);

  const Outcome missing = sweep({"merge", shard_dirs[0], shard_dirs[2], "--out", fresh_dir("merged2").string()});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("shard 2/3 is missing"), std::string::npos) << missing.err;
  const Outcome twice =
      sweep({"merge", shard_dirs[0], shard_dirs[0], shard_dirs[1], "--out", fresh_dir("merged3").string()});
  EXPECT_EQ(twice.code, 2);
  EXPECT_NE(twice.err.find("expected each shard once"), std::string::npos) << twice.err;
}

TEST(SweepCli, AnInterruptedSweepResumesToTheSameResults) {
  const fs::path spec = spec_file();
  const fs::path out = fresh_dir("interrupted");
  const Outcome first = sweep({spec.string(), "--out", out.string(), "--threads", "2", "--stop-after-chunks", "7"});
  ASSERT_EQ(first.code, 3) << first.err;
  EXPECT_NE(first.err.find("--resume"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "runs.csv"));
  std::size_t chunks = 0;
  for (const auto& entry : fs::directory_iterator(out / "chunks")) chunks += entry.path().extension() == ".csv";
  EXPECT_EQ(chunks, 7u);
  // Without --resume the finished work is protected.
  const Outcome refused = sweep({spec.string(), "--out", out.string()});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("pass --resume"), std::string::npos) << refused.err;
  // A second interruption, then the rest.
  ASSERT_EQ(sweep({spec.string(), "--out", out.string(), "--resume", "--stop-after-chunks", "5"}).code, 3);
  const Outcome rest = sweep({spec.string(), "--out", out.string(), "--resume", "--threads", "2"});
  ASSERT_EQ(rest.code, 0) << rest.err;
  EXPECT_NE(rest.err.find("8 computed, 12 already done"), std::string::npos) << rest.err;
  expect_same_results(reference(), out);
}

TEST(SweepCli, ResumeRefusesAnotherSpec) {
  const fs::path out = fresh_dir("other-spec");
  ASSERT_EQ(sweep({spec_file().string(), "--out", out.string(), "--stop-after-chunks", "1"}).code, 3);
  auto doc = nlohmann::json::parse(small_spec_text());
  doc["seed"] = 12;
  const fs::path other = write_file(fresh_dir("spec2") / "other.json", doc.dump());
  const Outcome o = sweep({other.string(), "--out", out.string(), "--resume"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("field 'spec_hash'"), std::string::npos) << o.err;
}

TEST(SweepCli, BadInputGetsOneLineAndExitCode2) {
  const fs::path bad = write_file(fresh_dir("bad") / "bad.json", R"({"format": "spotsim-experiment", "version": 1,
      "name": "x", "replications": 10, "traces": ["us-west1"], "policies": ["spot-onyl"]})");
  const Outcome o = sweep({bad.string(), "--out", fresh_dir("bad-out").string()});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("bad.json: field 'policies[0]'"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << o.err;
  EXPECT_EQ(sweep({bad.string()}).code, 2);  // no --out
  EXPECT_EQ(sweep({spec_file().string(), "--out", fresh_dir("x").string(), "--shard", "4/3"}).code, 2);
  EXPECT_EQ(sweep({"--help"}).code, 0);
  EXPECT_NE(sweep({"--help"}).out.find("--resume"), std::string::npos);
}

}  // namespace
}  // namespace spotsim
