#pragma once
// Writes a whole file or nothing: the content goes to a temporary file beside the target, which is renamed over
// it only once complete, so an interrupted run never leaves a half-written result or clobbers the old one.
#include <string>

namespace spotsim {

void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace spotsim
