#include "app/advise/managed_offer_catalogue.hpp"

#include <nlohmann/json.hpp>

#include "app/advise/catalogue_rows.hpp"
#include "base/errors.hpp"
#include "base/json_fields.hpp"
#include "steptime/gpu_spec_table.hpp"

namespace spotsim {

namespace {

constexpr double kMaxPricePerHour = 1e5;

std::string cloud_of_service(const JsonFields& f, const std::string& service) {
  if (service == "vertex-ai") return "gcp";
  if (service == "sagemaker") return "aws";
  f.fail_value("service", "\"vertex-ai\" or \"sagemaker\"", f.raw("service"));
}

ManagedMode mode_of(const JsonFields& f) {
  const std::string mode = f.string("mode");
  if (mode == "on-demand") return ManagedMode::kOnDemand;
  if (mode == "spot") return ManagedMode::kSpot;
  f.fail_value("mode", "\"on-demand\" or \"spot\"", f.raw("mode"));
}

// On-demand rows never see a preemption; a spot row must say what the service does after one and whose
// preemptions it sees.
void read_preemption_fields(const JsonFields& f, ManagedOffer& offer, const GpuOfferCatalogue& gpu_offers) {
  const std::string on_preemption = f.optional_string("on_preemption");
  if (offer.mode == ManagedMode::kOnDemand) {
    if (!on_preemption.empty())
      f.fail("on_preemption", "no on_preemption on an on-demand offer (it is never preempted)");
    if (f.has("preemption")) f.fail("preemption", "no preemption source on an on-demand offer");
    return;
  }
  if (on_preemption != "restart-from-checkpoint") {
    f.fail_value("on_preemption", "\"restart-from-checkpoint\" (the only behaviour modelled for a spot offer)",
                 f.has("on_preemption") ? f.raw("on_preemption") : nlohmann::json(nullptr));
  }
  offer.restarts_from_checkpoint = true;
  offer.preemption = f.string("preemption");
  if (!gpu_offers.sources.contains(offer.preemption)) {
    f.fail_value("preemption", "the name of an entry of preemption_sources in " + gpu_offers.path, f.raw("preemption"));
  }
}

// The DIY offer on the same hardware must exist, so that the managed markup can be read off the two catalogues.
void check_diy_offer(const JsonFields& f, const ManagedOffer& offer, const GpuOfferCatalogue& gpu_offers) {
  for (const GpuOffer& diy : gpu_offers.offers) {
    if (diy.cloud == offer.cloud && diy.region == offer.region && diy.instance_type == offer.diy_instance_type) return;
  }
  f.fail_value("diy_instance_type",
               "an instance type " + gpu_offers.path + " offers on " + offer.cloud + " in " + offer.region,
               f.raw("diy_instance_type"));
}

ManagedOffer read_offer(const JsonFields& f, const GpuOfferCatalogue& gpu_offers) {
  f.reject_unknown({"service", "mode", "region", "instance_type", "gpu", "gpus_per_instance", "price_per_hour",
                    "price_estimated", "billing_increment_s", "billing_minimum_s", "startup_s", "startup_billed",
                    "on_preemption", "max_wait_hours", "preemption", "diy_instance_type", "date", "source", "notes"});
  ManagedOffer offer;
  offer.service = f.string("service");
  offer.cloud = cloud_of_service(f, offer.service);
  offer.mode = mode_of(f);
  offer.region = f.string("region");
  offer.instance_type = f.string("instance_type");
  offer.gpu = canonical_gpu_name(f.string("gpu"));
  offer.gpus_per_instance = static_cast<int>(f.integer("gpus_per_instance", 1, 64));
  offer.price_per_hour = f.number("price_per_hour", 0.0, kMaxPricePerHour);
  offer.price_estimated = f.boolean("price_estimated", false);
  offer.billing_increment = millis_from_seconds(f.number("billing_increment_s", 0.001, 86400.0));
  offer.billing_minimum = millis_from_seconds(f.number("billing_minimum_s", 0.0, 86400.0));
  offer.startup = millis_from_seconds(f.number("startup_s", 0.0, 86400.0));
  if (!f.has("startup_billed")) f.fail("startup_billed", "true or false: whether the service bills the start-up");
  offer.startup_billed = f.boolean("startup_billed", true);
  if (const auto hours = f.optional_number("max_wait_hours", 0.001, 1e5)) offer.max_wait = millis_from_hours(*hours);
  read_preemption_fields(f, offer, gpu_offers);
  offer.diy_instance_type = f.string("diy_instance_type");
  check_diy_offer(f, offer, gpu_offers);
  offer.date = f.string("date");
  offer.source = f.string("source");
  offer.notes = f.optional_string("notes");
  return offer;
}

}  // namespace

std::string to_string(ManagedMode mode) { return mode == ManagedMode::kSpot ? "spot" : "on-demand"; }

std::string ManagedOffer::label() const { return service + " " + to_string(mode) + " " + region + " " + instance_type; }

ManagedOfferCatalogue read_managed_offer_catalogue(const std::string& path, const GpuOfferCatalogue& gpu_offers) {
  const nlohmann::json document = read_json_file(path);
  const JsonFields top(document, path, "");
  top.reject_unknown({"format", "version", "description", "offers"});
  if (top.string("format") != "spotsim-managed-training") {
    top.fail_value("format", "\"spotsim-managed-training\"", top.raw("format"));
  }
  top.integer("version", kManagedCatalogueVersion, kManagedCatalogueVersion);
  ManagedOfferCatalogue catalogue;
  catalogue.path = path;
  catalogue.description = top.optional_string("description");
  catalogue.offers = read_catalogue_rows<ManagedOffer>(top, "service, mode, region and instance type",
                                                       [&](const JsonFields& f) { return read_offer(f, gpu_offers); });
  return catalogue;
}

std::string locate_managed_offer_catalogue(const std::string& name_or_path) {
  return locate_shipped_catalogue(name_or_path, "--managed-catalogue");
}

}  // namespace spotsim
