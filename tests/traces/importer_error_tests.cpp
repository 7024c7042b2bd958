// Every importer rejects malformed input with the file, the line or field, and what was expected.
#include <gtest/gtest.h>

#include "trace_test_paths.hpp"
#include "traces/importers/trace_importer.hpp"

namespace spotsim {
namespace {

// The error of importing `content` as `format`; the test fails if there is none.
std::string import_error(const std::string& content, const std::string& format, ImportOptions options = {}) {
  const std::string message = testing::error_of([&] { import_trace_content(content, "bad.input", format, options); });
  EXPECT_FALSE(message.empty()) << "no error for: " << content;
  return message;
}

void expect_error(const std::string& content, const std::string& format, const std::string& fragment,
                  ImportOptions options = {}) {
  const std::string message = import_error(content, format, options);
  EXPECT_NE(message.find("bad.input"), std::string::npos) << message;
  EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
}

TEST(CantBeLateErrors, NameTheField) {
  expect_error(R"({"metadata":{},"data":[1]})", "cant-be-late", "field 'metadata.gap_seconds'");
  expect_error(R"({"metadata":{"gap_seconds":-5},"data":[1]})", "cant-be-late",
               "field 'metadata.gap_seconds': expected a number in");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[]})", "cant-be-late",
               "field 'data': expected at least one tick");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1,-1]})", "cant-be-late", "field 'data[1]': expected a count");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1,0.5]})", "cant-be-late", "field 'data[1]'");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1,"x"]})", "cant-be-late", "field 'data[1]'");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1,1],"prices":[1]})", "cant-be-late",
               "field 'prices': expected one price per tick");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1],"prices":[-2]})", "cant-be-late", "field 'prices[0]'");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1],"price":[2]})", "cant-be-late",
               "field 'price': unknown field");
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1)", "cant-be-late", "not valid JSON");
  // Found by fuzzing: a number beyond the range of a double is an out_of_range error inside the JSON parser.
  expect_error(R"({"metadata":{"gap_seconds":60},"data":[1e4444]})", "auto", "not valid JSON");
}

TEST(NodeEventErrors, NameTheLine) {
  expect_error("", "node-events", "empty node event log");
  expect_error("0,add,n1\n60000,add,n2\n30000,remove,n1\n", "node-events",
               "bad.input:3: time_ms: expected times in non-decreasing order");
  expect_error("0,add,n1\n0,add,n1\n", "node-events", "bad.input:2: node: expected a node not already running");
  expect_error("0,add,n1\n10,remove,n2\n", "node-events", "bad.input:2: node: expected a node that is running");
  expect_error("0,add,n1\n10,evict,n1\n", "node-events", "bad.input:2: event: expected 'add' or 'remove'");
  expect_error("-5,add,n1\n", "node-events", "bad.input:1: time_ms: expected an integer");
  expect_error("nan,add,n1\n", "node-events", "bad.input:1: time_ms");
  expect_error("0,add\n", "node-events", "bad.input:1: line: expected 3 comma-separated fields");
}

TEST(InstanceCountErrors, UnitsOrderAndValues) {
  expect_error("0,5\n10,4\n", "instance-counts", "carry no unit; give the unit (--time-unit");
  ImportOptions seconds;
  seconds.time_unit = kMillisPerSecond;
  expect_error("0,5\n10,-4\n", "instance-counts", "bad.input:2: count: expected an integer", seconds);
  expect_error("0,5\nNaN,4\n", "instance-counts", "bad.input:2: time: expected a number", seconds);
  expect_error("0,5\n20,4\n10,3\n", "instance-counts", "bad.input:3: time: expected times in non-decreasing order",
               seconds);
  expect_error("2021-12-11, 11:11:30, 55\n2021-12-11, 25:00:00, 54\n", "instance-counts", "bad.input:2: date and time");
  expect_error("\n\n", "instance-counts", "empty instance-count recording", seconds);
}

