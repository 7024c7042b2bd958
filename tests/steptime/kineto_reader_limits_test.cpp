// The Kineto reader on hostile input: bounded memory (decompressed size, token length, kept events and names,
// nesting depth), events with unusable time fields counted by reason, and the threshold beyond which they are
// an error (docs/step-time.md#input-limits, #skipped-events).
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "cli/commands.hpp"
#include "steptime/kineto_trace_reader.hpp"
#include "test_paths.hpp"

namespace spotsim {
namespace {

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

void write_gzip(const std::string& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  gzclose(f);
}

std::string error_of(const std::string& path, const KinetoReadLimits& limits = {}) {
  try {
    read_kineto_trace(path, limits);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

// A kernel event on stream 7, one microsecond long, `ts_text` and `dur_text` written as given.
std::string kernel(const std::string& ts_text, const std::string& dur_text = "1", int correlation = -1) {
  std::string e = R"({"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 0, "tid": 7)";
  if (!ts_text.empty()) e += R"(, "ts": )" + ts_text;
  if (!dur_text.empty()) e += R"(, "dur": )" + dur_text;
  if (correlation >= 0) e += R"(, "args": {"correlation": )" + std::to_string(correlation) + "}";
  return e + "}";
}

std::string trace_of(const std::vector<std::string>& events) {
  std::string out = R"({"traceEvents": [)";
  for (std::size_t i = 0; i < events.size(); ++i) out += (i ? ",\n" : "") + events[i];
  return out + "]}";
}

// `good` usable kernels 10 us apart starting at an epoch-based timestamp, then `extra`.
std::string kernels_plus(int good, const std::vector<std::string>& extra) {
  std::vector<std::string> events;
  for (int i = 0; i < good; ++i) events.push_back(kernel(std::to_string(1700000000000000LL + 10 * i)));
  events.insert(events.end(), extra.begin(), extra.end());
  return trace_of(events);
}

TEST(KinetoReaderLimits, WhitespaceGzipBombIsRefusedAfterTheTokenLimit) {
  // Before the bound, 1 GiB of spaces (a 1 MB gzip) made the parser hold all of it: 3 GB peak, 22 s.
  test::TempDir dir("ws_bomb");
  write_gzip(dir.file("ws.json.gz"), std::string(kMaxJsonTokenBytes + 1000, ' '));
  const std::string error = error_of(dir.file("ws.json.gz"));
  EXPECT_CONTAINS(error, dir.file("ws.json.gz"));
  EXPECT_CONTAINS(error, "more than 4 MiB of JSON text without a complete string, key or number");
}

TEST(KinetoReaderLimits, LongStringsNumbersAndLiteralRunsAreRefused) {
  // The bound is checked at each 64 KiB refill, so the hostile runs here are longer than that.
  test::TempDir dir("tokens");
  KinetoReadLimits limits;
  limits.max_token_bytes = 1000;
  const std::size_t n = 300000;
  std::string nulls;
  for (std::size_t i = 0; i < n / 5; ++i) nulls += ",null";
  std::string empties;
  for (std::size_t i = 0; i < n / 3; ++i) empties += "[],";
  std::string escaped;
  for (std::size_t i = 0; i < n / 2; ++i) escaped += R"(\")";
  const std::vector<std::string> cases = {
      trace_of({R"({"ph": "X", "name": ")" + std::string(n, 'k') + R"("})"}),
      R"({"traceEvents": [{"ts": 1)" + std::string(n, '0') + "}]}",
      R"({"traceEvents": [null)" + nulls + "]}",
      R"({"traceEvents": [)" + empties + "[]]}",
      trace_of({R"({"name": ")" + escaped + R"("})"}),
      R"({")" + std::string(n, 'k') + R"(": 1})",
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string path = dir.file("case" + std::to_string(i) + ".json");
    write_text(path, cases[i]);
    EXPECT_CONTAINS(error_of(path, limits),
                    "more than 1000 bytes of JSON text without a complete string, key or number")
        << i;
  }
  // Strings and numbers up to the limit are read normally, however many: the count restarts after each.
  std::vector<std::string> events;
  for (int i = 0; i < 500; ++i) {
    events.push_back(R"({"ph": "X", "cat": "kernel", "name": ")" + std::string(900, 'k') + R"(", "ts": )" +
                     std::to_string(i) + R"(, "dur": 1})");
  }
  write_text(dir.file("ok.json"), trace_of(events));
  EXPECT_EQ(error_of(dir.file("ok.json"), limits), "");
}

TEST(KinetoReaderLimits, DecompressedSizeLimitNamesFileLimitAndRemedy) {
  test::TempDir dir("size");
  const std::string text = kernels_plus(50, {});
  write_gzip(dir.file("t.json.gz"), text);
  KinetoReadLimits limits;
  limits.max_json_bytes = 1u << 10;
  const std::string error = error_of(dir.file("t.json.gz"), limits);
  EXPECT_CONTAINS(error, dir.file("t.json.gz"));
  EXPECT_CONTAINS(error, "more than 1024 bytes of decompressed JSON");
  EXPECT_CONTAINS(error, "profile fewer steps");
  limits.max_json_bytes = text.size();  // exactly at the limit is accepted
  EXPECT_EQ(error_of(dir.file("t.json.gz"), limits), "");
  EXPECT_EQ(kMaxTraceJsonBytes, 4ull << 30);
}

TEST(KinetoReaderLimits, KeptEventsAndNamesAreBounded) {
  test::TempDir dir("kept");
  write_text(dir.file("t.json"), kernels_plus(50, {}));
  KinetoReadLimits limits;
  limits.max_kept_events = 20;
  EXPECT_CONTAINS(error_of(dir.file("t.json"), limits), "more than 20 events kept");
  limits.max_kept_events = 51;  // 50 activities and one interned name
  EXPECT_EQ(error_of(dir.file("t.json"), limits), "");

  std::vector<std::string> distinct;
  for (int i = 0; i < 40; ++i) {
    distinct.push_back(R"({"ph": "X", "cat": "kernel", "name": "k)" + std::to_string(i) + std::string(100, 'x') +
                       R"(", "ts": )" + std::to_string(i) + R"(, "dur": 1})");
  }
  write_text(dir.file("names.json"), trace_of(distinct));
  KinetoReadLimits text_limits;
  text_limits.max_kept_text_bytes = 1000;
  EXPECT_CONTAINS(error_of(dir.file("names.json"), text_limits), "of distinct kernel, step and operator names");
}

TEST(KinetoReaderLimits, DeepNestingIsAnErrorNotACrash) {
  test::TempDir dir("nesting");
  const int depth = 100000;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {std::string(depth, '[') + std::string(depth, ']'), "arrays"},
      {[&] {
         std::string s;
         for (int i = 0; i < depth; ++i) s += R"({"a":)";
         return s + "1" + std::string(depth, '}');
       }(),
       "objects"},
      {R"({"traceEvents": [{"ph": "X", "args": )" + std::string(depth, '[') + std::string(depth, ']') + "}]}",
       "inside an event"},
  };
  for (const auto& [text, what] : cases) {
    write_text(dir.file("deep.json"), text);
    const std::string error = error_of(dir.file("deep.json"));
    EXPECT_CONTAINS(error, "nested more than 64 levels deep") << what;
    EXPECT_CONTAINS(error, dir.file("deep.json")) << what;
  }
  // Nesting up to the limit is fine (a document that is not a trace, for other reasons).
  write_text(dir.file("ok.json"), std::string(kMaxTraceJsonDepth, '[') + std::string(kMaxTraceJsonDepth, ']'));
  EXPECT_CONTAINS(error_of(dir.file("ok.json")), "no GPU kernel events");
}

