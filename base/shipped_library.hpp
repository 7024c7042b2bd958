#pragma once
// Finds a trace given on the command line: an existing path as given, else a bare name ("us-west1" or
// "us-west1.json") in the shipped trace library (source tree, then the install prefix).
#include <string>

namespace spotsim {

// `option` names the source in errors ("--trace 'x': no such file"; "is a directory, not a file").
std::string locate_trace(const std::string& name_or_path, const std::string& option = "--trace");
// The directories searched for bare names, in order.
std::string shipped_trace_directory();

}  // namespace spotsim
