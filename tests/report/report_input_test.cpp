// Reading what `spotsim report` draws: simulate JSON outputs, sweep directories, timelines; and refusing the rest
// with the file's name and what was expected.
#include "app/report/report_input.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/report/report_html.hpp"
#include "app/report/timeline_reader.hpp"
#include "app/report_writer.hpp"
#include "app/simulation_request.hpp"
#include "base/errors.hpp"
#include "tests/report/report_test_files.hpp"

namespace spotsim {
namespace {

class ReportInputTest : public ReportFilesTest {};

TEST_F(ReportInputTest, SimulateJsonGivesItsSummaryAndEveryRun) {
  const SimulationReport report = run_simulation(small_request("adaptive"));
  const ReportInput input = read_report_input(write("r.json", report_json(report)));
  EXPECT_EQ(input.command, "simulate");
  ASSERT_EQ(input.configurations.size(), 1u);
  const ReportConfiguration& c = input.configurations[0];
  EXPECT_EQ(c.policy, "adaptive");
  EXPECT_EQ(c.replications, 40u);
  ASSERT_EQ(c.run_costs.size(), 40u);
  ASSERT_EQ(c.run_completions.size(), 40u);
  double sum = 0.0;
  for (std::size_t r = 0; r < 40; ++r) {
    EXPECT_EQ(c.run_costs[r], report.runs[r].cost_total);
    EXPECT_EQ(c.run_completions[r], report.runs[r].completion_hours);
    sum += report.runs[r].cost_total;
  }
  EXPECT_NEAR(c.cost.mean, sum / 40, 1e-9 * sum);
  EXPECT_LE(c.cost.ci_low, c.cost.mean);
  EXPECT_GE(c.cost.ci_high, c.cost.mean);
  EXPECT_TRUE(c.pareto);
  EXPECT_EQ(input.manifest["seed"], 1);
}

TEST_F(ReportInputTest, RefusesWhatIsNotAResultNamingTheFile) {
  const std::string not_json = write("a.json", "{ nope");
  EXPECT_NE(error_of([&] { read_report_input(not_json); }).find("a.json"), std::string::npos);
  const std::string trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";
  const std::string message = error_of([&] { read_report_input(trace); });
  EXPECT_NE(message.find("us-west1.json"), std::string::npos);
  EXPECT_NE(message.find("simulate --format json"), std::string::npos);
  const std::string no_cost =
      write("b.json", R"({"manifest": {}, "summary": {"completion_hours": {"mean": 1, "ci_low": 1, "ci_high": 1}}})");
  EXPECT_NE(error_of([&] { read_report_input(no_cost); }).find("cost_total"), std::string::npos);
  const std::string bad_number =
      write("c.json", R"({"manifest": {}, "summary": {"cost_total": {"mean": "x"}, "completion_hours": {}}})");
  EXPECT_NE(error_of([&] { read_report_input(bad_number); }).find("summary.cost_total.mean"), std::string::npos);
  EXPECT_NE(error_of([&] { read_report_input(dir_.string()); }).find("summary.json"), std::string::npos);
  EXPECT_NE(error_of([&] { read_report_input((dir_ / "missing.json").string()); }).find("missing.json"),
            std::string::npos);
}

TEST_F(ReportInputTest, PolicyNamesAreEscapedInThePage) {
  SimulationReport report = run_simulation(small_request("adaptive"));
  report.manifest["policy"] = "<img src=x onerror=alert(1)>";
  const ReportInput input = read_report_input(write("r.json", report_json(report)));
  const std::string html = render_report_html(input, nullptr);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);  // nothing fetched from anywhere
  EXPECT_EQ(html.find("https://"), std::string::npos);
  for (const char* id :
       {"id=\"summary\"", "id=\"cost-time\"", "id=\"distributions\"", "id=\"timelines\"", "id=\"manifest\""}) {
    EXPECT_NE(html.find(id), std::string::npos) << id;
  }
}

// A `campaign --format json` output: one configuration per row, the makespan as completion time, P(every deadline
// met) with the interval of a mean of 0/1 values, and the capacity chart instead of per-run distributions.
TEST_F(ReportInputTest, CampaignJsonGivesOneConfigurationPerRowAndTheCapacityChart) {
  const auto summary = [](double mean) {
    return nlohmann::json{{"mean", mean}, {"ci_low", mean - 1}, {"ci_high", mean + 1}};
  };
  nlohmann::json doc = {{"format", "spotsim-campaign"}, {"command", "campaign"}, {"trace", "t"}, {"jobs", 40},
                        {"checkpoint", "young-daly"},   {"replications", 101},   {"seed", 1}};
  doc["policies"] = nlohmann::json::array();
  doc["policies"].push_back({{"policy", "spot-<b>only"},
                             {"managed", false},
                             {"makespan_hours", summary(39.0)},
                             {"cost_total", summary(10000.0)},
                             {"completed", summary(40.0)},
                             {"preemptions", summary(3.0)},
                             {"p_deadline_met", 0.9},
                             {"held_by_hour", {10.0, 12.0, 8.0}},
                             {"capacity_by_hour", {100.0, 90.0, 80.0}}});
  doc["policies"].push_back({{"policy", "sagemaker spot ml.p5.48xlarge"},
                             {"managed", true},
                             {"makespan_hours", summary(14.0)},
                             {"cost_total", summary(10800.0)},
                             {"completed", summary(40.0)},
                             {"p_deadline_met", 1.0}});
  const ReportInput input = read_report_input(write("campaign.json", doc.dump()));
  EXPECT_EQ(input.command, "campaign");
  ASSERT_EQ(input.configurations.size(), 2u);
  const ReportConfiguration& diy = input.configurations[0];
  EXPECT_EQ(diy.completion.mean, 39.0);
  EXPECT_FALSE(diy.managed);
  EXPECT_EQ(diy.held_by_hour, (std::vector<double>{10.0, 12.0, 8.0}));
  EXPECT_NEAR(diy.deadline_met.ci_high - diy.deadline_met.mean, 1.96 * std::sqrt(0.9 * 0.1 / 100), 1e-12);
  EXPECT_TRUE(input.configurations[1].managed);
  EXPECT_EQ(input.configurations[1].checkpoint, "managed");
  const std::string html = render_report_html(input, nullptr);
  EXPECT_NE(html.find("id=\"capacity\""), std::string::npos);
  EXPECT_NE(html.find("makespan (h)"), std::string::npos);
  EXPECT_EQ(html.find("id=\"distributions\""), std::string::npos);
  EXPECT_EQ(html.find("<b>only"), std::string::npos);  // escaped
  std::size_t held_lines = 0;
  for (std::size_t at = html.find("class=\"held\""); at != std::string::npos; at = html.find("class=\"held\"", at + 1))
    ++held_lines;
  EXPECT_EQ(held_lines, 1u);  // the managed row has its own pool: not drawn
  EXPECT_NE(html.find("class=\"capacity\""), std::string::npos);

  doc["policies"] = "none";
  EXPECT_THROW(read_report_input(write("bad.json", doc.dump())), InputError);
}

TEST_F(ReportInputTest, SweepDirectoryReadsSummaryAndRunsCsv) {
  write("manifest.json", R"({"command": "sweep", "version": "x", "seed": 3})");
  write("summary.json", R"({"format": "spotsim-sweep-summary", "configurations": [
      {"trace": "t", "policy": "a,b", "checkpoint": "c", "job": "j",
       "summary": {"cost_total": {"n": 2, "mean": 10, "ci_low": 9, "ci_high": 11},
                   "completion_hours": {"n": 2, "mean": 5, "ci_low": 4, "ci_high": 6},
                   "regret": {"n": 2, "mean": 0.2, "ci_low": 0.1, "ci_high": 0.3}}},
      {"trace": "t", "policy": "p", "checkpoint": "c", "job": "j",
       "summary": {"cost_total": {"n": 2, "mean": 20, "ci_low": 19, "ci_high": 21},
                   "completion_hours": {"n": 2, "mean": 4, "ci_low": 3, "ci_high": 5}}}]})");
  write("runs.csv",
        "run,configuration,policy,cost_total,completion_hours\n0,0,\"a,b\",9.5,4.5\n1,0,\"a,b\",10.5,5.5\n"
        "2,1,p,20,4\n3,1,p,20,\"4\"\n");
  const ReportInput input = read_report_input(dir_.string());
  EXPECT_EQ(input.command, "sweep");
  ASSERT_EQ(input.configurations.size(), 2u);
  EXPECT_EQ(input.configurations[0].policy, "a,b");
  EXPECT_EQ(input.configurations[0].run_costs, (std::vector<double>{9.5, 10.5}));
  EXPECT_EQ(input.configurations[1].run_completions, (std::vector<double>{4, 4}));
  EXPECT_DOUBLE_EQ(input.configurations[0].regret.mean, 0.2);
  EXPECT_FALSE(input.configurations[1].regret.present());
  EXPECT_TRUE(input.configurations[0].pareto && input.configurations[1].pareto);
  EXPECT_NE(render_report_html(input, nullptr).find("id=\"regret\""), std::string::npos);
  write("runs.csv", "run,configuration,cost_total,completion_hours\n0,7,1,1\n");
  EXPECT_NE(error_of([&] { read_report_input(dir_.string()); }).find("configuration 7"), std::string::npos);
}

