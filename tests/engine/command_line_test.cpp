// The shared command-line rules (app/options/command_line.hpp, base/integer_text.hpp, base/file_checks.hpp): one parser
// for seeds and counts, one wording for unusable files, and the same rules in every subcommand.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "base/file_checks.hpp"
#include "base/integer_text.hpp"
#include "base/json_fields.hpp"
#include "cli/commands.hpp"
#include "tests/cli_runner.hpp"

namespace spotsim {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::string& text, std::uint64_t min, std::uint64_t max) {
  try {
    parse_integer_in_range(text, min, max, "--count");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(IntegerText, AcceptsDecimalDigitsWithinTheRange) {
  EXPECT_EQ(parse_integer_in_range("0", 0, 10, "--n"), 0u);
  EXPECT_EQ(parse_integer_in_range("007", 0, 10, "--n"), 7u);
  EXPECT_EQ(parse_integer_in_range("18446744073709551615", 0, kMaxSeed, "--seed"), kMaxSeed);
}

TEST(IntegerText, RefusesEverythingElseGivingTheRange) {
  for (const char* text : {"-1", "1.5", "1e3", "0x10", "+5", " 5", "5 ", "", "abc", "18446744073709551616",
                           "99999999999999999999999999", "11"}) {
    EXPECT_EQ(error_of(text, 1, 10), std::string("--count: expected an integer in [1, 10], got '") + text + "'")
        << text;
  }
  EXPECT_EQ(error_of(std::string(100, '9'), 0, 10),
            "--count: expected an integer in [0, 10], got '" + std::string(37, '9') + "...'");
}

fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / ("spotsim_command_line_test_" + std::to_string(::getpid()));
  fs::create_directories(dir / "a_directory");
  std::ofstream(dir / "file.json") << "{}";
  return dir;
}

TEST(FileChecks, InputFiles) {
  const fs::path dir = scratch();
  EXPECT_EQ(input_file_problem((dir / "file.json").string()), "");
  EXPECT_EQ(input_file_problem((dir / "a_directory").string()), "is a directory, not a file");
  EXPECT_EQ(input_file_problem((dir / "missing.json").string()), "no such file");
  EXPECT_EQ(input_file_problem(""), "expected a file name, got an empty one");
}

TEST(FileChecks, OutputFiles) {
  const fs::path dir = scratch();
  EXPECT_EQ(output_file_problem((dir / "new.json").string()), "");
  EXPECT_EQ(output_file_problem((dir / "file.json").string()), "");  // replaced atomically
  EXPECT_EQ(output_file_problem("relative.json"), "");
  EXPECT_EQ(output_file_problem((dir / "a_directory").string()),
            "is a directory; expected the name of a file to write");
  EXPECT_EQ(output_file_problem((dir / "none" / "x.json").string()),
            "its directory '" + (dir / "none").string() + "' does not exist");
  const std::string file = (dir / "file.json").string();  // piecewise: GCC 12 warns falsely on "'" + string
  EXPECT_EQ(output_file_problem(file + "/x.json"), std::string("'").append(file).append("' is not a directory"));
}

// read_json_file on a directory used to throw std::ios_base::failure from inside the parser: terminate, exit 134.
TEST(FileChecks, ReadingADirectoryAsJsonIsAnInputError) {
  const fs::path dir = scratch() / "a_directory";
  try {
    read_json_file(dir.string());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir.string() + ": is a directory, not a file");
  }
}

// A NaN given on the command line reached messages through nlohmann::json as "got null".
TEST(FileChecks, NaNIsShownAsNaN) {
  EXPECT_EQ(describe_json(nlohmann::json(std::nan(""))), "NaN (not a number)");
  EXPECT_EQ(describe_json(nlohmann::json(-HUGE_VAL)), "-infinity");
  EXPECT_EQ(describe_json(nlohmann::json(2.5)), "2.5");
}

struct Outcome {
  int code;
  std::string err;
};

// args[0] is the program name.
Outcome run(int (*command)(int, const char* const*), std::vector<std::string> args) {
  const std::string program = args.front();
  args.erase(args.begin());
  const test::CliResult r = test::run_cli(command, program, std::move(args));
  return {r.code, r.err};
}

