#pragma once
// A JSON writer that appends text straight to a string, byte for byte what json_text(document, 2) would print for
// the same document (nlohmann::json's dump: two-space indent, ", " never, "[]"/"{}" when empty, its shortest
// round-trip doubles with ".0" on whole numbers, non-finite numbers as null, bad UTF-8 replaced by U+FFFD). Outputs
// written once and large (summary.json: one object per configuration) use it to skip building a DOM; the caller
// writes keys in sorted order, as nlohmann::json's std::map does, and keys are plain printable ASCII without quotes or
// backslashes (both checked in debug builds).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spotsim {

class JsonWriter {
 public:
  // `depth` is the nesting level the first value is written at: 2 for the elements of a top-level array.
  explicit JsonWriter(std::string& out, int depth = 0) : out_(out), base_depth_(depth) {}

  JsonWriter& key(std::string_view name);
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();

  JsonWriter& value(double number);
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& null();

 private:
  struct Level {
    bool is_object;
    bool any = false;
    std::string last_key;  // debug builds: keys must come sorted
  };
  void before_value();
  void write_string(std::string_view text);
  void newline_indent(std::size_t depth);

  std::string& out_;
  int base_depth_;
  std::vector<Level> levels_;
  bool after_key_ = false;
  char last_number_[64];
  std::size_t last_number_length_ = 0;
  std::uint64_t last_number_bits_ = 0;
};

}  // namespace spotsim
