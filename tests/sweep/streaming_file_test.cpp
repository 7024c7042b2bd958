// StreamingFile and ScratchFile: a target is replaced only on commit, with exactly what was written; nothing
// else is ever left in the directory.
#include "app/sweep/streaming_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "base/errors.hpp"
#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

using namespace spotsim::testing;

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string big_text() {
  std::string text;
  for (int i = 0; text.size() < 3'000'000; ++i) text += std::to_string(i) + ",";
  return text;
}

TEST(StreamingFile, ReplacesTheTargetOnlyOnCommit) {
  const fs::path dir = fresh_dir("streaming");
  fs::create_directories(dir);
  const fs::path target = write_file(dir / "out.csv", "old");
  const std::string big = big_text();
  {
    StreamingFile file(target.string());
    file.write("head\n");
    file.write(big);  // larger than the buffer
    for (int i = 0; i < 1000; ++i) file.write("row\n");
    EXPECT_EQ(file_text(target), "old");
    EXPECT_EQ(entries(dir).size(), 2u);  // the target and one temporary file
    file.commit();
  }
  std::string expected = "head\n" + big;
  for (int i = 0; i < 1000; ++i) expected += "row\n";
  EXPECT_TRUE(file_text(target) == expected);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"out.csv"});
}

TEST(StreamingFile, AbandonedWithoutCommitLeavesNothing) {
  const fs::path dir = fresh_dir("abandoned");
  fs::create_directories(dir);
  {
    StreamingFile file((dir / "new.csv").string());
    file.write("partial");
  }
  EXPECT_TRUE(entries(dir).empty());
}

TEST(StreamingFile, AMissingDirectoryIsAnInputErrorNamingTheFile) {
  const fs::path target = fresh_dir("nowhere") / "sub" / "out.csv";
  try {
    StreamingFile file(target.string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
  }
}

TEST(ScratchFile, CopiesBackWhatWasWrittenAndHasNoName) {
  const fs::path dir = fresh_dir("scratch");
  fs::create_directories(dir);
  const std::string big = big_text();
  {
    ScratchFile scratch(dir.string(), "scratch");
    EXPECT_TRUE(scratch.empty());
    scratch.write("a");
    scratch.write(big);
    scratch.write("z");
    EXPECT_FALSE(scratch.empty());
    EXPECT_TRUE(entries(dir).empty());
    StreamingFile out((dir / "out").string());
    out.write("<");
    scratch.copy_to(out);
    out.write(">");
    out.commit();
  }
  EXPECT_TRUE(file_text(dir / "out") == "<a" + big + "z>");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"out"});
}

}  // namespace
}  // namespace spotsim
