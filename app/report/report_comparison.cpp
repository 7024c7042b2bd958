#include "app/report/report_comparison.hpp"

#include <filesystem>
#include <map>

#include "app/sweep/pareto.hpp"
#include "base/errors.hpp"

namespace spotsim {

std::vector<std::string> input_names(const std::vector<std::string>& paths) {
  std::map<std::string, int> uses;
  std::vector<std::string> names;
  for (const std::string& path : paths) {
    std::string name = std::filesystem::path(path).filename().string();
    names.push_back(name.empty() ? path : name);
    ++uses[names.back()];
  }
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (uses[names[i]] > 1) names[i] = paths[i];
  }
  return names;
}

ReportInput combine_report_inputs(std::vector<ReportInput> inputs) {
  if (inputs.size() < 2) throw InputError("a comparison needs two or more results");
  for (const ReportInput& input : inputs) {
    if (input.command == "simulate") continue;
    throw InputError(input.source + ": a " + input.command + " output cannot be compared with other results (" +
                     (input.command == "sweep" ? "a sweep directory" : "a campaign output") +
                     " already compares its configurations: report it alone); a comparison takes `simulate "
                     "--format json` outputs");
  }
  std::vector<std::string> paths;
  for (const ReportInput& input : inputs) paths.push_back(input.source);
  const std::vector<std::string> names = input_names(paths);
  ReportInput combined;
  combined.command = "comparison";
  std::vector<ObjectivePoint> points;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    combined.source += (i == 0 ? "" : ", ") + inputs[i].source;
    ReportConfiguration c = std::move(inputs[i].configurations.front());
    c.origin = names[i];
    points.push_back({c.cost.mean, c.completion.mean});
    combined.configurations.push_back(std::move(c));
    combined.compared.push_back({inputs[i].source, inputs[i].command, std::move(inputs[i].manifest)});
  }
  const std::vector<bool> on = pareto_frontier(points);
  for (std::size_t i = 0; i < on.size(); ++i) combined.configurations[i].pareto = on[i];
  return combined;
}

}  // namespace spotsim
