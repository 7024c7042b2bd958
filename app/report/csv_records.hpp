#pragma once
// Records of an RFC 4180 CSV stream (a sweep's runs.csv): quoted fields may hold commas, quotes ("") and line
// breaks. A record longer than kMaxCsvRecordBytes is refused, so a file without line breaks cannot fill memory.
#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace spotsim {

inline constexpr std::size_t kMaxCsvRecordBytes = std::size_t{1} << 20;

class CsvRecordReader {
 public:
  // `name` names the stream in errors.
  CsvRecordReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  // The next record's fields; false at the end. InputError on an unterminated quote or an over-long record.
  bool next(std::vector<std::string>& fields);
  std::size_t line() const { return record_line_; }  // 1-based line where the last record began

 private:
  std::istream& in_;
  std::string name_;
  std::size_t line_ = 1, record_line_ = 0;
};

}  // namespace spotsim
