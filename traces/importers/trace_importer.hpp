#pragma once
// The one entry point for every supported source format: detects the format from the content (or takes it by
// name), runs its importer and, for several files, merges their zones into one multi-zone market.
#include <string>
#include <vector>

#include "traces/importers/import_options.hpp"
#include "traces/importers/imported_trace.hpp"

namespace spotsim {

struct TraceFormatInfo {
  const char* name;
  const char* description;
};

// Every format `--from` accepts, in the order detection tries them.
const std::vector<TraceFormatInfo>& trace_formats();

// The format of `content` (the whole file), or InputError naming `file` and the formats known.
std::string detect_trace_format(const std::string& content, const std::string& file);

// format: a name from trace_formats() or "auto".
ImportedTrace import_trace_content(const std::string& content, const std::string& file, const std::string& format,
                                   const ImportOptions& options);
ImportedTrace import_trace_file(const std::string& path, const std::string& format, const ImportOptions& options);

// One market with the zones of all parts, in order (zone names must differ). Recordings of different lengths
// are cut to the shortest, so that every zone covers the same period; the cut is noted in the provenance.
ImportedTrace merge_imported(std::vector<ImportedTrace> parts);

// The series cut at `span` (unchanged when it is constant or already shorter).
StepSeries truncate_series(const StepSeries& series, Millis span);

}  // namespace spotsim
