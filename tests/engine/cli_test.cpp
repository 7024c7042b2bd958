// The `simulate` command end to end, in process: options, outputs and every user error (one clear message, exit
// code 2, nothing written).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "tests/cli_runner.hpp"

namespace spotsim {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CliResult;

// Runs a subcommand in-process with its stdout and stderr captured.
Outcome run_command(int (*command)(int, const char* const*), const char* name, std::vector<std::string> args) {
  return test::run_cli(command, name, std::move(args));
}

Outcome simulate(std::vector<std::string> args) { return run_command(simulate_command, "simulate", std::move(args)); }

const std::string kTrace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("spotsim_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = temp_dir() / name;
  std::ofstream(p) << text;
  return p;
}

void expect_error(const std::vector<std::string>& args, const std::string& message_part) {
  const Outcome o = simulate(args);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find(message_part), std::string::npos) << "stderr was: " << o.err;
  EXPECT_EQ(o.err.find('\n'), o.err.size() - 1) << "one line: " << o.err;
}

TEST(SimulateCli, RunsTheMainJobAndPrintsATable) {
  const Outcome o = simulate({"--policy", "adaptive", "--trace", kTrace, "-n", "200"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("cost, total"), std::string::npos);
  EXPECT_NE(o.out.find("95% CI of mean"), std::string::npos);
}

TEST(SimulateCli, FindsShippedTracesByName) { EXPECT_EQ(simulate({"--trace", "us-west1", "-n", "10"}).code, 0); }

TEST(SimulateCli, JsonHasManifestSummaryAndRuns) {
  const Outcome o = simulate({"--trace", kTrace, "-n", "50", "--seed", "9", "--format", "json", "--work", "10h"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["manifest"]["seed"], 9);
  EXPECT_EQ(j["manifest"]["policy"], "adaptive");
  EXPECT_EQ(j["manifest"]["job"]["work_hours"], 10.0);
  EXPECT_FALSE(j["manifest"]["git_revision"].get<std::string>().empty());
  EXPECT_EQ(j["runs"].size(), 50u);
  EXPECT_EQ(j["summary"]["cost_total"]["n"], 50);
  EXPECT_LE(j["summary"]["cost_total"]["ci_low"].get<double>(), j["summary"]["cost_total"]["mean"].get<double>());
}

TEST(SimulateCli, CsvHasOneRowPerReplication) {
  const fs::path out = temp_dir() / "runs.csv";
  const Outcome o = simulate({"--trace", kTrace, "-n", "20", "--output", out.string()});
  ASSERT_EQ(o.code, 0) << o.err;
  std::ifstream in(out);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("replication,cost_total,", 0), 0u);
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 20);
}