TEST(KinetoReaderLimits, UnusableTimeFieldsAreCountedByReason) {
  test::TempDir dir("skipped");
  // 900 usable kernels and 9 unusable ones: 0.99%, under the 1% threshold.
  write_text(dir.file("t.json"),
             kernels_plus(900, {kernel(R"("1700000000000000")"), kernel("null"), kernel("[1]"), kernel("1.5e17"),
                                kernel("1e18"), kernel("1700000000000000", "-5"), kernel("1700000000000000", R"("3")"),
                                kernel("1700000000000000", ""), kernel("", "1")}));
  const KinetoTrace t = read_kineto_trace(dir.file("t.json"));
  EXPECT_EQ(t.activities.size(), 900u);
  const auto& s = t.skipped;
  const auto gpu = static_cast<std::size_t>(TimedEventGroup::GpuActivity);
  EXPECT_EQ(s.seen[gpu], 909u);
  EXPECT_EQ(s.skipped[gpu][static_cast<std::size_t>(SkipReason::NonNumericTs)], 3u);
  EXPECT_EQ(s.skipped[gpu][static_cast<std::size_t>(SkipReason::AbsurdTs)], 2u);
  EXPECT_EQ(s.skipped[gpu][static_cast<std::size_t>(SkipReason::NegativeDur)], 1u);
  EXPECT_EQ(s.skipped[gpu][static_cast<std::size_t>(SkipReason::NonNumericDur)], 1u);
  EXPECT_EQ(s.skipped[gpu][static_cast<std::size_t>(SkipReason::MissingDur)], 1u);
  EXPECT_EQ(s.skipped[gpu][static_cast<std::size_t>(SkipReason::MissingTs)], 1u);
  EXPECT_EQ(s.summary(),
            "9 events skipped: 9 of 909 GPU activities (kernels, memcpy, memset): 1 without a ts, "
            "3 with a non-numeric ts, 2 with an absurd ts, 1 without a dur, 1 with a non-numeric dur, "
            "1 with a negative dur");
}

