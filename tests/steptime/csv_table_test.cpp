// The step-time tables read by the one CSV reader (base/text_lines.hpp): RFC 4180 quoting within a line (kernel
// names hold commas), errors that name the file and line, and every file read through the
// project's one bounded reader of input files (base/input_file.hpp) -- it used to open files itself, so a directory
// read as an empty table and nothing bounded a file's size.
#include "steptime/csv_table.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "base/errors.hpp"

namespace spotsim {
namespace {

namespace fs = std::filesystem;

fs::path scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("spotsim-csv-table-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(CsvTable, QuotedFieldsKeepTheirCommas) {
  const fs::path file = scratch_dir() / "kernels.csv";
  std::ofstream(file) << "name,time_us\n\"void f<4, float>(int, float)\",12.5\nplain,3\n";
  const CsvTable table = CsvTable::read(file.string());
  ASSERT_EQ(table.rows(), 2u);
  EXPECT_EQ(table.text(0, table.column("name")), "void f<4, float>(int, float)");
  EXPECT_EQ(table.number(1, table.column("time_us")), 3.0);
}

TEST(CsvTable, QuotesFollowRfc4180WithinALineAndBadOnesAreNamed) {
  const fs::path file = scratch_dir() / "quotes.csv";
  std::ofstream(file) << "name , time_us\n \"say \"\"hi\"\", ok\" , 1\r\n\n\"\",2\n";
  const CsvTable table = CsvTable::read(file.string());
  ASSERT_EQ(table.rows(), 2u);
  EXPECT_EQ(table.text(0, table.column("name")), "say \"hi\", ok");  // spaces around a quoted field dropped
  EXPECT_EQ(table.text(1, 0), "");
  EXPECT_EQ(table.number(1, table.column("time_us")), 2.0);
  for (const auto& [text, words] :
       std::vector<std::pair<std::string, std::string>>{{"a,b\n\"open,1\n", ":2: field 1: expected a closing quote"},
                                                        {"a,b\n\"x\"y,1\n", "a comma after the closing quote"},
                                                        {"a,b\n1,2,3\n", ":2: expected 2 fields"},
                                                        {"a,b\n\n1,x\n", ":3: column 'b': expected a number"}}) {
    std::ofstream(file) << text;
    try {
      const CsvTable bad = CsvTable::read(file.string());
      bad.number(0, 1);
      ADD_FAILURE() << "expected an InputError for " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  }
}

TEST(CsvTable, ADirectoryIsRefusedAsTheOtherInputsAre) {
  const fs::path dir = scratch_dir() / "a_directory";
  fs::create_directories(dir);
  try {
    CsvTable::read(dir.string());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace spotsim
