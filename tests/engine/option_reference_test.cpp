// The option reference (app/options/option_reference.hpp, `spotsim options`, docs/options.md): rows read from a
// schema as its parser reads it, Markdown that survives the help texts, and every command's schema shown.
#include "app/options/option_reference.hpp"

#include <gtest/gtest.h>

#include <boost/program_options.hpp>
#include <string>

#include "cli/command_options.hpp"
#include "cli/commands.hpp"
#include "tests/cli_runner.hpp"

namespace spotsim {
namespace {

namespace po = boost::program_options;

TEST(OptionReference, RowsAreTheSchemaAsParsed) {
  po::options_description schema("Example");
  schema.add_options()("replications,r", po::value<std::string>()->default_value("200"), "runs")(
      "budget", po::value<double>()->default_value(12.5), "USD")("quiet,q", "no progress line")(
      "policy", po::value<std::string>(), "a | b");
  const auto rows = option_rows(schema);
  ASSERT_EQ(rows.size(), 4U);
  EXPECT_EQ(rows[0].name, "replications");
  EXPECT_EQ(rows[0].short_name, "-r");
  EXPECT_EQ(rows[0].default_text, "200");
  EXPECT_FALSE(rows[0].flag);
  EXPECT_EQ(rows[1].default_text, "12.5");
  EXPECT_TRUE(rows[2].flag);
  EXPECT_EQ(rows[2].short_name, "-q");
  EXPECT_FALSE(rows[3].default_text.has_value());
  const std::string markdown = option_reference_markdown(rows);
  EXPECT_NE(markdown.find("| `--replications VALUE` (`-r`) | `200` | runs |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| `--quiet` (`-q`) |  | no progress line |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| a \\| b |"), std::string::npos) << markdown;  // a '|' in help does not split the row
}

TEST(OptionReference, TheCommandShowsEveryOptionOfEachSchema) {
  const auto result = test::run_cli(options_command, "spotsim options", {});
  ASSERT_EQ(result.code, 0) << result.err;
  for (const auto& row : option_rows(simulate_command_options())) {
    EXPECT_NE(result.out.find("`--" + row.name), std::string::npos) << row.name;
  }
  for (const auto& row : option_rows(trace_fit_command_options())) {
    EXPECT_NE(result.out.find("`--" + row.name), std::string::npos) << row.name;
  }
  const auto one = test::run_cli(options_command, "spotsim options", {"trace", "fit"});
  EXPECT_EQ(one.code, 0);
  EXPECT_EQ(one.out.rfind("## spotsim trace fit", 0), 0U) << one.out;
  const auto unknown = test::run_cli(options_command, "spotsim options", {"simulat"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("no command 'simulat'"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace spotsim
