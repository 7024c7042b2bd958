// JsonWriter writes what json_text(document, 2) prints for the same document, byte for byte: random documents
// (nested objects and arrays, empty ones, every kind of number nlohmann::json formats its own way, strings that
// need escaping or replacing) are built both ways and compared. summary.json depends on it: a sweep's file and the
// whole-analysis rendering must agree (sweep_streaming_test).
#include "base/json_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "base/json_text.hpp"

namespace spotsim {
namespace {

class RandomDocument {
 public:
  explicit RandomDocument(std::uint64_t seed) : rng_(seed) {}

  // Writes one random value to `w` and returns the same value as a DOM.
  nlohmann::json value(JsonWriter& w, int depth) {
    switch (pick(depth < 4 ? 8 : 6)) {
      case 0: {
        const double d = number();
        w.value(d);
        return std::isfinite(d) ? nlohmann::json(d) : nlohmann::json(nullptr);
      }
      case 1: {
        const std::uint64_t u = pick(2) ? rng_() : pick(1000);
        w.value(u);
        return u;
      }
      case 2: {
        const std::int64_t i = pick(2) ? static_cast<std::int64_t>(rng_()) : -static_cast<std::int64_t>(pick(1000));
        w.value(i);
        return i;
      }
      case 3: {
        const bool b = pick(2) == 1;
        w.value(b);
        return b;
      }
      case 4: w.null(); return nullptr;
      case 5: {
        const std::string s = text();
        w.value(s);
        return s;
      }
      case 6: {
        nlohmann::json array = nlohmann::json::array();
        w.begin_array();
        for (std::uint64_t n = pick(5); n > 0; --n) array.push_back(value(w, depth + 1));
        w.end_array();
        return array;
      }
      default: {
        std::map<std::string, int> keys;  // sorted, as the writer's caller must give them
        for (std::uint64_t n = pick(5); n > 0; --n) keys[key_text()] = 0;
        nlohmann::json object = nlohmann::json::object();
        w.begin_object();
        for (const auto& [k, unused] : keys) {
          w.key(k);
          object[k] = value(w, depth + 1);
        }
        w.end_object();
        return object;
      }
    }
  }

 private:
  std::uint64_t pick(std::uint64_t n) { return rng_() % n; }

  double number() {
    static const double special[] = {0.0,
                                     -0.0,
                                     1.0,
                                     -1.0,
                                     0.1,
                                     1e-5,
                                     1e15,
                                     1e16,
                                     1e21,
                                     123456789012345680.0,
                                     5e-324,
                                     std::numeric_limits<double>::max(),
                                     std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     2.4327499999999995,
                                     145.74275};
    switch (pick(4)) {
      case 0: return special[pick(std::size(special))];
      case 1: {  // any bit pattern
        const std::uint64_t bits = rng_();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return d;
      }
      case 2: return static_cast<double>(static_cast<std::int64_t>(pick(2'000'000)) - 1'000'000) / 100.0;
      default: return std::ldexp(static_cast<double>(pick(1u << 20)), static_cast<int>(pick(120)) - 60);
    }
  }

  std::string text() {
    static const char* pieces[] = {"a",    "cost_total", "p95", "\"",     "\\",   "\n",       "\t",
                                   "\x01", "é",          "中",  "\xff",   "\xc3", "\x7f",     "/",
                                   " ",    "z",          "A_",  "ci_low", "",     "\xe2\x82", "\xf0\x9f\x98\x80"};
    std::string s;
    for (std::uint64_t n = pick(4); n > 0; --n) s += pieces[pick(std::size(pieces))];
    return s;
  }

  // Keys are the writer's own identifiers: printable ASCII without quotes or backslashes.
  std::string key_text() {
    static const char* pieces[] = {"a", "cost_total", "p95", "ci_low", "A_", "/", " ", "z", "", "{", "9"};
    std::string s;
    for (std::uint64_t n = pick(4); n > 0; --n) s += pieces[pick(std::size(pieces))];
    return s;
  }

  std::mt19937_64 rng_;
};

TEST(JsonWriter, WritesWhatJsonTextPrintsForTheSameDocument) {
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    RandomDocument random(seed);
    std::string text;
    JsonWriter w(text);
    const nlohmann::json document = random.value(w, 0);
    ASSERT_EQ(text, json_text(document, 2)) << "seed " << seed;
  }
}

TEST(JsonWriter, AtADepthIndentsAsTheElementOfAnOuterArray) {
  // The element of a top-level array, as summary.json's configurations are written one by one.
  std::string element;
  JsonWriter w(element, 2);
  w.begin_object().key("a").begin_array().value(1.5).null().end_array().key("b").begin_object().end_object();
  w.end_object();
  const nlohmann::json outer = {{"configurations", {{{"a", {1.5, nullptr}}, {"b", nlohmann::json::object()}}}}};
  const std::string whole = json_text(outer, 2);
  EXPECT_NE(whole.find("\n    " + element + "\n"), std::string::npos) << whole << "\n---\n" << element;
}

TEST(JsonWriter, NumbersAsNlohmannFormatsThem) {
  auto written = [](double d) {
    std::string text;
    JsonWriter(text).value(d);
    return text;
  };
  EXPECT_EQ(written(1.0), "1.0");
  EXPECT_EQ(written(-0.0), "-0.0");
  EXPECT_EQ(written(1e16), "1e+16");
  EXPECT_EQ(written(1e-5), "1e-05");
  EXPECT_EQ(written(2.4327499999999995), "2.4327499999999995");
  EXPECT_EQ(written(std::numeric_limits<double>::quiet_NaN()), "null");
}

}  // namespace
}  // namespace spotsim