TEST(SimulateCli, JobFileAndOverrides) {
  const auto job = write("job.json", R"({"steps": 10000, "step_time_s": 1.8, "nodes": 2, "deadline_hours": 9})");
  const Outcome o = simulate({"--trace", kTrace, "--job", job.string(), "-n", "5", "--format", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_DOUBLE_EQ(j["manifest"]["job"]["work_hours"].get<double>(), 5.0);
  EXPECT_EQ(j["manifest"]["job"]["nodes"], 2);
  EXPECT_DOUBLE_EQ(j["manifest"]["job"]["deadline_hours"].get<double>(), 9.0);
}

TEST(SimulateCli, FractionalStepTimesAreKeptExactly) {
  const Outcome o =
      simulate({"--trace", kTrace, "--steps", "100000", "--step-time", "95.38ms", "-n", "2", "--format", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(o.out)["manifest"]["job"]["work_hours"].get<double>(), 9538.0 / 3600.0);
}

TEST(SimulateCli, HelpVersionAndPolicyList) {
  const Outcome help = simulate({"--help"});
  EXPECT_EQ(help.code, 0);
  for (const char* option : {"--policy", "--checkpoint", "--trace", "--job", "--seed", "--replications", "--threads",
                             "--output", "--format", "--deadline", "--startup", "--nodes"}) {
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
  }
  EXPECT_EQ(simulate({"--version"}).out.rfind("spotsim ", 0), 0u);
  const Outcome list = simulate({"--list-policies"});
  EXPECT_NE(list.out.find("adaptive"), std::string::npos);
  EXPECT_NE(list.out.find("young-daly"), std::string::npos);
}

TEST(SimulateCli, BadInputGivesOneClearErrorAndExitCode2) {
  expect_error({"--policy", "cheapest"}, "--policy 'cheapest': unknown policy; expected one of:");
  expect_error({"--checkpoint", "fixed:every=1h"}, "unknown parameter 'every'");
  expect_error({"--trace", "/nonexistent/trace.json"}, "--trace '/nonexistent/trace.json': no such file");
  expect_error({"--trace", "no-such-shipped-trace"}, "also looked for a shipped trace of that name in");
  expect_error({"--work", "48"}, "--work: expected a duration such as 30m");
  expect_error({"--work", "-5h"}, "--work: expected a duration");
  expect_error({"--work", "0h"}, "field 'work': expected a positive amount of compute");
  expect_error({"--nodes", "0"}, "--nodes: expected an integer in [1, 100000], got '0'");
  expect_error({"--replications", "0"}, "--replications: expected an integer in [1, 1000000000]");
  expect_error({"--format", "xml"}, "--format 'xml': expected table, json or csv");
  expect_error({"--output", "result.txt"}, "cannot tell the format from the extension");
  expect_error({"--bogus"}, "unrecognised option '--bogus'");
  expect_error({"--steps", "100"}, "--steps and --step-time must be given together");
}

TEST(SimulateCli, MalformedTraceFilesNameTheFileAndField) {
  const auto bad_json = write("bad.json", "{\"format\": \"spotsim-trace\", ");
  expect_error({"--trace", bad_json.string()}, bad_json.string() + ": not valid JSON");
  const auto negative = write("negative.json", R"({"format":"spotsim-trace","version":1,"name":"x","zones":[
      {"name":"a","on_demand_price_per_hour":-3,"spot":{"price_per_hour":1}}]})");
  expect_error(
      {"--trace", negative.string()},
      negative.string() + ": field 'zones[0].on_demand_price_per_hour': expected a number in [0, 1e+06], got -3");
  const auto wrong_type = write("type.json", R"({"format":"spotsim-trace","version":1,"name":"x","zones":[
      {"name":"a","on_demand_price_per_hour":3,"spot":{"price_per_hour":"cheap"}}]})");
  expect_error({"--trace", wrong_type.string()}, "field 'zones[0].spot.price_per_hour': expected a number");
  const auto overlapping = write("overlap.json", R"({"format":"spotsim-trace","version":1,"name":"x","span_s":100,
      "zones":[{"name":"a","on_demand_price_per_hour":3,"spot":{"price_per_hour":1,
      "availability_intervals_s":[[0,50],[40,60]]}}]})");
  expect_error(
      {"--trace", overlapping.string()},
      "field 'zones[0].spot.availability_intervals_s[1]': expected intervals sorted by start and not overlapping");
  const auto version = write("version.json", R"({"format":"spotsim-trace","version":7,"name":"x","zones":[]})");
  expect_error({"--trace", version.string()}, "field 'version': expected 1");
  const auto no_lifetime_param = write("bathtub.json", R"({"format":"spotsim-trace","version":1,"name":"x","zones":[
      {"name":"a","on_demand_price_per_hour":3,"spot":{"price_per_hour":1,"lifetime":{"model":"bathtub","A":0.4}}}]})");
  expect_error({"--trace", no_lifetime_param.string()}, "field 'zones[0].spot.lifetime.tau1_hours': expected a value");
}

TEST(SimulateCli, MalformedJobFiles) {
  const auto both = write("both.json", R"({"work_hours": 5, "steps": 10, "step_time_s": 1})");
  expect_error({"--job", both.string()}, "either work_hours or steps with step_time_s, not both");
  const auto typo = write("typo.json", R"({"work_hour": 5})");
  expect_error({"--job", typo.string()}, "field 'work_hour': unknown field");
  expect_error({"--job", (temp_dir() / "missing.json").string()}, "missing.json: no such file");
}

