#include "app/advise/skypilot_catalogue.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <vector>

#include "app/advise/skypilot_offers.hpp"
#include "app/advise/skypilot_vms_csv.hpp"
#include "base/errors.hpp"
#include "base/text_escape.hpp"

namespace spotsim {

namespace fs = std::filesystem;

namespace {

const char* const kNaming =
    "name it <cloud>_vms.csv (aws_vms.csv) or put it in a folder named after the cloud (aws/vms.csv), as "
    "~/.sky/catalogs/v7/ does";

bool is_cloud_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(),
                                      [](unsigned char c) { return std::islower(c) || std::isdigit(c) || c == '-'; });
}

struct VmsFile {
  std::string cloud;
  fs::path path;
  std::string name;  // "aws_vms.csv" or "aws/vms.csv"
};

// The vms.csv files of a directory, one per cloud, sorted by cloud so that the offers' order never depends on the
// file system's.
std::vector<VmsFile> vms_files_in(const fs::path& dir) {
  std::map<std::string, VmsFile> by_cloud;
  std::vector<std::string> versions;  // v5, v6, v7: the user pointed at ~/.sky/catalogs itself
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw InputError("--catalogue '" + dir.string() + "': cannot read the directory: " + ec.message());
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) throw InputError("--catalogue '" + dir.string() + "': cannot read the directory: " + ec.message());
    const std::string entry = it->path().filename().string();
    std::error_code e;
    VmsFile file;
    if (entry.ends_with("_vms.csv") && fs::is_regular_file(it->path(), e)) {
      file = {entry.substr(0, entry.size() - 8), it->path(), entry};
    } else if (fs::is_directory(it->path(), e) && fs::is_regular_file(it->path() / "vms.csv", e)) {
      file = {entry, it->path() / "vms.csv", entry + "/vms.csv"};
    } else {
      if (entry.size() > 1 && entry[0] == 'v' && std::isdigit(static_cast<unsigned char>(entry[1])) &&
          fs::is_directory(it->path(), e))
        versions.push_back(entry);
      continue;
    }
    if (!is_cloud_name(file.cloud)) {
      throw InputError("--catalogue: " + escape_control_characters(file.path.string()) +
                       ": expected a cloud name of lower-case letters, digits and '-' before vms.csv");
    }
    const auto [at, added] = by_cloud.emplace(file.cloud, file);
    if (!added) {
      throw InputError("--catalogue '" + dir.string() + "': two files for cloud " + file.cloud + ": " +
                       at->second.name + " and " + file.name);
    }
  }
  if (by_cloud.empty()) {
    std::sort(versions.begin(), versions.end());
    std::string hint = versions.empty() ? ""
                                        : " (it holds schema folders: point at one of them, e.g. " +
                                              (dir / versions.back()).string() + ")";
    throw InputError("--catalogue '" + dir.string() +
                     "': is a directory with no SkyPilot vms.csv in it: expected <cloud>/vms.csv (as "
                     "~/.sky/catalogs/v7/) or <cloud>_vms.csv, or a catalogue file" +
                     hint);
  }
  std::vector<VmsFile> files;
  for (auto& [cloud, file] : by_cloud) files.push_back(std::move(file));
  return files;
}

std::string plural(int n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

}  // namespace

bool is_skypilot_catalogue(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return true;
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.ends_with(".csv");
}

std::string skypilot_cloud_of(const std::string& file) {
  const fs::path path(file);
  const std::string name = path.filename().string();
  std::string cloud;
  if (name.ends_with("_vms.csv")) {
    cloud = name.substr(0, name.size() - 8);
  } else if (name == "vms.csv") {
    cloud = fs::absolute(path).parent_path().filename().string();
  }
  if (!is_cloud_name(cloud)) {
    throw InputError("--catalogue '" + escape_control_characters(file) +
                     "': cannot tell which cloud this SkyPilot catalogue is for: " + kNaming);
  }
  return cloud;
}

GpuOfferCatalogue read_skypilot_catalogue(const std::string& path, const SkyPilotCatalogueOptions& options) {
  std::vector<VmsFile> files;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    files = vms_files_in(path);
  } else {
    const std::string cloud = skypilot_cloud_of(path);
    const std::string name = fs::path(path).filename().string();
    files.push_back({cloud, path, name == "vms.csv" ? cloud + "/vms.csv" : name});
  }
  const GpuOfferCatalogue shipped = read_gpu_offer_catalogue(locate_gpu_offer_catalogue("gpu_offers"));
  const SkyPilotPreemption preemption = skypilot_preemption(shipped);
  const std::string date = options.date.empty() ? "not stated" : options.date;

  SkyPilotOffers out;
  std::string counts;
  for (const VmsFile& file : files) {
    const SkyPilotVmFile rows = read_skypilot_vms_csv(file.path.string(), file.name, file.cloud);
    const std::size_t before = out.offers.size();
    add_skypilot_offers(rows, preemption, date, out);
    int on_demand_only = 0, unranked = 0;
    for (std::size_t i = before; i < out.offers.size(); ++i) {
      on_demand_only += !out.offers[i].on_demand_only.empty();
      unranked += !out.offers[i].unranked.empty();
    }
    counts += (counts.empty() ? "" : "; ") + file.name + ": " +
              plural(static_cast<int>(out.offers.size() - before), "offer") + " (" + std::to_string(on_demand_only) +
              " on demand only, " + std::to_string(unranked) + " not ranked)";
  }
  if (out.offers.empty()) throw InputError("--catalogue '" + path + "': no GPU offer in " + counts);

  GpuOfferCatalogue catalogue;
  catalogue.path = path;
  std::string dropped;
  for (const auto& [reason, n] : out.dropped)
    dropped += (dropped.empty() ? "" : "; ") + plural(n, "row") + ": " + reason;
  catalogue.description =
      "SkyPilot GPU price catalogue (skypilot-org/skypilot-catalog, Apache-2.0), " +
      (options.date.empty() ? "the prices' date not stated" : "prices as of " + options.date) +
      ", converted by spotsim advise (docs/advise.md#skypilot). " + counts +
      ". Rows left out: " + (dropped.empty() ? "none" : dropped) +
      ". Spot preemptions: the shipped defaults of gpu_offers.json (GCP bathtub, AWS advisor bands); other clouds "
      "and offers without a spot price on demand only." +
      (options.note.empty() ? "" : " " + options.note);
  for (const GpuOffer& offer : out.offers) {
    if (!offer.preemption.empty()) catalogue.sources.emplace(offer.preemption, shipped.source_of(offer));
  }
  catalogue.offers = std::move(out.offers);
  return catalogue;
}

}  // namespace spotsim