TEST_F(ReportInputTest, TimelineFileErrorsNameTheLine) {
  EXPECT_NE(
      error_of([&] { read_timeline_file(write("t.jsonl", "{\"format\": \"other\"}\n")); }).find("spotsim-timeline"),
      std::string::npos);
  const std::string header = R"({"format": "spotsim-timeline", "version": 1, "replications": [0], "zones": []})";
  const std::string late =
      write("u.jsonl", header + "\n" + R"({"replication": 5, "event": "phase", "t_hours": 0})" + "\n");
  const std::string message = error_of([&] { read_timeline_file(late); });
  EXPECT_NE(message.find("line 2"), std::string::npos);
  EXPECT_NE(message.find("replication 5"), std::string::npos);
  const std::string backwards =
      write("v.jsonl", header + "\n" + R"({"replication": 0, "event": "phase", "phase": "idle", "t_hours": 2})" + "\n" +
                           R"({"replication": 0, "event": "phase", "phase": "idle", "t_hours": 1})" + "\n");
  EXPECT_NE(error_of([&] { read_timeline_file(backwards); }).find("line 3"), std::string::npos);
}

// Fields of the wrong JSON type are input errors naming the field (found by the timeline fuzzer: a version of
// 7.8e76 converted to int was undefined behaviour; a non-string purchase escaped as a library exception).
TEST_F(ReportInputTest, TimelineFieldsOfTheWrongTypeAreInputErrors) {
  const auto refusal = [&](const std::string& text) {
    return error_of([&] { read_timeline_file(write("w.jsonl", text)); });
  };
  EXPECT_NE(refusal(R"({"format": "spotsim-timeline", "version": 7.7e76, "replications": [0]})"
                    "\n")
                .find("version 1"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"format": 3, "version": 1, "replications": [0]})"
                    "\n")
                .find("spotsim-timeline"),
            std::string::npos);
  const std::string header = R"({"format": "spotsim-timeline", "version": 1, "replications": [0], "zones": []})"
                             "\n";
  const std::string purchase =
      refusal(header + R"({"replication": 0, "event": "instance_acquired", "t_hours": 0, "purchase": 7})");
  EXPECT_NE(purchase.find("line 2"), std::string::npos) << purchase;
  EXPECT_NE(purchase.find("'purchase'"), std::string::npos) << purchase;
  const std::string completed =
      refusal(header + R"({"replication": 0, "event": "finished", "t_hours": 1, "completed": "yes"})");
  EXPECT_NE(completed.find("'completed'"), std::string::npos) << completed;
  // A zone index beyond int is drawn as no zone, not converted.
  const TimelineFile file = read_timeline_file(write(
      "z.jsonl",
      header +
          R"({"replication": 0, "event": "instance_acquired", "t_hours": 0, "purchase": "spot", "zone": 99999999999})"
          "\n"));
  ASSERT_EQ(file.runs.size(), 1u);
  ASSERT_EQ(file.runs[0].held.size(), 1u);
  EXPECT_EQ(file.runs[0].held[0].zone, -1);
}

}  // namespace
}  // namespace spotsim
