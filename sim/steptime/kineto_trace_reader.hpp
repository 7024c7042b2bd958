#pragma once
// Streaming reader for PyTorch profiler (Kineto) Chrome-trace JSON, gzip'd or plain, current and legacy
// (PyTorch 1.9, 2021) schemas. The file is parsed with nlohmann::json's SAX interface straight from the zlib
// stream: only the fields spotsim uses are kept, so memory does not grow with the size of the JSON.
#include <string>

#include "sim/steptime/kineto_trace.hpp"

namespace spotsim {

// Throws InputError naming the file for: a file that cannot be read, a truncated gzip stream, invalid JSON,
// a JSON document that is not a Chrome trace (no traceEvents), and a trace without GPU kernel events.
KinetoTrace read_kineto_trace(const std::string& path);

}  // namespace spotsim
