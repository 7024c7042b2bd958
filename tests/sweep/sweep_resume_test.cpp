// Damaged chunk files: --resume recomputes a chunk whose file is truncated or garbled (saying so), and the
// sweep ends with the results of an undamaged one; a damaged chunk met by a merge is an error naming the file.
#include <gtest/gtest.h>

#include "app/sweep/run_rows.hpp"
#include "app/sweep/sweep_directory.hpp"
#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

using namespace spotsim::testing;

fs::path spec_file() { return write_file(fresh_dir("resume-spec") / "small.json", small_spec_text()); }

const std::vector<std::string> kResultFiles = {"runs.csv", "summary.json", "summary.md", "manifest.json"};

TEST(ChunkFileProblem, EveryTruncationOfAChunkIsReported) {
  const fs::path out = fresh_dir("truncations");
  ASSERT_EQ(sweep({spec_file().string(), "--out", out.string(), "--quiet"}).code, 0);
  const std::string text = file_text(chunk_path(out.string(), 3));
  EXPECT_EQ(chunk_file_problem(3, text), std::nullopt);
  // Every cut short of the end marker's final newline (without which the file still holds every run).
  for (std::size_t size = 0; size + 1 < text.size(); ++size) {
    EXPECT_NE(chunk_file_problem(3, text.substr(0, size)), std::nullopt) << "cut at byte " << size;
  }
  EXPECT_NE(chunk_file_problem(4, text), std::nullopt);  // another chunk's file
  std::string garbled = text;
  garbled[garbled.find('\n', garbled.find('\n') + 1) + 5] = 'x';  // inside the first run's row
  const auto problem = chunk_file_problem(3, garbled);
  ASSERT_NE(problem, std::nullopt);
  EXPECT_NE(problem->find("run 150"), std::string::npos) << *problem;
}

TEST(SweepResume, RecomputesTruncatedAndGarbledChunks) {
  const fs::path whole = fresh_dir("undamaged");
  ASSERT_EQ(sweep({spec_file().string(), "--out", whole.string(), "--quiet"}).code, 0);

  const fs::path out = fresh_dir("damaged");
  ASSERT_EQ(sweep({spec_file().string(), "--out", out.string(), "--threads", "1", "--stop-after-chunks", "6"}).code, 3);
  const std::string chunk1 = file_text(chunk_path(out.string(), 1));
  write_file(chunk_path(out.string(), 1), chunk1.substr(0, chunk1.size() / 2));  // a write cut short
  std::string chunk4 = file_text(chunk_path(out.string(), 4));
  chunk4[chunk4.rfind("\n2") + 1] = '#';  // a run number turned into garbage
  write_file(chunk_path(out.string(), 4), chunk4);

  const Outcome o = sweep({spec_file().string(), "--out", out.string(), "--resume", "--quiet"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("chunk 1 is incomplete"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("chunk 4 is incomplete"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("it will be recomputed"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("chunks: 16 computed, 4 already done"), std::string::npos) << o.err;
  for (const std::string& name : kResultFiles) {
    EXPECT_TRUE(file_text(out / name) == file_text(whole / name)) << name;
  }
}

TEST(SweepMerge, ADamagedShardChunkIsAnErrorNamingTheFile) {
  const fs::path one = fresh_dir("merge-damaged-1"), two = fresh_dir("merge-damaged-2");
  ASSERT_EQ(sweep({spec_file().string(), "--out", one.string(), "--shard", "1/2", "--quiet"}).code, 0);
  ASSERT_EQ(sweep({spec_file().string(), "--out", two.string(), "--shard", "2/2", "--quiet"}).code, 0);
  const std::string damaged = chunk_path(two.string(), 15);
  const std::string text = file_text(damaged);
  write_file(damaged, text.substr(0, text.size() - 20));
  const Outcome o = run_command(sweep_command, "spotsim sweep",
                                {"merge", one.string(), two.string(), "--out", fresh_dir("merge-damaged").string()});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find(damaged + ": "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("end marker"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace spotsim
