#pragma once
// Several results on one page (docs/report.md#comparing-results): `spotsim report A.json B.json ...` puts the
// configurations of simulate outputs side by side, whatever their engine (single instance, elastic, multi-region),
// so that restart and elastic, or two policies, are compared on one table, one cost/time chart and one time axis.
#include <string>
#include <vector>

#include "app/report/report_input.hpp"

namespace spotsim {

// The short names the page gives the inputs: each path's file name, or the whole path where two file names are the
// same.
std::vector<std::string> input_names(const std::vector<std::string>& paths);

// One input of command "comparison" from two or more simulate outputs: one configuration per input, in order, its
// `origin` the input's short name; the Pareto frontier among all of them (the user chose to compare them, even
// across traces); `compared` keeps each input's path and manifest. InputError (exit 2) naming the file for an input
// that is not a simulate output: a campaign's rows or a sweep's configurations are a comparison already, reported
// alone.
ReportInput combine_report_inputs(std::vector<ReportInput> inputs);

}  // namespace spotsim
