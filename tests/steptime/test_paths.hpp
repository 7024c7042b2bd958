#pragma once
// Where the tests find the shared real data and the repository's own fixtures.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace spotsim::test {

inline std::string kernels_dir() { return std::string(SPOTSIM_SHARED_DIR) + "/data/kernels"; }
inline std::string hta_trace(const std::string& name) { return kernels_dir() + "/kineto-traces/hta/" + name; }
inline std::string legacy_trace() {
  return kernels_dir() + "/kineto-traces/kineto_tb_plugin/v100_resnet50_bs32_fp32_legacy_schema.pt.trace.json.gz";
}
// (Built up by appending: `std::string(LITERAL) + "..." + name` trips GCC 12's -Warray-bounds false positive at -O3.)
inline std::string fixture(const std::string& name) {
  std::string path = SPOTSIM_REPO_DIR;
  path += "/tests/steptime/fixtures/";
  path += name;
  return path;
}
inline bool have_shared_data() { return std::filesystem::exists(kernels_dir()); }

// A fresh directory under the system temp dir, removed when the object goes away.
class TempDir {
 public:
  explicit TempDir(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() / ("spotsim_steptime_" + tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace spotsim::test
