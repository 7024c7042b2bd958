// Time fields far beyond any real recording (an interval ending at 1e300 s, a step series reaching past 1e10 s, a
// duration of 1e30 hours) are refused with the file and the field before the conversion to integer milliseconds,
// which would overflow (undefined behaviour: a release build ran on with an unsorted series).
#include <gtest/gtest.h>

#include <limits>

#include "base/duration.hpp"
#include "base/json_fields.hpp"
#include "trace_test_paths.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

std::string trace_with(const std::string& spot, const std::string& top = R"("span_s":3600,)") {
  return R"({"format":"spotsim-trace","version":1,"name":"t",)" + top +
         R"("zones":[{"name":"z","on_demand_price_per_hour":3,"spot":)" + spot + "}]}";
}

std::string reader_error(const std::string& text) {
  return testing::error_of([&] { parse_trace(parse_json_text(text, "t.json"), "t.json"); });
}

void expect_error(const std::string& text, const std::string& fragment) {
  const std::string message = reader_error(text);
  EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
}

TEST(TimeRanges, IntervalEndsFarBeyondTheSpanAreRefused) {
  for (const char* end : {"1e300", "1e19", "9.3e15", "1e11", "3601"}) {
    expect_error(
        trace_with(std::string(R"({"price_per_hour":1,"availability_intervals_s":[[0,10],[20,)") + end + "]]}"),
        "t.json: field 'zones[0].spot.availability_intervals_s[1]': expected intervals within [0, span_s]");
  }
  expect_error(trace_with(R"({"price_per_hour":1,"availability_intervals_s":[[1e300,1e301]]})"),
               "field 'zones[0].spot.availability_intervals_s[0]'");
  EXPECT_EQ(reader_error(trace_with(R"({"price_per_hour":1,"availability_intervals_s":[[0,10],[20,3600]]})")), "");
}

TEST(TimeRanges, StepSeriesReachingPastTheLimitIsRefusedBeforeMultiplying) {
  // 3 values 9e9 s apart reach 1.8e10 s, beyond the 1e10 s limit: refused, not wrapped round to negative times.
  expect_error(trace_with(R"({"price_series":{"step_s":9e9,"values":[1,2,3]}})", R"("span_s":1e10,)"),
               "field 'zones[0].spot.price_series.step_s': expected step_s x (number of values - 1) of at most 1e10 s");
  expect_error(
      trace_with(R"({"price_per_hour":1,"availability":{"step_s":1e10,"counts":[1,0,1]}})", R"("span_s":1e10,)"),
      "field 'zones[0].spot.availability.step_s'");
  EXPECT_EQ(reader_error(trace_with(R"({"price_series":{"step_s":1200,"values":[1,2,3]}})")), "");
}

TEST(TimeRanges, EveryTimeFieldIsBounded) {
  expect_error(trace_with(R"({"price_per_hour":1})", R"("span_s":1e300,)"), "field 'span_s'");
  expect_error(trace_with(R"({"price_per_hour":1})", R"("span_s":-1e300,)"), "field 'span_s'");
  expect_error(trace_with(R"({"price_per_hour":1})", R"("span_s":3600,"tick_s":1e300,)"), "field 'tick_s'");
  expect_error(trace_with(R"({"price_per_hour":1,"notice_s":1e300})"), "field 'zones[0].spot.notice_s'");
  expect_error(trace_with(R"({"price_per_hour":1,"preemptions_s":[1e300]})"), "field 'zones[0].spot.preemptions_s[0]'");
  expect_error(trace_with(R"({"price_series":{"times_s":[0,1e300],"values":[1,2]}})"),
               "field 'zones[0].spot.price_series.times_s[1]'");
  expect_error(trace_with(R"({"price_per_hour":1})", R"("span_s":3600,"billing":{"minimum_s":1e300},)"),
               "field 'billing.minimum_s'");
  expect_error(trace_with(R"({"price_per_hour":1})", R"("span_s":3600,"billing":{"increment_s":-1e300},)"),
               "field 'billing.increment_s'");
  // Numbers beyond a double are not JSON the reader accepts at all.
  expect_error(trace_with(R"({"price_per_hour":1})", R"("span_s":1e400,)"), "t.json: not valid JSON");
}

TEST(TimeRanges, DurationsAreBoundedBeforeConversion) {
  EXPECT_NE(testing::error_of([] { parse_duration("1e30h", "--work"); }).find("--work: expected a duration"),
            std::string::npos);
  EXPECT_NE(testing::error_of([] { parse_duration("nan", "--work"); }), "");
  EXPECT_NE(testing::error_of([] { parse_duration("infh", "--work"); }), "");
  EXPECT_EQ(parse_duration("1000000d", "--deadline"), 1000000LL * kMillisPerDay);
  EXPECT_EQ(checked_millis(1.5e3, "x"), 1500);
  EXPECT_EQ(checked_millis(kMaxDurationMs, "x"), static_cast<Millis>(kMaxDurationMs));
  for (const double bad :
       {1e30, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    EXPECT_NE(testing::error_of([&] {
                checked_millis(bad, "--steps x --step-time");
              }).find("--steps x --step-time: expected a duration of at most 1e15 ms"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace spotsim
