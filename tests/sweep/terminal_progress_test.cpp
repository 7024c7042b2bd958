// The progress line of long commands (cli/terminal_progress.hpp): its text, its pace, its delay, the final line;
// nothing at all when stderr is not a terminal; and through a real pseudo-terminal, the line `simulate` draws.
#include "cli/terminal_progress.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include "base/progress_line.hpp"
#include "sweep_test_support.hpp"
#include "tests/support/case_budget.hpp"

namespace spotsim {
namespace {

using namespace spotsim::testing;

TEST(ProgressFormat, CountsAnyUnitAndShowsSlowRatesWithADecimal) {
  EXPECT_EQ(format_progress(41000, 100000, 9870.4, 6.0, "replications"),
            "41,000/100,000 replications (41.0%), 9,870 replications/s, ETA 6s");
  EXPECT_EQ(format_progress(12, 530, 2.46, 210.0, "MiB"), "12/530 MiB (2.3%), 2.5 MiB/s, ETA 3m30s");
  EXPECT_EQ(format_progress(0, 0, 0.0, 0.0, "runs"), "0/0 runs (100.0%), 0 runs/s, ETA 0s");
  EXPECT_EQ(format_eta(59.6), "1m00s");
  EXPECT_EQ(format_eta(3599.4), "59m59s");
  EXPECT_EQ(format_eta(360000), "100h00m");
}

TEST(TerminalProgressLine, DisabledPrintsNothing) {
  std::ostringstream err;
  {
    TerminalProgress line("simulate", "replications", false, err, 0.0);
    for (std::uint64_t i = 0; i <= 10; ++i) line.update(i, 10, static_cast<double>(i));
    line.finish();
  }
  EXPECT_EQ(err.str(), "");
}

TEST(TerminalProgressLine, RewritesOneLineAtMostFiveTimesASecondAfterTheDelay) {
  std::ostringstream err;
  TerminalProgress line("simulate", "replications", true, err, 0.5);
  line.update(0, 1000, 100.0);  // the origin of the rate; within the delay nothing is drawn
  line.update(100, 1000, 100.3);
  EXPECT_EQ(err.str(), "");
  line.update(500, 1000, 100.5);
  EXPECT_EQ(err.str(), "\rsimulate: 500/1,000 replications (50.0%), 1,000 replications/s, ETA 1s\033[K");
  line.update(600, 1000, 100.6);  // 0.1 s after the last line: too soon
  EXPECT_EQ(err.str().find("600/"), std::string::npos);
  line.update(700, 1000, 100.7);
  EXPECT_NE(err.str().find("\rsimulate: 700/1,000"), std::string::npos);
  line.update(1000, 1000, 100.75);  // the last one is never throttled
  line.finish();
  const std::string text = err.str();
  EXPECT_NE(text.find("\rsimulate: 1,000/1,000 replications (100.0%)"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

TEST(TerminalProgressLine, QuickWorkShowsNothingAndAnErrorErasesTheLine) {
  std::ostringstream quick;
  {
    TerminalProgress line("advise", "replications", true, quick, 0.5);
    line.update(0, 300, 1.0);
    line.update(300, 300, 1.2);
    line.finish();
  }
  EXPECT_EQ(quick.str(), "");
  std::ostringstream failed;
  {
    TerminalProgress line("sweep", "runs", true, failed, 0.0);
    line.update(5, 10, 1.0);
  }  // destroyed unfinished, as when an exception leaves the command
  EXPECT_EQ(failed.str().substr(failed.str().size() - 4), "\r\033[K");
}

TEST(TerminalProgressLine, WatcherShowsTheRunnersCounter) {
  std::ostringstream err;
  TerminalProgress line("simulate", "replications", true, err, 0.0);
  ReplicationProgress progress;
  {
    ReplicationProgressWatcher watcher(line, progress);
    progress.total = 64;
    progress.done = 64;
    watcher.finish();
  }
  EXPECT_NE(err.str().find("64/64 replications (100.0%)"), std::string::npos) << err.str();
  EXPECT_EQ(err.str().back(), '\n');
}

Outcome simulate(std::vector<std::string> args) { return run_command(simulate_command, "simulate", std::move(args)); }

// In-process, stderr is a string stream and fd 2 is not a terminal under ctest: nothing but the results.
TEST(TerminalProgressLine, NothingWithoutATerminalSoOutputsAreIdentical) {
  if (isatty(STDERR_FILENO)) GTEST_SKIP() << "stderr is a terminal";
  const std::vector<std::string> args = {"--trace", "us-west1", "-n", "3000", "--work", "12h", "--format", "json"};
  const Outcome plain = simulate(args);
  std::vector<std::string> quiet_args = args;
  quiet_args.push_back("--quiet");
  const Outcome quiet = simulate(quiet_args);
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.out, quiet.out);
  EXPECT_EQ(plain.err, "");
  EXPECT_EQ(quiet.err, "");
}

// Reads what the child wrote to the terminal until it closes it.
std::string drain(int master) {
  std::string text;
  char buffer[4096];
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 60000) <= 0) break;
    const ssize_t got = ::read(master, buffer, sizeof buffer);
    if (got <= 0) break;  // EIO once the child's side is closed
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return text;
}

// `simulate` on a real pseudo-terminal as its stderr: the line appears, is rewritten
// with '\r', and ends with the final count; with --quiet it does not appear.
using Command = int (*)(int, const char* const*);

std::string command_on_terminal(Command command, std::vector<std::string> args);

// About 1 s of work on one thread in Release (beyond the line's 0.5 s delay even on a fast machine); a quarter of
// it under the sanitizers, which run it 25 times slower.
int simulate_line_replications() { return case_budget("SIMULATE_LINE_REPLICATIONS", 200000, 100000, 50000); }

std::string simulate_on_terminal(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {
      "simulate", "--trace",   "us-west1",  "-n", std::to_string(simulate_line_replications()), "--work", "48h",
      "--policy", "spot-only", "--threads", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return command_on_terminal(&simulate_command, args);
}

// Runs `command` with stderr on a pseudo-terminal and stdout on /dev/null; returns what the terminal received.
std::string command_on_terminal(Command command, std::vector<std::string> args) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return "no pty";
  const std::string slave_name = ::ptsname(master);
  const pid_t child = ::fork();
  if (child == 0) {
    const int slave = ::open(slave_name.c_str(), O_RDWR);
    if (slave < 0) ::_exit(99);
    ::dup2(slave, STDERR_FILENO);
    ::close(master);
    // The command runs in this forked copy of the test (single-threaded here), as the binary would; its table
    // goes to /dev/null, as only stderr matters here.
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    const int code = command(static_cast<int>(argv.size()), argv.data());
    std::cerr.flush();
    ::close(STDERR_FILENO);
    ::close(slave);
    ::_exit(code);
  }
  const std::string text = drain(master);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(master);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? text : "exit status " + std::to_string(status) + ": " + text;
}

TEST(TerminalProgressLine, SimulateDrawsTheLineOnAPseudoTerminal) {
  const std::string shown = simulate_on_terminal({});
  if (shown == "no pty") GTEST_SKIP() << "no pseudo-terminal on this machine";
  ASSERT_FALSE(shown.empty());
  EXPECT_NE(shown.find("\r"), std::string::npos) << shown;
  const std::string n = group_thousands(static_cast<std::uint64_t>(simulate_line_replications()));
  EXPECT_NE(shown.find("simulate: " + n + "/" + n + " replications (100.0%)"), std::string::npos) << shown;
  EXPECT_NE(shown.find("replications/s, ETA "), std::string::npos) << shown;
  EXPECT_EQ(shown.back(), '\n') << shown;  // the final line is ended, the terminal's next line is clean
  EXPECT_EQ(simulate_on_terminal({"--quiet"}), "");
}

// A campaign's line counts jobs (replications x jobs), so a campaign of thousands of jobs shows progress within a
// replication instead of "0/1" until it ends.
// Beyond the line's 0.5 s delay in every build: since the campaign's events are indexed (next_event_index.hpp, the
// capacity search a tree descent) 400 trials take 0.3 s in Release and show no line; 1,000 take 1.6 s with two
// replications on the 2-core dev machine. The sanitizers' builds are about ten times slower: 500.
TEST(TerminalProgressLine, CampaignCountsJobs) {
  const int trials = case_budget("CAMPAIGN_LINE_TRIALS", 1000, 700, 500);
  const std::string jobs = group_thousands(static_cast<std::uint64_t>(2 * trials));
  const std::string jobs_line = "campaign: " + jobs + "/" + jobs + " jobs (100.0%)";
  const std::string shown = command_on_terminal(
      &campaign_command, {"campaign", "--trials", std::to_string(trials), "--trial-work", "6h:12h", "-r", "2", "-p",
                          "greedy", "--managed-catalogue", "none", "--threads", "1"});
  if (shown == "no pty") GTEST_SKIP() << "no pseudo-terminal on this machine";
  EXPECT_NE(shown.find(jobs_line), std::string::npos) << shown;
  EXPECT_NE(shown.find("jobs/s, ETA "), std::string::npos) << shown;
}

}  // namespace
}  // namespace spotsim
