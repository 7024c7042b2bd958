// Hostile JSON: documents nested 100,000 levels deep, files beyond the size bound and values that would make an
// error message huge are refused (or shown cut) with an InputError naming the file, never a stack overflow.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/input_file.hpp"
#include "base/json_fields.hpp"
#include "trace_test_paths.hpp"
#include "traces/importers/trace_importer.hpp"
#include "traces/trace_reader.hpp"

namespace spotsim {
namespace {

std::string nested(std::size_t depth, char open, char close, const std::string& inner = "") {
  return std::string(depth, open) + inner + std::string(depth, close);
}

std::filesystem::path temp_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("spotsim-hostile-") + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

void expect_fragment(const std::string& message, const std::string& fragment) {
  EXPECT_NE(message.find(fragment), std::string::npos) << "expected '" << fragment << "' in: " << message;
}

TEST(HostileJson, DeepArraysAndObjectsAreRefusedBeforeParsing) {
  for (const auto& text : {nested(100000, '[', ']'), nested(100000, '{', '}'),
                           std::string(100000, '[') + "1",  // truncated as well as deep
                           std::string(R"({"format":)") + nested(100000, '[', ']') + "}"}) {
    const std::string message = testing::error_of([&] { parse_json_text(text, "deep.json"); });
    expect_fragment(message, "deep.json: JSON nested deeper than 512 levels");
  }
  // Objects as values of keys, the way a real document nests.
  std::string keyed;
  for (int i = 0; i < 100000; ++i) keyed += R"({"a":)";
  keyed += '1';
  keyed += std::string(100000, '}');
  expect_fragment(testing::error_of([&] { parse_json_text(keyed, "k.json"); }), "k.json: JSON nested deeper than 512");
}

TEST(HostileJson, NestingUpToTheLimitIsAccepted) {
  EXPECT_EQ(testing::error_of([] { parse_json_text(nested(kMaxJsonNesting, '[', ']'), "ok.json"); }), "");
  expect_fragment(testing::error_of([] { parse_json_text(nested(kMaxJsonNesting + 1, '[', ']'), "x.json"); }),
                  "(at byte 512)");
}

TEST(HostileJson, BracketsInsideStringsDoNotCount) {
  const std::string text = std::string(R"({"name":")") + std::string(1000, '[') + R"(\"[[[", "b":[1]})";
  const auto doc = parse_json_text(text, "s.json");
  EXPECT_EQ(doc["name"].get<std::string>().size(), 1000u + 4u);
}

TEST(HostileJson, EveryReaderGoesThroughTheDepthCheck) {
  const auto path = temp_file("deep.json", nested(100000, '[', ']'));
  expect_fragment(testing::error_of([&] { read_trace_file(path.string()); }), "deep.json: JSON nested deeper than 512");
  expect_fragment(testing::error_of([&] { read_json_file(path.string()); }), "nested deeper");
  for (const char* format :
       {"auto", "spotsim", "cant-be-late", "aws-spot-prices", "gcp-preemptions", "gcp-lifetime-json"}) {
    expect_fragment(testing::error_of([&] { import_trace_file(path.string(), format, {}); }), "nested deeper than 512");
  }
  std::filesystem::remove(path);
}

TEST(HostileJson, FilesBeyondTheSizeBoundAreRefused) {
  const auto path = temp_file("big.json", std::string("[") + std::string(2000, ' ') + "]");
  EXPECT_EQ(read_input_file(path.string(), 4096).size(), 2002u);
  expect_fragment(testing::error_of([&] { read_input_file(path.string(), 1024); }),
                  "big.json: the file is larger than");
  std::filesystem::remove(path);
  // An endless device is read no further than the bound.
  expect_fragment(testing::error_of([] { read_input_file("/dev/zero", 1 << 20); }),
                  "/dev/zero: the file is larger than 1 MiB");
  EXPECT_EQ(kMaxInputBytes, std::size_t{256} << 20);
}

TEST(HostileJson, MissingFileAndDirectoryAreInputErrors) {
  expect_fragment(testing::error_of([] { read_json_file("/nonexistent/x.json"); }),
                  "/nonexistent/x.json: no such file");
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_NE(testing::error_of([&] { read_json_file(dir); }), "");
}

TEST(HostileJson, DescribedValuesAreShortAndCheapWhateverTheirSize) {
  nlohmann::json big = nlohmann::json::array();
  for (int i = 0; i < 2'000'000; ++i) big.push_back(i);
  const std::string shown = describe_json(big);
  EXPECT_LE(shown.size(), 40u);
  EXPECT_EQ(shown.substr(0, 9), "[0,1,2,3,");
  EXPECT_EQ(shown.substr(shown.size() - 3), "...");

  nlohmann::json deep = 1;
  for (int i = 0; i < 500; ++i) deep = nlohmann::json::array({deep});
  EXPECT_EQ(describe_json(deep), "[[[[[...]]]]]");

  EXPECT_EQ(describe_json(nlohmann::json(std::string(10'000'000, 'x'))).size(), 40u);
  EXPECT_EQ(describe_json(nlohmann::json("short")), "\"short\"");
  EXPECT_EQ(describe_json(nlohmann::json::parse(R"({"a":1,"b":[true,null]})")), R"({"a":1,"b":[true,null]})");
  // A cut never splits a UTF-8 character.
  const std::string cut = describe_json(nlohmann::json(std::string(60, '\xc3') + ""));  // not UTF-8 at all: replaced
  EXPECT_LE(cut.size(), 60u);
  std::string accents;
  for (int i = 0; i < 40; ++i) accents += "\xc3\xa9";
  const std::string shown_accents = describe_json(nlohmann::json(accents));
  EXPECT_EQ(shown_accents.substr(shown_accents.size() - 5), "\xc3\xa9...");
}

TEST(HostileJson, ErrorMessagesQuotingHugeValuesStayShort) {
  const std::string text = std::string(R"({"format":"spotsim-trace","version":1,"name":)") +
                           nested(400, '[', ']', std::string("\"") + std::string(1 << 20, 'x') + "\"") + "}";
  const std::string message = testing::error_of([&] { parse_trace(parse_json_text(text, "t.json"), "t.json"); });
  expect_fragment(message, "t.json: field 'name': expected a string, got [[[[[...]]]]]");
  EXPECT_LT(message.size(), 200u);
}

}  // namespace
}  // namespace spotsim
