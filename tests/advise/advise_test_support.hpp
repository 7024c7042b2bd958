#pragma once
// Helpers shared by the advise tests: temporary files and a small catalogue written on the fly.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "tests/cli_runner.hpp"

namespace spotsim::test {

inline std::string shared_dir() { return SPOTSIM_SHARED_DIR; }
// The SkyPilot catalogue snapshot (docs/advise.md#skypilot).
inline std::string skypilot_snapshot_dir() { return shared_dir() + "/data/prices/skypilot-catalog-v7"; }
inline bool have_shared_preemption_data() { return std::filesystem::exists(shared_dir() + "/data/preemption"); }

// A fresh directory under the system temp dir, removed when the object goes away.
class AdviseTempDir {
 public:
  explicit AdviseTempDir(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() / ("spotsim_advise_" + tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~AdviseTempDir() { std::filesystem::remove_all(path_); }
  std::string write(const std::string& name, const nlohmann::json& content) const {
    const std::string file = (path_ / name).string();
    std::ofstream(file) << content.dump(2);
    return file;
  }
  // `content` byte for byte (a CSV with CRLF or stray bytes), in sub-folders as the name says ("aws/vms.csv").
  std::string write_text(const std::string& name, const std::string& content) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file.string();
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// One offer with the given prices and shape; preemptions from an exponential lifetime of `mean_hours`.
inline nlohmann::json one_offer_catalogue(double on_demand, double spot, int gpus_per_instance, double mean_hours,
                                          const std::string& gpu = "A100-40GB") {
  return {{"format", "spotsim-gpu-offers"},
          {"version", 1},
          {"preemption_sources",
           {{"exp",
             {{"lifetime", {{"model", "exponential"}, {"mean_hours", mean_hours}}},
              {"notice_s", 30},
              {"basis", "default"}}}}},
          {"offers",
           {{{"cloud", "gcp"},
             {"region", "test-region"},
             {"instance_type", "test-1g"},
             {"gpu", gpu},
             {"gpus_per_instance", gpus_per_instance},
             {"on_demand_per_hour", on_demand},
             {"spot_per_hour", spot},
             {"date", "2026-01-01"},
             {"source", "test"},
             {"preemption", "exp"}}}}};
}

// `spotsim advise ARGS` in this process, its stdout and stderr captured.
inline CliResult run_advise(std::vector<std::string> args) {
  return run_cli(advise_command, "spotsim advise", std::move(args));
}

}  // namespace spotsim::test
