#include "app/report/csv_records.hpp"

#include "base/errors.hpp"

namespace spotsim {

bool CsvRecordReader::next(std::vector<std::string>& fields) {
  fields.clear();
  record_line_ = line_;
  std::string field;
  std::size_t bytes = 0;
  bool quoted = false, any = false;
  for (int c; (c = in_.get()) != std::char_traits<char>::eof();) {
    any = true;
    if (++bytes > kMaxCsvRecordBytes) {
      throw InputError(name_ + ": line " + std::to_string(record_line_) + ": a record longer than " +
                       std::to_string(kMaxCsvRecordBytes) + " bytes (expected CSV rows)");
    }
    if (c == '\n') ++line_;
    if (quoted) {
      if (c == '"') {
        if (in_.peek() == '"') {
          in_.get();
          field += '"';
        } else {
          quoted = false;
        }
      } else {
        field += static_cast<char>(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      if (!field.empty() && field.back() == '\r') field.pop_back();
      fields.push_back(std::move(field));
      return true;
    } else {
      field += static_cast<char>(c);
    }
  }
  if (quoted) throw InputError(name_ + ": line " + std::to_string(record_line_) + ": a quoted field is never closed");
  if (!any) return false;
  fields.push_back(std::move(field));
  return true;
}

}  // namespace spotsim