// One rule for seeds and counts: whole numbers in decimal digits within the range, which the message gives. Boost
// alone wrapped "--seed -1" to 2^64 - 1 and said only "the argument ('1e12') ... is invalid" for "-n 1e12".
TEST(SimulateCli, SeedsAndCountsRefuseNegativesFractionsAndOutOfRangeWithTheRange) {
  const std::string seed_range = "--seed: expected an integer in [0, 18446744073709551615]";
  expect_error({"--seed", "-1"}, seed_range + ", got '-1'");
  expect_error({"--seed", "1.5"}, seed_range + ", got '1.5'");
  expect_error({"--seed", "18446744073709551616"}, seed_range + ", got '18446744073709551616'");
  expect_error({"-n", "1e12"}, "--replications: expected an integer in [1, 1000000000], got '1e12'");
  expect_error({"-n", "-3"}, "--replications: expected an integer in [1, 1000000000], got '-3'");
  expect_error({"--threads", "-1"}, "--threads: expected an integer in [0, 4096], got '-1'");
  expect_error({"--nodes", "1e9"}, "--nodes: expected an integer in [1, 100000], got '1e9'");
  const Outcome largest =
      simulate({"--trace", kTrace, "-n", "2", "--work", "1h", "--seed", "18446744073709551615", "--format", "json"});
  ASSERT_EQ(largest.code, 0) << largest.err;
  EXPECT_EQ(nlohmann::json::parse(largest.out)["manifest"]["seed"].get<std::uint64_t>(), 18446744073709551615ULL);
}

TEST(SimulateCli, DirectoriesAreNamedAsSuch) {
  const fs::path dir = temp_dir() / "a_directory";
  fs::create_directories(dir);
  expect_error({"--trace", dir.string()}, "--trace '" + dir.string() + "': is a directory, not a file");
  expect_error({"--job", dir.string()}, dir.string() + ": is a directory, not a file");  // was: terminate (abort)
  expect_error({"--output", dir.string()}, "--output '" + dir.string() + "': is a directory");
  expect_error({"--output", (dir / "none" / "out.json").string()},
               "its directory '" + (dir / "none").string() + "' does not exist");
  expect_error({"--steps", "many", "--step-time", "1s"}, "--steps: expected a finite number, got 'many'");
}

TEST(SimulateCli, AFailedRunNeverOverwritesTheOutput) {
  const fs::path out = temp_dir() / "keep.json";
  std::ofstream(out) << "previous result";
  expect_error({"--policy", "nope", "--output", out.string()}, "unknown policy");
  std::ifstream in(out);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "previous result");
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

const std::string kCblTrace =
    std::string(SPOTSIM_REPO_DIR) + "/experiments/traces/cbl/cbl-aws-10-26-2022-us-west-2a_v100_1.json";
