#include "app/report/report_page.hpp"

#include <optional>

#include "app/report/report_comparison.hpp"
#include "app/report/report_html.hpp"
#include "base/errors.hpp"

namespace spotsim {

namespace {

// The timeline drawn for `input`: the file given for it, else the one its simulate JSON carries, else none.
std::optional<TimelineFile> timeline_for(const ReportInput& input, const std::string* given) {
  if (given != nullptr) return read_timeline_file(*given);
  if (!input.embedded_timeline.empty())
    return read_timeline_text(input.embedded_timeline, input.source + ": field 'timeline'");
  return std::nullopt;
}

}  // namespace

std::string report_page_html(const std::vector<std::string>& results, const std::vector<std::string>& timelines) {
  if (results.empty()) throw InputError("expected RESULT: a `simulate --format json` output or a sweep directory");
  if (!timelines.empty() && timelines.size() != results.size()) {
    throw InputError("--timeline: " + std::to_string(timelines.size()) + " files for " +
                     std::to_string(results.size()) + (results.size() == 1 ? " RESULT" : " RESULTs") +
                     ": give one per RESULT, in the same order, or none to draw the timelines each simulate JSON "
                     "carries");
  }
  std::vector<ReportInput> inputs;
  for (const std::string& path : results) inputs.push_back(read_report_input(path));
  std::vector<std::optional<TimelineFile>> files;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    files.push_back(timeline_for(inputs[i], timelines.empty() ? nullptr : &timelines[i]));
  const ReportInput page = inputs.size() == 1 ? std::move(inputs.front()) : combine_report_inputs(std::move(inputs));
  std::vector<ReportTimeline> drawn;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i]) drawn.push_back({i, &*files[i]});
  }
  return render_report_html(page, drawn);
}

}  // namespace spotsim