TEST(KinetoReaderLimits, AbsurdDurationsAndTimestampsFarFromTheTrace) {
  test::TempDir dir("absurd");
  // Epoch microseconds are ~1.7e15: fine. 40 years away from the first event, or a dur of 1e16 us, is not; nor is a
  // kernel of 100 s in a trace whose other events span 1 ms.
  write_text(dir.file("t.json"), kernels_plus(300, {kernel("1700000000000000", "1e16"), kernel("2962000000000000"),
                                                    kernel("1700000000000500", "100000000")}));
  const KinetoTrace t = read_kineto_trace(dir.file("t.json"));
  EXPECT_EQ(t.activities.size(), 300u);
  EXPECT_CONTAINS(t.skipped.summary(), "1 with an absurd ts, 1 with an absurd dur, 1 with a dur longer than the rest");
  // A dur under kMinSpanForDurCheckUs (1 s) is never "longer than the trace": tiny fixtures stay valid.
  write_text(dir.file("short.json"), kernels_plus(2, {kernel("1700000000000005", "900000")}));
  EXPECT_EQ(read_kineto_trace(dir.file("short.json")).skipped.total(), 0u);
}

TEST(KinetoReaderLimits, TooManySkippedIsAnError) {
  test::TempDir dir("threshold");
  // 2 of 101 kernels (2%): over the 1% threshold.
  write_text(dir.file("kernels.json"), kernels_plus(99, {kernel("1700000000000000", "-1"), kernel(R"("x")")}));
  const std::string error = error_of(dir.file("kernels.json"));
  EXPECT_CONTAINS(error, dir.file("kernels.json"));
  EXPECT_CONTAINS(error,
                  "2 of 101 GPU activities (kernels, memcpy, memset): 1 with a non-numeric ts, 1 with a negative dur");
  EXPECT_CONTAINS(error, "More than 1% of the GPU activities are unusable");
  // One step annotation is enough: steps would merge.
  write_text(
      dir.file("step.json"),
      kernels_plus(
          500,
          {R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "ts": 1700000000000000, "dur": 10})",
           R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "ts": 1700000000000010, "dur": -10})"}));
  EXPECT_CONTAINS(error_of(dir.file("step.json")),
                  "1 of 2 ProfilerStep annotations: 1 with a negative dur. A ProfilerStep");
  // Kernel launches: their ts says which step launched a kernel; their dur is not used.
  std::vector<std::string> launches;
  for (int i = 0; i < 50; ++i) {
    launches.push_back(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": )" +
                       std::string(i < 2 ? R"("late")" : "1700000000000000") +
                       R"(, "dur": -1, "args": {"correlation": )" + std::to_string(i) + "}}");
  }
  write_text(dir.file("launch.json"), kernels_plus(10, launches));
  EXPECT_CONTAINS(error_of(dir.file("launch.json")),
                  "2 of 50 kernel launches: 2 with a non-numeric ts. More than 1% of the kernel launches");
}

