// The step-time tables' CSV reader: RFC 4180 quoting (kernel names hold commas), and every file read through the
// project's one bounded reader of input files (base/input_file.hpp) -- it used to open files itself, so a directory
// read as an empty table and nothing bounded a file's size.
#include "steptime/csv_table.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
