#pragma once
// The rows of one SkyPilot vms.csv as GPU offers (docs/advise.md#skypilot): GPU names mapped to the step-time spec
// table, GCP's GPU rows joined to their host VM where the file has it, duplicates dropped, and each offer's
// purchase options stated: spot with a preemption source where the cloud has one shipped (GCP, AWS), on demand only
// with the reason otherwise, or not ranked at all without an on-demand price.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "app/advise/skypilot_vms_csv.hpp"

namespace spotsim {

// Which preemption source of the shipped catalogue (gpu_offers.json) an offer's spot market gets.
struct SkyPilotPreemption {
  std::string gcp = "gcp-default-bathtub";
  // AWS: the advisor band the shipped catalogue gives the same instance type in the same region, else `aws`.
  std::map<std::pair<std::string, std::string>, std::string> aws_band;  // (instance type, region) -> source
  std::string aws = "aws-advisor-band-gt20";
};

// AWS bands from the shipped catalogue's own AWS offers (sources named aws-advisor-band-*).
SkyPilotPreemption skypilot_preemption(const GpuOfferCatalogue& shipped);

struct SkyPilotOffers {
  std::vector<GpuOffer> offers;
  std::set<std::string> labels;        // of `offers`, for the duplicate rule
  std::map<std::string, int> dropped;  // rows that are no offer, by reason
};

// The spec table's name for SkyPilot's GPU name ("A100" -> "A100-40GB", "A100-80GB-SXM" -> "A100-80GB"; the PCIe
// part where the instance type says pcie: "H100" on gpu_1x_h100_pcie -> "H100-PCIE"), or the name as written where
// the table has no row ("A10G", "H100-NVL").
std::string skypilot_gpu_name(const std::string& accelerator, const std::string& instance_type = "");

// GCP's accelerator-optimised machine type that comes with `count` of `accelerator` (A2, A3, G2), or "" where the
// GPUs attach to an N1 VM of the user's choice (T4, V100, P4, P100).
std::string gcp_host_machine_type(const std::string& accelerator, int count);

// Appends the offers of `file` (file order; a row repeating an earlier offer's cloud, zone or region and instance
// type is dropped: the first is kept). `date` is what every offer's `date` says.
void add_skypilot_offers(const SkyPilotVmFile& file, const SkyPilotPreemption& preemption, const std::string& date,
                         SkyPilotOffers& out);

}  // namespace spotsim
