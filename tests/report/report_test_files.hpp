#pragma once
// What the report's tests share: a fresh directory per test to write inputs into, the message of the InputError a
// call throws, and a small simulate request whose outputs are real report inputs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/simulation_request.hpp"
#include "base/errors.hpp"

namespace spotsim {

class ReportFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("spotsim_report_test_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  template <typename F>
  std::string error_of(F&& f) {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
  std::filesystem::path dir_;
};

// 12 h of work with a 20-h deadline on us-west1, 40 replications on one thread.
inline SimulationRequest small_request(const std::string& policy) {
  SimulationRequest request;
  request.trace = std::string(SPOTSIM_REPO_DIR) + "/traces/library/us-west1.json";
  request.policy = policy;
  request.job.work = 12 * kMillisPerHour;
  request.job.deadline = 20 * kMillisPerHour;
  request.replications = 40;
  request.threads = 1;
  return request;
}

}  // namespace spotsim
