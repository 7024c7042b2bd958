// Timelines of the elastic multi-node engine (docs/elastic.md) in `spotsim report`: lines carrying spot_nodes,
// on_demand_nodes and training_nodes become a step series of counts, drawn as stacked spot / on-demand areas with the
// training set's size as a line; `reconfiguring` is a phase; malformed counts are refused naming the line and field.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/report/timeline_chart.hpp"
#include "app/report/timeline_reader.hpp"
#include "base/errors.hpp"

namespace spotsim {
namespace {

const std::string kElasticHeader =
    R"({"format": "spotsim-timeline", "version": 1, "engine": "elastic", "replications": [0],)"
    R"( "zones": [{"index": 0, "name": "us-west1-a", "region": "us-west1"}], "job": {"nodes": 4, "min_nodes": 2}})";

// One event line of an elastic run.
std::string line(double t, const std::string& event, const std::string& phase, const std::string& purchase, int spot,
                 int on_demand, int training, const std::string& extra = "") {
  return R"({"replication": 0, "t_hours": )" + std::to_string(t) + R"(, "event": ")" + event + R"(", "phase": ")" +
         phase + R"(", "purchase": ")" + purchase + R"(", "zone": 0, "nodes": )" + std::to_string(spot + on_demand) +
         R"(, "progress_hours": 0, "committed_hours": 0, "cost_usd": 1.5, "spot_nodes": )" + std::to_string(spot) +
         R"(, "on_demand_nodes": )" + std::to_string(on_demand) + R"(, "training_nodes": )" + std::to_string(training) +
         extra + "}\n";
}

// 4 spot instances start and train; a preemption takes one (the preemption line still counts 4), the set
// reconfigures and trains on 3; an on-demand instance is added, another reconfiguration, 4 train again; finished.
std::string elastic_run() {
  return kElasticHeader + "\n" +                                              // line 1
         line(0.0, "instance_acquired", "idle", "spot", 4, 0, 0) +            // line 2
         line(0.0, "phase", "starting", "spot", 4, 0, 0) +                    // 3
         line(0.5, "nodes_changed", "starting", "spot", 4, 0, 4) +            // 4
         line(0.5, "phase", "computing", "spot", 4, 0, 4) +                   // 5
         line(2.0, "checkpoint_done", "computing", "spot", 4, 0, 4) +         // 6
         line(3.0, "preemption", "computing", "spot", 4, 0, 4) +              // 7
         line(3.0, "instance_released", "computing", "spot", 3, 0, 4) +       // 8
         line(3.0, "reconfiguring", "reconfiguring", "spot", 3, 0, 4) +       // 9
         line(3.25, "nodes_changed", "reconfiguring", "spot", 3, 0, 3) +      // 10
         line(3.25, "phase", "computing", "spot", 3, 0, 3) +                  // 11
         line(4.0, "instance_acquired", "computing", "on-demand", 3, 1, 3) +  // 12
         line(4.1, "reconfiguring", "reconfiguring", "on-demand", 3, 1, 3) +  // 13
         line(4.2, "nodes_changed", "reconfiguring", "on-demand", 3, 1, 4) +  // 14
         line(4.2, "phase", "computing", "on-demand", 3, 1, 4) +              // 15
         line(6.0, "phase", "checkpointing", "on-demand", 3, 1, 4) +          // 16
         line(6.1, "checkpoint_done", "checkpointing", "on-demand", 3, 1, 4) +
         line(6.1, "phase", "done", "on-demand", 3, 1, 4) + line(6.1, "instance_released", "done", "spot", 0, 1, 0) +
         line(6.1, "instance_released", "done", "on-demand", 0, 0, 0) +
         line(6.1, "finished", "done", "none", 0, 0, 0, R"(, "completed": true)");
}

