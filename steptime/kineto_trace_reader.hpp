#pragma once
// Streaming reader for PyTorch profiler (Kineto) Chrome-trace JSON, gzip'd or plain, current and legacy
// (PyTorch 1.9, 2021) schemas. zlib inflates the file chunk by chunk into nlohmann::json's SAX parser; only the
// fields spotsim uses are kept, and every buffer has a bound (docs/step-time.md#input-limits), so memory does not
// grow with the size of the file.
#include <cstdint>
#include <string>

#include "steptime/compressed_text_source.hpp"
#include "steptime/kineto_trace.hpp"

namespace spotsim {

// The largest shared real trace (v100_transformerlike_ddp2_fp32_rank1) is 53.7 MB of JSON with 216,092 events, of
// which ~65,000 are kept (GPU activities, kernel launches, steps); its longest string is 5 KB and it nests 6 deep.
// The limits leave 60-800 times that headroom.
inline constexpr std::uint64_t kMaxTraceJsonBytes = 4ull << 30;  // decompressed JSON text
inline constexpr std::uint64_t kMaxJsonTokenBytes = 4ull << 20;  // JSON text between two strings/keys/numbers
inline constexpr std::size_t kMaxKeptTraceEvents = 4'000'000;    // activities + launches + steps + ops + devices
inline constexpr std::uint64_t kMaxKeptTextBytes = 64ull << 20;  // interned names, step and operator names
inline constexpr int kMaxTraceJsonDepth = 64;                    // Kineto nests at most 8 levels
// Time fields: a ts beyond ±kMaxTimestampUs (year ~5100 in epoch microseconds) or more than kMaxTraceSpanUs
// (31.7 years) from the trace's first timestamp, or a dur beyond kMaxTraceSpanUs, is absurd. A GPU activity or
// step longer than both kMinSpanForDurCheckUs and the span of all the trace's other complete events
// (their latest end minus the earliest start) is skipped too: one corrupt dur would otherwise fill the step.
inline constexpr double kMaxTimestampUs = 1e17;
inline constexpr double kMaxTraceSpanUs = 1e15;
inline constexpr double kMinSpanForDurCheckUs = 1e6;

struct KinetoReadLimits {
  std::uint64_t max_json_bytes = kMaxTraceJsonBytes;
  std::uint64_t max_token_bytes = kMaxJsonTokenBytes;
  std::size_t max_kept_events = kMaxKeptTraceEvents;
  std::uint64_t max_kept_text_bytes = kMaxKeptTextBytes;
};

// Throws InputError naming the file for: a file that cannot be read, a truncated gzip stream, invalid JSON, a
// limit above exceeded, JSON nested deeper than kMaxTraceJsonDepth, a JSON document that is not a Chrome trace (no
// traceEvents), a non-string ph/cat/name, a trace without GPU kernel events, and too many events with unusable
// time fields (check_skipped_events); fewer are counted in KinetoTrace::skipped.
// `progress`, when set, hears after each chunk how many bytes of the file were read, of how many.
KinetoTrace read_kineto_trace(const std::string& path, const KinetoReadLimits& limits = {},
                              const CompressedTextSource::Progress& progress = {});

}  // namespace spotsim
