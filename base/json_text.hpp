#pragma once
// The text of a JSON document spotsim writes (every output, manifest and timeline line goes through here). Text
// that is not valid UTF-8 (a Latin-1 directory in a path, say) is written with U+FFFD in place of each bad byte
// instead of aborting the program: nlohmann::json's default is to throw from inside the writer. Names that must
// round-trip exactly (zones, jobs) are checked where they enter instead (base/text_escape.hpp, require_utf8).
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace spotsim {

std::string json_text(const nlohmann::json& value, int indent = -1);
std::string json_text(const nlohmann::ordered_json& value, int indent = -1);

}  // namespace spotsim