TEST(LifetimeCsvErrors, HeaderFlagsAndValues) {
  expect_error("", "lifetime-csv", "empty file");
  expect_error("name,preempted\na,1\n", "lifetime-csv", "bad.input:1: header: expected a column lifetime_s");
  expect_error("lifetime_s,zone\n10,z\n", "lifetime-csv",
               "bad.input:1: header: expected a column preempted or end_event");
  expect_error("lifetime_s,preempted,zone\n10,yes,z\n", "lifetime-csv", "bad.input:2: preempted: expected 0 or 1");
  expect_error("lifetime_s,preempted,zone\n-10,1,z\n", "lifetime-csv", "bad.input:2: lifetime_s: expected a number in");
  expect_error("lifetime_s,end_event,zone\n10,vanished,z\n", "lifetime-csv",
               "bad.input:2: end_event: expected preempted, user_stop");
  expect_error("lifetime_s,preempted,zone\n10,1\n", "lifetime-csv", "bad.input:2: line: expected 3 fields");
  expect_error("launch_time,end_time,preempted\n2019-02-18T10:00:00Z,2019-02-18T09:00:00Z,1\n", "lifetime-csv",
               "bad.input:2: end_time: expected a time not before launch_time");
  expect_error("lifetime_s,preempted,zone\n10,0,z\n", "lifetime-csv", "no zone with at least one preempted VM");
  expect_error(R"({"vm1":{"instance_data":{"ZONE":"z"},"time_in_sec":10}})", "gcp-lifetime-json",
               "field 'vm1.stop': expected either a 'compute.instances.preempted' or a 'stop' operation");
  expect_error(R"({"vm1":{"instance_data":{"ZONE":"z"},"time_in_sec":-1,"stop":{}}})", "gcp-lifetime-json",
               "field 'vm1.time_in_sec'");
}

TEST(AwsSpotPriceErrors, PricesTimesAndFields) {
  const std::string good_entry =
      R"("AvailabilityZone":"us-west-2a","InstanceType":"p3.2xlarge","ProductDescription":"Linux/UNIX")";
  expect_error(R"({"SpotPriceHistory":[]})", "aws-spot-prices",
               "field 'SpotPriceHistory': expected at least one price record");
  expect_error(R"({"SpotPriceHistory":[{)" + good_entry + R"(,"SpotPrice":"abc","Timestamp":"2023-03-01T12:00:00Z"}]})",
               "aws-spot-prices", "field 'SpotPriceHistory[0].SpotPrice': expected a price");
  expect_error(R"({"SpotPriceHistory":[{)" + good_entry + R"(,"SpotPrice":"-1","Timestamp":"2023-03-01T12:00:00Z"}]})",
               "aws-spot-prices", "field 'SpotPriceHistory[0].SpotPrice'");
  expect_error(R"({"SpotPriceHistory":[{)" + good_entry + R"(,"SpotPrice":"1","Timestamp":"March 1st"}]})",
               "aws-spot-prices", "field 'SpotPriceHistory[0].Timestamp': expected an ISO-8601 timestamp");
  expect_error(R"({"SpotPriceHistory":[{)" + good_entry + R"(,"SpotPrice":"1","Timestamp":"2023-03-01T12:00:00Z"},{)" +
                   good_entry + R"(,"SpotPrice":"2","Timestamp":"2023-03-01T12:00:00Z"}]})",
               "aws-spot-prices", "two differ at the same Timestamp");
  expect_error(R"({"SpotPriceHistory":[{)" + good_entry +
                   R"(,"SpotPrice":"1","Timestamp":"2023-03-01T12:00:00Z","Currency":"EUR"}]})",
               "aws-spot-prices", "field 'SpotPriceHistory[0].Currency': unknown field");
}

TEST(GcpPreemptionErrors, TimesZonesAndEmptyLists) {
  expect_error(R"({"operationType":"compute.instances.preempted"})", "gcp-preemptions",
               "expected a JSON array of operations");
  expect_error(R"([{"operationType":"compute.instances.insert","insertTime":"2023-05-02T00:30:00Z"}])",
               "gcp-preemptions", "no operation of type compute.instances.preempted");
  expect_error(R"([{"operationType":"compute.instances.preempted","insertTime":"soon","zone":"z"}])", "gcp-preemptions",
               "field '[0].insertTime': expected an RFC 3339 timestamp");
  expect_error(R"([{"operationType":"compute.instances.preempted","insertTime":"2023-05-02T00:30:00Z"}])",
               "gcp-preemptions", "field '[0].zone': expected the zone");
}

}  // namespace
}  // namespace spotsim
