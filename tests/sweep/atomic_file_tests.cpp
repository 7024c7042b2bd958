// Output files are written through an exclusively created temporary file with an unpredictable name: a symlink
// planted at any name an attacker can predict is never followed, the new file has the usual mode, a failure leaves
// the target as it was and no temporary file, and `sweep --resume` clears the leftovers of a killed sweep.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <functional>

#include "base/atomic_file.hpp"
#include "sweep_test_support.hpp"

namespace spotsim {
namespace {

using namespace spotsim::testing;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(AtomicFile, PlantedSymlinksAreNeverFollowed) {
  const fs::path dir = fresh_dir("atomic-symlinks");
  fs::create_directories(dir);
  const fs::path victim = write_file(dir.parent_path() / "atomic-victim.txt", "precious\n");
  // Every name an attacker could predict: the target itself, the old ".NAME.tmp.PID" scheme and its neighbours.
  fs::create_symlink(victim, dir / "out.csv");
  for (int pid = ::getpid() - 3; pid <= ::getpid() + 3; ++pid) {
    fs::create_symlink(victim, dir / (std::string(".out.csv.tmp.") + std::to_string(pid)));
  }
  // A link at the target itself is neither followed nor replaced: the write is refused, naming the link.
  const std::string refused = error_of([&] { write_file_atomically((dir / "out.csv").string(), "new\n"); });
  EXPECT_NE(refused.find("is a symbolic link"), std::string::npos) << refused;
  EXPECT_EQ(file_text(victim), "precious\n");
  EXPECT_TRUE(fs::is_symlink(dir / "out.csv"));
  // With the target a regular file, the planted temporary names are never followed either.
  fs::remove(dir / "out.csv");
  write_file(dir / "out.csv", "old\n");
  write_file_atomically((dir / "out.csv").string(), "new\n");
  EXPECT_EQ(file_text(victim), "precious\n");
  EXPECT_EQ(file_text(dir / "out.csv"), "new\n");
  std::size_t files = 0;
  for (const auto& name : names_in(dir)) files += fs::is_symlink(dir / name) ? 0 : 1;
  EXPECT_EQ(files, 1u);  // no temporary file left beside it
}

TEST(AtomicFile, NewFilesGetTheUsualModeUnderTheUmask) {
  const fs::path dir = fresh_dir("atomic-mode");
  fs::create_directories(dir);
  for (const mode_t mask : {mode_t{022}, mode_t{077}, mode_t{002}}) {
    const mode_t old = ::umask(mask);
    const fs::path path = dir / (std::string("mode-") + std::to_string(mask));
    write_file_atomically(path.string(), "x");
    ::umask(old);
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask) << "umask " << mask;
  }
}

TEST(AtomicFile, AFailedWriteLeavesTheTargetAndNoTemporaryFile) {
  const fs::path dir = fresh_dir("atomic-failure");
  // The target is a directory with content: refused before anything is written.
  write_file(dir / "out.csv" / "inside.txt", "kept\n");
  const std::string message = error_of([&] { write_file_atomically((dir / "out.csv").string(), "new\n"); });
  EXPECT_NE(message.find((dir / "out.csv").string() + ": is a directory"), std::string::npos) << message;
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"out.csv"});
  EXPECT_EQ(file_text(dir / "out.csv" / "inside.txt"), "kept\n");
  // A directory that does not exist: nothing created, the reason given.
  const std::string missing = error_of([&] { write_file_atomically((dir / "no" / "x.json").string(), "{}"); });
  EXPECT_NE(missing.find("does not exist"), std::string::npos) << missing;
}

TEST(AtomicFile, TemporaryNamesAreUnpredictableAndRecognisable) {
  EXPECT_TRUE(is_atomic_write_leftover(".runs.csv.tmp.4242"));  // older builds
  EXPECT_TRUE(is_atomic_write_leftover(".chunk-00000003.csv.tmp.aZ09xy"));
  EXPECT_FALSE(is_atomic_write_leftover("runs.csv"));
  EXPECT_FALSE(is_atomic_write_leftover("notes.tmp.txt"));
  EXPECT_FALSE(is_atomic_write_leftover(".runs.csv.tmp."));
  EXPECT_FALSE(is_atomic_write_leftover(".tmp.abc"));
  EXPECT_FALSE(is_atomic_write_leftover(".runs.csv.tmp.ab-c"));
}

TEST(AtomicFile, ResumeRemovesTheLeftoversOfAKilledSweep) {
  const fs::path dir = fresh_dir("atomic-resume");
  const fs::path spec = write_file(dir / "spec.json", R"({
    "format": "spotsim-experiment", "version": 1, "name": "tiny", "seed": 3, "replications": 2,
    "traces": ["us-west1"], "policies": ["on-demand"], "checkpoints": ["young-daly"],
    "job": {"work_hours": 2}, "chunk_runs": 1})");
  const fs::path out = dir / "out";
  ASSERT_EQ(sweep({spec.string(), "--out", out.string(), "--stop-after-chunks", "1"}).code, 3);
  const std::vector<fs::path> leftovers = {out / ".runs.csv.tmp.12345", out / ".summary.json.tmp.Ab3dEf",
                                           out / "chunks" / ".chunk-00000001.csv.tmp.q1W2e3"};
  for (const auto& path : leftovers) write_file(path, std::string(1000, 'x'));
  const fs::path victim = write_file(dir / "victim.txt", "precious\n");
  fs::create_symlink(victim, out / ".manifest.json.tmp.zzzzzz");
  const fs::path unrelated = write_file(out / "notes.tmp.txt", "mine\n");
  const Outcome resumed = sweep({spec.string(), "--out", out.string(), "--resume"});
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  for (const auto& path : leftovers) EXPECT_FALSE(fs::exists(path)) << path;
  EXPECT_FALSE(fs::is_symlink(out / ".manifest.json.tmp.zzzzzz"));
  EXPECT_EQ(file_text(victim), "precious\n");
  EXPECT_TRUE(fs::exists(unrelated));
  EXPECT_TRUE(fs::exists(out / "runs.csv"));
}

}  // namespace
}  // namespace spotsim
