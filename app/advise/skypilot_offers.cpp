#include "app/advise/skypilot_offers.hpp"

#include <cctype>

#include "base/text_format.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {

namespace {

void add_note(std::string& notes, const std::string& note) { notes += (notes.empty() ? "" : "; ") + note; }

// GCP's GPU rows price the GPUs alone; SkyPilot adds the host VM's row of the same zone (its AcceleratorName is
// empty). Where the file has that row the offer is the whole VM; otherwise it is the GPUs alone, and says so.
struct GcpPricing {
  std::string instance_type;
  std::optional<double> price, spot_price;
  std::string note;
};

GcpPricing gcp_pricing(const SkyPilotVmRow& gpu, int count, const std::map<std::string, const SkyPilotVmRow*>& hosts) {
  const std::string host = gcp_host_machine_type(gpu.accelerator, count);
  const auto it = host.empty() ? hosts.end() : hosts.find(gpu.zone + " " + host);
  if (it != hosts.end() && it->second->price && gpu.price) {
    const SkyPilotVmRow& vm = *it->second;
    std::optional<double> spot;
    if (vm.spot_price && gpu.spot_price) spot = *vm.spot_price + *gpu.spot_price;
    return {host, *vm.price + *gpu.price, spot,
            "host VM (line " + std::to_string(vm.line) + ") + GPUs, added as SkyPilot does"};
  }
  const std::string why =
      host.empty() ? "GCP attaches these GPUs to an N1 VM of your choice" : "no " + host + " row in this file";
  return {std::to_string(count) + "x " + gpu.accelerator + " (GPUs only)", gpu.price, gpu.spot_price,
          "GPUs only: the price excludes the host VM (" + why + ")"};
}

}  // namespace

SkyPilotPreemption skypilot_preemption(const GpuOfferCatalogue& shipped) {
  SkyPilotPreemption p;
  for (const GpuOffer& offer : shipped.offers) {
    if (offer.cloud == "aws" && offer.preemption.starts_with("aws-advisor-band-"))
      p.aws_band.emplace(std::pair{offer.instance_type, offer.region}, offer.preemption);
  }
  return p;
}

std::string skypilot_gpu_name(const std::string& accelerator, const std::string& instance_type) {
  // RunPod's SXM A100 has a name of its own; the spec table's A100-80GB is the SXM4 part.
  const std::string name = canonical_gpu_name(accelerator == "A100-80GB-SXM" ? "A100-80GB" : accelerator);
  // SkyPilot names the PCIe card as the SXM one ("H100" for Lambda's gpu_1x_h100_pcie); the instance type says which.
  std::string lower = instance_type;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("pcie") != std::string::npos && find_gpu_spec(name + "-PCIE") != nullptr) return name + "-PCIE";
  return name;
}

std::string gcp_host_machine_type(const std::string& accelerator, int count) {
  // The machine types GCP sells with a fixed number of these GPUs (cloud.google.com/compute/docs/gpus), as
  // SkyPilot pairs them (sky/catalog/gcp_catalog.py).
  const bool power_of_two = count == 1 || count == 2 || count == 4 || count == 8;
  const std::string n = std::to_string(count);
  if (accelerator == "A100" && count == 16) return "a2-megagpu-16g";
  if (accelerator == "A100" && power_of_two) return "a2-highgpu-" + n + "g";
  if (accelerator == "A100-80GB" && power_of_two) return "a2-ultragpu-" + n + "g";
  if (accelerator == "H100" && power_of_two) return "a3-highgpu-" + n + "g";
  if (accelerator == "H200" && count == 8) return "a3-ultragpu-8g";
  if (accelerator == "L4" && power_of_two) {
    static const std::map<int, std::string> g2 = {
        {1, "g2-standard-4"}, {2, "g2-standard-24"}, {4, "g2-standard-48"}, {8, "g2-standard-96"}};
    return g2.at(count);
  }
  return "";
}

void add_skypilot_offers(const SkyPilotVmFile& file, const SkyPilotPreemption& preemption, const std::string& date,
                         SkyPilotOffers& out) {
  const bool gcp = file.cloud == "gcp";
  std::map<std::string, const SkyPilotVmRow*> hosts;  // "zone machine-type" -> first row
  for (const SkyPilotVmRow& row : file.rows) {
    if (row.accelerator.empty()) hosts.emplace(row.zone + " " + row.instance_type, &row);
  }
  for (const SkyPilotVmRow& row : file.rows) {
    if (row.accelerator.empty()) continue;
    if (row.accelerator_count < 1.0) {
      ++out.dropped["a share of one GPU (AcceleratorCount below 1)"];
      continue;
    }
    const int count = static_cast<int>(row.accelerator_count);
    GpuOffer offer;
    offer.cloud = file.cloud;
    offer.region = row.region;
    offer.zone = row.zone;
    offer.gpu = skypilot_gpu_name(row.accelerator, row.instance_type);
    offer.gpus_per_instance = count;
    offer.date = date;
    offer.source = "SkyPilot catalogue " + file.name + " line " + std::to_string(row.line);
    std::optional<double> price = row.price, spot = row.spot_price;
    offer.instance_type = row.instance_type;
    if (gcp && row.instance_type.empty()) {
      GcpPricing p = gcp_pricing(row, count, hosts);
      offer.instance_type = p.instance_type;
      price = p.price;
      spot = p.spot_price;
      add_note(offer.notes, p.note);
    }
    if (offer.instance_type.empty()) offer.instance_type = std::to_string(count) + "x " + row.accelerator;
    if (!out.labels.insert(offer.label()).second) {
      ++out.dropped["a repeat of an earlier row's cloud, zone (or region) and instance type"];
      continue;
    }
    // A price of 0 is read as not listed: no instance is free, and a 0 would rank first.
    if (price && *price == 0.0) price.reset();
    if (spot && *spot == 0.0) spot.reset();
    offer.on_demand_per_hour = price.value_or(0.0);
    offer.spot_per_hour = spot.value_or(0.0);
    if (!price) {
      offer.unranked = spot ? "no on-demand price (spot " + format_usd(*spot) + "/h only)" : "no price";
    } else if (!spot) {
      offer.on_demand_only = "no spot price";
    } else if (file.cloud == "gcp") {
      offer.preemption = preemption.gcp;
    } else if (file.cloud == "aws") {
      const auto band = preemption.aws_band.find({offer.instance_type, offer.region});
      offer.preemption = band != preemption.aws_band.end() ? band->second : preemption.aws;
      if (band == preemption.aws_band.end())
        add_note(offer.notes, "no advisor band shipped for this instance type and region: the >20% band's default");
    } else {
      offer.on_demand_only = "no preemption data for " + file.cloud;
    }
    if (price && spot && *spot > *price) add_note(offer.notes, "spot price above on-demand, as published");
    out.offers.push_back(std::move(offer));
  }
}

}  // namespace spotsim
