#pragma once
// The managed training services `spotsim advise` shows beside DIY spot and on-demand (docs/managed.md): one row per
// offer of Vertex AI custom training or SageMaker training, on-demand or on spot, with the service's price per
// instance-hour, billing increment and minimum, per-start overhead (and whether the service bills it), what it does
// on a preemption, its maximum wait, and the preemption source of the cloud's spot for that GPU (a key into
// gpu_offers.json's preemption_sources, so a managed spot offer is preempted like DIY spot on the same hardware).
// Committed in traces/library/catalogue/managed_training.json and located like the GPU offer catalogue.
#include <optional>
#include <string>
#include <vector>

#include "app/advise/gpu_offer_catalogue.hpp"
#include "base/time.hpp"

namespace spotsim {

enum class ManagedMode { kOnDemand, kSpot };

struct ManagedOffer {
  std::string service;  // "vertex-ai" or "sagemaker"
  ManagedMode mode = ManagedMode::kOnDemand;
  std::string cloud;  // from the service: vertex-ai -> gcp, sagemaker -> aws
  std::string region;
  std::string instance_type;  // as the service names it: "a2-highgpu-8g", "ml.p4d.24xlarge"
  std::string gpu;            // canonical name of the GPU spec table where it has one
  int gpus_per_instance = 1;
  double price_per_hour = 0.0;   // USD per instance-hour, in this mode
  bool price_estimated = false;  // derived from other prices (an assumption), not a listed price
  Millis billing_increment = kMillisPerSecond;
  Millis billing_minimum = 0;
  Millis startup = 5 * kMillisPerMinute;  // per start, each restart after a preemption included
  bool startup_billed = true;
  // Spot only: after a preemption the service waits for capacity and restarts the job from its last checkpoint.
  bool restarts_from_checkpoint = false;
  std::optional<Millis> max_wait;  // the service's limit on waiting + running, from the job's start
  std::string preemption;          // spot only: key into GpuOfferCatalogue::sources
  std::string diy_instance_type;   // the same hardware in gpu_offers.json (same cloud and region), for the markup
  std::string date;
  std::string source;
  std::string notes;

  // "sagemaker spot us-east-1 ml.p4d.24xlarge": unique within a catalogue.
  std::string label() const;
};

std::string to_string(ManagedMode mode);  // "on-demand", "spot"

struct ManagedOfferCatalogue {
  std::string path;
  std::string description;
  std::vector<ManagedOffer> offers;
};

inline constexpr int kManagedCatalogueVersion = 1;

// Reads a catalogue (schema in docs/managed.md) against the GPU offer catalogue whose preemption sources and DIY
// offers it names; InputError naming the file and the field for anything invalid.
ManagedOfferCatalogue read_managed_offer_catalogue(const std::string& path, const GpuOfferCatalogue& gpu_offers);
// An existing path as given, else the shipped catalogue NAME[.json] in traces/library/catalogue/.
std::string locate_managed_offer_catalogue(const std::string& name_or_path);

}  // namespace spotsim
