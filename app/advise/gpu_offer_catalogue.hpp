#pragma once
// The price catalogue `spotsim advise` ranks (docs/advise.md#catalogue): one row per GPU instance offer on a
// cloud (prices, GPUs per instance, date and source), each linked to a named preemption source, which is a
// shipped trace (recorded or fitted) or a lifetime model, with the basis stated ("recorded", "fitted" or
// "default" where no data exists). Committed in traces/library/catalogue/ and located like traces are.
#include <map>
#include <string>
#include <vector>

#include "base/time.hpp"
#include "model/market/spot_market.hpp"

namespace spotsim {

struct PreemptionSource {
  std::string name;
  std::string origin;  // "us-west1.json:us-west1-b" or "exponential mean 3.3 h": for reports
  // The spot offer's preemption part (availability, recorded preemptions, lifetime model, notice), read once;
  // each offer copies it and sets its own price.
  SpotOffer spot;
  Millis span = kNever;  // the recording's span when the trace has one
  std::string basis;     // "recorded", "fitted" or "default"
  std::string notes;
};

struct GpuOffer {
  std::string cloud;  // "gcp", "aws"
  std::string region;
  std::string zone;  // may be empty
  std::string instance_type;
  std::string gpu;  // canonical name of the GPU spec table where it has one ("A100-40GB"), else as written
  int gpus_per_instance = 1;
  double on_demand_per_hour = 0.0;  // USD per instance-hour
  double spot_per_hour = 0.0;
  bool spot_price_estimated = false;
  std::string date;
  std::string source;
  std::string preemption;  // key into GpuOfferCatalogue::sources; empty when on_demand_only or unranked is set
  std::string notes;
  // Why the offer is rented on demand only ("no spot price", "no preemption data for azure"): advise then runs it
  // under the on-demand policy alone and says so, never on spot. Empty: spot and on demand.
  std::string on_demand_only;
  // Why the offer cannot be ranked at all ("no on-demand price (spot $14.93/h only)"): advise lists it as skipped.
  std::string unranked;

  // "gcp us-central1-c a2-highgpu-1g": unique within a catalogue.
  std::string label() const;
};

struct GpuOfferCatalogue {
  std::string path;
  std::string description;
  std::map<std::string, PreemptionSource> sources;
  std::vector<GpuOffer> offers;

  const PreemptionSource& source_of(const GpuOffer& offer) const { return sources.at(offer.preemption); }
};

inline constexpr int kGpuOfferCatalogueVersion = 1;

// Reads a catalogue (schema in docs/advise.md); InputError naming the file and the field for anything invalid,
// including a preemption name no source defines, an unknown trace or a trace zone it does not have.
GpuOfferCatalogue read_gpu_offer_catalogue(const std::string& path);
// An existing path as given, else the shipped catalogue "gpu_offers" (or NAME[.json]) in traces/library/catalogue/.
std::string locate_gpu_offer_catalogue(const std::string& name_or_path);
// The same lookup for any catalogue file; messages name `option` ("--catalogue").
std::string locate_shipped_catalogue(const std::string& name_or_path, const std::string& option);

}  // namespace spotsim