std::string error_of(const std::string& text) {
  try {
    read_timeline_text(text, "e.jsonl");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

TEST(ElasticTimelineChart, CountsBecomeOneStepPerChange) {
  const TimelineFile file = read_timeline_text(elastic_run(), "e.jsonl");
  EXPECT_TRUE(file.elastic);
  EXPECT_EQ(file.job_nodes, 4);
  EXPECT_EQ(file.job_min_nodes, 2);
  ASSERT_EQ(file.runs.size(), 1u);
  const TimelineRun& run = file.runs[0];
  EXPECT_TRUE(run.multi_node);
  EXPECT_TRUE(run.held.empty());  // no single-instance spans chopped out of acquired/released lines
  // The preemption line (4 spot, before the loss) and the release after it share 3.0 h: only the counts after stay.
  const std::vector<NodeCountStep> expected = {{0.0, 4, 0, 0}, {0.5, 4, 0, 4}, {3.0, 3, 0, 4}, {3.25, 3, 0, 3},
                                               {4.0, 3, 1, 3}, {4.2, 3, 1, 4}, {6.1, 0, 0, 0}};
  EXPECT_EQ(run.node_counts, expected);
  EXPECT_TRUE(run.finished);
  EXPECT_TRUE(run.completed);
  EXPECT_DOUBLE_EQ(run.end, 6.1);
  // Marks: the preemption and both checkpoints; nodes_changed is shown by the counts, not marked.
  std::vector<std::string> marks;
  for (const TimelineMark& m : run.marks) marks.push_back(m.event);
  EXPECT_EQ(marks, (std::vector<std::string>{"checkpoint_done", "preemption", "checkpoint_done"}));
}

TEST(ElasticTimelineChart, ReconfiguringIsAPhaseUntilTheNextPhase) {
  const TimelineRun run = read_timeline_text(elastic_run(), "e.jsonl").runs[0];
  std::vector<std::string> names;
  for (const PhaseSpan& p : run.phases) names.push_back(p.phase);
  EXPECT_EQ(names, (std::vector<std::string>{"starting", "computing", "reconfiguring", "computing", "reconfiguring",
                                             "computing", "checkpointing", "done"}));
  ASSERT_EQ(run.phases.size(), 8u);
  EXPECT_DOUBLE_EQ(run.phases[2].from, 3.0);
  EXPECT_DOUBLE_EQ(run.phases[2].to, 3.25);
  EXPECT_DOUBLE_EQ(run.phases[4].from, 4.1);
  EXPECT_DOUBLE_EQ(run.phases[4].to, 4.2);
}

TEST(ElasticTimelineChart, ChartStacksSpotUnderOnDemandWithTheTrainingLine) {
  const TimelineFile file = read_timeline_text(elastic_run(), "e.jsonl");
  const std::string svg = timeline_chart(file);
  // Six steps last a while (the last, at the run's end, does not): six spot rects; two with an on-demand one.
  EXPECT_EQ(count(svg, "class=\"held-spot\""), 6u);
  EXPECT_EQ(count(svg, "class=\"held-on-demand\""), 2u);
  EXPECT_EQ(count(svg, "class=\"held\""), 0u);
  // Row 0's lane is y 28..44 and N = 4 instances fill it: 3 spot are 12 px from the bottom, 1 on-demand 4 px on top.
  const std::string title =
      "<title>3 spot + 1 on-demand held, 3 training, 4.00\xE2\x80\x93"
      "4.20 h</title>";
  EXPECT_NE(svg.find("<rect class=\"held-spot\" x=\""), std::string::npos);
  const std::size_t on_demand = svg.find("class=\"held-on-demand\"");
  ASSERT_NE(on_demand, std::string::npos);
  const std::string rect = svg.substr(on_demand, svg.find("</rect>", on_demand) - on_demand);
  EXPECT_NE(rect.find("y=\"28.00\""), std::string::npos) << rect;
  EXPECT_NE(rect.find("height=\"4.00\""), std::string::npos) << rect;
  EXPECT_NE(rect.find("fill=\"#E69F00\""), std::string::npos) << rect;
  EXPECT_NE(rect.find(title), std::string::npos) << rect;
  const std::size_t spot = svg.rfind("class=\"held-spot\"", on_demand);
  const std::string spot_rect = svg.substr(spot, svg.find("</rect>", spot) - spot);
  EXPECT_NE(spot_rect.find("y=\"32.00\""), std::string::npos) << spot_rect;
  EXPECT_NE(spot_rect.find("height=\"12.00\""), std::string::npos) << spot_rect;
  EXPECT_NE(spot_rect.find("fill=\"#0072B2\""), std::string::npos) << spot_rect;
  EXPECT_NE(spot_rect.find(title), std::string::npos) << spot_rect;
  EXPECT_NE(svg.find("<title>4 spot + 0 on-demand held, 4 training, 0.50\xE2\x80\x93"
                     "3.00 h</title>"),
            std::string::npos);
  // The training line: from the lane's bottom (0 training) at 0 h, up to the top (4) at 0.5 h, one step per change.
  const std::size_t path = svg.find("<path class=\"training\"");
  ASSERT_NE(path, std::string::npos);
  const std::string training = svg.substr(path, svg.find("</path>", path) - path);
  EXPECT_NE(training.find("stroke=\"#000\""), std::string::npos);
  EXPECT_NE(training.find("d=\"M150.00 44.00 H"), std::string::npos) << training;
  EXPECT_EQ(count(training, " V"), 5u) << training;
  EXPECT_NE(training.find(" V28.00 "), std::string::npos) << training;  // 4 training
  EXPECT_NE(training.find(" V32.00 "), std::string::npos) << training;  // 3 training
  // Reconfiguring has its colour in the phase lane; no glyph for nodes_changed.
  EXPECT_NE(svg.find("fill=\"#F0E442\"><title>reconfiguring, 3.00\xE2\x80\x93"
                     "3.25 h</title>"),
            std::string::npos);
  EXPECT_EQ(svg.find("nodes_changed"), std::string::npos);
  const std::string legend = timeline_legend(file);
  EXPECT_NE(legend.find("training set (instances)"), std::string::npos);
  EXPECT_NE(legend.find("#F0E442"), std::string::npos);
  EXPECT_NE(legend.find("full height 4 instances"), std::string::npos);
  EXPECT_NE(legend.find("trains on any 2 to 4 instances"), std::string::npos);
}

TEST(ElasticTimelineChart, WithoutTheJobsNodesTheLaneScalesToTheMostHeld) {
  const std::string header =
      R"({"format": "spotsim-timeline", "version": 1, "engine": "elastic", "replications": [0], "zones": []})";
  const std::string text = header + "\n" + line(0.0, "instance_acquired", "idle", "spot", 2, 0, 0) +
                           line(1.0, "instance_acquired", "idle", "on-demand", 2, 1, 0) +
                           line(2.0, "finished", "done", "none", 2, 1, 0, R"(, "completed": false)");
  const TimelineFile file = read_timeline_text(text, "e.jsonl");
  EXPECT_EQ(file.job_nodes, 0);
  const std::string svg = timeline_chart(file);
  // 3 held at most: 2 spot alone fill two thirds of the 16 px lane.
  EXPECT_NE(svg.find("height=\"10.67\" fill=\"#0072B2\"><title>2 spot + 0 on-demand held"), std::string::npos) << svg;
  EXPECT_NE(svg.find("y=\"28.00\" width=\""), std::string::npos);  // 2 spot + 1 on-demand reach the lane's top
}

TEST(ElasticTimelineChart, MalformedCountsNameTheLineAndField) {
  const std::string start = kElasticHeader + "\n" + line(0.0, "instance_acquired", "idle", "spot", 4, 0, 0);
  std::string message = error_of(start + line(1.0, "phase", "starting", "spot", -1, 0, 0));
  EXPECT_NE(message.find("e.jsonl: line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("'spot_nodes'"), std::string::npos) << message;
  message = error_of(start + line(1.0, "phase", "starting", "spot", 4, 0, -2));
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("'training_nodes'"), std::string::npos) << message;
  std::string fractional = line(1.0, "phase", "starting", "spot", 4, 0, 0);
  fractional.replace(fractional.find("\"on_demand_nodes\": 0"), 20, "\"on_demand_nodes\": 0.5");
  message = error_of(start + fractional);
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("'on_demand_nodes'"), std::string::npos) << message;
  // nodes must be spot_nodes + on_demand_nodes.
  std::string mismatch = line(1.0, "instance_acquired", "idle", "on-demand", 4, 1, 0);
  mismatch.replace(mismatch.find("\"nodes\": 5"), 10, "\"nodes\": 4");
  message = error_of(start + mismatch);
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("'nodes'"), std::string::npos) << message;
  // One of the three fields alone.
  message = error_of(start + R"({"replication": 0, "t_hours": 1, "event": "phase", "phase": "idle", "spot_nodes": 1})" +
                     "\n");
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("'training_nodes'"), std::string::npos) << message;
  // An elastic header promises the counts on every line.
  message =
      error_of(start + R"({"replication": 0, "t_hours": 1, "event": "phase", "phase": "idle", "nodes": 4})" + "\n");
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("'spot_nodes'"), std::string::npos) << message;
  EXPECT_EQ(error_of(elastic_run()), "(no error)");
}

