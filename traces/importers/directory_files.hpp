#pragma once
// The files of a data folder whose names end in a given suffix, for importers that read a whole folder.
#include <string>
#include <vector>

namespace spotsim {

// Paths of the regular files directly in `dir` whose names end in `suffix`, sorted by name. InputError naming
// `dir` if it is not a readable folder or holds no such file (`what` says what was looked for).
std::vector<std::string> files_with_suffix(const std::string& dir, const std::string& suffix, const std::string& what);

// The file name without `suffix`: "/d/us-east4-a_h100_16.json" with "_h100_16.json" -> "us-east4-a".
std::string name_before_suffix(const std::string& path, const std::string& suffix);

}  // namespace spotsim
