#pragma once
// summary.json and summary.md written as the analysis goes, one (trace, job) group at a time, byte-identical to
// rendering the whole SweepAnalysis at once (sweep_summary_json / sweep_summary_markdown in sweep_outputs.hpp).
// Both files list the configurations before the checkpoint tuning, or after it (summary.json sorts its keys:
// "checkpoint_tuning" < "configurations"), so whatever comes second waits in a ScratchFile until finish().
#include <string>
#include <string_view>

#include "app/sweep/streaming_file.hpp"
#include "app/sweep/sweep_analysis.hpp"
#include "app/sweep/sweep_plan.hpp"

namespace spotsim {

class SummaryJsonWriter {
 public:
  SummaryJsonWriter(const SweepPlan& plan, const std::string& path);
  void add(const GroupAnalysis& group);
  void finish();  // writes and commits the file

 private:
  void write_configurations_array(std::string_view elements);

  const SweepPlan& plan_;
  const std::string frame_;                              // the document with both arrays empty
  std::size_t tuning_end_ = 0, configurations_end_ = 0;  // where each "[]" of the frame starts
  // Without checkpoint tuning (the usual case) the configurations go straight to the file; with it they wait
  // in a ScratchFile, since "checkpoint_tuning" comes first.
  const bool direct_;
  StreamingFile out_;
  ScratchFile tuning_, configurations_;
  bool any_tuning_ = false, any_configuration_ = false;
  std::string text_;  // one group's elements, reused
};

class SummaryMarkdownWriter {
 public:
  SummaryMarkdownWriter(const SweepPlan& plan, const std::string& path);
  void add(const GroupAnalysis& group);
  void finish();

 private:
  const SweepPlan& plan_;
  StreamingFile out_;
  ScratchFile tuning_rows_, reference_rows_;
  bool any_tuning_ = false;
};

}  // namespace spotsim
