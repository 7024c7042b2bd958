#pragma once
// Finds a trace given on the command line: an existing path as given, else a bare name ("us-west1" or
// "us-west1.json") in the shipped trace library (source tree, then the install prefix).
#include <string>

namespace spotsim {

std::string locate_trace(const std::string& name_or_path);
// The directories searched for bare names, in order.
std::string shipped_trace_directory();

}  // namespace spotsim