const std::vector<std::string> kCblJob = {"--trace",    kCblTrace,   "--checkpoint", "continuous",         "--startup",
                                          "12m",        "--restore", "0s",           "--checkpoint-write", "0s",
                                          "--deadline", "60h"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

TEST(SimulateCli, CantBeLateModeBillsWholeTicksAndReportsRegret) {
  const Outcome tick = simulate(
      with(kCblJob, {"--policy", "on-demand", "-n", "3", "--mode", "cant-be-late", "--regret", "--format", "json"}));
  ASSERT_EQ(tick.code, 0) << tick.err;
  const auto doc = nlohmann::json::parse(tick.out);
  EXPECT_EQ(doc["manifest"]["mode"], "cant-be-late");
  EXPECT_EQ(doc["manifest"]["tick"], "10m");
  // 48.2 h held on on-demand, billed as 290 whole ticks of 10 min at 3.06 USD/h: 147.90 (per second: 147.49).
  EXPECT_NEAR(doc["summary"]["cost_total"]["mean"].get<double>(), 147.90, 1e-9);
  EXPECT_GT(doc["summary"]["regret"]["mean"].get<double>(), 0.0);
  EXPECT_LE(doc["runs"][0]["optimum_cost"].get<double>(), 147.90);
  const Outcome event = simulate(with(kCblJob, {"--policy", "on-demand", "-n", "3", "--format", "json"}));
  ASSERT_EQ(event.code, 0) << event.err;
  const auto plain = nlohmann::json::parse(event.out);
  EXPECT_NEAR(plain["summary"]["cost_total"]["mean"].get<double>(), 3.06 * 48.2, 1e-9);
  EXPECT_FALSE(plain["summary"].contains("regret")) << "regret only when asked for";
  EXPECT_EQ(plain["manifest"]["mode"], "event");
}

TEST(SimulateCli, ModeTickAndRegretErrorsAreClear) {
  expect_error({"--mode", "ticks"}, "--mode: expected event or cant-be-late, got 'ticks'");
  expect_error({"--tick", "10m"}, "--tick: only with --mode cant-be-late");
  expect_error(with(kCblJob, {"--mode", "cant-be-late", "--tick", "0s"}), "--tick: expected a positive duration");
  expect_error({"--mode", "cant-be-late", "--checkpoint", "continuous", "-n", "2"},
               "the Can't Be Late mode needs the recording's tick (field 'tick_s' of the trace, or --tick)");
  expect_error({"--trace", kCblTrace, "--mode", "cant-be-late", "--checkpoint", "young", "-n", "2"},
               "the Can't Be Late mode models progress that is never lost: expected --checkpoint continuous");
  expect_error({"--regret", "--deadline", "60h", "-n", "2"}, "regret needs a recording sampled on a regular clock");
  expect_error({"--regret", "--trace", kCblTrace, "-n", "2"}, "regret: expected a job with a deadline");
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

Outcome bound(std::vector<std::string> args) { return run_command(bound_command, "bound", std::move(args)); }

TEST(BoundCli, PrintsTheOptimumAndItsScheduleOfOneWindow) {
  const Outcome o = bound({"--trace", kCblTrace, "--trace-start", "114h", "--deadline", "52h", "--mode", "cant-be-late",
                           "--format", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto doc = nlohmann::json::parse(o.out);
  const double cost = doc["cost"].get<double>();
  EXPECT_LE(cost, 147.90 + 1e-9);         // never dearer than on-demand from the start
  EXPECT_GE(cost, 0.9731 * 48.2 - 1e-9);  // never cheaper than spot for the work and one changeover
  EXPECT_NEAR(doc["cost_spot"].get<double>() + doc["cost_on_demand"].get<double>(), cost, 1e-9);
  EXPECT_LE(doc["finish_hours"].get<double>(), 52.0);
  // Billed per tick: the cost is whole ticks of the held kinds.
  const std::string schedule = doc["schedule"];
  const auto ticks_of = [&](char c) { return static_cast<double>(std::count(schedule.begin(), schedule.end(), c)); };
  EXPECT_NEAR(cost, (ticks_of('s') * 0.9731 + ticks_of('D') * 3.06) / 6.0, 1e-9);
  const Outcome table = bound({"--trace", kCblTrace, "--trace-start", "114h", "--deadline", "52h"});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("schedule: "), std::string::npos) << table.out;
}

TEST(BoundCli, ErrorsAreClear) {
  const Outcome no_tick = bound({"--trace", kTrace});
  EXPECT_EQ(no_tick.code, 2);
  EXPECT_NE(no_tick.err.find("expected a recording with a tick (field 'tick_s'), or --tick"), std::string::npos)
      << no_tick.err;
  const Outcome off_tick = bound({"--trace", kCblTrace, "--trace-start", "5m"});
  EXPECT_NE(off_tick.err.find("--trace-start: expected a multiple of the tick (10m)"), std::string::npos)
      << off_tick.err;
  const Outcome too_tight = bound({"--trace", kCblTrace, "--deadline", "48h"});
  EXPECT_NE(too_tight.err.find("no schedule finishes the work by the deadline"), std::string::npos) << too_tight.err;
  const Outcome no_nodes = bound({"--trace", kCblTrace, "--nodes", "0"});
  EXPECT_NE(no_nodes.err.find("--nodes: expected an integer in [1, 100000], got '0'"), std::string::npos)
      << no_nodes.err;
  // Was "expected a recording with a tick (field 'tick_s'), or --tick" although --tick was given.
  const Outcome zero_tick = bound({"--trace", kCblTrace, "--tick", "0s"});
  EXPECT_NE(zero_tick.err.find("--tick: expected a positive duration"), std::string::npos) << zero_tick.err;
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

// Work per dollar on two 8-GPU H100 instances is about 0.1: the table keeps three significant digits of it (it
// printed "0.096" before, and would print "0.010" on one instance at $100/h), while hours keep three decimals.
TEST(SimulateCli, WorkPerDollarKeepsThreeSignificantDigits) {
  const test::CliResult r = test::run_cli(simulate_command, "simulate",
                                          {"--trace", "gcp-h100-capacity-13-zones", "--zones", "us-east4-a", "-p",
                                           "on-demand", "--nodes", "2", "--work", "10h", "-n", "3", "-q"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string value_line;
  std::string hours_line;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("value (work per USD)", 0) == 0) value_line = line;
    if (line.rfind("completion time", 0) == 0) hours_line = line;
  }
  EXPECT_NE(value_line.find(" 0.0961 "), std::string::npos) << value_line;
  EXPECT_NE(hours_line.find(" 10.083 "), std::string::npos) << hours_line;
}

}  // namespace
}  // namespace spotsim