TEST(KinetoReaderLimits, WrongTypesForFieldsTheReaderUses) {
  test::TempDir dir("types");
  for (const char* field : {"ph", "cat", "name"}) {
    for (const char* value : {"7", "null", "[]", "{}", "true"}) {
      std::string event = kernel("5");
      const std::string key = std::string("\"") + field + "\": ";
      const auto at = event.find(key) + key.size();
      event.replace(at, event.find(',', at) - at, value);
      write_text(dir.file("t.json"), trace_of({event}));
      EXPECT_CONTAINS(error_of(dir.file("t.json")),
                      std::string("event 0 of traceEvents: field '") + field + "' is not a string");
    }
  }
  // args given as an array or a string, and args fields of other types, are ignored (ROCm writes stream as a
  // string): no stale key from the previous event's args is applied.
  write_text(
      dir.file("args.json"),
      trace_of(
          {kernel("5", "1", 3), R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 9, "dur": 1, "args": [77]})",
           R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 12, "dur": 1, "args": {"correlation": "x", "grid": 5, "stream": "s"}})"}));
  const KinetoTrace t = read_kineto_trace(dir.file("args.json"));
  ASSERT_EQ(t.activities.size(), 3u);
  EXPECT_EQ(t.activities[0].correlation, 3);
  EXPECT_EQ(t.activities[1].correlation, -1);
  EXPECT_EQ(t.activities[2].correlation, -1);
  EXPECT_EQ(t.activities[2].grid_blocks, 0);
}

TEST(KinetoReaderLimits, RecordedInputsPerOperatorAreBounded) {
  test::TempDir dir("inputs");
  std::string dims = "[";
  for (int i = 0; i < 2000; ++i) dims += (i ? ",1" : "1");
  dims += "]";
  write_text(
      dir.file("t.json"),
      kernels_plus(
          2,
          {R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1700000000000000, "dur": 1, "args": {"External id": 1, "Input Dims": [)" +
           dims + "]}}"}));
  EXPECT_CONTAINS(error_of(dir.file("t.json")), "an args.Input Dims entry has more than 1024 dimensions");
}

TEST(KinetoReaderLimits, DirectoryInsteadOfAFile) {
  test::TempDir dir("directory");
  EXPECT_CONTAINS(error_of(dir.file("")), "is a directory; expected a trace file");
}

TEST(KinetoReaderLimits, CliWarnsAndTheJobFileRecordsSkippedEvents) {
  test::TempDir dir("cli");
  // The three-step fixture plus one kernel with a negative dur among 201: a warning, not an error.
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(test::fixture("three_steps.json")));
  nlohmann::json good;
  for (const auto& e : doc["traceEvents"]) {
    if (e["cat"] == "kernel") good = e;
  }
  for (int i = 0; i < 200; ++i) doc["traceEvents"].push_back(good);
  nlohmann::json bad = good;
  bad["dur"] = -3;
  doc["traceEvents"].push_back(bad);
  write_text(dir.file("t.json"), doc.dump());
  const std::string job = dir.file("job.json");
  std::vector<std::string> args = {"spotsim steptime", dir.file("t.json"), "--steps", "100", "--job-out", job};
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int code = steptime_command(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  ASSERT_EQ(code, 0) << err.str();
  EXPECT_CONTAINS(err.str(),
                  "warning: " + dir.file("t.json") +
                      ": 1 event skipped: 1 of 210 GPU activities (kernels, memcpy, memset): 1 with a negative dur");
  const nlohmann::json written = nlohmann::json::parse(std::ifstream(job));
  EXPECT_CONTAINS(written["notes"].get<std::string>(), "trace 1 event skipped: 1 of 210 GPU activities");
}

}  // namespace
}  // namespace spotsim