void expect_error(int (*command)(int, const char* const*), const std::vector<std::string>& args,
                  const std::string& message_part) {
  const Outcome o = run(command, args);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find(message_part), std::string::npos) << "stderr was: " << o.err;
}

TEST(CommandLine, EverySubcommandFollowsTheSeedAndCountRule) {
  const std::string seed = "--seed: expected an integer in [0, 18446744073709551615], got '-1'";
  expect_error(advise_command,
               {"advise", "--steps", "9", "--step-time", "1s", "--measured-gpu", "V100", "--seed", "-1"}, seed);
  expect_error(advise_command, {"advise", "--steps", "9", "--step-time", "1s", "--measured-gpu", "V100", "-n", "1e9"},
               "--replications: expected an integer in [1, 100000000], got '1e9'");
  expect_error(advise_command,
               {"advise", "--steps", "9", "--step-time", "1s", "--measured-gpu", "V100", "--gpus", "1.5"},
               "--gpus: expected an integer in [1, 4096], got '1.5'");
  expect_error(trace_command,
               {"trace", "generate", "--lifetime", "exponential:mean_hours=5", "--on-demand-price", "1", "--spot-price",
                "1", "--seed", "-1"},
               seed);
  expect_error(trace_command,
               {"trace", "generate", "--lifetime", "exponential:mean_hours=5", "--on-demand-price", "1", "--spot-price",
                "1", "--instances", "0"},
               "--instances: expected an integer in [1, 100000], got '0'");
  const std::string trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";
  expect_error(trace_command, {"trace", "inspect", trace, "--nodes", "-1"},
               "--nodes: expected an integer in [1, 100000], got '-1'");
  expect_error(trace_command, {"trace", "convert", trace, "--gpus-per-instance", "2000"},
               "--gpus-per-instance: expected an integer in [1, 1024], got '2000'");
  expect_error(sweep_command, {"sweep", "spec.json", "--out", "o", "--threads", "-1"},
               "--threads: expected an integer in [0, 4096], got '-1'");
  expect_error(sweep_command, {"sweep", "spec.json", "--out", "o", "--stop-after-chunks", "0"},
               "--stop-after-chunks: expected an integer in [1, 18446744073709551615], got '0'");
  expect_error(regress_command, {"regress", "b.json", "--threads", "1e3"},
               "--threads: expected an integer in [0, 4096], got '1e3'");
  expect_error(steptime_command, {"steptime", "t.json", "--params", "1B", "--checkpoint-writers", "0"},
               "--checkpoint-writers: expected an integer in [1, 100000], got '0'");
}

TEST(CommandLine, DirectoriesAndCsvTablesAreRefusedBeforeAnyWork) {
  const fs::path dir = scratch() / "a_directory";
  const std::string trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";
  expect_error(trace_command, {"trace", "inspect", dir.string()}, dir.string() + ": is a directory; only --from");
  expect_error(trace_command, {"trace", "inspect", trace, "--output", "summary.csv"},
               "--output 'summary.csv': this command writes a table or JSON, not CSV");
  expect_error(trace_command, {"trace", "convert", trace, "--output", dir.string()},
               "--output '" + dir.string() + "': is a directory");
  expect_error(trace_command, {"trace", "generate", "--lifetime-from", dir.string()},
               "--lifetime-from '" + dir.string() + "': is a directory, not a file");
  expect_error(advise_command, {"advise", "--job", dir.string()}, dir.string() + ": is a directory, not a file");
  expect_error(advise_command,
               {"advise", "--catalogue", dir.string(), "--steps", "9", "--step-time", "1s", "--measured-gpu", "V100"},
               "--catalogue '" + dir.string() + "': is a directory with no SkyPilot vms.csv in it");
  expect_error(sweep_command, {"sweep", dir.string(), "--out", "o"}, dir.string() + ": is a directory, not a file");
  expect_error(regress_command, {"regress", dir.string()}, dir.string() + ": is a directory, not a file");
}

TEST(CommandLine, BadNumbersNameTheOptionAndWhatItExpects) {
  expect_error(regress_command, {"regress", "b.json", "--alpha", "strict"},
               "--alpha: expected a finite number, got 'strict'");
  expect_error(regress_command, {"regress", "b.json", "--colour", "red"}, "unrecognised option '--colour' (see --help");
}

}  // namespace
}  // namespace spotsim
