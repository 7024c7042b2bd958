// The spotsim trace reader rejects malformed traces with the file, the field and what was expected.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "trace_test_paths.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

// A valid one-zone trace with `spot` spliced in, and an optional extra top-level member.
std::string trace_with(const std::string& spot, const std::string& extra = "") {
  return R"({"format":"spotsim-trace","version":1,"name":"t","span_s":3600,)" + extra +
         R"("zones":[{"name":"z","on_demand_price_per_hour":3,"spot":)" + spot + "}]}";
}

std::string reader_error(const std::string& text) {
  return testing::error_of([&] {
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw std::runtime_error(std::string("t.json: not valid JSON: ") + e.what());
    }
    parse_trace(doc, "t.json");
  });
}

void expect_reader_error(const std::string& text, const std::string& fragment) {
  const std::string message = reader_error(text);
  EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
}

TEST(TraceReaderErrors, ValidBaselineReads) { EXPECT_EQ(reader_error(trace_with(R"({"price_per_hour":1})")), ""); }

TEST(TraceReaderErrors, MalformedJsonNamesTheFile) {
  const std::string path = testing::fixture_path("malformed_trace.json");
  const std::string message = testing::error_of([&] { read_trace_file(path); });
  EXPECT_NE(message.find("malformed_trace.json: not valid JSON (byte"), std::string::npos) << message;
}

TEST(TraceReaderErrors, NumberBeyondDoubleRangeIsAnInputError) {
  // Found by fuzzing: nlohmann reports "1e4444" as out_of_range rather than parse_error.
  const auto path = std::filesystem::temp_directory_path() / "spotsim-huge-number-trace.json";
  std::ofstream(path) << R"({"format":"spotsim-trace","version":1,"span_s":1e4444})";
  const std::string message = testing::error_of([&] { read_trace_file(path.string()); });
  std::filesystem::remove(path);
  EXPECT_NE(message.find("spotsim-huge-number-trace.json: not valid JSON"), std::string::npos) << message;
}

TEST(TraceReaderErrors, WrongTypes) {
  expect_reader_error(trace_with(R"({"price_per_hour":"cheap"})"),
                      "t.json: field 'zones[0].spot.price_per_hour': expected a number");
  expect_reader_error(R"({"format":"spotsim-trace","version":"1","name":"t","zones":[]})",
                      "field 'version': expected an integer");
  expect_reader_error(R"({"format":"spotsim-trace","version":1,"name":"t","zones":{}})",
                      "field 'zones': expected a JSON array");
  expect_reader_error(R"([1,2])", "t.json: the document: expected a JSON object");
}

TEST(TraceReaderErrors, OutOfRange) {
  expect_reader_error(trace_with(R"({"price_per_hour":-1})"),
                      "field 'zones[0].spot.price_per_hour': expected a number in [0, 1e+06]");
  expect_reader_error(trace_with(R"({"price_per_hour":1,"notice_s":7200})"), "field 'zones[0].spot.notice_s'");
  expect_reader_error(trace_with(R"({"price_per_hour":1,"availability":{"times_s":[0,10],"counts":[1,-1]}})"),
                      "field 'zones[0].spot.availability.counts[1]'");
  expect_reader_error(trace_with(R"({"price_per_hour":1,"lifetime":{"model":"weibull","shape":0,"scale_hours":3}})"),
                      "field 'zones[0].spot.lifetime.shape'");
  expect_reader_error(R"({"format":"spotsim-trace","version":3,"name":"t","zones":[]})",
                      "field 'version': expected 1 or 2");
}

TEST(TraceReaderErrors, UnsortedAndOverlapping) {
  expect_reader_error(trace_with(R"({"price_per_hour":1,"availability":{"times_s":[0,20,10],"counts":[1,0,1]}})"),
                      "field 'zones[0].spot.availability.times_s[2]': expected times in strictly increasing order");
  expect_reader_error(trace_with(R"({"price_per_hour":1,"availability":{"times_s":[5,20],"counts":[1,0]}})"),
                      "expected the first time to be 0");
  expect_reader_error(trace_with(R"({"price_per_hour":1,"availability":{"times_s":[0,4000],"counts":[1,0]}})"),
                      "expected every time below the trace's span_s");
  expect_reader_error(
      trace_with(R"({"price_per_hour":1,"availability_intervals_s":[[0,100],[50,200]]})"),
      "field 'zones[0].spot.availability_intervals_s[1]': expected intervals sorted by start and not overlapping");
  expect_reader_error(trace_with(R"({"price_per_hour":1,"preemptions_s":[100,50]})"),
                      "field 'zones[0].spot.preemptions_s[1]': expected times in strictly increasing order");
}

TEST(TraceReaderErrors, UnknownFieldsAreNotIgnored) {
  expect_reader_error(trace_with(R"({"price_per_hour":1,"pricee":2})"), "field 'zones[0].spot.pricee': unknown field");
  expect_reader_error(trace_with(R"({"price_per_hour":1})", R"("comment":"x",)"), "field 'comment': unknown field");
}

}  // namespace
}  // namespace spotsim

namespace spotsim {
namespace {

TEST(TraceReaderErrors, TickMustDivideTheSpanAndEveryChange) {
  const std::string on_ticks = R"({"price_per_hour":1,"availability":{"times_s":[0,600,1200],"counts":[1,0,1]}})";
  EXPECT_EQ(reader_error(trace_with(on_ticks, R"("tick_s":600,)")), "");
  expect_reader_error(trace_with(on_ticks, R"("tick_s":700,)"),
                      "field 'tick_s': expected a tick that divides span_s (a recording sampled on a regular clock)");
  expect_reader_error(
      trace_with(R"({"price_per_hour":1,"availability":{"times_s":[0,900],"counts":[1,0]}})", R"("tick_s":600,)"),
      "expected a tick on which every series of the trace changes (zones[0] changes at 900");
  expect_reader_error(trace_with(on_ticks, R"("tick_s":0,)"), "field 'tick_s'");
}

}  // namespace
}  // namespace spotsim