TEST(ElasticTimelineChart, MixingCountLinesAndPlainLinesInOneReplicationIsRefused) {
  const std::string header = R"({"format": "spotsim-timeline", "version": 1, "replications": [0, 1], "zones": []})";
  const std::string plain = R"({"replication": 0, "t_hours": 1, "event": "phase", "phase": "computing", "nodes": 1})"
                            "\n";
  std::string counted = line(0.0, "instance_acquired", "idle", "spot", 1, 0, 0);
  std::string message = error_of(header + "\n" + counted + plain);
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("replication 0 mixes"), std::string::npos) << message;
  EXPECT_NE(message.find("'spot_nodes'"), std::string::npos) << message;
  message = error_of(header + "\n" + plain + line(2.0, "instance_acquired", "idle", "spot", 1, 0, 0));
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("replication 0 mixes"), std::string::npos) << message;
  // Different replications may differ (without an elastic header).
  std::string other = plain;
  other.replace(other.find("\"replication\": 0"), 16, "\"replication\": 1");
  const TimelineFile file = read_timeline_text(header + "\n" + counted + other, "m.jsonl");
  EXPECT_TRUE(file.runs[0].multi_node);
  EXPECT_FALSE(file.runs[1].multi_node);
}

// A single-instance file reads as before: held spans from acquired/released, no counts; a `reconfiguring` there is
// a phase too, and a stray `nodes_changed` is neither a mark nor a glyph.
TEST(ElasticTimelineChart, SingleInstanceFilesKeepTheirHeldSpans) {
  const std::string header = R"({"format": "spotsim-timeline", "version": 1, "engine": "single", "replications": [0],)"
                             R"( "zones": [{"index": 0, "name": "a"}], "job": {"nodes": 2}})";
  const auto event = [](double t, const std::string& name, const std::string& rest) {
    return R"({"replication": 0, "t_hours": )" + std::to_string(t) + R"(, "event": ")" + name + "\"" + rest + "}\n";
  };
  const std::string text =
      header + "\n" + event(0, "instance_acquired", R"(, "phase": "idle", "purchase": "spot", "zone": 0, "nodes": 2)") +
      event(0, "phase", R"(, "phase": "starting", "purchase": "spot", "zone": 0, "nodes": 2)") +
      event(0.5, "phase", R"(, "phase": "computing", "purchase": "spot", "zone": 0, "nodes": 2)") +
      event(3, "preemption", R"(, "phase": "computing", "purchase": "spot", "zone": 0, "nodes": 2)") +
      event(3, "instance_released", R"(, "phase": "idle", "purchase": "none", "zone": -1, "nodes": 0)") +
      event(3, "phase", R"(, "phase": "idle", "purchase": "none", "zone": -1, "nodes": 0)") +
      event(4, "instance_acquired", R"(, "phase": "idle", "purchase": "on-demand", "zone": 0, "nodes": 2)") +
      event(4, "reconfiguring", R"(, "phase": "reconfiguring", "purchase": "on-demand", "zone": 0, "nodes": 2)") +
      event(4.5, "nodes_changed", R"(, "phase": "reconfiguring", "purchase": "on-demand", "zone": 0, "nodes": 2)") +
      event(4.5, "phase", R"(, "phase": "computing", "purchase": "on-demand", "zone": 0, "nodes": 2)") +
      event(6, "finished",
            R"(, "phase": "done", "purchase": "on-demand", "zone": 0, "nodes": 2, "cost_usd": 9, "completed": true)");
  const TimelineFile file = read_timeline_text(text, "s.jsonl");
  EXPECT_FALSE(file.elastic);
  EXPECT_EQ(file.job_nodes, 0);  // a single-instance job's nodes are one instance's, not a count scale
  const TimelineRun& run = file.runs[0];
  EXPECT_FALSE(run.multi_node);
  EXPECT_TRUE(run.node_counts.empty());
  ASSERT_EQ(run.held.size(), 2u);
  EXPECT_TRUE(run.held[0].spot);
  EXPECT_DOUBLE_EQ(run.held[0].from, 0.0);
  EXPECT_DOUBLE_EQ(run.held[0].to, 3.0);
  EXPECT_FALSE(run.held[1].spot);
  EXPECT_DOUBLE_EQ(run.held[1].from, 4.0);
  EXPECT_DOUBLE_EQ(run.held[1].to, 6.0);
  EXPECT_DOUBLE_EQ(run.cost, 9.0);
  ASSERT_EQ(run.marks.size(), 1u);
  EXPECT_EQ(run.marks[0].event, "preemption");
  ASSERT_EQ(run.phases.size(), 5u);
  EXPECT_EQ(run.phases[3].phase, "reconfiguring");
  EXPECT_DOUBLE_EQ(run.phases[3].to, 4.5);
  const std::string svg = timeline_chart(file);
  EXPECT_EQ(count(svg, "class=\"held\""), 2u);
  EXPECT_EQ(svg.find("held-spot"), std::string::npos);
  EXPECT_EQ(svg.find("class=\"training\""), std::string::npos);
  EXPECT_EQ(svg.find("mark-transfer"), std::string::npos);
  const std::string legend = timeline_legend(file);
  EXPECT_EQ(legend.find("training set"), std::string::npos);
  EXPECT_NE(legend.find("spot instance held"), std::string::npos);
  EXPECT_NE(legend.find("reconfiguring"), std::string::npos);
  EXPECT_NE(error_of(R"({"format": "spotsim-timeline", "version": 1, "engine": "gang", "replications": []})")
                .find("'engine'"),
            std::string::npos);
}

}  // namespace
}  // namespace spotsim
